"""The multi-table tournament reads (RULES.md 9): whether it takes entries, its prize table, the
tournament as the lobby lists it (docs/protocol.md, `tournament`), the lobby's list of them, a
player's own entries in them, and the panel every one of its tables shows (docs/protocol.md,
"Multi-table tournaments").
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Case, Count, DateTimeField, F, Q, Value, When
from django.urls import reverse
from django.utils import timezone

from casino.accounts.models import User
from holdem.engine.tournament import payout_percents
from holdem.engine.tournament_tables import BASIS_POINTS, default_payouts, prizes_of
from holdem.models import (
    HandRecord,
    Seat,
    Table,
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStatus,
)
from holdem.selectors.game_state import epoch_ms
from holdem.selectors.tournaments import LISTED_AFTER_END, level_of, results_url


@dataclass(frozen=True)
class EntryCounts:
    """A tournament's entries, counted: all of them (re-entries included), those not out yet,
    and the tables with a player seated."""

    registered: int = 0
    alive: int = 0
    tables: int = 0


def entry_counts(tournament_ids: Iterable[int]) -> dict[int, EntryCounts]:
    """The EntryCounts of each tournament, in two queries however many there are."""
    ids = list(tournament_ids)
    entries = (
        TournamentEntry.objects.filter(tournament_id__in=ids)
        .values("tournament_id")
        .annotate(n=Count("id"), alive=Count("id", filter=Q(finished_at__isnull=True)))
        .order_by()
    )
    tables = (
        Seat.objects.filter(table__tournament_id__in=ids)
        .values("table__tournament_id")
        .annotate(n=Count("table_id", distinct=True))
        .order_by()
    )
    by_tables = {row["table__tournament_id"]: row["n"] for row in tables}
    counts = {pk: EntryCounts(tables=by_tables.get(pk, 0)) for pk in ids}
    for row in entries:
        pk = row["tournament_id"]
        counts[pk] = EntryCounts(row["n"], row["alive"], by_tables.get(pk, 0))
    return counts


def registration_open(tournament: Tournament, registered: int | None = None) -> bool:
    """RULES.md 9: entries are taken before the start, then until the end of level
    `late_registration_levels`, while there is room (`max_entrants`). `registered`: the entries
    taken so far, if the caller has counted them."""
    if tournament.status == TournamentStatus.REGISTERING:
        is_open = True
    elif tournament.status == TournamentStatus.RUNNING:
        is_open = tournament.level < tournament.late_registration_levels
    else:
        return False
    if is_open and tournament.max_entrants is not None:
        if registered is None:
            registered = tournament.entries.count()
        return registered < tournament.max_entrants
    return is_open


def payout_shares(tournament: Tournament, entrants: int) -> tuple[int, ...]:
    """Each paid place's share of the pool in basis points: the tournament's own table
    (`payouts`, percents by entrants, as a Sit & Go's) or the site's default (RULES.md 9)."""
    if tournament.payouts:
        return tuple(
            p * (BASIS_POINTS // 100) for p in payout_percents(entrants, tournament.payouts)
        )
    return default_payouts(entrants)


def places_paid(tournament: Tournament) -> int:
    """RULES.md 9: how many places the payout table in use pays for the entrants so far."""
    return len(payout_shares(tournament, max(2, tournament.entrants)))


def mtt_prize_table(tournament: Tournament, registered: int | None = None) -> list[int]:
    """RULES.md 9: the prize of each place paid, best first, for the entrants and pool as they
    stand (they grow with late entries until registration closes). `registered`: the entries
    taken so far, if the caller has counted them."""
    if not tournament.entrants and registered is None:
        registered = tournament.entries.count()
    entrants = max(2, tournament.entrants or registered or 0)
    pool = tournament.prize_pool or tournament.buy_in * entrants
    return prizes_of(pool, payout_shares(tournament, entrants))


def mtt_summary(tournament: Tournament, counts: EntryCounts | None = None) -> dict[str, Any]:
    """The tournament as the lobby lists it (docs/protocol.md, `tournament`). `counts`: its
    entry_counts, if the caller has read them (a list reads them for all its rows at once)."""
    if counts is None:
        counts = entry_counts([tournament.pk])[tournament.pk]
    registered, alive, tables = counts.registered, counts.alive, counts.tables
    entrants = tournament.entrants or registered
    prize_pool = tournament.prize_pool or tournament.buy_in * registered
    running = tournament.status == TournamentStatus.RUNNING
    return {
        "id": tournament.pk,
        "kind": "scheduled",
        "name": tournament.name,
        "status": tournament.status,
        "starts_at": epoch_ms(tournament.starts_at) if tournament.starts_at else None,
        "entrants": entrants,
        "registered": registered,
        "players_left": alive if running else None,
        "max_entrants": tournament.max_entrants,
        "structure": tournament.structure,
        "buy_in": tournament.buy_in,
        "fee": tournament.fee,
        "starting_stack": tournament.starting_stack,
        "level_seconds": tournament.level_seconds,
        "table_seats": tournament.seats,
        "tables": tables,
        "prize_pool": prize_pool,
        # At least two places are paid (RULES.md 9), however few have entered so far.
        "places_paid": len(mtt_prize_table(tournament, registered)),
        "registration_open": registration_open(tournament, registered),
        "late_registration_levels": tournament.late_registration_levels,
        "re_entries": tournament.re_entries,
        "level": level_of(tournament, tournament.level) if running else None,
        "level_ends_at": epoch_ms(tournament.level_ends_at)
        if running and tournament.level_ends_at
        else None,
        "hand_for_hand": tournament.hand_for_hand,
        "url": results_url(tournament.pk),
    }


def scheduled_listed(limit: int | None) -> tuple[list[dict[str, Any]], int]:
    """The lobby's list of scheduled tournaments (RULES.md 9), each as mtt_summary has it: those
    taking entries or running, the first to start first, then those that ended (finished or
    cancelled) in the last hour, the latest first. The first `limit` (None: all), ordered in
    SQL, in four queries whatever their number; and how many the whole list holds."""
    recent = timezone.now() - LISTED_AFTER_END
    live = [TournamentStatus.REGISTERING, TournamentStatus.RUNNING]
    listed = Tournament.objects.filter(kind=TournamentKind.SCHEDULED).filter(
        Q(status__in=live) | Q(finished_at__gte=recent)
    )
    ordered = listed.annotate(
        listed_order=Case(When(status__in=live, then=Value(0)), default=Value(1)),
        live_start=Case(
            When(status__in=live, then=F("starts_at")),
            default=Value(None),
            output_field=DateTimeField(),
        ),
    ).order_by(
        "listed_order",
        F("live_start").asc(nulls_last=True),
        F("finished_at").desc(nulls_last=True),
        "id",
    )
    tournaments = list(ordered if limit is None else ordered[:limit])
    total = len(tournaments) if limit is None or len(tournaments) < limit else listed.count()
    counts = entry_counts(t.pk for t in tournaments)
    return [mtt_summary(t, counts[t.pk]) for t in tournaments], total


# The player's part of a scheduled tournament they have not entered (mtt_entries_of's shape).
NOT_ENTERED: dict[str, Any] = {"entries": 0, "entered": False, "table_url": None}


def mtt_entries_of(user: User, tournament_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """The player's own part of each of these scheduled tournaments they entered (two queries):
    `entries` (how many, re-entries included), `entered` (one of them is not out: registered,
    or still playing) and `table_url` (where they sit in it now, or None). The lobby's row offers
    Register, Unregister or Re-enter from it (docs/protocol.md, `tournament`)."""
    ids = list(tournament_ids)
    mine: dict[int, dict[str, Any]] = {}
    rows = TournamentEntry.objects.filter(user=user, tournament_id__in=ids)
    for tournament_id, finished_at in rows.values_list("tournament_id", "finished_at"):
        part = mine.setdefault(tournament_id, dict(NOT_ENTERED))
        part["entries"] += 1
        part["entered"] = part["entered"] or finished_at is None
    seat = (
        Seat.objects.filter(user=user, table__tournament_id__in=list(mine))
        .values_list("table__tournament_id", "table_id")
        .first()
    )
    if seat is not None:
        mine[seat[0]]["table_url"] = reverse("table", args=[seat[1]])
    return mine


def mtt_table_panel(tournament: Tournament, table: Table) -> dict[str, Any]:
    """RULES.md 9, what every table shows: the players left, the average stack, each seat's
    rank by chips (the client shows its own player theirs), the level and the time to the next,
    what the next place to be decided pays, the places paid, and whether the tables play hand
    for hand. Two queries (the players left, the ranks) whatever the number of players; the
    caller reads it when it may have changed (holdem/services/notify.py), never on an action."""
    running = tournament.status == TournamentStatus.RUNNING
    left = tournament.entries.filter(finished_at__isnull=True).count() if running else 0
    prizes = mtt_prize_table(tournament)
    # RULES.md 9: the one to go out next, with `left` players in, takes place `left`.
    next_prize = (
        {"place": left, "prize": prizes[left - 1]} if running and 0 < left <= len(prizes) else None
    )
    # Every entry brought the starting stack, and tournament chips are never created or lost.
    chips_in_play = tournament.entrants * tournament.starting_stack
    return {
        "id": tournament.pk,
        "kind": "scheduled",
        "name": tournament.name,
        "status": tournament.status,
        "url": results_url(tournament.pk),
        **level_of(tournament, tournament.level),
        "next_level": level_of(tournament, tournament.level + 1),
        "level_ends_at": epoch_ms(tournament.level_ends_at) if running else None,
        "players_left": left,
        "entrants": tournament.entrants,
        "average_stack": chips_in_play // left if left else None,
        "ranks": seat_ranks(tournament.pk, table.pk) if running else {},
        "buy_in": tournament.buy_in,
        "fee": tournament.fee,
        "prize_pool": tournament.prize_pool,
        "places_paid": len(prizes),
        "next_prize": next_prize,
        "hand_for_hand": tournament.hand_for_hand,
    }


# A player's chips for the ranking: their stack between hands; while their table plays a hand,
# what they began it with (their seat's stack is 0 then: the chips are in the hand's state, and
# the hand's record keeps each player's `stack_before`). The JSON functions differ between the
# two databases the site runs on; the rest of the query does not (as holdem/selectors/stats.py).
_STACK_BEFORE = {
    "postgresql": (
        "LEFT JOIN LATERAL jsonb_array_elements(h.players) AS p(value)"
        " ON (p.value ->> 'user_id')::bigint = s.user_id",
        "(p.value ->> 'stack_before')::bigint",
    ),
    "sqlite": (
        "LEFT JOIN json_each(h.players) AS p"
        " ON CAST(json_extract(p.value, '$.user_id') AS INTEGER) = s.user_id",
        "CAST(json_extract(p.value, '$.stack_before') AS INTEGER)",
    ),
}


def seat_ranks(tournament_id: int, table_id: int) -> dict[str, int]:
    """RULES.md 9, "your rank by chips": {seat number: rank} for the seats of `table` with
    chips, among every player of the tournament (1 is the biggest stack; equal stacks share a
    rank). One aggregate query: the database ranks the stacks and returns this table's rows."""
    join, stack_before = _STACK_BEFORE[connection.vendor]
    sql = f"""
        WITH chips AS (
            SELECT s.table_id, s.number, COALESCE({stack_before}, s.stack) AS chips
            FROM {Seat._meta.db_table} s
            JOIN {Table._meta.db_table} t ON t.id = s.table_id
            LEFT JOIN {HandRecord._meta.db_table} h ON h.id = t.hand_id AND s.in_hand
            {join}
            WHERE t.tournament_id = %s
        )
        SELECT number, place FROM (
            SELECT table_id, number, RANK() OVER (ORDER BY chips DESC) AS place
            FROM chips WHERE chips > 0
        ) ranked
        WHERE table_id = %s
    """  # the table names come from the models; every value is a parameter
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament_id, table_id])
        return {str(number): place for number, place in cursor.fetchall()}
