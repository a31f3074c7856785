"""The places and prizes of a multi-table tournament (RULES.md 9), decided as hands end: players
out placed at once, or together once a round of hand for hand is over, or when late registration
closes; prizes through the ledger; the last player left wins what remains of the pool, and the
tournament ends. Hand for hand starts and stops here. The moves between tables and the clock are
holdem/services/multi_table.py.

The caller holds the table whose hand ended (if any) and takes the tournament row after it; the
wallets come last (docs/decisions.md, Tournaments).
"""

from collections.abc import Sequence
from datetime import datetime

from django.db.models import Count, Q

from casino.accounts.models import LedgerKind
from casino.accounts.services import wallet_adjust, wallet_lock
from holdem.db import rows
from holdem.db.locks import LockedTable
from holdem.engine.tournament import places_for_busts
from holdem.engine.tournament_tables import (
    hand_for_hand,
)
from holdem.models import (
    HandRecord,
    Seat,
    Table,
    TableStatus,
    Tournament,
    TournamentEntry,
    TournamentStatus,
)
from holdem.selectors.multi_table import mtt_prize_table, places_paid, registration_open
from holdem.services.tournaments import (
    lobby_announce,
    ordinal,
    tournament_label,
    tournament_locked,
)


def mtt_hand_ended(
    table: LockedTable, *, record: HandRecord, seats: Sequence[Seat], now: datetime
) -> None:
    """RULES.md 9: the players of this table left without chips are out. Their places are given
    now, or, in hand for hand, once every table has finished the round (placed together by the
    chips they began their hands with), or, while late registration is open, when it closes
    (more entrants may yet come). The caller holds the table lock."""
    assert table.tournament_id is not None  # a tournament's table
    tournament = tournament_locked(table.tournament_id)
    if tournament.status != TournamentStatus.RUNNING:
        return
    before = {p["seat"]: p["stack_before"] for p in record.players}
    out = [s for s in seats if s.stack == 0 and s.number in before]
    if out:
        live = {
            e.user_id: e
            for e in tournament.entries.filter(
                user_id__in=[s.user_id for s in out], finished_at__isnull=True
            )
        }
        for seat in out:
            entry = live[seat.user_id]
            entry.finished_at, entry.out_in_hand = now, record
            entry.out_chips = before[seat.number]
            entry.out_round = tournament.hand_round if tournament.hand_for_hand else None
            entry.save(update_fields=["finished_at", "out_in_hand", "out_chips", "out_round"])
    places_settle(tournament, now, table=table)


def places_settle(
    tournament: Tournament, now: datetime, *, table: LockedTable | None = None
) -> None:
    """Give the places that can be given now, end the tournament when one player is left, and
    start or end hand for hand. The caller holds the tournament row (and `table`, if any)."""
    alive = tournament.entries.filter(finished_at__isnull=True).count()
    pending = list(
        tournament.entries.filter(finished_at__isnull=False, place__isnull=True)
        .select_related("user", "out_in_hand")
        .order_by("finished_at", "id")
    )
    if alive <= 1:
        _place_groups(tournament, _groups(pending), now)
        _finish(tournament, now, table)
        return
    if registration_open(tournament):
        return  # RULES.md 9: places are given when late registration closes
    if tournament.hand_for_hand:
        if not _round_over(tournament, table):
            return
        _place_groups(tournament, _groups(pending), now)
        paid = places_paid(tournament)
        if hand_for_hand(alive, paid):
            tournament.hand_round += 1
        else:
            tournament.hand_for_hand = False
        tournament.save(update_fields=["hand_round", "hand_for_hand", "prizes_paid"])
        lobby_announce(tournament)
        return
    _place_groups(tournament, _groups(pending), now)
    if hand_for_hand(alive, places_paid(tournament)):
        tournament.hand_for_hand = True
        tournament.hand_round += 1
    tournament.save(update_fields=["hand_round", "hand_for_hand", "prizes_paid"])
    if pending:
        lobby_announce(tournament)


def _round_over(tournament: Tournament, table: LockedTable | None) -> bool:
    """RULES.md 9, hand for hand: every table that can deal has dealt the round's hand and
    finished it (`table`'s hand is ending now). A table of one player deals nothing: it waits
    to break or to be joined, and does not hold the round up."""
    if table is not None and table.tournament_round < tournament.hand_round:
        return False
    others = (
        Table.objects.filter(tournament=tournament, status=TableStatus.OPEN)
        .exclude(pk=table.pk if table is not None else 0)
        .annotate(players=Count("seat_set", filter=Q(seat_set__stack__gt=0)))
    )
    behind = others.filter(
        ~Q(hand_state="") | Q(tournament_round__lt=tournament.hand_round, players__gte=2)
    )
    return not behind.exists()


def _groups(pending: list[TournamentEntry]) -> list[list[TournamentEntry]]:
    """The players out not yet placed, in the groups that are placed together, earliest out
    first: those of one round of hand for hand, else those of one hand."""
    groups: dict[tuple[str, int], list[TournamentEntry]] = {}
    for entry in pending:
        if entry.out_round is not None:
            key = ("round", entry.out_round)
        else:
            key = ("hand", entry.out_in_hand_id or 0)
        groups.setdefault(key, []).append(entry)
    return list(groups.values())  # dicts keep the order of `pending` (by time out)


def _clockwise_key(entry: TournamentEntry) -> tuple[int, int]:
    """Where the player sat in the hand they went out in, clockwise from its button: the order
    of the odd chips of a shared prize (RULES.md 8), table by table."""
    record = entry.out_in_hand
    if record is None:
        return (0, 0)
    seat = next((p["seat"] for p in record.players if p["user_id"] == entry.user_id), 0)
    size = max(p["seat"] for p in record.players) + 1
    return (record.table_id, (seat - record.button_seat - 1) % max(size, 1))


def _place_groups(
    tournament: Tournament, groups: list[list[TournamentEntry]], now: datetime
) -> None:
    if not groups:
        return
    prizes = mtt_prize_table(tournament)
    placed = tournament.entries.filter(place__isnull=False).count()
    for group in groups:
        order = sorted(group, key=_clockwise_key)
        by_id = {e.pk: e for e in group}
        decided = places_for_busts(
            [(e.pk, e.out_chips or 0) for e in group],
            tournament.entrants - placed,
            prizes,
            [e.pk for e in order],
        )
        wallet_lock(user_ids=sorted({e.user_id for e in group}))
        for entry_id, place, prize in decided:
            _place(tournament, by_id[entry_id], place, prize)
        placed += len(group)


def _place(tournament: Tournament, entry: TournamentEntry, place: int, prize: int) -> None:
    entry.place, entry.prize = place, prize
    entry.save(update_fields=["place", "prize"])
    if prize:
        wallet_adjust(
            user=entry.user,
            amount=prize,
            kind=LedgerKind.TOURNAMENT_PRIZE,
            reason=f"{ordinal(place)} place in {tournament_label(tournament)}",
            table_id=entry.out_in_hand.table_id if entry.out_in_hand else None,
        )
        tournament.prizes_paid += prize


def _finish(tournament: Tournament, now: datetime, table: LockedTable | None) -> None:
    """One player left: first place and what is left of the pool; the tournament is over and its
    tables close (the hand's end stands the winner up)."""
    winner = tournament.entries.filter(finished_at__isnull=True).select_related("user").first()
    if winner is not None:
        wallet_lock(user_ids=[winner.user_id])
        winner.finished_at = now
        winner.save(update_fields=["finished_at"])
        _place(tournament, winner, 1, tournament.prize_pool - tournament.prizes_paid)
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_at = now
    tournament.level_ends_at = None
    tournament.hand_for_hand = False
    tournament.save(
        update_fields=["prizes_paid", "status", "finished_at", "level_ends_at", "hand_for_hand"]
    )
    if table is not None:
        table.status = TableStatus.CLOSING
        table.next_hand_at = None
        rows.save_fields(table, ["status", "next_hand_at"])
    lobby_announce(tournament)
