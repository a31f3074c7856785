"""The accounts' side of integrity (docs/integrity.md): the device cookie and the sign-up address
that link accounts, kept only as keyed hashes; staff moving chips back through the ledger; the
freeze and the leaderboard pages of the user admin."""

import io

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from casino.accounts.models import AccountTrace, LedgerEntry, LedgerKind, TraceKind, User
from casino.accounts.selectors import linked_user_ids, wallet_balance
from casino.accounts.services import chips_move, wallet_adjust
from casino.errors import DomainError
from casino.middleware import DEVICE_COOKIE
from holdem.selectors.audit import audit_chips
from holdem.services import room_create, table_sit

pytestmark = pytest.mark.django_db


def sign_up(client, username, address="198.51.100.23"):
    return client.post(
        reverse("signup"),
        {
            "username": username,
            "email": "",
            "password1": "river-card-42x",
            "password2": "river-card-42x",
        },
        REMOTE_ADDR=address,
    )


def test_a_first_visit_gets_a_long_random_http_only_device_cookie_once(client):
    first = client.get(reverse("home"))
    cookie = first.cookies[DEVICE_COOKIE]
    assert len(cookie.value) >= 43 and cookie["httponly"] and cookie["samesite"] == "Lax"
    again = client.get(reverse("home"))
    assert DEVICE_COOKIE not in again.cookies  # kept, not replaced
    other = Client().get(reverse("home")).cookies[DEVICE_COOKIE].value
    assert other != cookie.value


def test_a_forged_or_malformed_device_cookie_is_replaced(client):
    client.cookies[DEVICE_COOKIE] = "short"
    assert client.get(reverse("home")).cookies[DEVICE_COOKIE].value != "short"


def test_sign_up_records_the_address_and_the_device_as_hashes_only(client):
    client.get(reverse("home"))
    device = client.cookies[DEVICE_COOKIE].value
    assert sign_up(client, "first").status_code == 302
    user = User.objects.get(username="first")
    traces = {t.kind: t for t in AccountTrace.objects.filter(user=user)}
    assert set(traces) == {TraceKind.SIGNUP_ADDRESS, TraceKind.DEVICE}
    for trace in traces.values():
        assert "198.51.100.23" not in trace.value_hash and device not in trace.value_hash
        assert len(trace.value_hash) == 64


def test_two_accounts_from_one_browser_or_one_address_are_linked(client, make_player):
    sign_up(client, "first")
    client.post(reverse("logout"))
    sign_up(client, "second", address="192.0.2.1")  # same browser, another address
    elsewhere = Client()
    sign_up(elsewhere, "third")  # another browser, the first's address
    sign_up(Client(), "stranger", address="192.0.2.99")
    first, second, third, stranger = (
        User.objects.get(username=n) for n in ("first", "second", "third", "stranger")
    )
    others = [second.pk, third.pk, stranger.pk]
    assert linked_user_ids(user_id=first.pk, among=others) == {second.pk, third.pk}
    assert linked_user_ids(user_id=stranger.pk, among=[first.pk, second.pk, third.pk]) == set()


@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "10.1.2.3", "172.18.0.1", "100.64.9.9"])
def test_an_address_that_tells_no_players_apart_links_nobody(address, db):
    """The site's own machine, a proxy's or a container network's address, or a carrier's NAT:
    players signing up from one of them are not linked, and may sit at one table (a test
    harness, the compose stack and an office share one)."""
    for name in ("near", "far"):
        sign_up(Client(), name, address=address)
    near, far = (User.objects.get(username=n) for n in ("near", "far"))
    assert not AccountTrace.objects.filter(kind=TraceKind.SIGNUP_ADDRESS).exists()
    assert linked_user_ids(user_id=near.pk, among=[far.pk]) == set()
    table = room_create(name="Shared address", preset="nl50")
    assert table.separate_linked_accounts
    table_sit(table_id=table.pk, user=near, seat=0, buy_in=2_000)
    table_sit(table_id=table.pk, user=far, seat=1, buy_in=2_000)
    assert table.seat_set.count() == 2


def test_signing_in_from_a_browser_records_it_against_the_account(client, make_player):
    player = make_player("roamer")
    client.get(reverse("home"))
    response = client.post(reverse("login"), {"username": "roamer", "password": "pw-for-tests-123"})
    assert response.status_code == 302
    trace = AccountTrace.objects.get(user=player, kind=TraceKind.DEVICE)
    assert trace.first_seen <= trace.last_seen


# Moving chips back.


@pytest.fixture
def pair(make_player):
    return make_player("dumper"), make_player("partner")


@pytest.fixture
def staffer(make_player):
    user = make_player("staffer")
    user.is_staff = True
    user.save()
    return user


def test_moving_chips_back_writes_two_ledger_lines_with_actor_and_reason(pair, staffer):
    dumper, partner = pair
    taken, given = chips_move(
        from_user=partner,
        to_user=dumper,
        amount=3_000,
        reason="chips dumped in hands 12-40",
        actor=staffer,
        idempotency_key="k1",
    )
    assert (taken.user, taken.amount, taken.kind, taken.actor) == (
        partner,
        -3_000,
        LedgerKind.STAFF_MOVE,
        staffer,
    )
    assert (given.user, given.amount, given.kind, given.actor) == (
        dumper,
        3_000,
        LedgerKind.STAFF_MOVE,
        staffer,
    )
    assert "chips dumped in hands 12-40" in taken.reason and "dumper" in taken.reason
    assert "partner" in given.reason
    assert wallet_balance(user=partner) == 7_000 and wallet_balance(user=dumper) == 13_000
    # Both lines join their wallets' hash chains (docs/fairness.md, section 6).
    out = io.StringIO()
    call_command("verify_chain", stdout=out)
    assert out.getvalue().startswith("history OK"), out.getvalue()
    # The same key again (a form posted twice) moves nothing more.
    chips_move(
        from_user=partner,
        to_user=dumper,
        amount=3_000,
        reason="chips dumped in hands 12-40",
        actor=staffer,
        idempotency_key="k1",
    )
    assert wallet_balance(user=partner) == 7_000
    assert LedgerEntry.objects.filter(kind=LedgerKind.STAFF_MOVE).count() == 2
    audit = audit_chips()
    assert audit.ok, audit.summary()


@pytest.mark.parametrize(
    "change, code",
    [
        ({"reason": "  "}, "reason_required"),
        ({"amount": 10_001}, "insufficient_chips"),
        ({"amount": 0}, "bad_amount"),
        ({"amount": -5}, "bad_amount"),
        ({"to_self": True}, "same_account"),
        ({"idempotency_key": ""}, "key_required"),
    ],
)
def test_a_bad_movement_is_refused_and_moves_nothing(pair, staffer, change, code):
    dumper, partner = pair
    arguments = {
        "from_user": partner,
        "to_user": partner if change.pop("to_self", False) else dumper,
        "amount": 500,
        "reason": "dumping",
        "actor": staffer,
        "idempotency_key": "bad",
        **change,
    }
    entries = LedgerEntry.objects.count()
    with pytest.raises(DomainError) as caught:
        chips_move(**arguments)
    assert caught.value.code == code
    assert LedgerEntry.objects.count() == entries
    assert wallet_balance(user=partner) == 10_000 and wallet_balance(user=dumper) == 10_000


def test_a_key_used_for_another_movement_is_refused_and_moves_nothing(pair, staffer):
    dumper, partner = pair
    chips_move(
        from_user=partner,
        to_user=dumper,
        amount=100,
        reason="x",
        actor=staffer,
        idempotency_key="k",
    )
    with pytest.raises(DomainError) as caught:
        chips_move(
            from_user=partner,
            to_user=dumper,
            amount=200,
            reason="x",
            actor=staffer,
            idempotency_key="k",
        )
    assert caught.value.code == "key_reused"
    assert wallet_balance(user=partner) == 9_900 and wallet_balance(user=dumper) == 10_100


def test_when_the_second_line_is_refused_the_first_is_taken_back_with_it(pair, staffer):
    dumper, partner = pair
    # The receiving line's key already names another movement (of the partner's).
    wallet_adjust(
        user=partner,
        amount=5,
        kind=LedgerKind.ADMIN_ADJUSTMENT,
        reason="unrelated",
        idempotency_key="move:k2:to",
    )
    with pytest.raises(DomainError):
        chips_move(
            from_user=partner,
            to_user=dumper,
            amount=100,
            reason="x",
            actor=staffer,
            idempotency_key="k2",
        )
    assert wallet_balance(user=partner) == 10_005 and wallet_balance(user=dumper) == 10_000
    assert not LedgerEntry.objects.filter(kind=LedgerKind.STAFF_MOVE).exists()


# The admin pages.


def grant(user, *codenames):
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    return User.objects.get(pk=user.pk)


def test_the_move_page_needs_the_chip_permission_and_its_second_factor(
    client, pair, staffer, admin_sign_in
):
    _, partner = pair
    admin_sign_in(grant(staffer, "view_wallet"))
    url = reverse("admin:accounts_wallet_move")
    assert client.get(url).status_code == 403
    data = {"from_username": "partner", "to_username": "dumper", "amount": "10", "reason": "x"}
    assert client.post(url, {**data, "key": "a"}).status_code == 403
    assert wallet_balance(user=partner) == 10_000


def test_the_move_page_moves_chips_once_and_shows_each_refusal_at_its_field(admin_client, pair):
    dumper, partner = pair
    url = reverse("admin:accounts_wallet_move")
    form = admin_client.get(url + "?from=partner&to=dumper").content.decode()
    assert 'value="partner"' in form and 'value="dumper"' in form
    assert "10,000" in form  # both balances, to judge the amount by
    data = {
        "from_username": "partner",
        "to_username": "dumper",
        "amount": "2500",
        "reason": "dumped",
        "key": "move-1",
    }
    assert admin_client.post(url, data).status_code == 302
    assert admin_client.post(url, data).status_code == 302  # posted twice: moved once
    assert wallet_balance(user=partner) == 7_500 and wallet_balance(user=dumper) == 12_500
    for change, field, words in [
        ({"reason": " "}, "reason", "A reason is required"),
        ({"amount": "99999"}, "amount", "negative balance"),
        ({"to_username": "partner"}, "to_username", "two different accounts"),
        ({"to_username": "nobody"}, "to_username", "There is no account"),
        ({"amount": "0"}, "amount", "greater than or equal to 1"),
    ]:
        response = admin_client.post(url, {**data, "key": f"k-{field}-{words}", **change})
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert field in errors and any(words in e for e in errors[field]), errors
    assert wallet_balance(user=partner) == 7_500


def test_freezing_from_the_user_admin_needs_a_reason_and_shows_it_to_staff(admin_client, pair):
    dumper, _ = pair
    url = reverse("admin:accounts_user_freeze", args=[dumper.pk])
    response = admin_client.post(url, {"reason": "  "})
    assert response.status_code == 200 and "A reason is required" in response.content.decode()
    dumper.refresh_from_db()
    assert dumper.frozen_at is None
    assert admin_client.post(url, {"reason": "dumping to partner"}).status_code == 302
    dumper.refresh_from_db()
    assert dumper.frozen_reason == "dumping to partner" and dumper.frozen_by.username == "root"
    history = LogEntry.objects.get(object_id=str(dumper.pk))
    assert history.user.username == "root" and "dumping to partner" in history.change_message
    page = admin_client.get(reverse("admin:accounts_user_change", args=[dumper.pk]))
    html = page.content.decode()
    assert "dumping to partner" in html
    assert reverse("admin:accounts_user_unfreeze", args=[dumper.pk]) in html
    assert (
        admin_client.post(reverse("admin:accounts_user_unfreeze", args=[dumper.pk])).status_code
        == 302
    )
    dumper.refresh_from_db()
    assert dumper.frozen_at is None


def test_the_leaderboard_pages_drop_and_restore_an_account(admin_client, pair):
    dumper, _ = pair
    admin_client.post(reverse("admin:accounts_user_leaderboard_drop", args=[dumper.pk]))
    dumper.refresh_from_db()
    assert dumper.off_leaderboard
    admin_client.post(reverse("admin:accounts_user_leaderboard_restore", args=[dumper.pk]))
    dumper.refresh_from_db()
    assert not dumper.off_leaderboard


def test_staff_who_may_not_change_accounts_cannot_freeze(client, pair, staffer, admin_sign_in):
    dumper, _ = pair
    admin_sign_in(grant(staffer, "view_user"))
    url = reverse("admin:accounts_user_freeze", args=[dumper.pk])
    assert client.post(url, {"reason": "x"}).status_code == 403
    dumper.refresh_from_db()
    assert dumper.frozen_at is None
