"""The history of a Sit & Go hand (RULES.md 8): a stored record with antes and the blinds the
dead button placed is replayed, written as PokerStars writes tournament hands (read back by the
strict parser of tests/holdem/test_pokerstars_parse.py), told in the story and replayed step by
step. The records are made here from hands the engine plays, stored as the table services do."""

from dataclasses import asdict
from datetime import UTC, datetime

import pytest

from holdem import engine
from holdem.engine.cards import new_deck
from holdem.engine.view import result_view
from holdem.history.pokerstars import pokerstars_text, roman
from holdem.history.replayer import hand_replay
from holdem.history.stored_hand import hand_log, replay_record
from holdem.history.story import hand_story
from holdem.models import HandAction, HandRecord
from tests.holdem.test_pokerstars_parse import check_against_the_record, parse

pytestmark = pytest.mark.django_db

STARTED = datetime(2026, 12, 3, 14, 0, 0, tzinfo=UTC)
TOURNAMENT = {"id": 7, "buy_in": 1000, "fee": 100, "level": 7}
LEVEL_VII = engine.HandOptions(small_blind=100, big_blind=200, ante=25)  # RULES.md 8, level 7


def stacked(holes_in_deal_order, board):
    """A deck that deals these hole cards (first card of each, then second) and this board."""
    firsts = [hole[0] for hole in holes_in_deal_order]
    seconds = [hole[1] for hole in holes_in_deal_order]
    named = firsts + seconds + list(board)
    spare = [card for card in new_deck() if card not in named]
    stub = [spare[0], *board[:3], spare[1], board[3], spare[2], board[4]]
    return firsts + seconds + stub + spare[3:]


def stored_hand(table, users, *, options, stacks, button, blinds, deck, moves, tournament):
    """Play the hand through the engine and store it as the table services do: the record, its
    action log, and once over its result."""
    seat_ins = [engine.SeatIn(seat=seat, stack=stack) for seat, stack in stacks.items()]
    state, _ = engine.start_hand(options, seat_ins, button, deck, blinds=blinds)
    record = HandRecord.objects.create(
        table=table,
        number=HandRecord.objects.filter(table=table).count() + 1,
        started_at=STARTED,
        button_seat=button,
        options=asdict(options),
        players=[
            {
                "seat": seat,
                "user_id": users[seat].pk,
                "username": users[seat].username,
                "stack_before": stack,
                "post": "none",
                "auto_muck": True,
            }
            for seat, stack in stacks.items()
        ],
        deck=list(deck),
        blinds=None if blinds is None else list(blinds),
        tournament=tournament,
    )
    for index, (seat, action, to) in enumerate(moves):
        street = state.street
        state, _ = engine.apply_action(state, seat, action, to)
        HandAction.objects.create(
            hand=record,
            index=index,
            seat=seat,
            user=users[seat],
            action=action,
            amount=to,
            street=street,
        )
    assert state.is_over
    result = state.result
    record.ended_at = STARTED
    record.board = list(state.board)
    record.pots = [
        {
            "amount": p.amount,
            "eligible": list(p.eligible),
            "winners": list(p.winners),
            "shares": {str(k): v for k, v in p.shares.items()},
            "rake": p.rake,
        }
        for p in result.pots
    ]
    record.shown = {str(k): list(v) for k, v in result.shown.items()}
    record.rake = result.rake
    record.result = result_view(result)
    record.final_state = engine.state_to_json(state)
    for player in record.players:
        player["stack_after"] = result.final_stacks[player["seat"]]
        player["net"] = result.net[player["seat"]]
    record.save()
    return record


@pytest.fixture
def three_handed(room, make_player):
    """Level VII (100/200, ante 25) at a 6-max tournament table: alice (seat 0) has 20 chips, short
    of the ante; the big blind of the last hand went out, so the small blind is dead and the
    button lies on the empty seat 1 (RULES.md 8). Everyone checks it down: alice's aces win the
    main pot of 60, bob's kings the side pot."""
    table = room("nl50", seats=6)
    users = {0: make_player("alice"), 2: make_player("bob"), 3: make_player("carol")}
    deck = stacked([["Kd", "Kc"], ["Qd", "Qc"], ["As", "Ah"]], ["2s", "7d", "9c", "Jh", "3h"])
    checks = [(seat, "check", None) for _ in range(3) for seat in (2, 3)]
    record = stored_hand(
        table,
        users,
        options=LEVEL_VII,
        stacks={0: 20, 2: 1500, 3: 1500},
        button=1,
        blinds=(None, 3),
        deck=deck,
        moves=[(2, "call", None), (3, "check", None), *checks],
        tournament=TOURNAMENT,
    )
    return record, users


def test_a_stored_tournament_hand_replays_with_its_antes_and_placed_blinds(three_handed):
    """RULES.md 8: the record's blinds and ante give back the hand that was played."""
    record, _ = three_handed
    final, steps = replay_record(record)
    assert final.small_blind_seat is None and final.big_blind_seat == 3
    assert final.result.final_stacks == {0: 60, 2: 1685, 3: 1275}
    assert [p["amount"] for p in record.pots] == [60, 410]
    assert len(steps) == 8
    log = hand_log(record)
    assert [(e["seat"], e["blind"], e["amount"]) for e in log if e["kind"] == "blind_posted"] == [
        (2, "ante", 25),
        (3, "ante", 25),
        (0, "ante", 20),
        (3, "big", 200),
    ]
    assert log[0]["kind"] == "hand_started" and log[0]["ante"] == 25
    assert log[0]["small_blind_seat"] is None


def test_the_pokerstars_text_has_the_tournament_header_and_the_antes(three_handed):
    """RULES.md 8: the header names the tournament, its buy-in and fee and the level in roman
    numerals with the hand's blinds; the table is "T 1"; each ante is a line before the blinds,
    the short one "and is all-in"; a dead small blind has no line."""
    record, users = three_handed
    text = pokerstars_text(record, viewer_id=users[0].pk)
    lines = text.split("\n")
    assert lines[0] == (
        f"PokerStars Hand #{record.pk}: Tournament #7, 1000+100 Hold'em No Limit - Level VII "
        "(100/200) - 2026/12/03 14:00:00 UTC"
    )
    assert lines[1] == "Table '7 1' 6-max Seat #2 is the button"
    assert lines[5:9] == [
        "bob: posts the ante 25",
        "carol: posts the ante 25",
        "alice: posts the ante 20 and is all-in",
        "carol: posts big blind 200",
    ]
    assert "small blind" not in text.split("*** SUMMARY ***")[0]
    assert (
        "alice collected 60 from main pot" in text and "bob collected 410 from side pot-1" in text
    )
    check_against_the_record(record, parse(text))


def test_the_parser_refuses_an_ante_after_the_blinds_or_a_wrong_ante(three_handed):
    """RULES.md 8: antes come before the blinds and are the level's ante or all a stack had."""
    record, _ = three_handed
    text = pokerstars_text(record)
    moved = text.replace("alice: posts the ante 20 and is all-in\n", "").replace(
        "carol: posts big blind 200\n",
        "carol: posts big blind 200\nalice: posts the ante 20 and is all-in\n",
    )
    with pytest.raises(AssertionError):
        parse(moved)
    with pytest.raises(AssertionError):
        check_against_the_record(record, parse(text.replace("ante 25", "ante 30", 1)))
    with pytest.raises(AssertionError, match="all-in not marked"):
        parse(text.replace("ante 20 and is all-in", "ante 20"))


def test_the_story_tells_the_antes_and_the_stakes_name_the_ante(three_handed):
    """RULES.md 8: the hand's record on the site shows every ante posted."""
    record, _ = three_handed
    story = hand_story(record)
    assert story["stakes"] == "100/200, ante 25"
    assert [line["text"] for line in story["blinds"]] == [
        "bob posts the ante 25",
        "carol posts the ante 25",
        "alice posts the ante 20, all in",
        "carol posts the big blind 200",
    ]


def test_the_replayer_steps_through_the_antes_and_a_dead_small_blind(three_handed):
    """RULES.md 8: the replayer shows each ante going in, no small blind, and ends with the
    stacks the hand ended with."""
    record, _ = three_handed
    replay = hand_replay(record, 0)
    steps = replay["steps"]
    assert (
        steps[0]["text"] == f"Hand #{record.pk} · blinds 100/200, ante 25 · Seat 2 has the button"
    )
    posts = [step for step in steps if step["kind"] == "blind_posted"]
    assert [step["text"] for step in posts][:3] == [
        "bob posts the ante 25",
        "carol posts the ante 25",
        "alice posts the ante 20, all in",
    ]
    assert [step["hand"]["pot_total"] for step in posts] == [25, 50, 70, 270]
    assert all(step["hand"]["small_blind_seat"] is None for step in steps[:-1])
    assert steps[0]["hand"]["ante"] == 25
    alice = next(seat for seat in posts[2]["seats"] if seat["seat"] == 0)
    assert alice["stack"] == 0 and alice["all_in"] and alice["hole"] == ["As", "Ah"]
    last = steps[-1]
    assert last["kind"] == "result"
    assert {seat["seat"]: seat["stack"] for seat in last["seats"]} == {0: 60, 2: 1685, 3: 1275}


def test_a_heads_up_tournament_hand_reads_back_with_the_button_on_the_small_blind(
    room, make_player
):
    """RULES.md 8: heads-up the button posts the small blind and acts first before the flop;
    both post the ante; a raise nobody calls comes back."""
    table = room("nl50", seats=2)
    users = {1: make_player("dora"), 4: make_player("eve")}
    deck = stacked([["7d", "2c"], ["As", "Ks"]], ["Ah", "Kd", "5c", "9s", "3d"])
    record = stored_hand(
        table,
        users,
        options=engine.HandOptions(small_blind=15, big_blind=30),
        stacks={1: 1500, 4: 1500},
        button=4,
        blinds=(4, 1),
        deck=deck,
        moves=[(4, "raise", 90), (1, "fold", None)],
        tournament={"id": 12, "buy_in": 2000, "fee": 100, "level": 2},
    )
    text = pokerstars_text(record)
    assert " - Level II (15/30) - " in text.split("\n")[0]
    assert "eve: posts small blind 15\ndora: posts big blind 30\n" in text
    assert "Uncalled bet (60) returned to eve" in text
    assert "the ante" not in text
    check_against_the_record(record, parse(text))


def test_roman_level_numbers():
    """RULES.md 8: the header's level in roman numerals, as PokerStars writes it."""
    assert [roman(n) for n in (1, 2, 4, 9, 14, 19, 40, 99)] == [
        "I",
        "II",
        "IV",
        "IX",
        "XIV",
        "XIX",
        "XL",
        "XCIX",
    ]
    with pytest.raises(ValueError):
        roman(0)
