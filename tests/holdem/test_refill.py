"""Free chips for broke players (holdem/services/refill.py): who may claim, how often, how much,
and that the books still balance; then the profile's button."""

import threading

import pytest
from django.db import close_old_connections, connection
from django.test import Client
from django.urls import reverse

from casino.accounts.models import LedgerEntry, LedgerKind
from casino.accounts.selectors import wallet_balance
from casino.accounts.services import wallet_adjust
from casino.errors import DomainError
from holdem.models import Table
from holdem.services import room_close, table_sit, wallet_refill
from tests.holdem.conftest import chips_everywhere

pytestmark = pytest.mark.django_db


def drain_to(user, chips: int) -> None:
    """Leave the player's wallet at `chips`, as if they had lost the rest."""
    balance = wallet_balance(user=user)
    if balance != chips:
        wallet_adjust(
            user=user, amount=chips - balance, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="lost"
        )


@pytest.fixture
def rooms(room):
    """Two open rooms, the cheaper one 2,000 to sit down (nl50 and pl50)."""
    return room("nl50"), room("pl50")


def test_a_broke_player_is_topped_up_to_the_starting_chips(rooms, make_player, settings):
    settings.CASINO_STARTING_CHIPS = 10_000
    player = make_player()
    drain_to(player, 1_500)
    entry = wallet_refill(user=player)
    assert (entry.kind, entry.amount, entry.balance_after) == (LedgerKind.REFILL, 8_500, 10_000)
    assert entry.reason == "Free chips: 1,500 held, topped up to 10,000"
    assert entry.get_kind_display() == "Free chips"
    assert wallet_balance(user=player) == 10_000
    # New chips in the system: the audit counts them as brought in (10,000 granted, 8,500
    # taken out by the loss, 8,500 refilled), and every chip is accounted for.
    assert chips_everywhere().granted == 10_000


def test_a_player_who_can_still_buy_in_somewhere_is_refused(rooms, make_player, room):
    player = make_player()
    drain_to(player, 1_500)
    cheap = room("fl20")  # 200 to sit down
    with pytest.raises(DomainError) as refused:
        wallet_refill(user=player)
    assert refused.value.code == "not_broke"
    assert "you hold 1,500 chips" in refused.value.message
    assert "the smallest buy-in is 200" in refused.value.message
    # A closed room is no place to sit: without it the player is broke.
    room_close(table_id=cheap.pk)
    assert wallet_refill(user=player).amount == 8_500


def test_the_chips_on_a_seat_count_with_the_wallet(rooms, make_player):
    nl50, _ = rooms
    player = make_player()
    table_sit(table_id=nl50.pk, user=player, seat=0, buy_in=2_000)
    drain_to(player, 0)
    with pytest.raises(DomainError) as refused:
        wallet_refill(user=player)  # 2,000 on the seat: enough for a seat
    assert refused.value.code == "not_broke"
    # The rooms now ask more than the player holds: broke, and topped up to 10,000 in all.
    Table.objects.update(min_buy_in=5_000)
    entry = wallet_refill(user=player)
    assert entry.amount == 8_000
    assert wallet_balance(user=player) + player.seat.stack == 10_000
    chips_everywhere()


def test_no_free_chips_while_the_player_is_in_a_hand(rooms, make_player, clock):
    nl50, _ = rooms
    first, second = make_player(), make_player()
    table_sit(table_id=nl50.pk, user=first, seat=0, buy_in=10_000)
    table_sit(table_id=nl50.pk, user=second, seat=1, buy_in=2_000)
    clock.advance(31)  # dealt in: the seat shows 0, the chips are in the hand
    with pytest.raises(DomainError) as refused:
        wallet_refill(user=first)
    assert refused.value.code == "in_hand" and nl50.name in refused.value.message
    assert not LedgerEntry.objects.filter(kind=LedgerKind.REFILL).exists()


def test_once_every_24_hours_and_the_refusal_says_how_long_to_wait(rooms, make_player, clock):
    player = make_player()
    drain_to(player, 0)
    wallet_refill(user=player)
    drain_to(player, 0)
    clock.advance(5.5 * 3600)
    with pytest.raises(DomainError) as refused:
        wallet_refill(user=player)
    assert refused.value.code == "refill_too_soon"
    assert "5 h 30 min ago" in refused.value.message
    assert "the next are yours in 18 h 30 min" in refused.value.message
    clock.advance(18.5 * 3600 - 30)
    with pytest.raises(DomainError, match="in 1 min"):
        wallet_refill(user=player)
    clock.advance(30)  # 24 hours to the second
    assert wallet_refill(user=player).amount == 10_000
    assert LedgerEntry.objects.filter(user=player, kind=LedgerKind.REFILL).count() == 2
    chips_everywhere()


def test_a_room_of_dynamic_blinds_does_not_keep_a_player_from_being_broke(make_player, room):
    """Classic seats anyone for 1 chip (its blinds follow the shortest stack): 50 chips there is
    no game. Broke is measured against the fixed-stake rooms; only when none is open, against
    the dynamic room's 2-chip big blind."""
    classic, cheap = room("classic"), room("fl20")  # 1 chip / 200 to sit down
    player = make_player()
    drain_to(player, 50)
    assert wallet_refill(user=player).amount == 9_950
    drain_to(player, 50)
    room_close(table_id=cheap.pk)
    with pytest.raises(DomainError) as refused:
        wallet_refill(user=player)  # Classic alone: 50 chips is a seat there; and too soon
    assert refused.value.code == "not_broke" and "the smallest buy-in is 2" in refused.value.message
    assert classic.blinds == "dynamic"


def test_refused_with_no_room_open_or_no_starting_chips(make_player, room, settings):
    player = make_player()
    drain_to(player, 0)
    with pytest.raises(DomainError) as refused:
        wallet_refill(user=player)
    assert refused.value.code == "no_rooms"
    room("nl50")
    settings.CASINO_STARTING_CHIPS = 0
    with pytest.raises(DomainError) as refused:
        wallet_refill(user=player)
    assert refused.value.code == "refill_off"


def test_a_room_asking_more_than_the_starting_chips_gives_nothing_to_a_richer_player(
    make_player, room
):
    room("nl50", min_buy_in=15_000, max_buy_in=30_000)
    player = make_player()  # 10,000: broke for this room, but a top-up to 10,000 adds nothing
    with pytest.raises(DomainError) as refused:
        wallet_refill(user=player)
    assert refused.value.code == "not_broke" and "up to 10,000" in refused.value.message


@pytest.mark.django_db(transaction=True)
def test_two_tabs_claiming_at_once_get_one_refill(postgres, make_player, room):
    room("nl50")
    player = make_player()
    drain_to(player, 0)
    barrier = threading.Barrier(2)
    results, errors = [], []

    def claim():
        try:
            barrier.wait()
            results.append(wallet_refill(user=player))
        except DomainError as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=claim) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    close_old_connections()
    assert len(results) == 1 and [e.code for e in errors] == ["not_broke"]
    assert wallet_balance(user=player) == 10_000
    chips_everywhere()


def test_the_profile_button_claims_and_shows_the_result(rooms, make_player, client):
    player = make_player()
    client.force_login(player)
    # Not broke: no button, and a claim sent all the same is refused with the reason.
    assert "Claim free chips" not in client.get(reverse("profile")).content.decode()
    page = client.post(reverse("free_chips"), follow=True)
    assert page.redirect_chain == [(reverse("profile"), 302)]
    assert 'class="error">You hold 10,000 chips, enough to buy in' in page.content.decode()

    drain_to(player, 250)
    profile = client.get(reverse("profile")).content.decode()
    form = profile.split(f'action="{reverse("free_chips")}"')[1].split("</form>")[0]
    assert 'method="post"' in profile and "csrfmiddlewaretoken" in form
    assert "Claim free chips" in form
    page = client.post(reverse("free_chips"), follow=True).content.decode()
    assert "9,750 free chips are in your wallet: your balance is 10,000." in page
    assert "Free chips</td>" in page and "+9,750" in page  # the ledger row, formatted

    # A GET changes nothing.
    drain_to(player, 0)
    assert client.get(reverse("free_chips")).status_code == 302
    assert LedgerEntry.objects.filter(user=player, kind=LedgerKind.REFILL).count() == 1


def test_the_button_needs_a_signed_in_player_and_the_csrf_token(rooms, make_player):
    player = make_player()
    drain_to(player, 0)
    anonymous = Client()
    response = anonymous.post(reverse("free_chips"))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    assert strict.post(reverse("free_chips")).status_code == 403
    assert not LedgerEntry.objects.filter(kind=LedgerKind.REFILL).exists()
