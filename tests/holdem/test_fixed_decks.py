"""Full hands through the services with a fixed deck, for every preset and structure."""

import pytest

from casino.accounts.models import LedgerEntry, LedgerKind
from holdem import engine
from holdem.engine.cards import new_deck
from holdem.history.stored_hand import replay_record
from holdem.models import HandRecord, Seat
from holdem.services import hand_start as hand_service
from holdem.services import table_act, table_leave
from tests.holdem.conftest import chips_everywhere, current

pytestmark = pytest.mark.django_db


def rigged(holes_in_deal_order: list[list[str]], board: list[str]) -> list[str]:
    """A deck dealing these hole cards (seats clockwise from left of the button) and this board."""
    players = len(holes_in_deal_order)
    hole_cards = [h[0] for h in holes_in_deal_order] + [h[1] for h in holes_in_deal_order]
    used = set(hole_cards) | set(board)
    spare = [c for c in new_deck() if c not in used]
    return [
        *hole_cards,
        spare[0],
        *board[:3],
        spare[1],
        board[3],
        spare[2],
        board[4],
        *spare[3 : 52 - 2 * players - 8],
    ]


@pytest.fixture
def fixed_deck(monkeypatch):
    def use(deck):
        monkeypatch.setattr(hand_service, "hand_deck", lambda: list(deck))

    return use


@pytest.mark.parametrize("preset", ["classic", "nl50", "pl50", "fl20"])
def test_a_heads_up_hand_to_showdown_pays_the_best_hand_in_every_preset(
    preset, seated, clock, fixed_deck, monkeypatch
):
    # Put the button on seat 0: heads-up seat 0 posts the small blind; seat 1 is dealt first.
    monkeypatch.setattr("holdem.services.game_kinds.next_button", lambda previous, dealt, rng: 0)
    buy_in = None if preset == "classic" else 3_000
    table, users = seated(preset, seats=(0, 1), buy_in=buy_in)
    fixed_deck(rigged([["7c", "2d"], ["Ah", "Ad"]], ["As", "Kd", "9h", "4c", "3s"]))
    clock.advance(31)
    state = current(table)
    assert (
        state.button == 0 and state.small_blind_seat == 0 and state.player(0).hole == ("Ah", "Ad")
    )
    while (state := current(table)) is not None:
        legal_seat = state.to_act

        legal = engine.legal_actions(state)
        table_act(
            table_id=table.pk,
            user=users[legal_seat],
            action="check" if "check" in legal.actions else "call",
        )
    record = HandRecord.objects.get(table=table)
    assert record.result["pots"][0]["winners"] == [0]  # three aces beat seven high
    assert record.result["best"]["0"]["category"] == "three of a kind"
    stacks = {s.number: s.stack for s in Seat.objects.filter(table=table)}
    start = record.players[0]["stack_before"]
    blind = record.options["big_blind"]
    assert stacks[0] == start + blind and stacks[1] == start - blind
    # The stored hand replays through the engine to the same result.
    final, _ = replay_record(record)
    assert dict(final.result.final_stacks) == {p["seat"]: p["stack_after"] for p in record.players}
    # Standing up returns the chips through the ledger.
    returned = table_leave(table_id=table.pk, user=users[0])
    assert LedgerEntry.objects.filter(user=users[0]).first().kind == LedgerKind.CASH_OUT
    assert returned == stacks[0]
    chips_everywhere()


def test_a_three_way_all_in_makes_side_pots_paid_to_the_right_seats(
    seated, clock, fixed_deck, monkeypatch
):
    monkeypatch.setattr("holdem.services.game_kinds.next_button", lambda previous, dealt, rng: 0)
    table, users = seated("nl50", seats=(0, 1, 2), stacks=[2_000, 4_000, 6_000])
    # Deal order starts left of the button: seat 1, seat 2, seat 0.
    fixed_deck(rigged([["Kc", "Kd"], ["2c", "7d"], ["Ac", "Ad"]], ["Ah", "Kh", "8s", "4d", "3c"]))
    clock.advance(31)

    while (state := current(table)) is not None:
        legal = engine.legal_actions(state)
        table_act(
            table_id=table.pk,
            user=users[legal.seat],
            action="all_in" if "all_in" in legal.actions else "call",
        )
    record = HandRecord.objects.get(table=table)
    pots = record.result["pots"]
    assert [p["amount"] for p in pots] == [
        6_000,
        4_000,
    ]  # main 3 x 2,000; side 2 x 2,000; 2,000 returned
    assert pots[0]["winners"] == [0] and pots[1]["winners"] == [
        1
    ]  # aces full... the short stack wins the main
    stacks = {s.number: s.stack for s in Seat.objects.filter(table=table)}
    assert stacks == {0: 6_000, 1: 4_000, 2: 2_000}
    chips_everywhere()
