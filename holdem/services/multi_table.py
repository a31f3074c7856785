"""Multi-table tournaments (RULES.md 9): scheduling, registration (late and re-entry), the start
over as few tables as hold the entrants, balancing and breaking tables between hands, hand for
hand on the bubble, one level clock for every table, and the places and prizes across tables.
The arithmetic of where players sit is holdem/engine/tournament_tables.py; what a Sit & Go and a
multi-table tournament share (refunds, the level clock, the lobby frame) is
holdem/services/tournaments.py.

The places and prizes a hand's end decides are holdem/services/tournament_places.py.

Lock order (docs/decisions.md, Tournaments): the tournament's tables in increasing id, then the
tournament row, then wallets. A table's own transaction (an action, the end of a hand, a deal)
holds that table and may take the tournament row after it, never a second table: whatever needs
two tables (a move, a break, a late entrant, a level) starts again from the first of them.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from casino.accounts.models import User
from casino.accounts.services import wallet_lock
from casino.errors import DomainError
from holdem.db import rows
from holdem.db.locks import LockedTable, table_lock
from holdem.engine.names import FIXED_LIMIT
from holdem.engine.tournament import payout_percents
from holdem.engine.tournament_tables import (
    Move,
    TableSeats,
    balance_moves,
    break_moves,
    hand_for_hand,
    late_entry_table,
    seat_nearest_big_blind,
    seating_at_start,
    table_to_break,
)
from holdem.models import (
    Seat,
    Table,
    TableKind,
    TableStatus,
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStatus,
)
from holdem.realtime.broadcast import frame_message, send_on_commit, user_socket_group
from holdem.selectors.multi_table import places_paid, registration_open
from holdem.selectors.tournaments import level_of
from holdem.services.notify import TableChange, notify_table
from holdem.services.shuffle import RandomSourceFailed, random_source
from holdem.services.tournament_places import places_settle
from holdem.services.tournaments import (
    BETWEEN_HANDS_SECONDS,
    FIRST_HAND_SECONDS,
    entry_charge,
    lobby_announce,
    refund,
    starting_seat,
    tournament_label,
    tournament_locked,
    tournament_next_day,
    tournament_running,
    tournament_table_create,
)


def tournament_schedule(
    *,
    name: str,
    starts_at: datetime,
    buy_in: int,
    fee: int = 0,
    seats: int = 9,
    starting_stack: int = 3000,
    level_seconds: int = 600,
    structure: str = "no_limit",
    blind_schedule: Sequence[Sequence[int]] = (),
    late_registration_levels: int = 4,
    re_entries: int = 0,
    max_entrants: int | None = None,
    repeat_daily: bool = False,
    turn_seconds: int = 60,
    time_bank_seconds: int = 30,
    auto_muck: bool = True,
    payouts: Sequence[Sequence[object]] = (),
) -> Tournament:
    """Staff schedule a multi-table tournament (RULES.md 9); the lobby lists it at once.
    `payouts`: [[up to N entrants, [percent of 1st, 2nd, ...]], ...]; empty: the site's default
    table (docs/rules.md 9)."""
    tournament = Tournament(
        kind=TournamentKind.SCHEDULED,
        name=name,
        starts_at=starts_at,
        buy_in=buy_in,
        fee=fee,
        seats=seats,
        starting_stack=starting_stack,
        level_seconds=level_seconds,
        structure=structure,
        blind_schedule=[list(level) for level in blind_schedule],
        payouts=[list(row) for row in payouts],
        late_registration_levels=late_registration_levels,
        re_entries=re_entries,
        max_entrants=max_entrants,
        repeat_daily=repeat_daily,
        turn_seconds=turn_seconds,
        time_bank_seconds=time_bank_seconds,
        auto_muck=auto_muck,
    )
    tournament_check(tournament)
    tournament.save()
    lobby_announce(tournament)
    return tournament


# The demo's daily tournament (manage.py seed_demo, `make run`).
DEMO_TOURNAMENT = {
    "name": "Daily Hold'em",
    "buy_in": 1_000,
    "fee": 100,
    "seats": 9,
    "starting_stack": 3_000,
    "level_seconds": 300,
    "late_registration_levels": 4,
    "re_entries": 1,
    "repeat_daily": True,
}


def tournament_demo_seed(now: datetime) -> Tournament:
    """The demo's daily tournament, scheduled at the next whole hour unless one is taking
    entries; it repeats itself daily from then on."""
    taking = Tournament.objects.filter(
        kind=TournamentKind.SCHEDULED,
        name=DEMO_TOURNAMENT["name"],
        status=TournamentStatus.REGISTERING,
    ).first()
    if taking is not None:
        return taking
    starts_at = now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    return tournament_schedule(starts_at=starts_at, **DEMO_TOURNAMENT)  # type: ignore[arg-type]


def tournament_check(tournament: Tournament) -> None:
    """Why a scheduled tournament's figures cannot be played (DomainError), or nothing."""
    for field, check in (
        ("blind_schedule", lambda: level_of(tournament, 0)),
        ("payouts", lambda: tournament.payouts and payout_percents(2, tournament.payouts)),
    ):
        try:
            check()
        except (ValueError, TypeError) as error:
            raise DomainError("bad_tournament", str(error), fields={field: str(error)}) from None
    if not 2 <= tournament.seats <= 10:
        raise DomainError("bad_tournament", "a table has 2 to 10 seats")
    if tournament.buy_in < 1 or tournament.starting_stack < 2 or tournament.level_seconds < 1:
        raise DomainError(
            "bad_tournament", "the buy-in, the starting stack and the level must be positive"
        )
    if tournament.max_entrants is not None and tournament.max_entrants < 2:
        raise DomainError("bad_tournament", "a tournament needs room for two entrants or more")


def _tables_locked(tournament_id: int) -> list[LockedTable]:
    """Lock the tournament's tables still playing, in increasing id (the lock order). A table
    that broke between the reading of the ids and its lock is left out: read under the lock,
    it is closed (a late entrant was once seated at such a table, empty and so the emptiest)."""
    ids = Table.objects.filter(tournament_id=tournament_id).exclude(status=TableStatus.CLOSED)
    locked = [table_lock(pk) for pk in sorted(ids.values_list("pk", flat=True))]
    return [table for table in locked if table.status != TableStatus.CLOSED]


def mtt_register(*, tournament_id: int, user: User, now: datetime | None = None) -> Tournament:
    """RULES.md 9: enter a scheduled tournament before it starts, or late while registration is
    open (seated at once at the table with the fewest players), or again after being knocked out
    where the tournament allows re-entry. The buy-in and fee leave the wallet as two ledger
    lines."""
    now = now or timezone.now()
    for _attempt in range(3):
        with transaction.atomic():
            tables = _tables_locked(tournament_id)
            tournament = tournament_locked(tournament_id)
            if tournament.status == TournamentStatus.RUNNING and not tables:
                continue  # it started after the tables were read: lock them, then register
            return _register(tournament, tables, user, now)
    raise DomainError("busy", "the tournament is starting; try again in a moment")


def _register(
    tournament: Tournament, tables: list[LockedTable], user: User, now: datetime
) -> Tournament:
    if tournament.kind != TournamentKind.SCHEDULED:
        raise DomainError("not_scheduled", "this is a Sit & Go: register in its lobby row")
    late = tournament.status == TournamentStatus.RUNNING
    if not (
        tournament.status == TournamentStatus.REGISTERING
        or (late and tournament.level < tournament.late_registration_levels)
    ):
        raise DomainError("registration_closed", "this tournament no longer takes entries")
    before = tournament.entries.filter(user=user).count()
    most = tournament.max_entrants
    refusal = None
    if before > tournament.re_entries:
        refusal = DomainError(
            "no_re_entry",
            "you have used every re-entry this tournament allows"
            if tournament.re_entries
            else "this tournament allows no re-entry",
        )
    elif most is not None and tournament.entries.count() >= most:
        refusal = DomainError("tournament_full", "this tournament has taken all its entries")
    entry_charge(tournament, user, again=before > 0, refusal=refusal)
    entry = TournamentEntry.objects.create(
        tournament=tournament, user=user, number=before + 1, registered_at=now
    )
    if late:
        tournament.entrants += 1
        tournament.prize_pool += tournament.buy_in
        tournament.save(update_fields=["entrants", "prize_pool"])
        _seat_late_entrant(tournament, tables, entry, now)
    lobby_announce(tournament)
    return tournament


def _table_seats(tables: Iterable[Table], seats: Iterable[tuple[int, int]]) -> list[TableSeats]:
    taken: dict[int, list[int]] = {t.pk: [] for t in tables}
    for table_id, number in seats:
        if table_id in taken:
            taken[table_id].append(number)
    return [TableSeats(t.pk, t.seats, tuple(sorted(taken[t.pk])), t.big_blind_seat) for t in tables]


def _seats_of(tables: Sequence[Table]) -> list[TableSeats]:
    pairs = Seat.objects.filter(table__in=[t.pk for t in tables]).values_list("table_id", "number")
    return _table_seats(tables, pairs)


def _seat_late_entrant(
    tournament: Tournament, tables: list[LockedTable], entry: TournamentEntry, now: datetime
) -> None:
    """RULES.md 9: a late entrant takes the starting stack at the table with the fewest players
    and waits for the big blind (RULES.md 2); with every table full, a new table opens and the
    balancing fills it."""
    state = _seats_of(tables)
    if any(t.free for t in state):
        target_id = late_entry_table(state)
        target = next(t for t in tables if t.pk == target_id)
        number = seat_nearest_big_blind(next(t for t in state if t.table == target_id))
    else:
        # Numbered after every table it had, the broken ones too (table names are unique).
        target = _table_open(tournament, tournament.tables.count() + 1)
        tables.append(target)
        number = 0
    seat = starting_seat(tournament, target, number, entry.user, waiting_for_big_blind=True)
    seat.save()
    _countdown_if_idle(target, now)
    notify_table(
        target,
        TableChange(
            "seated",
            {"seat": number, "username": entry.user.username, "stack": seat.stack},
        ),
    )
    _tell_player(tournament, entry.user_id, target, "tournament_started")


def _table_open(tournament: Tournament, number: int) -> LockedTable:
    """A new table of the tournament (its `number`-th), at the level in force."""
    table = tournament_table_create(
        tournament,
        kind=TableKind.TOURNAMENT,
        name=f"{tournament_label(tournament)} · table {number}",
    )
    return table_lock(table.pk)


def _countdown_if_idle(table: LockedTable, now: datetime) -> None:
    """A table between hands with two players or more and no countdown gets one."""
    if table.in_hand or table.next_hand_at is not None or table.status != TableStatus.OPEN:
        return
    if Seat.objects.filter(table=table, stack__gt=0).count() >= 2:
        table.next_hand_at = now + timedelta(seconds=BETWEEN_HANDS_SECONDS)
        rows.save_fields(table, ["next_hand_at"])


def _tell_player(tournament: Tournament, user_id: int, table: Table, kind: str) -> None:
    """After commit, the player's own socket hears where they play now (their pages follow)."""
    frame = {
        "type": kind,
        "tournament": {
            "id": tournament.pk,
            "name": tournament.name,
            "table_id": table.pk,
            "table_url": reverse("table", args=[table.pk]),
        },
    }
    send_on_commit([(user_socket_group(user_id), frame_message(frame))])


def tournaments_start_due(now: datetime) -> int:
    """RULES.md 9: the scheduled tournaments whose time has come start (two entrants or more) or
    are cancelled with every entry refunded. Returns how many started or were cancelled."""
    due = Tournament.objects.filter(
        kind=TournamentKind.SCHEDULED, status=TournamentStatus.REGISTERING, starts_at__lte=now
    )
    done = 0
    for tournament_id in list(due.values_list("pk", flat=True)):
        with transaction.atomic():
            tournament = tournament_locked(tournament_id)
            if tournament.status != TournamentStatus.REGISTERING:
                continue
            entries = list(tournament.entries.select_related("user").order_by("id"))
            if len(entries) < 2:
                _cancel(tournament, entries, now, why="Fewer than two entrants")
            else:
                try:
                    _start(tournament, entries, now)
                except RandomSourceFailed:
                    continue  # docs/fairness.md: no draw from anything else; next second
            if tournament.repeat_daily:
                tournament_next_day(tournament)
            done += 1
    return done


def _cancel(
    tournament: Tournament, entries: list[TournamentEntry], now: datetime, *, why: str
) -> None:
    wallet_lock(user_ids=[e.user_id for e in entries])
    for entry in entries:
        refund(tournament, entry, why=why)
    tournament.entries.all().delete()
    tournament.status = TournamentStatus.CANCELLED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    lobby_announce(tournament)


def _start(tournament: Tournament, entries: list[TournamentEntry], now: datetime) -> None:
    """RULES.md 9: the entrants at random over as few tables as hold them, the first hands 10 s
    away, the level clock started, the players told where they sit."""
    seating = seating_at_start(entries, tournament.seats, random_source())
    first_hand_at = now + timedelta(seconds=FIRST_HAND_SECONDS)
    # RULES.md 9: a field one player larger than the places paid is on the bubble from the
    # first hand (once no more can enter).
    tournament.status = TournamentStatus.RUNNING  # registration_open reads it
    tournament.hand_for_hand = not registration_open(tournament) and hand_for_hand(
        len(entries), places_paid(tournament)
    )
    tournament.hand_round = 1 if tournament.hand_for_hand else 0
    tournament_running(tournament, entrants=len(entries), now=now, first_hand_at=first_hand_at)
    for index, seated in enumerate(seating, start=1):
        table = _table_open(tournament, index)
        Seat.objects.bulk_create(
            starting_seat(tournament, table, number, entry.user) for number, entry in seated
        )
        table.next_hand_at = first_hand_at
        rows.save_fields(table, ["next_hand_at"])
        for _number, entry in seated:
            _tell_player(tournament, entry.user_id, table, "tournament_started")
    lobby_announce(tournament)


# -- between hands: holds, moves, breaks ------------------------------------------------------


@dataclass(frozen=True)
class Hold:
    """Why a table of a tournament does not deal now (it looks again in HOLD_SECONDS)."""

    reason: str  # "balancing" or "hand_for_hand"


def mtt_hold(table: LockedTable) -> Hold | None:
    """RULES.md 9: whether `table` (locked, between hands) must wait instead of dealing: it has
    a player to give up or is breaking, or hand for hand has it wait for the other tables. Read
    without their locks; tournament_rebalance decides again under them."""
    assert table.tournament_id is not None  # a tournament's table
    tournament = Tournament.objects.get(pk=table.tournament_id)
    if tournament.status != TournamentStatus.RUNNING:
        return None
    others = list(
        Table.objects.filter(tournament=tournament, status=TableStatus.OPEN).only(
            "id", "seats", "big_blind_seat", "hand_state", "tournament_round"
        )
    )
    if tournament.hand_for_hand:
        if table.tournament_round >= tournament.hand_round:
            return Hold("hand_for_hand")
        behind = [t for t in others if t.in_hand and t.tournament_round < tournament.hand_round]
        if behind:
            return Hold("hand_for_hand")
    state = _seats_of(others)
    breaking = table_to_break(state)
    sources = {breaking} if breaking is not None else {m.from_table for m in balance_moves(state)}
    if table.pk in sources:
        return Hold("balancing")
    if tournament.hand_for_hand and sources:
        # Between two rounds every table waits for the moves, which need every table between
        # hands: a table that dealt first would keep them from ever being made.
        return Hold("balancing")
    return None


def mtt_dealing(table: LockedTable) -> None:
    """The table deals (mtt_hold let it): in hand for hand, the hand is the current round's."""
    assert table.tournament_id is not None  # a tournament's table
    tournament = Tournament.objects.only("hand_for_hand", "hand_round").get(pk=table.tournament_id)
    if tournament.hand_for_hand and table.tournament_round != tournament.hand_round:
        table.tournament_round = tournament.hand_round
        rows.save_fields(table, ["tournament_round"])


def tournaments_rebalance_due(now: datetime) -> int:
    """The clock's sweep: every running multi-table tournament whose tables need a move or a
    break that can be made now (its source between hands) gets it. Read first without locks,
    so a second with nothing to do costs two queries a tournament. Returns the players moved."""
    running = Tournament.objects.filter(
        kind=TournamentKind.SCHEDULED, status=TournamentStatus.RUNNING
    ).values_list("pk", "hand_for_hand")
    moved = 0
    for tournament_id, in_step in list(running):
        tables = list(
            Table.objects.filter(tournament_id=tournament_id, status=TableStatus.OPEN).only(
                "id", "seats", "big_blind_seat", "hand_state"
            )
        )
        if len(tables) < 2 or (in_step and any(t.in_hand for t in tables)):
            continue
        between = {t.pk for t in tables if not t.in_hand}
        state = _seats_of(tables)
        breaking = table_to_break(state)
        sources = (
            {breaking} if breaking is not None else {m.from_table for m in balance_moves(state)}
        )
        if sources & between:
            moved += tournament_rebalance(tournament_id, now)
    return moved


def tournament_rebalance(tournament_id: int, now: datetime | None = None) -> int:
    """RULES.md 9: carry out the moves the tournament's tables need now, under their locks: break
    the table whose players fit elsewhere, else balance; a player moves only from a table between
    hands (a table in a hand gives its player up once it ends). In hand for hand, only between
    rounds. Returns the number of players moved."""
    now = now or timezone.now()
    with transaction.atomic():
        tables = _tables_locked(tournament_id)
        tournament = tournament_locked(tournament_id)
        if tournament.status != TournamentStatus.RUNNING or len(tables) < 2:
            return 0
        if tournament.hand_for_hand and any(t.in_hand for t in tables):
            return 0
        by_id = {t.pk: t for t in tables}
        state = _seats_of(tables)
        breaking = table_to_break(state)
        if breaking is not None and not by_id[breaking].in_hand:
            moves = break_moves(state, breaking)
        else:
            breaking = None
            moves = []
            for move in balance_moves(state):
                if by_id[move.from_table].in_hand:
                    break  # the moves after it were worked out with it made
                moves.append(move)
        seats = {
            (s.table_id, s.number): s
            for s in Seat.objects.select_for_update()
            .filter(table__in=list(by_id))
            .select_related("user")
            .order_by("pk")
        }
        for move in moves:
            _move(tournament, seats.pop((move.from_table, move.from_seat)), by_id, move, now)
        if breaking is not None:
            closing = by_id[breaking]
            closing.status = TableStatus.CLOSED
            closing.next_hand_at = None
            rows.save_fields(closing, ["status", "next_hand_at"])
            notify_table(closing, TableChange("closed"))
        if moves:
            lobby_announce(tournament)
        return len(moves)


def _move(
    tournament: Tournament, seat: Seat, tables: dict[int, LockedTable], move: Move, now: datetime
) -> None:
    """One player and their chips from one table to a free seat of another, between hands there:
    dealt in at the target's next hand, as RULES.md 9 says."""
    from_table, to_table, to_seat = tables[move.from_table], tables[move.to_table], move.to_seat
    user = seat.user
    kept = {
        name: getattr(seat, name)
        for name in (
            "stack",
            "sitting_out",
            "disconnected",
            "connection_lost_at",
            "auto_muck",
            "time_bank_ms",
            "timeouts_in_row",
            "sat_out_idle",
        )
    }
    seat.delete()
    notify_table(
        from_table,
        TableChange(
            "moved_out",
            {"seat": seat.number, "username": user.username, "to_table": to_table.pk},
            also_tell=(user,),
        ),
    )
    Seat.objects.create(table=to_table, number=to_seat, user=user, **kept)
    _countdown_if_idle(to_table, now)
    notify_table(
        to_table,
        TableChange(
            "moved_in",
            {
                "seat": to_seat,
                "username": user.username,
                "stack": kept["stack"],
                "from_table": from_table.pk,
            },
        ),
    )
    _tell_player(tournament, user.pk, to_table, "tournament_moved")


# -- the level clock, and the end of late registration ----------------------------------------


def tournament_levels_fire_due(now: datetime) -> int:
    """RULES.md 8 and 9: the levels whose time is up move on, for every table of the tournament
    at once (the next hand dealt at each plays the new blinds). Returns how many moved."""
    due = Tournament.objects.filter(status=TournamentStatus.RUNNING, level_ends_at__lte=now)
    moved = 0
    for tournament_id in list(due.values_list("pk", flat=True)):
        with transaction.atomic():
            tables = _tables_locked(tournament_id)  # the lock order: tables, then tournament
            tournament = tournament_locked(tournament_id)
            ends = tournament.level_ends_at
            if tournament.status != TournamentStatus.RUNNING or ends is None or ends > now:
                continue
            tournament.level += 1
            tournament.level_ends_at = max(ends, now) + timedelta(seconds=tournament.level_seconds)
            tournament.save(update_fields=["level", "level_ends_at"])
            level = level_of(tournament, tournament.level)
            for table in tables:
                # The room's stakes show the level in force.
                table.small_blind, table.big_blind = level["small_blind"], level["big_blind"]
                fields = ["small_blind", "big_blind"]
                if table.structure == FIXED_LIMIT:
                    table.small_bet, table.big_bet = level["big_blind"], 2 * level["big_blind"]
                    fields += ["small_bet", "big_bet"]
                rows.save_fields(table, fields)
                notify_table(table, TableChange("level", level))
            if tournament.kind == TournamentKind.SCHEDULED:
                _level_moved(tournament, now)
            moved += 1
    return moved


def _level_moved(tournament: Tournament, now: datetime) -> None:
    """The level moved on (the caller holds the tables and the tournament): when it ended late
    registration, the players out so far get their places, the number of entrants being final."""
    if tournament.level == tournament.late_registration_levels:
        places_settle(tournament, now)
        lobby_announce(tournament)
