"""The PokerStars text is faithful enough for a tracker: every exported hand is read
back by a strict parser written here from the format's published examples (independent of
holdem/history/pokerstars.py: it knows the lines, not our code) and checked against the stored
hand: players and stacks, blinds, every action in order, the board, the pots and what each
collected, and every chip of every player from the first line to the last."""

import random
import re
from collections import defaultdict
from datetime import datetime

import pytest

from holdem import engine
from holdem.engine.cards import new_deck
from holdem.history.pokerstars import pokerstars_text
from holdem.models import HandAction, HandRecord, Seat, Table
from holdem.services import (
    game_kinds,
    table_act,
    table_post,
    table_show,
    table_sit_in,
    table_sit_out,
)
from holdem.services import hand_start as hand_service
from tests.holdem.conftest import chips_everywhere, current, play_out
from tests.holdem.test_fixed_decks import fixed_deck, rigged  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

CARD = r"[2-9TJQKA][cdhs]"
CARDS = rf"{CARD}(?: {CARD})*"
NAME = r"[^:\n]+?"
ALL_IN = r"(?P<all_in> and is all-in)?"

# A tournament hand (RULES.md 8): "Tournament #T, buy-in+fee" before the game, "- Level II"
# before the blinds of the hand.
HEADER = re.compile(
    r"^PokerStars Hand #(?P<id>\d+): "
    r"(?:Tournament #(?P<tournament>\d+), (?P<buy_in>\d+)\+(?P<fee>\d+) )?"
    r"Hold'em (?P<game>No Limit|Pot Limit|Limit) (?:- Level (?P<level>[IVXLCDM]+) )?"
    r"\((?P<low>\d+)/(?P<high>\d+)\) - (?P<when>\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) UTC$"
)
ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
TABLE = re.compile(
    r"^Table '(?P<table>[^']+)' (?P<max>\d+)-max Seat #(?P<button>\d+) is the button$"
)
SEAT = re.compile(rf"^Seat (?P<seat>\d+): (?P<name>{NAME}) \((?P<chips>\d+) in chips\)$")
# A returning player's dead small blind and live big blind are one post: "small & big blinds".
# RULES.md 8: each player's ante, "posts the ante 25", comes before every blind.
POST = re.compile(
    rf"^(?P<name>{NAME}): posts (?P<what>the ante|small blind|big blind|small & big blinds) "
    rf"(?P<n>\d+){ALL_IN}$"
)
DEALT = re.compile(rf"^Dealt to (?P<name>{NAME}) \[(?P<cards>{CARD} {CARD})\]$")
ACTION = re.compile(
    rf"^(?P<name>{NAME}): (?:(?P<verb>folds|checks)|(?P<put>calls|bets) (?P<n>\d+){ALL_IN}"
    rf"|raises (?P<by>\d+) to (?P<to>\d+){ALL_IN.replace('all_in', 'all_in2')}"
    r"|(?P<protected>is disconnected \(all-in protection\)))$"
)
STREET = re.compile(
    rf"^\*\*\* (?P<street>FLOP|TURN|RIVER) \*\*\* \[(?P<old>{CARDS})\](?: \[(?P<new>{CARD})\])?$"
)
RETURNED = re.compile(rf"^Uncalled bet \((?P<n>\d+)\) returned to (?P<name>{NAME})$")
SHOWS = re.compile(rf"^(?P<name>{NAME}): shows \[(?P<cards>{CARD} {CARD})\](?: \([^)]+\))?$")
COLLECTED = re.compile(
    rf"^(?P<name>{NAME}) collected (?P<n>\d+) from (?:pot|main pot|side pot-\d+)$"
)
TOTAL = re.compile(r"^Total pot (?P<total>\d+) \| Rake (?P<rake>\d+)$")
BOARD = re.compile(rf"^Board \[(?P<cards>{CARDS})\]$")
COMMITMENT = re.compile(r"^Commitment (?P<hex>[0-9a-f]{64}) \(deck-sha256-v1\)$")
POSITION = re.compile(
    r"^Position (?P<n>\d+): (?:\[(?P<card>[2-9TJQKA][cdhs])\] salt [0-9a-f]{32}|hidden [0-9a-f]{64})$"
)
SUMMARY_SEAT = re.compile(
    rf"^Seat (?P<seat>\d+): (?P<name>{NAME})(?: \((?:button|small blind|big blind)\))? "
    r"(?:(?P<what>folded|mucked)|collected \((?P<won>\d+)\)"
    rf"|showed \[(?P<cards>{CARD} {CARD})\] and (?:won \((?P<won2>\d+)\)|lost))$"
)


class Parsed:
    def __init__(self):
        self.seats, self.posts, self.actions, self.board = {}, [], [], []
        self.put_in = defaultdict(int)  # chips each name put in the pot
        self.round_bet = defaultdict(int)  # this betting round, for "raises X to Y"
        self.returned, self.collected, self.summary_won = defaultdict(int), defaultdict(int), {}
        self.shown, self.summary_showed, self.summary_mucked = {}, {}, set()
        self.total = self.rake = None
        self.header = self.table = None
        self.commitment, self.positions = None, []  # card or None (hidden) per deck position


def parse(text: str) -> Parsed:
    """Read one hand; any line that is not in the format, or out of its place, fails."""
    lines = text.rstrip("\n").split("\n")
    hand = Parsed()
    hand.header = HEADER.match(lines[0]).groupdict()
    hand.table = TABLE.match(lines[1]).groupdict()
    datetime.strptime(hand.header["when"], "%Y/%m/%d %H:%M:%S")
    section = "seats"
    game = hand.header["game"]
    # The big blind: the higher stake of the header, in fixed limit the lower one (the bets).
    big_blind = int(hand.header["low" if game == "Limit" else "high"])

    def all_in_as_written(name: str, marked: bool, line: str) -> None:
        """A put is marked all-in exactly when it leaves the player no chip."""
        left = hand.seats[name][1] - hand.put_in[name] + hand.returned[name]
        assert left >= 0, line
        assert marked == (left == 0), f"all-in {'wrongly' if marked else 'not'} marked: {line!r}"

    for line in lines[2:]:
        if section == "seats" and (m := SEAT.match(line)):
            hand.seats[m["name"]] = (int(m["seat"]), int(m["chips"]))
        elif section in ("seats", "posts") and (m := POST.match(line)):
            section = "posts"
            name, amount = m["name"], int(m["n"])
            assert name in hand.seats, line
            hand.posts.append((name, m["what"], amount, bool(m["all_in"])))
            hand.put_in[name] += amount
            if m["what"] == "the ante":
                # Dead money before the blinds: in the pot, not toward the bet to call.
                assert all(what == "the ante" for _, what, _, _ in hand.posts), line
                all_in_as_written(name, bool(m["all_in"]), line)
                continue
            # Of "small & big blinds" the big blind is live, the small one dead.
            live = min(amount, big_blind) if m["what"] == "small & big blinds" else amount
            hand.round_bet[name] += live
            all_in_as_written(name, bool(m["all_in"]), line)
        elif line == "*** HOLE CARDS ***" and section in ("seats", "posts"):
            section = "play"
        elif section == "play" and (m := DEALT.match(line)):
            pass
        elif section == "play" and (m := ACTION.match(line)):
            name = m["name"]
            assert name in hand.seats, line
            if m["verb"]:
                hand.actions.append((name, m["verb"], 0))
            elif m["put"]:
                hand.actions.append((name, m["put"], int(m["n"])))
                hand.put_in[name] += int(m["n"])
                hand.round_bet[name] += int(m["n"])
                all_in_as_written(name, bool(m["all_in"]), line)
            elif m["to"]:
                added = int(m["to"]) - hand.round_bet[name]
                assert added > 0 and int(m["by"]) > 0, line
                hand.actions.append((name, "raises", added))
                hand.put_in[name] += added
                hand.round_bet[name] = int(m["to"])
                all_in_as_written(name, bool(m["all_in2"]), line)
            else:
                hand.actions.append((name, "protected", 0))
        elif section == "play" and (m := STREET.match(line)):
            old = m["old"].split()
            assert old[: len(hand.board)] == hand.board, line
            hand.board = old + ([m["new"]] if m["new"] else [])
            hand.round_bet.clear()
        elif section in ("play", "showdown") and (m := RETURNED.match(line)):
            hand.returned[m["name"]] += int(m["n"])
        elif line == "*** SHOW DOWN ***" and section == "play":
            section = "showdown"
        elif (section == "showdown" or hand.collected) and (m := SHOWS.match(line)):
            # At the showdown, or after the pot is collected: a hand shown once it was over
            # (the uncontested winner's show).
            assert m["name"] in hand.seats and m["name"] not in hand.shown, line
            hand.shown[m["name"]] = m["cards"].split()
        elif section in ("play", "showdown") and (m := COLLECTED.match(line)):
            hand.collected[m["name"]] += int(m["n"])
        elif line == "*** SUMMARY ***" and section in ("play", "showdown"):
            section = "summary"
        elif section == "summary" and (m := TOTAL.match(line)):
            hand.total, hand.rake = int(m["total"]), int(m["rake"])
        elif section == "summary" and (m := BOARD.match(line)):
            assert m["cards"].split() == hand.board, line
        elif section == "summary" and (m := SUMMARY_SEAT.match(line)):
            hand.summary_won[m["name"]] = int(m["won"] or m["won2"] or 0)
            if m["cards"]:
                hand.summary_showed[m["name"]] = m["cards"].split()
            elif m["what"] == "mucked":
                hand.summary_mucked.add(m["name"])
        elif line == "*** DECK COMMITMENT ***" and section == "summary":
            section = "commitment"  # ours after the summary (docs/fairness.md)
        elif section == "commitment" and (m := COMMITMENT.match(line)):
            hand.commitment = m["hex"]
        elif section == "commitment" and (m := POSITION.match(line)):
            assert int(m["n"]) == len(hand.positions), line
            hand.positions.append(m["card"])
        else:
            raise AssertionError(f"not a PokerStars line here ({section}): {line!r}")
    assert section in ("summary", "commitment") and hand.total is not None
    assert section == "summary" or (hand.commitment and len(hand.positions) >= 12)
    return hand


VERBS = {"fold": {"folds"}, "check": {"checks"}, "call": {"calls"}, "bet": {"bets"}}
VERBS |= {"raise": {"raises"}, "all_in": {"calls", "bets", "raises"}, "protected": {"protected"}}


def check_against_the_record(record: HandRecord, hand: Parsed) -> None:
    assert int(hand.header["id"]) == record.pk
    assert int(hand.table["button"]) == record.button_seat + 1
    tournament = record.tournament
    if tournament:
        # RULES.md 8: the tournament, its buy-in and fee, the level; its table is "T 1".
        assert int(hand.header["tournament"]) == tournament["id"]
        assert (int(hand.header["buy_in"]), int(hand.header["fee"])) == (
            tournament["buy_in"],
            tournament["fee"],
        )
        assert roman_value(hand.header["level"]) == tournament["level"]
        assert hand.table["table"] == f"{tournament['id']} 1"
    else:
        assert hand.header["tournament"] is None and hand.header["level"] is None
        assert hand.table["table"] == record.table.name
    by_name = {p["username"]: p for p in record.players}
    assert hand.seats == {p["username"]: (p["seat"] + 1, p["stack_before"]) for p in record.players}
    # Blinds: the small and the big blind of the room, or all a short stack had (after its ante).
    options = record.options
    blinds = {
        "the ante": options.get("ante", 0),
        "small blind": options["small_blind"],
        "big blind": options["big_blind"],
        "small & big blinds": options["small_blind"] + options["big_blind"],
    }
    for _name, what, amount, all_in in hand.posts:
        assert amount == blinds[what] or (all_in and amount < blinds[what]), (what, amount)
    antes = [name for name, what, _, _ in hand.posts if what == "the ante"]
    assert sorted(antes) == (sorted(by_name) if blinds["the ante"] else []), antes
    names = {p["seat"]: p["username"] for p in record.players}
    if record.blinds:
        # RULES.md 8, the dead button: the blinds where the hand placed them; a dead small blind
        # is posted by nobody.
        posted = {what: name for name, what, _, _ in hand.posts}

        def poster(seat):  # (nobody: a dead small blind, or a player all in from the ante)
            if seat is None or by_name[names[seat]]["stack_before"] <= blinds["the ante"]:
                return None
            return names[seat]

        small, big = record.blinds
        assert posted.get("small blind") == poster(small), posted
        assert posted.get("big blind") == poster(big), posted
    # Every logged action, in order, by the player who made it.
    logged = list(HandAction.objects.filter(hand=record).order_by("index"))
    assert len(hand.actions) == len(logged)
    for (name, verb, _), row in zip(hand.actions, logged):
        assert name == names[row.seat]
        expected = VERBS.get(row.action, set())
        if row.source == "timeout":
            expected = {"folds", "checks"}
        assert verb in expected, (row.action, row.source, verb)
    assert hand.board == list(record.board)
    # The pots: what was collected is what the record paid, the total and the rake agree.
    pots = record.pots
    assert hand.total == sum(p["amount"] for p in pots) and hand.rake == record.rake
    paid = defaultdict(int)
    for pot in pots:
        for seat, share in pot["shares"].items():
            paid[names[int(seat)]] += share
    assert dict(hand.collected) == {n: c for n, c in paid.items() if c}
    for name, won in hand.summary_won.items():
        assert won == paid.get(name, 0) or won == 0
    # Every hand the table saw, and only those, is shown in the text, and the summary says so:
    # a hand shown once the hand was over too (RULES.md 4), never "mucked".
    shown = {names[int(seat)]: list(hole) for seat, hole in record.shown.items()}
    assert hand.shown == shown, (hand.shown, shown)
    assert not hand.summary_mucked & set(shown), hand.summary_mucked & set(shown)
    for name in shown:
        # (The winner of an uncontested pot who shows may be summed up as having collected.)
        if name not in hand.summary_showed:
            assert record.result.get("uncontested") and paid.get(name), name
    assert all(shown.get(name) == cards for name, cards in hand.summary_showed.items())
    # Every chip: what a player had, less what went in, plus what came back and what they won,
    # is what they left with.
    for name, p in by_name.items():
        after = p["stack_before"] - hand.put_in[name] + hand.returned[name] + hand.collected[name]
        assert after == p["stack_after"], (name, p, hand.put_in[name], hand.returned[name])


def roman_value(numeral: str) -> int:
    """A roman numeral read back: "XIV" -> 14."""
    values = [ROMAN[letter] for letter in numeral]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def shows_chosen(table, users, record: HandRecord, rng: random.Random) -> None:
    """Once the hand is over, the players who may show do so half the time (RULES.md 4: the
    uncontested winner, a beaten player offered Show or Muck); the others muck or wait."""
    result = record.result
    choosing = list(result["undecided"])
    if result["uncontested"]:
        choosing += [int(seat) for seat, won in result["payouts"].items() if won]
    for seat in choosing:
        if rng.random() < 0.5:
            table_show(table_id=table.pk, user=users[seat])


@pytest.mark.parametrize(
    ("preset", "seats", "stacks"),
    [
        ("nl50", (0, 2, 4), (2000, 5000, 9000)),
        ("pl50", (0, 1, 2, 3, 4, 5), None),
        ("fl20", (1, 3, 5, 7), None),
    ],
)
def test_every_exported_hand_reads_back_to_the_chip(
    seated, clock, monkeypatch, preset, seats, stacks
):
    table, users = seated(
        preset, seats=seats, buy_in=2_000 if preset == "fl20" else 4_000, stacks=stacks
    )
    rng = random.Random(f"{preset}-stars")
    # The same hands every run: with a deck from chance, two players could bust in the first
    # hands and leave fewer than three to read.
    dealer = random.Random(f"{preset}-deck")

    def deck():
        cards = new_deck()
        dealer.shuffle(cards)
        return cards

    monkeypatch.setattr(hand_service, "hand_deck", deck)
    # Half the players choose Show or Muck when beaten (RULES.md 4 [003]).
    Seat.objects.filter(table=table, number__in=seats[::2]).update(auto_muck=False)
    shows = random.Random(f"{preset}-shows")
    read = 0
    for _ in range(12):
        clock.advance(31)
        table.refresh_from_db()
        if not table.in_hand:
            break  # fewer than two players left with chips
        play_out(table, users, rng)
        record = HandRecord.objects.filter(table=table).order_by("-id").first()
        shows_chosen(table, users, record, shows)
        record.refresh_from_db()
        check_against_the_record(
            record, parse(pokerstars_text(record, viewer_id=users[seats[0]].pk))
        )
        read += 1
    assert read >= 5
    chips_everywhere()


def test_the_parser_notices_a_wrong_amount_or_a_line_out_of_format(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    play_out(
        table,
        users,
        random.Random(3),
        choose=lambda legal: "call" if "call" in legal.actions else "check",
    )
    record = HandRecord.objects.filter(table=table).latest("id")
    text = pokerstars_text(record)
    check_against_the_record(record, parse(text))
    wrong = re.sub(r"calls (\d+)", lambda m: f"calls {int(m[1]) + 1}", text, count=1)
    assert wrong != text
    with pytest.raises(AssertionError):
        check_against_the_record(record, parse(wrong))
    with pytest.raises(AssertionError, match="not a PokerStars line"):
        parse(text.replace("*** HOLE CARDS ***", "*** HOLE CARDS ***\nbob: dances"))


def read_back(record: HandRecord, viewer_id: int | None = None) -> str:
    text = pokerstars_text(record, viewer_id=viewer_id)
    check_against_the_record(record, parse(text))
    return text


def last_record(table) -> HandRecord:
    return HandRecord.objects.filter(table=table).latest("id")


def act_until_over(table, users, choose) -> None:
    while (state := current(table)) is not None:
        legal = engine.legal_actions(state)
        table_act(table_id=table.pk, user=users[legal.seat], action=choose(legal))


def check_or_call(legal):
    return "check" if "check" in legal.actions else "call"


def test_a_call_all_in_that_wins_is_still_written_all_in(seated, clock, fixed_deck, monkeypatch):  # noqa: F811
    # Heads-up, button 0 (the small blind, acting first): seat 0 moves all in with 7-2, seat 1
    # calls all in for less with aces and wins, in the step that settles the hand.
    monkeypatch.setattr(game_kinds, "next_button", lambda previous, dealt, rng: 0)
    table, users = seated("nl50", seats=(0, 1), stacks=[5_000, 2_000])
    fixed_deck(rigged([["Ah", "Ad"], ["7c", "2d"]], ["As", "Kd", "9h", "4c", "3s"]))
    clock.advance(31)
    act_until_over(table, users, lambda legal: "all_in" if "all_in" in legal.actions else "call")
    record = last_record(table)
    assert record.result["pots"][0]["winners"] == [1]
    text = read_back(record)
    assert f"{users[1].username}: calls 1900 and is all-in\n" in text  # before: "calls 1900"
    chips_everywhere()


def test_a_returning_players_dead_small_and_live_big_blind_are_one_post(seated, clock):
    # RULES.md 2 [003]: back with both blinds missed, the player posts 100 live and 50 dead;
    # PokerStars writes that as one post of both blinds.
    table, users = seated("nl50", seats=(0, 2, 4, 6))
    table_sit_out(table_id=table.pk, user=users[6])
    fold = lambda legal: "fold" if "fold" in legal.actions else "check"  # noqa: E731
    for _ in range(4):
        clock.advance(31)
        play_out(table, users, choose=fold)
    seat = Seat.objects.get(user=users[6])
    assert seat.missed_small_blind and seat.missed_big_blind
    table_sit_in(table_id=table.pk, user=users[6])
    table_post(table_id=table.pk, user=users[6])
    Table.objects.filter(pk=table.pk).update(button_seat=4)  # the post lands past the blinds
    clock.advance(31)
    play_out(table, users, random.Random(4))
    record = last_record(table)
    assert next(p for p in record.players if p["seat"] == 6)["post"] == "big_and_dead_small"
    text = read_back(record)
    # Before: "posts dead small blind 50" and "posts big blind 100". Only the post lines are read:
    # the deck commitment's hex leaves can spell "dead" by chance.
    posts = [line for line in text.splitlines() if f"{users[6].username}: posts" in line]
    assert posts == [f"{users[6].username}: posts small & big blinds 150"]
    chips_everywhere()


def test_the_uncontested_winners_show_is_in_the_text(seated, clock, monkeypatch):
    # RULES.md 4 [003]: the winner without a showdown chooses to show, after the hand.
    monkeypatch.setattr(game_kinds, "next_button", lambda previous, dealt, rng: 0)
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    act_until_over(table, users, lambda legal: "fold")  # to the big blind, seat 2
    table_show(table_id=table.pk, user=users[2])
    record = last_record(table)
    hole = record.shown["2"]
    text = read_back(record)
    name = users[2].username
    # After the pot is collected, as PokerStars writes it (before: no line at all).
    assert f"{name} collected 100 from pot\n{name}: shows [{' '.join(hole)}]\n" in text
    chips_everywhere()


def test_a_beaten_hand_shown_at_the_prompt_is_shown_in_the_text_and_not_mucked(
    seated,
    clock,
    fixed_deck,  # noqa: F811
    monkeypatch,
):
    # RULES.md 4 [003]: without auto-muck, the beaten seat 0 is offered Show or Muck and shows.
    monkeypatch.setattr(game_kinds, "next_button", lambda previous, dealt, rng: 0)
    table, users = seated("nl50", seats=(0, 1), buy_in=3_000)
    Seat.objects.filter(user=users[0]).update(auto_muck=False)
    fixed_deck(rigged([["Ah", "Ad"], ["8s", "7s"]], ["As", "Kd", "9h", "4c", "3c"]))
    clock.advance(31)
    act_until_over(table, users, check_or_call)
    table_show(table_id=table.pk, user=users[0])
    record = last_record(table)
    assert record.shown == {"1": ["Ah", "Ad"], "0": ["8s", "7s"]}
    text = read_back(record)
    name = users[0].username
    assert f"{name}: shows [8s 7s]" in text  # before: missing
    assert f"Seat 1: {name} (button) showed [8s 7s] and lost\n" in text  # before: "mucked"
    chips_everywhere()


def test_the_parser_notices_each_fault_the_writer_once_had(seated, clock):
    """The three faults an independent parser found, put back into good text."""
    table, users = seated("nl50", seats=(0, 1, 2), stacks=[2_000, 5_000, 5_000])
    clock.advance(31)
    act_until_over(table, users, lambda legal: "all_in" if "all_in" in legal.actions else "call")
    record = last_record(table)
    text = read_back(record)
    with pytest.raises(AssertionError, match="all-in not marked"):
        parse(text.replace(" and is all-in", "", 1))
    with pytest.raises(AssertionError, match="not a PokerStars line"):
        parse(text.replace(": posts small blind", ": posts dead small blind", 1))
    shows = next(line for line in text.split("\n") if ": shows [" in line)
    with pytest.raises(AssertionError):
        check_against_the_record(record, parse(text.replace(shows + "\n", "", 1)))
