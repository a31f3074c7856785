"""The hand lifecycle at a table: start, actions, logging, idempotency, timeouts, the end."""

import itertools

import pytest

from casino.errors import DomainError
from holdem.models import HandAction, HandRecord, Seat
from holdem.services import table_act, table_show
from tests.holdem.conftest import chips_everywhere, current, play_out

pytestmark = pytest.mark.django_db

fold_or_check = lambda legal: "check" if "check" in legal.actions else "fold"  # noqa: E731


def test_countdown_end_deals_a_hand_with_blinds_button_and_stored_deck(seated, clock):
    table, _users = seated("nl50", seats=(1, 4, 7))
    assert clock.advance(29) == {
        "hands_started": 0,
        "timeouts": 0,
        "turns_renewed": 0,
        "connections_dropped": 0,
        "mucked": 0,
        "disconnected": 0,
    }
    assert clock.advance(2) == {
        "hands_started": 1,
        "timeouts": 0,
        "turns_renewed": 0,
        "connections_dropped": 0,
        "mucked": 0,
        "disconnected": 0,
    }
    state = current(table)
    assert set(state.seats) == {1, 4, 7}
    assert state.button in (1, 4, 7)  # RULES.md 3: drawn at random among the players
    record = HandRecord.objects.get(table=table)
    assert len(record.deck) == 52 and len(set(record.deck)) == 52
    assert {p["seat"] for p in record.players} == {1, 4, 7}
    assert sum(state.bets.values()) == 150
    assert table.turn_deadline is not None
    chips_everywhere()  # chips in a hand in progress are counted


def test_button_moves_to_the_next_player_dealt_in(seated, clock):
    # RULES.md 3: after each hand the button moves one seat clockwise to the next player dealt in.
    table, users = seated("nl50", seats=(1, 4, 7))
    buttons = []
    for _ in range(4):
        clock.advance(31)
        buttons.append(current(table).button)
        play_out(table, users, choose=fold_or_check)
    order = [1, 4, 7]
    for before, after in itertools.pairwise(buttons):
        assert order.index(after) == (order.index(before) + 1) % 3
    chips_everywhere()


def test_each_action_is_logged_and_a_repeated_action_id_is_applied_once(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    state = current(table)
    actor = state.to_act
    first = table_act(table_id=table.pk, user=users[actor], action="call", action_id="click-1")
    again = table_act(table_id=table.pk, user=users[actor], action="call", action_id="click-1")
    assert first["repeated"] is False and again["repeated"] is True
    log = list(HandAction.objects.filter(hand__table=table))
    assert len(log) == 1 and (log[0].seat, log[0].action, log[0].client_action_id) == (
        actor,
        "call",
        "click-1",
    )
    assert current(table).to_act != actor


@pytest.mark.parametrize(
    "action, amount, code",
    [
        ("raise", 150, "below_min_raise"),
        ("bet", 300, None),
        ("check", None, None),
        ("dance", None, "unknown_action"),
        ("raise", "300", "bad_amount"),
        ("raise", 300.0, "bad_amount"),
        ("raise", True, "bad_amount"),
        ("raise", 10**30, None),
    ],
)
def test_illegal_actions_are_refused_with_a_reason_and_change_nothing(
    seated, clock, action, amount, code
):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    table.refresh_from_db()
    before = (table.hand_state, table.seq, HandAction.objects.count())
    actor = current(table).to_act
    with pytest.raises(DomainError) as refused:
        table_act(table_id=table.pk, user=users[actor], action=action, amount=amount, action_id="x")
    if code:
        assert refused.value.code == code
    assert refused.value.message
    table.refresh_from_db()
    assert (table.hand_state, table.seq, HandAction.objects.count()) == before


def test_acting_out_of_turn_or_without_a_seat_is_refused(seated, make_player, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    state = current(table)
    waiting = next(s for s in state.seats if s != state.to_act)
    with pytest.raises(DomainError, match=f"it is seat {state.to_act}'s turn"):
        table_act(table_id=table.pk, user=users[waiting], action="fold")
    with pytest.raises(DomainError) as refused:
        table_act(table_id=table.pk, user=make_player(), action="fold")
    assert refused.value.code == "not_in_hand"
    assert current(table) == state


def test_turn_timeout_checks_if_free_else_folds(seated, clock):
    # RULES.md 5: when the turn runs out: check if nothing is owed, else fold.
    table, _users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    state = current(table)
    first = state.to_act
    assert clock.advance(59)["timeouts"] == 0
    assert clock.advance(2)["timeouts"] == 1
    after = current(table)
    assert after.player(first).folded  # facing the big blind: fold
    log = HandAction.objects.get(hand__table=table, seat=first)
    assert (log.action, log.source) == ("fold", "timeout")
    # Everyone times out; the big blind may check (nothing owed).
    while current(table) is not None:
        clock.advance(61)
    record = HandRecord.objects.get(table=table)
    assert (
        any(a.action == "check" and a.source == "timeout" for a in record.actions.all())
        or record.result["uncontested"]
    )
    chips_everywhere()


def test_a_late_or_repeated_timeout_is_a_no_op(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    state = current(table)
    table_act(table_id=table.pk, user=users[state.to_act], action="call")
    # The player acted: the deadline moved on, so an old deadline firing changes nothing.
    assert clock.advance(59) == {
        "hands_started": 0,
        "timeouts": 0,
        "turns_renewed": 0,
        "connections_dropped": 0,
        "mucked": 0,
        "disconnected": 0,
    }  # the first deadline has passed
    assert clock.advance(0) == {
        "hands_started": 0,
        "timeouts": 0,
        "turns_renewed": 0,
        "connections_dropped": 0,
        "mucked": 0,
        "disconnected": 0,
    }  # and firing again changes nothing
    assert clock.advance(2)["timeouts"] == 1  # the next player's own 60 seconds ran out


def test_the_end_pays_the_seats_keeps_the_record_and_starts_the_next_countdown(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2), buy_in=3_000)
    clock.advance(31)
    play_out(table, users)
    table.refresh_from_db()
    record = HandRecord.objects.get(table=table)
    assert record.ended_at is not None and record.result["pots"]
    stacks = {s.number: s.stack for s in Seat.objects.filter(table=table)}
    for player in record.players:
        if player["seat"] in stacks:
            assert stacks[player["seat"]] == player["stack_after"]
    assert sum(p["stack_after"] for p in record.players) + record.rake == 9_000
    if len(stacks) >= 2:
        assert table.next_hand_at is not None
    assert table.last_hand_id == record.pk and not table.in_hand
    chips_everywhere()


def test_rake_is_recorded_and_audited(seated, clock):
    table, users = seated("nl50", seats=(0, 1), rake_percent=5, rake_cap=40)
    clock.advance(31)
    play_out(table, users, choose=lambda legal: "call" if "call" in legal.actions else "check")
    table.refresh_from_db()
    record = HandRecord.objects.get(table=table)
    assert record.rake == table.rake_collected == 10  # 5% of a 200 pot that saw a flop
    audit = chips_everywhere()
    assert audit.rake == 10


def test_dynamic_blinds_come_from_the_smallest_stack_dealt_in(seated, clock):
    # RULES.md 3: big blind = 10% of the smallest stack, rounded down to even; small = half.
    table, _users = seated("classic", seats=(0, 1, 2), stacks=[5_000, 1_234, 9_000])
    clock.advance(31)
    state = current(table)
    assert (state.options.small_blind, state.options.big_blind) == (61, 122)


def test_winner_of_an_uncontested_hand_may_show(seated, clock):
    # RULES.md 4: a player who wins uncontested may choose to show.
    table, users = seated("nl50", seats=(0, 1))
    clock.advance(31)
    state = current(table)
    folder = state.to_act
    winner = next(s for s in state.seats if s != folder)
    table_act(table_id=table.pk, user=users[folder], action="fold")
    with pytest.raises(DomainError):
        table_show(table_id=table.pk, user=users[folder])
    table_show(table_id=table.pk, user=users[winner])
    record = HandRecord.objects.get(table=table)
    assert list(record.shown) == [str(winner)]
    assert record.shown[str(winner)] == list(state.player(winner).hole)


def test_a_disconnected_player_is_removed_at_the_end_in_check_fold_rooms(seated, clock, sockets):
    # RULES.md 5 check_fold: still disconnected when the game ends -> removed, chips back.
    table, users = seated("nl50", seats=(0, 1, 2))
    tabs = {number: sockets.open(table, user) for number, user in users.items()}
    clock.advance(31)
    sockets.close(tabs[2], table, users[2])
    clock.advance(21)  # RULES.md 5: the grace period passes
    assert current(table).player(2).folded is False  # stays in the hand
    play_out(table, users, choose=fold_or_check)
    assert not Seat.objects.filter(user=users[2]).exists()
    chips_everywhere()


def test_all_in_protection_twice_a_day_then_fold(seated, clock, sockets):
    # RULES.md 5 all_in_protection: at most 2 protections per 24 hours, then folded.
    table, users = seated("fl20", seats=(0, 1, 2), buy_in=1_000)
    outcomes = []
    for _ in range(3):
        tabs = {number: sockets.open(table, user) for number, user in users.items()}
        clock.advance(31)
        victim = 2
        sockets.close(tabs[victim], table, users[victim])
        clock.advance(21)  # RULES.md 5: the grace period passes
        after = current(table)
        outcomes.append("protected" if after and after.player(victim).protected else "folded")
        if after is not None:
            play_out(table, users, choose=fold_or_check)
        seat = Seat.objects.get(user=users[victim])
        Seat.objects.filter(pk=seat.pk).update(sitting_out=False, disconnected=False)
    assert outcomes == ["protected", "protected", "folded"]
    chips_everywhere()


def test_many_random_hands_conserve_chips(seated, clock):
    import random

    table, users = seated(
        "nl50", seats=(0, 2, 3, 5, 8), stacks=[2_000, 3_500, 10_000, 2_100, 9_999]
    )
    rng = random.Random(11)

    def mostly_calm(legal):  # all-ins end the session early: make them rare
        calm = [a for a in legal.actions if a != "all_in"] or list(legal.actions)
        return rng.choice(legal.actions if rng.random() < 0.05 else calm)

    for _ in range(15):
        clock.advance(31)
        if current(table) is None:
            break
        play_out(table, users, rng=rng, choose=mostly_calm)
        chips_everywhere()
    assert HandRecord.objects.filter(table=table).count() >= 2


def test_an_action_for_a_turn_that_is_over_is_refused_not_moved_to_the_next_turn(seated, clock):
    table, users = seated("nl50", seats=(0, 1))
    clock.advance(31)
    table.refresh_from_db()
    token = table.turn_token
    actor = current(table).to_act
    table_act(table_id=table.pk, user=users[actor], action="call", turn_token=token)
    table.refresh_from_db()
    state, seq = table.hand_state, table.seq
    other = current(table).to_act
    with pytest.raises(DomainError) as refused:
        table_act(table_id=table.pk, user=users[other], action="check", turn_token=token)
    assert refused.value.code == "stale_turn"
    table.refresh_from_db()
    assert (table.hand_state, table.seq) == (state, seq)
    table_act(table_id=table.pk, user=users[other], action="check", turn_token=table.turn_token)
