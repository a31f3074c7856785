"""Buy-in limits, breaks and self-exclusions at the tables (rules.md 11): each limit meets the
chips where they leave the wallet (a sit-down, a top-up, a tournament entry) with the reset time
in words and nothing changed; a lower limit applies at once, a higher one after 24 hours; a break
refuses play, cannot be ended early, and takes the player from their seat with every chip kept."""

from datetime import UTC, datetime, timedelta

import pytest

from casino.accounts.exclusions import exclusion_take
from casino.accounts.limits import buy_in_limit_set, buy_in_limits_for, net_buy_ins
from casino.accounts.models import BuyInLimit, Exclusion, LedgerEntry, LedgerKind
from casino.accounts.preferences import preferences_for
from casino.accounts.reminders import session_reminder_set
from casino.accounts.selectors import wallet_balance
from casino.accounts.services import wallet_adjust
from casino.errors import DomainError
from holdem.models import Seat, SitGoTemplate, Table, WaitingEntry
from holdem.selectors.play_session import play_session_of
from holdem.services import (
    table_leave,
    table_leave_after_hand,
    table_sit,
    table_top_up,
    wallet_refill,
)
from holdem.services.breaks import play_exclusion_take
from holdem.services.tournaments import sit_and_go_open, tournament_register
from holdem.services.waiting import waiting_join
from tests.holdem.conftest import chips_everywhere, current, play_out

pytestmark = pytest.mark.django_db

# A Wednesday: the day ends at 00:00 on 10 Dec, the week on Monday 14 Dec, the month on 1 Jan.
WEDNESDAY = datetime(2026, 12, 9, 10, 0, tzinfo=UTC)


@pytest.fixture
def wednesday(clock):
    clock.now = WEDNESDAY
    return clock


def refused(call, code):
    with pytest.raises(DomainError) as caught:
        call()
    assert caught.value.code == code, caught.value.message
    return caught.value


def books(user, table=None):
    """What a refused call must leave as it was."""
    seat = Seat.objects.filter(user=user).first()
    return (
        wallet_balance(user=user),
        LedgerEntry.objects.filter(user=user).count(),
        seat.stack if seat else None,
        Table.objects.get(pk=table.pk).seq if table else None,
    )


def test_a_top_up_over_the_daily_limit_is_refused_with_what_is_left_and_when(
    room, make_player, wednesday
):
    """rules.md 11: the refusal says the limit, what it leaves and when it resets."""
    table = room("nl50")
    alice = make_player()
    buy_in_limit_set(user=alice, period="day", amount=5_000)
    table_sit(table_id=table.pk, user=alice, seat=0, buy_in=3_800)
    before = books(alice, table)
    error = refused(
        lambda: table_top_up(table_id=table.pk, user=alice, amount=2_000), "buy_in_limit"
    )
    assert error.message == (
        "your daily buy-in limit of 5,000 chips leaves 1,200 chips until 00:00 UTC on 10 Dec"
    )
    assert books(alice, table) == before
    # What is left is still allowed, and then nothing is.
    table_top_up(table_id=table.pk, user=alice, amount=1_200)
    error = refused(lambda: table_top_up(table_id=table.pk, user=alice, amount=1), "buy_in_limit")
    assert error.message.endswith("is used up until 00:00 UTC on 10 Dec")
    chips_everywhere()


def test_a_sit_down_over_the_limit_is_refused_and_takes_no_seat(room, make_player, wednesday):
    table = room("nl50")
    alice = make_player()
    buy_in_limit_set(user=alice, period="week", amount=3_000)
    before = books(alice, table)
    error = refused(
        lambda: table_sit(table_id=table.pk, user=alice, seat=0, buy_in=5_000), "buy_in_limit"
    )
    assert "weekly buy-in limit of 3,000 chips leaves 3,000 chips until 00:00 UTC on 14 Dec" in (
        error.message
    )
    assert not Seat.objects.filter(user=alice).exists()
    assert books(alice, table) == before
    table_sit(table_id=table.pk, user=alice, seat=0, buy_in=3_000)
    chips_everywhere()


def test_a_tournament_entry_counts_its_buy_in_and_fee(make_player, wednesday):
    template = SitGoTemplate.objects.create(name="Limit test", seats=3, buy_in=1_000, fee=100)
    tournament = sit_and_go_open(template)
    alice = make_player()
    buy_in_limit_set(user=alice, period="month", amount=1_050)
    before = books(alice)
    error = refused(
        lambda: tournament_register(tournament_id=tournament.pk, user=alice), "buy_in_limit"
    )
    assert "monthly buy-in limit of 1,050 chips" in error.message
    assert "00:00 UTC on 1 Jan 2027" in error.message  # next year: the year is said
    assert not tournament.entries.exists()
    assert books(alice) == before
    buy_in_limit_set(user=alice, period="month", amount=1_000)  # lower: at once
    refused(lambda: tournament_register(tournament_id=tournament.pk, user=alice), "buy_in_limit")
    chips_everywhere()


def test_the_tightest_limit_is_named(room, make_player, wednesday):
    table = room("nl50")
    alice = make_player()
    buy_in_limit_set(user=alice, period="day", amount=9_000)
    buy_in_limit_set(user=alice, period="week", amount=2_500)
    error = refused(
        lambda: table_sit(table_id=table.pk, user=alice, seat=0, buy_in=3_000), "buy_in_limit"
    )
    assert error.message.startswith("your weekly buy-in limit of 2,500 chips leaves 2,500")


def test_chips_back_from_play_count_against_the_chips_put_in(room, make_player, wednesday):
    """rules.md 11: the limit is on net buy-ins: a cash-out gives the room back."""
    table = room("nl50")
    alice = make_player()
    buy_in_limit_set(user=alice, period="day", amount=5_000)
    table_sit(table_id=table.pk, user=alice, seat=0, buy_in=5_000)
    table_leave(table_id=table.pk, user=alice)
    assert net_buy_ins(user_id=alice.pk, periods=["day"], now=WEDNESDAY)["day"] == 0
    table_sit(table_id=table.pk, user=alice, seat=0, buy_in=5_000)
    # Free chips and a staff adjustment are no play: they do not count.
    wallet_adjust(user=alice, amount=1_000, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="test")
    assert net_buy_ins(user_id=alice.pk, periods=["day"], now=WEDNESDAY)["day"] == 5_000
    chips_everywhere()


def test_a_new_day_starts_the_daily_count_again(room, make_player, wednesday):
    table = room("nl50")
    alice = make_player()
    buy_in_limit_set(user=alice, period="day", amount=3_000)
    table_sit(table_id=table.pk, user=alice, seat=0, buy_in=3_000)
    refused(lambda: table_top_up(table_id=table.pk, user=alice, amount=500), "buy_in_limit")
    wednesday.now = datetime(2026, 12, 9, 23, 59, 59, tzinfo=UTC)
    refused(lambda: table_top_up(table_id=table.pk, user=alice, amount=500), "buy_in_limit")
    wednesday.now = datetime(2026, 12, 10, 0, 0, tzinfo=UTC)
    assert table_top_up(table_id=table.pk, user=alice, amount=500) == 3_500
    chips_everywhere()


def test_a_raise_waits_24_hours_and_a_lowering_applies_at_once(room, make_player, wednesday):
    table = room("nl50")
    alice = make_player()
    buy_in_limit_set(user=alice, period="week", amount=2_000)
    row = buy_in_limit_set(user=alice, period="week", amount=8_000)
    assert (row.amount, row.pending_amount) == (2_000, 8_000)
    assert row.pending_from == WEDNESDAY + timedelta(hours=24)
    # Asking again does not restart the 24 hours, nor shorten them.
    error = refused(lambda: buy_in_limit_set(user=alice, period="week", amount=8_000), "unchanged")
    assert "already waiting: it applies at 10:00 UTC on 10 Dec" in error.message
    wednesday.now = WEDNESDAY + timedelta(hours=23, minutes=59)
    refused(lambda: table_sit(table_id=table.pk, user=alice, seat=0, buy_in=5_000), "buy_in_limit")
    [week] = [u for u in buy_in_limits_for(user=alice) if u.period == "week"]
    assert (week.limit, week.pending_amount) == (2_000, 8_000)
    wednesday.now = WEDNESDAY + timedelta(hours=24)
    table_sit(table_id=table.pk, user=alice, seat=0, buy_in=5_000)
    # Lower: at once, whatever was used.
    buy_in_limit_set(user=alice, period="week", amount=5_000)
    refused(lambda: table_top_up(table_id=table.pk, user=alice, amount=1), "buy_in_limit")
    chips_everywhere()


def test_a_lowering_drops_a_raise_waiting_and_removing_a_limit_waits_too(make_player, wednesday):
    alice = make_player()
    buy_in_limit_set(user=alice, period="day", amount=1_000)
    buy_in_limit_set(user=alice, period="day", amount=4_000)
    row = buy_in_limit_set(user=alice, period="day", amount=800)
    assert (row.amount, row.pending_amount, row.pending_from) == (800, None, None)
    # Asking for the limit in force withdraws a raise waiting.
    buy_in_limit_set(user=alice, period="day", amount=5_000)
    row = buy_in_limit_set(user=alice, period="day", amount=800)
    assert row.pending_from is None
    row = buy_in_limit_set(user=alice, period="day", amount=None)
    assert (row.amount, row.pending_amount) == (800, None)
    assert row.pending_from == WEDNESDAY + timedelta(hours=24)
    wednesday.now += timedelta(hours=24)
    [day] = [u for u in buy_in_limits_for(user=alice) if u.period == "day"]
    assert (day.limit, day.pending_from) == (None, None)
    refused(lambda: buy_in_limit_set(user=alice, period="day", amount=None), "unchanged")


@pytest.mark.parametrize(
    ("period", "amount", "code"),
    [
        ("day", -1, "bad_amount"),
        ("day", 10**12 + 1, "bad_amount"),
        ("day", 12.5, "bad_amount"),
        ("day", True, "bad_amount"),
        ("year", 1_000, "bad_period"),
        ("", 1_000, "bad_period"),
    ],
)
def test_a_bad_limit_is_refused_and_changes_nothing(make_player, period, amount, code):
    alice = make_player()
    buy_in_limit_set(user=alice, period="week", amount=5_000)
    before = list(BuyInLimit.objects.filter(user=alice).values())
    error = refused(lambda: buy_in_limit_set(user=alice, period=period, amount=amount), code)
    assert error.message
    assert list(BuyInLimit.objects.filter(user=alice).values()) == before


def test_an_automatic_top_up_meets_the_limit_in_the_service(room, make_player, wednesday):
    """The check is in table_top_up, the one path every top-up takes (chosen or automatic)."""
    table = room("nl50")
    alice = make_player()
    table_sit(table_id=table.pk, user=alice, seat=0, buy_in=2_000)
    buy_in_limit_set(user=alice, period="day", amount=2_000)
    refused(lambda: table_top_up(table_id=table.pk, user=alice, amount=100), "buy_in_limit")


# ----- breaks and self-exclusions -----


def test_on_a_break_a_player_may_not_sit_register_wait_or_claim_and_nothing_changes(
    room, seated, make_player, wednesday
):
    table = room("nl50")
    full, _ = seated("nl50", seats=range(9))
    alice = make_player()
    wallet_adjust(user=alice, amount=-10_000, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="broke")
    play_exclusion_take(user=alice, kind="break", length="7d")
    template = SitGoTemplate.objects.create(name="Break test", seats=2, buy_in=100, fee=0)
    tournament = sit_and_go_open(template)
    before = books(alice)
    for call in (
        lambda: table_sit(table_id=table.pk, user=alice, seat=0, buy_in=2_000),
        lambda: tournament_register(tournament_id=tournament.pk, user=alice),
        lambda: wallet_refill(user=alice),
        lambda: waiting_join(table_id=full.pk, user=alice),
    ):
        error = refused(call, "excluded")
        assert error.message == "You took a break until 16 Dec 2026, 10:00 UTC"
    assert books(alice) == before
    assert not Seat.objects.filter(user=alice).exists()
    assert not tournament.entries.exists()
    assert not WaitingEntry.objects.filter(user=alice).exists()
    # Once it has ended, play is open again.
    wednesday.now = WEDNESDAY + timedelta(days=7)
    wallet_refill(user=alice)
    table_sit(table_id=table.pk, user=alice, seat=0, buy_in=2_000)
    chips_everywhere()


def test_a_break_cannot_be_shortened_lifted_or_taken_again(make_player, wednesday):
    alice = make_player()
    exclusion = exclusion_take(user=alice, kind="self_exclusion", length="6m")
    assert exclusion.until == datetime(2027, 6, 9, 10, 0, tzinfo=UTC)
    error = refused(
        lambda: exclusion_take(user=alice, kind="break", length="24h"), "already_excluded"
    )
    assert error.message == (
        "You excluded yourself from play until 9 Jun 2027, 10:00 UTC; it cannot be changed"
    )
    with pytest.raises(TypeError):
        exclusion.save()
    with pytest.raises(TypeError):
        Exclusion.objects.filter(user=alice).update(until=WEDNESDAY)
    with pytest.raises(TypeError):
        Exclusion.objects.filter(user=alice).delete()
    assert Exclusion.objects.get(user=alice).until == datetime(2027, 6, 9, 10, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("kind", "length", "code"),
    [
        ("break", "6m", "bad_length"),
        ("break", "", "bad_length"),
        ("self_exclusion", "7d", "bad_length"),
        ("holiday", "24h", "bad_kind"),
    ],
)
def test_a_bad_break_is_refused_and_changes_nothing(make_player, kind, length, code):
    alice = make_player()
    epoch = alice.session_epoch
    refused(lambda: play_exclusion_take(user=alice, kind=kind, length=length), code)
    alice.refresh_from_db()
    assert not Exclusion.objects.filter(user=alice).exists()
    assert alice.session_epoch == epoch


@pytest.mark.parametrize(
    ("length", "until"),
    [
        ("24h", datetime(2026, 12, 10, 10, 0, tzinfo=UTC)),
        ("30d", datetime(2027, 1, 8, 10, 0, tzinfo=UTC)),
        ("1y", datetime(2027, 12, 9, 10, 0, tzinfo=UTC)),
        ("5y", datetime(2031, 12, 9, 10, 0, tzinfo=UTC)),
    ],
)
def test_each_length_ends_when_it_says(make_player, wednesday, length, until):
    kind = "break" if length in ("24h", "30d") else "self_exclusion"
    assert exclusion_take(user=make_player(), kind=kind, length=length).until == until


def test_a_break_between_hands_leaves_the_table_with_the_chips(seated, wednesday):
    table, users = seated("nl50", seats=(0, 1, 2), buy_in=4_000)
    alice = users[0]
    wallet = wallet_balance(user=alice)
    play_exclusion_take(user=alice, kind="break", length="24h")
    assert not Seat.objects.filter(user=alice).exists()
    assert wallet_balance(user=alice) == wallet + 4_000
    line = LedgerEntry.objects.filter(user=alice).first()
    assert (line.kind, line.reason) == (
        LedgerKind.CASH_OUT,
        f"Took a break: cash-out from {table.name}",
    )
    chips_everywhere()


def test_a_break_mid_hand_sits_out_and_leaves_when_the_hand_ends(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2), buy_in=4_000)
    clock.advance(31)
    assert current(table) is not None
    alice = users[0]
    play_exclusion_take(user=alice, kind="break", length="24h")
    seat = Seat.objects.get(user=alice)
    assert (seat.sitting_out, seat.leave_after_hand) == (True, True)
    play_out(table, users)
    assert not Seat.objects.filter(user=alice).exists()
    assert (
        LedgerEntry.objects.filter(user=alice).first().reason.startswith("Left at the hand's end")
    )
    assert Seat.objects.filter(table=table).count() == 2  # the others play on
    chips_everywhere()


def test_a_break_refunds_a_sit_and_go_not_yet_started(make_player, wednesday):
    template = SitGoTemplate.objects.create(name="Refund test", seats=3, buy_in=1_000, fee=100)
    tournament = sit_and_go_open(template)
    alice = make_player()
    wallet = wallet_balance(user=alice)
    tournament_register(tournament_id=tournament.pk, user=alice)
    play_exclusion_take(user=alice, kind="break", length="24h")
    assert not tournament.entries.exists()
    assert wallet_balance(user=alice) == wallet
    chips_everywhere()


# ----- the play session the reminder tells -----


def test_a_play_session_runs_from_the_first_buy_in_after_30_minutes_away(
    room, make_player, wednesday
):
    """rules.md 11: time played and net chips this session, chips on the table counted."""
    first, second, third = room("nl50"), room("nl50"), room("nl50")
    alice = make_player()
    assert play_session_of(user=alice) is None
    table_sit(table_id=first.pk, user=alice, seat=0, buy_in=3_000)
    wednesday.now += timedelta(minutes=40)
    table_leave(table_id=first.pk, user=alice)
    wednesday.now += timedelta(minutes=10)  # back within 30 minutes: the same session
    table_sit(table_id=second.pk, user=alice, seat=0, buy_in=2_000)
    Seat.objects.filter(user=alice).update(stack=2_500)  # won 500 (as a hand would pay)
    session = play_session_of(user=alice)
    assert session.started_at == WEDNESDAY
    assert (session.played_seconds, session.net, session.seated) == (50 * 60, 500, True)
    Seat.objects.filter(user=alice).update(stack=2_000)
    table_leave(table_id=second.pk, user=alice)
    wednesday.now += timedelta(minutes=29)
    assert play_session_of(user=alice).seated is False
    wednesday.now += timedelta(minutes=1)
    assert play_session_of(user=alice) is None
    table_sit(table_id=third.pk, user=alice, seat=0, buy_in=2_000)
    session = play_session_of(user=alice)
    assert (session.started_at, session.net) == (wednesday.now, 0)


@pytest.mark.parametrize("minutes", [0, 10, 45, -15, True, "15"])
def test_a_reminder_period_not_offered_is_refused(make_player, minutes):
    alice = make_player()
    session_reminder_set(user=alice, minutes=30)
    refused(lambda: session_reminder_set(user=alice, minutes=minutes), "bad_reminder")
    assert preferences_for(alice).session_reminder_minutes == 30
    session_reminder_set(user=alice, minutes=None)
    assert preferences_for(alice).session_reminder_minutes is None


def test_leave_after_the_hand_plays_the_hand_out_then_gives_up_the_seat(seated, clock):
    """RULES.md 2: dealt in, a player who asks to leave (the reminder's Leave table) plays the
    hand out, not sat out, and the seat is given up with its chips as the hand ends."""
    table, users = seated("nl50", seats=(0, 1, 2), buy_in=4_000)
    clock.advance(31)
    assert current(table) is not None
    alice = users[0]
    assert table_leave_after_hand(table_id=table.pk, user=alice) is True
    seat = Seat.objects.get(user=alice)
    assert (seat.in_hand, seat.sitting_out, seat.leave_after_hand) == (True, False, True)
    play_out(table, users)
    assert not Seat.objects.filter(user=alice).exists()
    line = LedgerEntry.objects.filter(user=alice).first()
    assert (line.kind, line.reason) == (
        LedgerKind.CASH_OUT,
        f"Left at the hand's end: cash-out from {table.name}",
    )
    chips_everywhere()


def test_leave_after_the_hand_between_hands_leaves_at_once(seated):
    table, users = seated("nl50", seats=(0, 1), buy_in=4_000)
    wallet = wallet_balance(user=users[0])
    assert table_leave_after_hand(table_id=table.pk, user=users[0]) is False
    assert not Seat.objects.filter(user=users[0]).exists()
    assert wallet_balance(user=users[0]) == wallet + 4_000
    chips_everywhere()


def test_leave_after_the_hand_is_refused_to_a_player_not_seated(seated, make_player):
    table, _users = seated("nl50", seats=(0, 1), buy_in=4_000)
    stranger = make_player()
    with pytest.raises(DomainError) as refused:
        table_leave_after_hand(table_id=table.pk, user=stranger)
    assert refused.value.code == "not_seated"
    assert Seat.objects.filter(table=table).count() == 2
    chips_everywhere()
