"""What a multi-table tournament must show whenever it is looked at (RULES.md 9), for the service
tests (tests/holdem/test_multi_table.py), the socket test (tests/realtime/test_mtt_socket.py) and
the real-process ones (tests/integration/test_mtt_*.py).

Played by the services with a test clock, the tournament is looked at between steps; played by
real sockets and a real clock, tables deal and end hands while it is looked at, so `observe`
reads the whole tournament in one REPEATABLE READ transaction (one snapshot of the database: what
one table's transaction wrote is there whole or not at all) and `Observer` checks each snapshot:
every live entrant sits once, the chips are all there, and no move the clock owes lingers.
"""

import time
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import Max, Sum
from django.utils import timezone

from casino.accounts.models import LedgerEntry, LedgerKind
from holdem import engine
from holdem.engine.tournament_tables import TableSeats, balance_moves, table_to_break
from holdem.models import HandRecord, Seat, Table, TableStatus, Tournament, TournamentStatus
from holdem.selectors.audit import audit_chips
from holdem.selectors.multi_table import mtt_prize_table
from holdem.services.multi_table import tournament_schedule
from tests.holdem.conftest import chips_everywhere
from tests.mtt_bots import DOUBLING_BLINDS

# -- a tournament quick to play ---------------------------------------------------------------

# Seconds a move the clock owes may wait for its sweep (beat runs it every second).
OWED_AT_MOST = 5


def quick_tournament(name, **options):
    """A scheduled tournament of 6-seat tables (unless `options` say), 500-chip stacks and
    15-second doubling levels, an hour away (the test brings its start forward)."""
    options.setdefault("starts_at", timezone.now() + timedelta(hours=1))
    options.setdefault("seats", 6)
    options.setdefault("starting_stack", 500)
    options.setdefault("level_seconds", 15)
    options.setdefault("blind_schedule", DOUBLING_BLINDS)
    options.setdefault("buy_in", 100)
    options.setdefault("fee", 10)
    options.setdefault("turn_seconds", 20)
    options.setdefault("time_bank_seconds", 0)
    return tournament_schedule(name=name, **options)


# -- between the steps of a test clock ---------------------------------------------------------


def open_tables(tournament):
    return list(Table.objects.filter(tournament=tournament, status=TableStatus.OPEN).order_by("id"))


def tournament_chips(tournament):
    """Every tournament chip: in the seats and in the hands in play."""
    in_seats = Seat.objects.filter(table__tournament=tournament).aggregate(s=Sum("stack"))["s"]
    in_hands = sum(
        engine.state_from_json(t.hand_state).total_chips
        for t in Table.objects.filter(tournament=tournament)
        if t.in_hand
    )
    return (in_seats or 0) + in_hands


def check_invariants(tournament):
    """Each live entrant sits once, every seat of a table once, the chips are all there."""
    tournament.refresh_from_db()
    live = set(
        tournament.entries.filter(finished_at__isnull=True).values_list("user_id", flat=True)
    )
    seated = list(
        Seat.objects.filter(table__tournament=tournament).values_list("user_id", flat=True)
    )
    assert len(seated) == len(set(seated))
    if tournament.status == TournamentStatus.RUNNING:
        assert set(seated) == live
        assert tournament_chips(tournament) == tournament.entrants * tournament.starting_stack
    chips_everywhere()


def assert_balanced(tournament):
    """RULES.md 9: once the clock has dealt and moved, a table with two players more than
    another is one still playing its hand (it gives a player up when the hand ends)."""
    tables = [t for t in open_tables(tournament) if t.seat_set.exists()]
    if len(tables) < 2:
        return
    counts = {t.pk: t.seat_set.count() for t in tables}
    emptiest = min(counts.values())
    for table in tables:
        if counts[table.pk] - emptiest >= 2:
            assert table.in_hand, f"table {table.pk} deals no hand with {counts}"


# -- while the tables play: one snapshot at a time ---------------------------------------------


@dataclass(frozen=True)
class TableView:
    id: int
    seats: int
    big_blind_seat: int | None
    stacks: dict[int, int]  # seat number -> stack
    users: dict[int, int]  # seat number -> user id
    in_hand: bool
    in_play: int  # the chips of the hand in play (bets and pots included), 0 between hands

    @property
    def players(self) -> int:
        return len(self.users)

    def seats_taken(self) -> TableSeats:
        return TableSeats(self.id, self.seats, tuple(sorted(self.users)), self.big_blind_seat)


@dataclass(frozen=True)
class TournamentView:
    """A tournament as one snapshot of the database shows it."""

    status: str
    entrants: int
    starting_stack: int
    hand_for_hand: bool
    live: frozenset[int]  # the user ids of the entries still in
    seated: tuple[int, ...]  # the user id of every seat at its tables, one per seat
    seat_keys: tuple[tuple[int, int], ...]  # (table id, seat number) of every seat, likewise
    tables: dict[int, TableView]  # the open tables
    hands_ended: int  # hand records of its tables that have ended
    last_hand: int  # the id of the last hand record of its tables, ended or not
    audit_ok: bool | None  # the chip audit of the whole site in the same snapshot, if asked

    @property
    def chips(self) -> int:
        return sum(sum(t.stacks.values()) + t.in_play for t in self.tables.values())

    def user_table(self) -> dict[int, int]:
        return {u: t.id for t in self.tables.values() for u in t.users.values()}


def observe(tournament_id: int, *, audit: bool = False) -> TournamentView:
    """The tournament in one snapshot: its row, its entries, its tables, their seats and hands
    (and, with `audit`, the site's chip audit), all as of one moment."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        tournament = Tournament.objects.get(pk=tournament_id)
        live = frozenset(
            tournament.entries.filter(finished_at__isnull=True).values_list("user_id", flat=True)
        )
        tables = {}
        for table in Table.objects.filter(tournament_id=tournament_id, status=TableStatus.OPEN):
            state = engine.state_from_json(table.hand_state) if table.in_hand else None
            tables[table.pk] = TableView(
                id=table.pk,
                seats=table.seats,
                big_blind_seat=table.big_blind_seat,
                stacks={},
                users={},
                in_hand=table.in_hand,
                in_play=state.total_chips if state is not None else 0,
            )
        seated, seat_keys = [], []
        for table_id, number, user_id, stack in Seat.objects.filter(
            table__tournament_id=tournament_id
        ).values_list("table_id", "number", "user_id", "stack"):
            seated.append(user_id)
            seat_keys.append((table_id, number))
            if table_id in tables:
                tables[table_id].stacks[number] = stack
                tables[table_id].users[number] = user_id
        hands = HandRecord.objects.filter(table__tournament_id=tournament_id)
        return TournamentView(
            status=tournament.status,
            entrants=tournament.entrants,
            starting_stack=tournament.starting_stack,
            hand_for_hand=tournament.hand_for_hand,
            live=live,
            seated=tuple(seated),
            seat_keys=tuple(seat_keys),
            tables=tables,
            hands_ended=hands.filter(ended_at__isnull=False).count(),
            last_hand=hands.aggregate(last=Max("id"))["last"] or 0,
            audit_ok=audit_chips().ok if audit else None,
        )


def table_breaking(view: TournamentView) -> int | None:
    """The table whose players fit at the other tables' free seats (RULES.md 9), which breaks
    once it is between hands; None if none."""
    tables = list(view.tables.values())
    return table_to_break([t.seats_taken() for t in tables]) if len(tables) >= 2 else None


def owed_moves(view: TournamentView) -> bool:
    """Whether the clock owes a move now: a table between hands must give a player up or break
    (RULES.md 9), which the next sweep does (tournaments_rebalance_due). In hand for hand no
    move is made while a table plays its hand."""
    tables = list(view.tables.values())
    if len(tables) < 2 or (view.hand_for_hand and any(t.in_hand for t in tables)):
        return False
    state = [t.seats_taken() for t in tables]
    breaking = table_to_break(state)
    if breaking is not None and not view.tables[breaking].in_hand:
        return True
    moves = balance_moves(state)
    return bool(moves) and not view.tables[moves[0].from_table].in_hand


def check_view(view: TournamentView) -> None:
    """RULES.md 9, on one snapshot of a running tournament: nobody sits twice, no seat is given
    twice nor kept at a table that closed, every live entrant
    sits, every tournament chip is in a seat or in a hand in play; and unless the clock owes a
    move (`owed_moves`), a table with two players more than another is in a hand, or waits for
    the fullest table, which is (the player who moves comes from the fullest table, between
    its hands). Also the audit, if the snapshot has it."""
    assert len(view.seated) == len(set(view.seated)), f"a player sits twice: {view.seated}"
    assert len(view.seat_keys) == len(set(view.seat_keys)), f"a seat given twice: {view.seat_keys}"
    assert all(table in view.tables for table, _ in view.seat_keys), "a seat at a closed table"
    if view.audit_ok is not None:
        assert view.audit_ok, "the chip audit failed"
    if view.status != TournamentStatus.RUNNING:
        return
    assert set(view.seated) == view.live, (
        f"seated but out: {set(view.seated) - view.live}, in but not seated: "
        f"{view.live - set(view.seated)}"
    )
    assert view.chips == view.entrants * view.starting_stack, (
        f"{view.chips} tournament chips, {view.entrants} x {view.starting_stack} entered"
    )
    tables = [t for t in view.tables.values() if t.players]
    if len(tables) < 2 or owed_moves(view):
        return
    if view.hand_for_hand and any(t.in_hand for t in tables):
        return
    emptiest = min(t.players for t in tables)
    fullest = min(tables, key=lambda t: (-t.players, t.id))
    for table in tables:
        if table.players - emptiest >= 2:
            counts = {t.id: (t.players, t.in_hand) for t in tables}
            assert table.in_hand or fullest.in_hand, f"unbalanced between hands: {counts}"


@dataclass
class Observer:
    """Looks at a tournament over and over while it is played (`look`), checks each snapshot
    (`check_view`), and keeps what the test asserts at the end: how many snapshots, the hands
    seen ended, the longest a move stayed owed, and how many times a player was seen at another
    table than in the snapshot before."""

    tournament_id: int
    audit_every: int = 10  # the whole site's audit in every tenth snapshot (it costs more)
    views: int = 0
    hands_seen: int = 0
    owed_since: float | None = None
    longest_owed: float = 0.0
    moves_seen: int = 0
    last: TournamentView | None = None

    def look(self) -> TournamentView:
        view = observe(self.tournament_id, audit=self.views % self.audit_every == 0)
        self.views += 1
        check_view(view)
        now = time.monotonic()
        if owed_moves(view):
            self.owed_since = self.owed_since or now
            self.longest_owed = max(self.longest_owed, now - self.owed_since)
        else:
            self.owed_since = None
        if self.last is not None:
            was = self.last.user_table()
            self.moves_seen += sum(
                1 for user, table in view.user_table().items() if was.get(user, table) != table
            )
        self.hands_seen = max(self.hands_seen, view.hands_ended)
        self.last = view
        return view


def check_stacks_follow_their_players(tournament) -> int:
    """RULES.md 9: no chip goes from one table to another but with its player. Every player's
    hands, at whichever tables, in the order they were dealt: each begins with the stack the
    one before ended with (a move takes the stack along, whole), the first of an entry with the
    starting stack; the last one's end is the stack the player sits with now (0 if out).
    Returns the number of a player's hands checked."""
    stack = tournament.starting_stack
    chains: dict[int, int | None] = {}  # user id -> the stack their last hand ended with
    checked = 0
    hands = HandRecord.objects.filter(table__tournament=tournament).order_by("id")
    for record in hands.only("id", "players", "ended_at"):
        for player in record.players:
            user = player["user_id"]
            before = chains.get(user)
            if before is None or before == 0:
                before = stack  # a first entry, or a re-entry after going out
            assert player["stack_before"] == before, (record.pk, player, before)
            chains[user] = player.get("stack_after") if record.ended_at else None
            checked += 1
    seated = dict(Seat.objects.filter(table__tournament=tournament).values_list("user_id", "stack"))
    for user, ended_with in chains.items():
        if ended_with is not None and user in seated:
            assert seated[user] == ended_with, (user, seated[user], ended_with)
    return checked


# -- the end: places and prizes ----------------------------------------------------------------


def check_places_and_prizes(tournament, prize_table=None):
    """RULES.md 8 and 9, once the tournament is over: one winner, the places walk down to the
    last, each group placed together shares the prizes of the places it takes (a chip apart at
    most), the prizes are the payout table's (`prize_table`, best first; the tournament's own
    by default: mtt_prize_table) and add up to the pool, and the ledger paid each entry's
    prize. Returns the entries by place."""
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    prizes = list(prize_table if prize_table is not None else mtt_prize_table(tournament))
    entries = list(tournament.entries.select_related("user").order_by("place", "id"))
    assert all(e.place is not None for e in entries), "every entry is placed"
    prizes += [0] * (len(entries) - len(prizes))
    assert sum(e.place == 1 for e in entries) == 1
    by_place = {}
    for entry in entries:
        by_place.setdefault(entry.place, []).append(entry.prize)
    expected = 1
    for place in sorted(by_place):
        shared = by_place[place]
        assert place == expected, f"place {place} after {expected - 1} places"
        assert sum(shared) == sum(prizes[place - 1 : place - 1 + len(shared)]), (place, shared)
        assert max(shared) - min(shared) <= 1
        expected += len(shared)
    assert expected == len(entries) + 1
    assert sum(e.prize for e in entries) == tournament.prizes_paid == tournament.prize_pool
    ledger = {}
    paid = LedgerEntry.objects.filter(
        kind=LedgerKind.TOURNAMENT_PRIZE, user_id__in=[e.user_id for e in entries]
    )
    for user_id, amount in paid.values_list("user_id", "amount"):
        ledger[user_id] = ledger.get(user_id, 0) + amount
    owed = {}
    for entry in entries:
        if entry.prize:
            owed[entry.user_id] = owed.get(entry.user_id, 0) + entry.prize
    assert ledger == owed, (ledger, owed)
    return entries
