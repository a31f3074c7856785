"""The PokerStars text is faithful enough for a tracker (issue 15, 2): every exported hand is read
back by a strict parser written here from the format's published examples (independent of
holdem/history/pokerstars.py: it knows the lines, not our code) and checked against the stored
hand: players and stacks, blinds, every action in order, the board, the pots and what each
collected, and every chip of every player from the first line to the last."""

import random
import re
from collections import defaultdict
from datetime import datetime

import pytest

from holdem.engine.cards import new_deck
from holdem.history.pokerstars import pokerstars_text
from holdem.models import HandAction, HandRecord
from holdem.services import hands as hand_service
from tests.holdem.conftest import chips_everywhere, play_out

pytestmark = pytest.mark.django_db

CARD = r"[2-9TJQKA][cdhs]"
CARDS = rf"{CARD}(?: {CARD})*"
NAME = r"[^:\n]+?"
ALL_IN = r"(?P<all_in> and is all-in)?"

HEADER = re.compile(
    r"^PokerStars Hand #(?P<id>\d+): Hold'em (?P<game>No Limit|Pot Limit|Limit) "
    r"\((?P<low>\d+)/(?P<high>\d+)\) - (?P<when>\d{4}/\d\d/\d\d \d\d:\d\d:\d\d) UTC$"
)
TABLE = re.compile(
    r"^Table '(?P<table>[^']+)' (?P<max>\d+)-max Seat #(?P<button>\d+) is the button$"
)
SEAT = re.compile(rf"^Seat (?P<seat>\d+): (?P<name>{NAME}) \((?P<chips>\d+) in chips\)$")
POST = re.compile(
    rf"^(?P<name>{NAME}): posts (?P<what>small blind|big blind|dead small blind) (?P<n>\d+){ALL_IN}$"
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
SUMMARY_SEAT = re.compile(
    rf"^Seat (?P<seat>\d+): (?P<name>{NAME})(?: \((?:button|small blind|big blind)\))? "
    r"(?:folded|mucked|collected \((?P<won>\d+)\)"
    rf"|showed \[{CARD} {CARD}\] and (?:won \((?P<won2>\d+)\)|lost))$"
)


class Parsed:
    def __init__(self):
        self.seats, self.posts, self.actions, self.board = {}, [], [], []
        self.put_in = defaultdict(int)  # chips each name put in the pot
        self.round_bet = defaultdict(int)  # this betting round, for "raises X to Y"
        self.returned, self.collected, self.summary_won = defaultdict(int), defaultdict(int), {}
        self.total = self.rake = None
        self.header = self.table = None


def parse(text: str) -> Parsed:
    """Read one hand; any line that is not in the format, or out of its place, fails."""
    lines = text.rstrip("\n").split("\n")
    hand = Parsed()
    hand.header = HEADER.match(lines[0]).groupdict()
    hand.table = TABLE.match(lines[1]).groupdict()
    datetime.strptime(hand.header["when"], "%Y/%m/%d %H:%M:%S")
    section = "seats"
    for line in lines[2:]:
        if section == "seats" and (m := SEAT.match(line)):
            hand.seats[m["name"]] = (int(m["seat"]), int(m["chips"]))
        elif section in ("seats", "posts") and (m := POST.match(line)):
            section = "posts"
            hand.posts.append((m["name"], m["what"], int(m["n"])))
            hand.put_in[m["name"]] += int(m["n"])
            if m["what"] != "dead small blind":
                hand.round_bet[m["name"]] += int(m["n"])
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
            elif m["to"]:
                added = int(m["to"]) - hand.round_bet[name]
                assert added > 0 and int(m["by"]) > 0, line
                hand.actions.append((name, "raises", added))
                hand.put_in[name] += added
                hand.round_bet[name] = int(m["to"])
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
        elif section == "showdown" and (m := SHOWS.match(line)):
            pass
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
        else:
            raise AssertionError(f"not a PokerStars line here ({section}): {line!r}")
    assert section == "summary" and hand.total is not None
    return hand


VERBS = {"fold": {"folds"}, "check": {"checks"}, "call": {"calls"}, "bet": {"bets"}}
VERBS |= {"raise": {"raises"}, "all_in": {"calls", "bets", "raises"}, "protected": {"protected"}}


def check_against_the_record(record: HandRecord, hand: Parsed) -> None:
    assert int(hand.header["id"]) == record.pk
    assert int(hand.table["button"]) == record.button_seat + 1
    assert hand.table["table"] == record.table.name
    by_name = {p["username"]: p for p in record.players}
    assert hand.seats == {p["username"]: (p["seat"] + 1, p["stack_before"]) for p in record.players}
    # Blinds: the small and the big blind of the room, or all a short stack had.
    options = record.options
    for name, what, amount in hand.posts:
        blind = options["small_blind"] if what != "big blind" else options["big_blind"]
        assert amount == blind or amount == by_name[name]["stack_before"], (what, amount)
    # Every logged action, in order, by the player who made it.
    logged = list(HandAction.objects.filter(hand=record).order_by("index"))
    assert len(hand.actions) == len(logged)
    names = {p["seat"]: p["username"] for p in record.players}
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
    # Every chip: what a player had, less what went in, plus what came back and what they won,
    # is what they left with.
    for name, p in by_name.items():
        after = p["stack_before"] - hand.put_in[name] + hand.returned[name] + hand.collected[name]
        assert after == p["stack_after"], (name, p, hand.put_in[name], hand.returned[name])


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
    read = 0
    for _ in range(12):
        clock.advance(31)
        table.refresh_from_db()
        if not table.in_hand:
            break  # fewer than two players left with chips
        play_out(table, users, rng)
        record = HandRecord.objects.filter(table=table).order_by("-id").first()
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
