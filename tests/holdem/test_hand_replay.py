"""A finished hand's complete record (every blind and amount, the pots and who collected them)
and its replayer's steps, on the history pages and in the previous-hand data, under the hand
number the table showed; no step or page shows a card its viewer may not see (RULES.md 4, 6)."""

import json
import random
import re
from dataclasses import asdict

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from holdem import engine
from holdem.engine.cards import new_deck
from holdem.history.replayer import hand_replay
from holdem.history.story import hand_story, played_at_text
from holdem.models import HandRecord
from holdem.selectors.snapshot import previous_hand_for
from holdem.selectors.table_view import public_table
from holdem.services import game_kinds, table_act
from holdem.services import hand_start as hand_service
from tests.holdem.conftest import current, play_out
from tests.holdem.test_fixed_decks import rigged

pytestmark = pytest.mark.django_db

CARD = re.compile(r"\b([2-9TJQKA][cdhs])\b")


@pytest.fixture
def stacked(monkeypatch):
    """Deal chosen cards with the button on seat 0 (seat 1 small blind, seat 2 big blind)."""

    monkeypatch.setattr(game_kinds, "next_button", lambda previous, dealt, rng: 0)

    def deal(holes_from_seat_1, board):
        deck = rigged(holes_from_seat_1, board)
        monkeypatch.setattr(hand_service, "hand_deck", lambda: list(deck))

    return deal


def play(table, users, script):
    for seat, action, amount in script:
        assert current(table).to_act == seat, (seat, action)
        table_act(table_id=table.pk, user=users[seat], action=action, amount=amount)
    assert current(table) is None, "the script ends the hand"
    table.refresh_from_db()
    return HandRecord.objects.get(pk=table.last_hand_id)


# Seat 0 (2,000) is all in before the flop and wins the main pot with three aces; seat 2 beats
# seat 1 for the side pot with three queens: main 3 x 2,000, side 2 x (1,000 + 1,500).
SIDE_POT_SCRIPT = [
    (0, "all_in", None),
    (1, "call", None),
    (2, "call", None),
    (1, "bet", 1_000),
    (2, "call", None),
    (1, "check", None),
    (2, "check", None),
    (1, "bet", 1_500),
    (2, "call", None),
]
SIDE_POT_HOLES = {1: ["Kc", "Kd"], 2: ["Qc", "Qd"], 0: ["As", "Ad"]}


@pytest.fixture
def side_pot_hand(seated, clock, stacked):
    stacked(list(SIDE_POT_HOLES.values()), ["Ah", "Qh", "7s", "2c", "9d"])
    table, users = seated("nl50", seats=(0, 1, 2), stacks=[2_000, 5_000, 5_000])
    clock.advance(31)
    table.refresh_from_db()
    shown_at_the_table = public_table(table)["hand_id"]  # the table's "Hand #" while it is played
    record = play(table, users, SIDE_POT_SCRIPT)
    assert shown_at_the_table == record.pk
    return table, users, record


def page(client, user, record):
    client.force_login(user)
    response = client.get(reverse("hand_detail", args=[record.pk]))
    assert response.status_code == 200
    return response


def texts(story):
    return [line["text"] for line in story]


def test_the_hand_page_shows_blinds_calls_and_all_ins_under_the_tables_hand_number(
    client, side_pot_hand
):
    _table, users, record = side_pot_hand
    names = {seat: user.username for seat, user in users.items()}
    html = page(client, users[1], record).content.decode()
    assert f"<h1>Hand #{record.pk} " in html and "game " not in html
    assert played_at_text(record.started_at) in html
    for line in (
        f"{names[1]} posts the small blind 50",
        f"{names[2]} posts the big blind 100",
        f"{names[0]} raises to 2,000, all in",
        f"{names[1]} calls 1,950",  # what the call put in, the small blind already in
        f"{names[2]} calls 1,900",
        f"{names[1]} bets 1,000",
        f"{names[2]} calls 1,500",
        f"{names[0]} collects 6,000 from the main pot",
        f"{names[2]} collects 5,000 from side pot 1",
    ):
        assert line in html, line
    # Thousands separators for every amount, signed nets included.
    assert "+4,000" in html and "-4,500" in html and "6,000" in html
    listed = client.get(reverse("hand_list")).content.decode()
    assert f"#{record.pk}" in listed and f"{names[0]} raises to 2,000, all in" in listed


def test_previous_hand_carries_the_blinds_and_amounts_under_the_same_number(side_pot_hand):
    table, users, record = side_pot_hand
    hand = previous_hand_for(table, users[0])
    assert hand["hand_id"] == record.pk == public_table(table)["hand_id"]
    assert [(b["seat"], b["amount"]) for b in hand["blinds"]] == [(1, 50), (2, 100)]
    actions = [line for line in hand["story"] if line["kind"] == "action"]
    assert [(a["seat"], a["action"], a["amount"], a["all_in"]) for a in actions[:3]] == [
        (0, "all_in", 2_000, True),
        (1, "call", 1_950, False),
        (2, "call", 1_900, False),
    ]
    assert hand["played_at"] == played_at_text(record.started_at)
    assert len(hand["actions"]) == len(SIDE_POT_SCRIPT)  # the action log itself, as before


def test_a_side_pot_hands_pots_and_collections_are_right_to_the_chip(client, side_pot_hand):
    _table, users, record = side_pot_hand
    story = hand_story(record)
    assert [(p["label"], p["amount"], p["rake"]) for p in story["pots"]] == [
        ("Main pot", 6_000, 0),
        ("Side pot 1", 5_000, 0),
    ]
    assert [[(c["seat"], c["amount"]) for c in p["collected"]] for p in story["pots"]] == [
        [(0, 6_000)],
        [(2, 5_000)],
    ]
    put_in = sum(p["stack_before"] - p["stack_after"] for p in record.players if p["net"] < 0)
    won = sum(p["net"] for p in record.players if p["net"] > 0)
    assert put_in == won == 4_500  # what the losers lost, the winners won, to the chip
    html = page(client, users[2], record).content.decode()
    assert (
        f"Main pot</span> <b class=\"pot-amount\">6,000</b>: {users[0].username} collected 6,000"
        in html
    )
    assert (
        f"Side pot 1</span> <b class=\"pot-amount\">5,000</b>: {users[2].username} collected 5,000"
        in html
    )


def test_the_last_replay_step_has_the_stored_stacks_and_no_chip_is_lost_on_the_way(side_pot_hand):
    _table, _users, record = side_pot_hand
    steps = hand_replay(record, viewer_seat=1)["steps"]
    final = steps[-1]
    assert final["kind"] == "result" and final["hand"] is None
    assert {s["seat"]: s["stack"] for s in final["seats"]} == {
        p["seat"]: p["stack_after"] for p in record.players
    }
    assert final["result"]["net"] == record.result["net"]
    assert [p["amount"] for p in final["result"]["pots"]] == [6_000, 5_000]
    total = sum(p["stack_before"] for p in record.players)
    for step in steps[:-1]:
        assert sum(s["stack"] for s in step["seats"]) + step["hand"]["pot_total"] == total
    flop = next(step for step in steps if step["kind"] == "street")
    assert flop["hand"]["board"] == ["Ah", "Qh", "7s"] and flop["hand"]["pot_total"] == 6_000
    turn = [step for step in steps if step["kind"] == "street"][1]
    assert [p["amount"] for p in turn["hand"]["pots"]] == [6_000, 2_000]
    streets = [step["street"] for step in steps]
    assert streets == sorted(streets, key=["preflop", "flop", "turn", "river", "showdown"].index)


def foreign_cards_by_step(replay, viewer_seat):
    """For each step: {seat: cards} of the hands shown there that are not the viewer's."""
    return [
        {s["seat"]: s["hole"] for s in step["seats"] if s.get("hole") and s["seat"] != viewer_seat}
        for step in replay["steps"]
    ]


@pytest.mark.parametrize("viewer", [0, 1, 2, "staff"])
def test_replay_steps_show_no_other_hand_before_the_showdown_to_any_viewer(
    client, side_pot_hand, make_player, viewer
):
    _table, users, record = side_pot_hand
    if viewer == "staff":
        user = make_player()
        user.is_staff = True
        user.save()
        seat = None
    else:
        user, seat = users[viewer], viewer
    replay = page(client, user, record).context["replay"]
    assert replay["you"] == (None if seat is None else {"seat": seat, "username": user.username})
    showdown = next(i for i, s in enumerate(replay["steps"]) if s["kind"] == "showdown")
    seen = foreign_cards_by_step(replay, seat)
    assert all(not cards for cards in seen[:showdown])
    # From the showdown on, each hand appears once its player showed it (seat 1 shows first).
    assert set(seen[showdown]) == ({1} - {seat})
    assert seen[-1] == {s: SIDE_POT_HOLES[s] for s in (0, 1, 2) if s != seat}
    for step in replay["steps"]:
        mine = next((s for s in step["seats"] if s["seat"] == seat), None)
        assert mine is None or mine["hole"] == SIDE_POT_HOLES[seat]


def test_a_folded_or_mucked_hand_never_appears_in_the_replay(client, seated, clock, stacked):
    # Seat 0 folds; seat 2's queens are shown first (seat 2 bets the river) and seat 1's
    # losing kings are mucked (auto-muck): neither hand is ever drawn face up.
    stacked([["Kc", "Kd"], ["Qc", "Qd"], ["7c", "2d"]], ["Qh", "8s", "4d", "3c", "9h"])
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    record = play(
        table,
        users,
        [(0, "fold", None), (1, "call", None), (2, "check", None)]
        + [(1, "check", None), (2, "check", None)] * 2
        + [(1, "check", None), (2, "bet", 200), (1, "call", None)],
    )
    assert record.result["mucked"] == [1] and list(record.shown) == ["2"]
    for viewer in (1, 2):
        response = page(client, users[viewer], record)
        seen = foreign_cards_by_step(response.context["replay"], viewer)
        # Folded (seat 0) or mucked (seat 1): face down in every step, for everyone else.
        assert all(0 not in cards and 1 not in cards for cards in seen)
        # The folded hand is nowhere on the page: not in the record, not in the steps.
        html = response.content.decode()
        assert not {"7c", "2d"} & set(CARD.findall(html))
        assert "7\u2663" not in html and "2\u2666" not in html  # nor in the record's words
    muck_line = f"{users[1].username} mucks"
    assert muck_line in texts(hand_story(record)["story"])


def test_an_all_in_run_out_shows_the_hands_from_the_moment_they_are_turned_up(
    seated, clock, stacked
):
    stacked([["Kc", "Kd"], ["Qc", "Qd"], ["As", "Ad"]], ["2h", "7s", "8c", "3d", "Jh"])
    table, users = seated("nl50", seats=(0, 1, 2), buy_in=2_000)
    clock.advance(31)
    record = play(table, users, [(0, "all_in", None), (1, "call", None), (2, "call", None)])
    replay = hand_replay(record, viewer_seat=1)
    kinds = [step["kind"] for step in replay["steps"]]
    tabled = kinds.index("hands_tabled")
    assert kinds[tabled + 1 : tabled + 4] == ["street", "street", "street"]  # then the run-out
    seen = foreign_cards_by_step(replay, 1)
    assert all(not cards for cards in seen[:tabled])
    assert all(set(cards) == {0, 2} for cards in seen[tabled:])
    assert "All in: the hands are turned face up" in replay["steps"][tabled]["text"]


def test_an_uncontested_hand_returns_the_uncalled_bet_and_has_no_showdown(seated, clock, stacked):
    stacked([["Kc", "Kd"], ["Qc", "Qd"], ["As", "Ad"]], ["2h", "7s", "8c", "3d", "Jh"])
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    record = play(table, users, [(0, "fold", None), (1, "fold", None)])
    story = texts(hand_story(record)["story"])
    name = users[2].username
    assert story[-2:] == [f"Uncalled 50 returned to {name}", f"{name} collects 100 from the pot"]
    replay = hand_replay(record, viewer_seat=0)
    assert {step["street"] for step in replay["steps"]} == {"preflop"}
    assert replay["steps"][-1]["result"]["uncontested"] is True
    assert all(not cards for cards in foreign_cards_by_step(replay, 0))


def test_someone_elses_hand_page_is_not_found(client, side_pot_hand, make_player):
    _table, _users, record = side_pot_hand
    client.force_login(make_player())
    assert client.get(reverse("hand_detail", args=[record.pk])).status_code == 404


def check_replay(record, viewer_seat):
    """What every replay must hold, whoever looks: chips conserved at every step, the stored
    stacks at the end, and another player's cards only once shown, as they were shown."""
    replay = hand_replay(record, viewer_seat=viewer_seat)
    steps = replay["steps"]
    total = sum(p["stack_before"] for p in record.players)
    for step in steps[:-1]:
        assert sum(s["stack"] for s in step["seats"]) + step["hand"]["pot_total"] == total
    assert {s["seat"]: s["stack"] for s in steps[-1]["seats"]} == {
        p["seat"]: p["stack_after"] for p in record.players
    }
    final = engine.state_from_json(record.final_state)
    shown = {int(seat): hole for seat, hole in record.shown.items()}
    reveals = [i for i, s in enumerate(steps) if s["kind"] in ("hands_tabled", "showdown")]
    first_reveal = reveals[0] if reveals else len(steps) - 1
    for index, cards in enumerate(foreign_cards_by_step(replay, viewer_seat)):
        assert not cards or index >= first_reveal
        for seat, hole in cards.items():
            assert hole == shown[seat]
    # Nothing unshown anywhere in the steps: not even in a text.
    text = json.dumps(replay)
    for player in final.players:
        if player.seat != viewer_seat and player.seat not in shown:
            assert not set(player.hole) & set(CARD.findall(text)), player.seat
    if viewer_seat is not None:
        mine = next(s for s in steps[0]["seats"] if s["seat"] == viewer_seat)
        assert mine["hole"] == list(final.player(viewer_seat).hole)


def staying(rng):
    """Random legal actions but folding: showdowns, all-ins and side pots."""
    return lambda legal: rng.choice([a for a in legal.actions if a != "fold"])


@pytest.mark.parametrize("preset", ["nl50", "pl50", "fl20"])
def test_random_hands_replay_to_the_stored_result_for_every_viewer(preset, seated, clock):
    table, users = seated(preset, seats=(0, 2, 3, 5), stacks=[2_000, 3_500, 6_000, 2_500])
    records = []
    for number in range(4):
        clock.advance(31)
        if current(table) is None:
            break
        rng = random.Random(number)
        play_out(table, users, rng=rng, choose=staying(rng) if number % 2 else None)
        table.refresh_from_db()
        records.append(table.last_hand)
    assert records
    for record in records:
        for viewer in [None, *(p["seat"] for p in record.players)]:
            check_replay(record, viewer)
        story = hand_story(record)
        collected = sum(c["amount"] for pot in story["pots"] for c in pot["collected"])
        assert collected + record.rake == sum(pot["amount"] for pot in story["pots"])
        blinds = [line["amount"] for line in story["blinds"]]
        assert blinds[:2] == [record.options["small_blind"], record.options["big_blind"]]


def test_a_dead_small_blind_goes_to_the_pot_and_is_in_the_record(room, make_player):
    """RULES.md 2: a player back from missing the big blind posts it live plus a dead small
    blind. Made as a stored hand the engine deals (no action yet), like any record."""
    table = room("nl50")
    players = [make_player() for _ in range(3)]
    options = engine.HandOptions(structure="no_limit", small_blind=50, big_blind=100)
    record = HandRecord.objects.create(
        table=table,
        number=1,
        started_at=timezone.now(),
        button_seat=0,
        options=asdict(options),
        players=[
            {"seat": seat, "user_id": user.pk, "username": user.username, "stack_before": 3_000}
            | ({"post": "big_and_dead_small"} if seat == 3 else {})
            for seat, user in zip((0, 1, 2, 3), [*players, make_player()])
        ],
        deck=new_deck(),
    )
    story = hand_story(record)
    name = record.players[3]["username"]
    assert f"{name} posts a big blind 100" in texts(story["story"])
    assert f"{name} posts a dead small blind 50" in texts(story["story"])
    steps = hand_replay(record, viewer_seat=3)["steps"]
    dead = next(s for s in steps if s["text"].endswith("dead small blind 50"))
    mine = next(s for s in dead["seats"] if s["seat"] == 3)
    assert (mine["stack"], mine["bet"], mine["committed"]) == (2_850, 100, 150)
    assert dead["hand"]["pot_total"] == 300  # 50 + 100 + 100 live, and 50 dead


def test_the_hand_list_reads_all_the_hands_logs_in_one_query(client, seated, clock):
    table, users = seated("nl50", seats=(0, 1))
    client.force_login(users[0])
    counts = []
    for number in range(3):
        clock.advance(31)
        play_out(table, users, rng=random.Random(number))
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("hand_list")).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] == counts[2], counts
