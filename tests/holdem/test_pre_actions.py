"""Pre-action boxes: ticked while someone else acts, applied the moment the turn
comes through the same engine checks as a click, lapsing when they no longer fit, seen by their
owner only."""

import pytest

from casino.errors import DomainError
from holdem import engine, preactions
from holdem.models import HandAction, Seat
from holdem.selectors.player_view import viewer_part
from holdem.services import table_act, table_pre_action
from tests.holdem.conftest import chips_everywhere, current

pytestmark = pytest.mark.django_db


def order(table):
    """The seats in the order they act from here: the one to act, then the next ones."""
    state = current(table)
    actor = state.actor
    seats = [p.seat for p in state.players]
    return seats[actor:] + seats[:actor]


def setting(table, user, choice, amount=None):
    table_pre_action(table_id=table.pk, user=user, choice=choice, amount=amount)


def mine(table, user):
    table.refresh_from_db()
    return viewer_part(table, user)["pre_action"]


def test_a_fold_box_folds_at_once_when_the_turn_comes_and_says_where_it_came_from(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2, 3))
    clock.advance(31)
    first, second, third = order(table)[:3]
    setting(table, users[second], "fold")
    assert mine(table, users[second]) == {"value": "fold", "amount": None}
    table_act(table_id=table.pk, user=users[first], action="call")
    state = current(table)
    assert state.to_act == third  # the second player folded without being asked
    folded = next(p for p in state.players if p.seat == second)
    assert folded.folded
    logged = HandAction.objects.filter(hand=table.hand).order_by("index").last()
    assert (logged.seat, logged.action, logged.source) == (second, "fold", "pre_action")
    assert Seat.objects.get(table=table, number=second).pre_action == ""  # used up
    chips_everywhere()


def test_standing_boxes_chain_until_a_player_who_must_decide(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2, 3))
    clock.advance(31)
    first, second, third, fourth = order(table)
    setting(table, users[second], "call_any")
    setting(table, users[third], "call", amount=preactions.owed(current(table), third))
    table_act(table_id=table.pk, user=users[first], action="call")
    state = current(table)
    assert state.to_act == fourth
    called = {p.seat: p.bet for p in state.players}
    assert called[second] == called[third] == called[first] == state.current_bet
    assert mine(table, users[fourth]) is None
    chips_everywhere()


def test_a_call_box_lapses_when_the_amount_changes_and_the_player_decides(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    first, second, _ = order(table)
    to_call = preactions.owed(current(table), second)
    setting(table, users[second], "call", amount=to_call)
    assert mine(table, users[second]) == {"value": "call", "amount": to_call}
    legal = engine.legal_actions(current(table))
    table_act(table_id=table.pk, user=users[first], action="raise", amount=legal.min_to)
    state = current(table)
    assert state.to_act == second  # not called for them: it is more now
    assert mine(table, users[second]) is None
    assert (
        "legal" in viewer_part(table, users[second]) and viewer_part(table, users[second])["legal"]
    )
    chips_everywhere()


def test_a_check_box_lapses_when_a_bet_comes_and_check_fold_folds_to_it(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    # Everybody calls and the big blind checks: the flop, where nobody owes anything.
    while current(table).street == "preflop":
        legal = engine.legal_actions(current(table))
        act = "check" if "check" in legal.actions else "call"
        table_act(table_id=table.pk, user=users[legal.seat], action=act)
    first, second, third = order(table)
    setting(table, users[second], "check")
    setting(table, users[third], "check_fold")
    legal = engine.legal_actions(current(table))
    table_act(table_id=table.pk, user=users[first], action="bet", amount=legal.min_to)
    state = current(table)
    assert state.to_act == second  # the check box lapsed: there is a bet now
    assert mine(table, users[second]) is None
    table_act(table_id=table.pk, user=users[second], action="call")
    state = current(table)
    assert next(p for p in state.players if p.seat == third).folded  # check/fold folded
    chips_everywhere()


def test_a_box_belongs_to_its_round_and_its_hand(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    third = order(table)[2]
    setting(table, users[third], "call_any")
    state = current(table)
    seat = Seat.objects.get(table=table, number=third)
    key = seat.pre_action_round
    assert preactions.live(state, third, "call_any", None, key, table.hands_played)
    assert not preactions.live(state, third, "call_any", None, key, table.hands_played + 1)
    assert not preactions.live(state, third, "call_any", None, "7:flop", table.hands_played)


@pytest.mark.parametrize(
    ("choice", "amount", "code"),
    [
        ("banana", None, "bad_pre_action"),
        ("check", None, "bad_pre_action"),  # there is a big blind to call
        ("call", None, "stale_pre_action"),
        ("call", 1, "stale_pre_action"),
    ],
)
def test_a_box_that_does_not_fit_is_refused_and_changes_nothing(
    seated, clock, choice, amount, code
):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    _, second, _ = order(table)
    table.refresh_from_db()
    before = (table.seq, table.hand_state, table.sent_view)
    with pytest.raises(DomainError) as refused:
        setting(table, users[second], choice, amount)
    assert refused.value.code == code
    table.refresh_from_db()
    assert (table.seq, table.hand_state, table.sent_view) == before
    assert Seat.objects.get(table=table, number=second).pre_action == ""


def test_no_box_on_your_own_turn_nor_without_a_hand(seated, clock, make_player):
    table, users = seated("nl50", seats=(0, 1))
    with pytest.raises(DomainError) as refused:
        setting(table, users[0], "fold")  # no hand yet
    assert refused.value.code == "no_pre_action"
    clock.advance(31)
    first = order(table)[0]
    with pytest.raises(DomainError) as refused:
        setting(table, users[first], "fold")
    assert refused.value.code == "your_turn"
    with pytest.raises(DomainError) as refused:
        setting(table, make_player("watcher"), "fold")
    assert refused.value.code == "no_pre_action"


def test_clearing_a_box_leaves_the_decision_to_the_player(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    first, second, _ = order(table)
    setting(table, users[second], "fold")
    setting(table, users[second], None)
    assert mine(table, users[second]) is None
    table_act(table_id=table.pk, user=users[first], action="call")
    assert current(table).to_act == second
