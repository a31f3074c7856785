"""What staff do about a suspicious pair (docs/integrity.md): freezing an account refuses it a
seat, a Sit & Go, a waiting list and free chips with nothing changed; dropping it from the
leaderboard; the queue in the admin with the hands behind each score; and the room option that
keeps linked accounts from one table."""

import pytest
from django.urls import reverse

from casino.accounts.models import LedgerEntry, TraceKind
from casino.accounts.selectors import FROZEN_MESSAGE, wallet_balance
from casino.accounts.services import (
    account_freeze,
    account_leaderboard_set,
    account_trace_record,
    account_unfreeze,
)
from casino.errors import DomainError
from holdem.models import HandRecord, PairScore, Seat, SitGoTemplate, Table, WaitingEntry
from holdem.selectors.stats import leaderboard
from holdem.services import table_sit, wallet_refill
from holdem.services.integrity import integrity_pairs_score
from holdem.services.tournaments import sit_and_go_open, tournament_register
from holdem.services.waiting import waiting_join
from tests.holdem.conftest import chips_everywhere, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_player):
    user = make_player("staffer")
    user.is_staff = user.is_superuser = True
    user.save()
    return user


def refused(call, code):
    with pytest.raises(DomainError) as caught:
        call()
    assert caught.value.code == code, caught.value.message
    return caught.value


def test_a_frozen_account_may_not_sit_register_wait_or_claim_and_nothing_changes(
    room, make_player, staff
):
    table = room("nl50")
    suspect = make_player()
    account_freeze(user=suspect, reason="dumped chips to a partner", actor=staff)
    template = SitGoTemplate.objects.create(name="Frozen test", seats=2, buy_in=1_000, fee=100)
    tournament = sit_and_go_open(template)
    ledger_before = LedgerEntry.objects.filter(user=suspect).count()
    balance = wallet_balance(user=suspect)

    for call in (
        lambda: table_sit(table_id=table.pk, user=suspect, seat=0, buy_in=2_000),
        lambda: tournament_register(tournament_id=tournament.pk, user=suspect),
        lambda: wallet_refill(user=suspect),
    ):
        error = refused(call, "account_frozen")
        # The player reads that the account is frozen, not the staff's reason.
        assert error.message == FROZEN_MESSAGE
        assert "dumped" not in error.message
    assert not Seat.objects.filter(user=suspect).exists()
    assert not tournament.entries.exists()
    assert wallet_balance(user=suspect) == balance
    assert LedgerEntry.objects.filter(user=suspect).count() == ledger_before
    chips_everywhere()


def test_a_frozen_account_may_not_join_a_waiting_list(seated, make_player, staff):
    table, _ = seated("nl50", seats=range(9))
    suspect = make_player()
    account_freeze(user=suspect, reason="collusion", actor=staff)
    refused(lambda: waiting_join(table_id=table.pk, user=suspect), "account_frozen")
    assert not WaitingEntry.objects.filter(user=suspect).exists()


def test_unfreezing_lets_the_player_sit_again(room, make_player, staff):
    table = room("nl50")
    suspect = make_player()
    account_freeze(user=suspect, reason="collusion", actor=staff)
    account_unfreeze(user=suspect, actor=staff)
    table_sit(table_id=table.pk, user=suspect, seat=0, buy_in=2_000)
    assert Seat.objects.filter(user=suspect, table=table).exists()


def test_a_freeze_needs_a_reason_and_is_not_done_twice_nor_to_oneself(make_player, staff):
    suspect = make_player()
    refused(lambda: account_freeze(user=suspect, reason="  ", actor=staff), "reason_required")
    suspect.refresh_from_db()
    assert suspect.frozen_at is None
    refused(lambda: account_freeze(user=staff, reason="oops", actor=staff), "own_account")
    account_freeze(user=suspect, reason="farm", actor=staff)
    refused(lambda: account_freeze(user=suspect, reason="again", actor=staff), "already_frozen")
    suspect.refresh_from_db()
    assert (suspect.frozen_reason, suspect.frozen_by) == ("farm", staff)
    refused(lambda: account_unfreeze(user=staff, actor=staff), "not_frozen")


def test_a_frozen_seated_player_plays_out_the_hand_but_cannot_sit_again(seated, clock, staff):
    table, players = seated("nl50", seats=(0, 1))
    clock.advance(31)
    account_freeze(user=players[0], reason="collusion", actor=staff)
    play_out(table, players)  # the hand in play is finished, chips paid where they belong
    chips_everywhere()


def sharing(kind, value, *users):
    for user in users:
        account_trace_record(user=user, kind=kind, value=value)


@pytest.mark.parametrize("kind", [TraceKind.DEVICE, TraceKind.SIGNUP_ADDRESS])
def test_a_linked_account_is_refused_a_seat_where_its_twin_sits(room, make_player, kind):
    table = room("nl50")
    assert table.separate_linked_accounts  # on in the presets
    first, twin = make_player(), make_player()
    sharing(kind, "203.0.113.7", first, twin)
    table_sit(table_id=table.pk, user=first, seat=0, buy_in=2_000)
    balance = wallet_balance(user=twin)
    before = Table.objects.get(pk=table.pk).seq
    error = refused(
        lambda: table_sit(table_id=table.pk, user=twin, seat=1, buy_in=2_000), "linked_account"
    )
    assert first.username not in error.message  # who, and why, is for the staff
    assert not Seat.objects.filter(user=twin).exists()
    assert wallet_balance(user=twin) == balance
    assert Table.objects.get(pk=table.pk).seq == before
    # Another table is fine; so is this one once the twin's partner has gone.
    other = room("nl50")
    table_sit(table_id=other.pk, user=twin, seat=0, buy_in=2_000)
    chips_everywhere()


def test_a_room_with_the_option_off_seats_linked_accounts_together(room, make_player):
    table = room("nl50", separate_linked_accounts=False)
    first, twin = make_player(), make_player()
    sharing(TraceKind.DEVICE, "one-browser", first, twin)
    table_sit(table_id=table.pk, user=first, seat=0, buy_in=2_000)
    table_sit(table_id=table.pk, user=twin, seat=1, buy_in=2_000)
    assert Seat.objects.filter(table=table).count() == 2


def test_unlinked_players_sit_together_whatever_their_other_traces(room, make_player):
    table = room("nl50")
    a, b = make_player(), make_player()
    account_trace_record(user=a, kind=TraceKind.DEVICE, value="browser-a")
    account_trace_record(user=b, kind=TraceKind.DEVICE, value="browser-b")
    table_sit(table_id=table.pk, user=a, seat=0, buy_in=2_000)
    table_sit(table_id=table.pk, user=b, seat=1, buy_in=2_000)


def test_an_account_dropped_from_the_leaderboard_is_left_out_until_restored(seated, clock, staff):
    table, players = seated("nl50", seats=(0, 1))
    clock.advance(31)
    play_out(table, players)
    names = [row.username for row in leaderboard(since=None)]
    winner = next(u for u in players.values() if u.username == names[0])
    account_leaderboard_set(user=winner, shown=False, actor=staff)
    rows = leaderboard(since=None)
    assert winner.username not in [row.username for row in rows]
    assert [row.rank for row in rows] == list(range(1, len(rows) + 1))
    refused(lambda: account_leaderboard_set(user=winner, shown=False, actor=staff), "unchanged")
    account_leaderboard_set(user=winner, shown=True, actor=staff)
    assert [row.username for row in leaderboard(since=None)] == names


# The admin queue.


@pytest.fixture
def scored_pair(seated, clock, make_player):
    """Two players who played hands together, one of them losing all to the other, scored."""
    table, players = seated("nl50", seats=(0, 1))
    for _ in range(3):
        clock.advance(31)
        play_out(
            table, players, choose=lambda legal: "fold" if "fold" in legal.actions else "check"
        )
    integrity_pairs_score(now=clock.now)
    return PairScore.objects.select_related("source", "target").first(), players


def test_the_queue_lists_pairs_highest_first_with_their_hands_and_accounts(
    admin_client, scored_pair
):
    score, _ = scored_pair
    assert score is not None and score.hand_ids
    page = admin_client.get(reverse("admin:holdem_pairscore_changelist"))
    assert page.status_code == 200
    html = page.content.decode()
    assert score.source.username in html and score.target.username in html
    assert reverse("admin:holdem_handrecord_change", args=[score.hand_ids[0]]) in html
    assert reverse("admin:accounts_user_change", args=[score.source_id]) in html

    detail = admin_client.get(reverse("admin:holdem_pairscore_change", args=[score.pk]))
    html = detail.content.decode()
    for hand_id in score.hand_ids:
        assert reverse("admin:holdem_handrecord_change", args=[hand_id]) in html
    assert reverse("admin:accounts_user_freeze", args=[score.source_id]) in html
    assert reverse("admin:accounts_wallet_move") in html
    # Nothing here may be added, changed or deleted by hand: the scoring job writes it.
    assert admin_client.post(reverse("admin:holdem_pairscore_add")).status_code == 403


def test_the_queue_is_in_descending_order_of_score(admin_client, make_player, clock):
    users = [make_player() for _ in range(4)]
    for total, (a, b) in zip([12.0, 80.0, 40.0], [(0, 1), (2, 3), (1, 2)], strict=True):
        PairScore.objects.create(
            source=users[a],
            target=users[b],
            total=total,
            flow=0,
            folds=0,
            free_chips=0,
            linked=0,
            timing=0,
            net_chips=0,
            hands_together=0,
            computed_at=clock.now,
        )
    html = admin_client.get(reverse("admin:holdem_pairscore_changelist")).content.decode()
    positions = [html.index(f">{users[a].username}<") for a in (2, 1, 0)]
    assert positions == sorted(positions)


def test_the_queue_shows_no_card_of_a_hand_in_play(admin_client, scored_pair, clock):
    score, _ = scored_pair
    table = Seat.objects.get(user=score.source).table
    clock.advance(31)  # a new hand is dealt and not finished
    table.refresh_from_db()
    assert table.hand_id is not None
    held = HandRecord.objects.get(pk=table.hand_id).deck[:4]  # the hole cards dealt
    for url in (
        reverse("admin:holdem_pairscore_changelist"),
        reverse("admin:holdem_pairscore_change", args=[score.pk]),
    ):
        html = admin_client.get(url).content.decode()
        assert not any(f">{card}<" in html or f'"{card}"' in html for card in held)


def test_a_player_without_staff_rights_cannot_see_the_queue(client, make_player, scored_pair):
    client.force_login(make_player())
    response = client.get(reverse("admin:holdem_pairscore_changelist"))
    assert response.status_code == 302 and "login" in response["Location"]
