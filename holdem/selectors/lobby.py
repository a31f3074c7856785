"""The lobby's reads: each open room as the lobby lists it, and every room's figures at once
(the last hour's hands, average pot and players per flop, the waiting lists) in three queries.
"""

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db.models import BigIntegerField, Count, Exists, OuterRef, Prefetch, Q, Sum, Value
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone

from casino.db_routing import read_db
from holdem.engine.names import Action, Street
from holdem.models import (
    HandAction,
    HandParticipant,
    HandRecord,
    Seat,
    Table,
    TableKind,
    TableStatus,
    WaitingEntry,
)
from holdem.selectors.game_state import stakes_label


def room_summary(table: Table, seats: Sequence[Seat] | None = None) -> dict[str, Any]:
    """The room as the lobby lists it. `seats`: the table's seats with their users, if the caller
    has them."""
    if seats is None:
        seats = list(table.seat_set.select_related("user"))
    return {
        "id": table.pk,
        "name": table.name,
        "status": table.status,
        "structure": table.structure,
        "stakes": stakes_label(table),
        "seats": table.seats,
        "taken": len(seats),
        # RULES.md 2: a game starts only with two players who can be dealt in; someone sitting
        # out (or with no chips) is seated but will not play.
        "ready": sum(1 for s in seats if not s.sitting_out and s.stack > 0),
        "players": [s.user.username for s in seats],
        "spectators": table.spectators,
        # Seats held for the waiting list (holdem/services/waiting.py keeps the table's copy):
        # with it the lobby can tell whether a room has a free seat from this summary alone.
        "reserved": len(table.held_seats or {}),
        "playing": table.in_hand,
        "min_buy_in": table.min_buy_in,
        "max_buy_in": table.max_buy_in,
    }


def rooms_for_lobby() -> list[dict[str, Any]]:
    """Every open cash room, in two queries whatever their number: the rooms, then all their
    seats with their players (one query per room made every lobby socket's snapshot cost as
    many queries as there are rooms)."""
    seats = Prefetch("seat_set", queryset=Seat.objects.select_related("user"))
    rooms = (
        Table.objects.exclude(status=TableStatus.CLOSED)
        .filter(kind=TableKind.CASH)
        .order_by("id")
        .prefetch_related(seats)
    )
    return [room_summary(t, list(t.seat_set.all())) for t in rooms]


WINDOW = timedelta(hours=1)
# A hand has at most one pot per player (a main pot and side pots), and a room at most 10 seats.
MAX_POTS = 10
# A room without hands in the last hour and nobody waiting.
NO_FIGURES: dict[str, Any] = {
    "hands_per_hour": 0,
    "average_pot": None,
    "players_per_flop": None,
    "waiting": 0,
    "reserved": 0,
}


def _pot_total() -> Any:
    """A finished hand's pots added up in SQL (`pots` is a JSON list of {"amount": ...}), rake
    included: the chips the players put in. Missing entries count 0."""
    amounts = [
        Coalesce(
            Cast(KeyTextTransform("amount", KeyTransform(str(index), "pots")), BigIntegerField()),
            Value(0),
        )
        for index in range(MAX_POTS)
    ]
    total: Any = amounts[0]
    for amount in amounts[1:]:
        total = total + amount
    return total


def _only(table_ids: Collection[int] | None, field: str) -> dict[str, Any]:
    """The filter keeping a figures query to `table_ids` (none: every room)."""
    return {} if table_ids is None else {f"{field}__in": list(table_ids)}


def room_figures(
    now: datetime | None = None, *, table_ids: Collection[int] | None = None
) -> dict[int, dict[str, Any]]:
    """Room id -> {"hands_per_hour", "average_pot", "players_per_flop", "waiting", "reserved"}
    for the rooms with any (of `table_ids` only, if given: a page of the lobby).
    `players_per_flop` is the percent of the players dealt in who saw the flop (None without
    hands): a hand that ended before the flop showed it to no one; one that reached it (its
    board is not empty) showed it to everyone who did not fold before it."""
    now = now or timezone.now()
    since = now - WINDOW
    figures: dict[int, dict[str, Any]] = {}

    def room(table_id: int) -> dict[str, Any]:
        return figures.setdefault(table_id, dict(NO_FIGURES))

    # The last hour's figures from the replica when there is one (a few seconds behind is
    # nothing to an hour); the waiting lines from the primary, as the seats they are counted
    # against: the free seats are seats - taken - reserved, read at one moment.
    hands = (
        HandRecord.objects.using(read_db())
        .filter(ended_at__gt=since, ended_at__lte=now)
        .values("table_id")
        .annotate(hands=Count("id"), pots=Sum(_pot_total()))
        .filter(**_only(table_ids, "table_id"))
        .values_list("table_id", "hands", "pots")
    )
    for table_id, count, pots in hands:
        room(table_id).update(hands_per_hour=count, average_pot=round((pots or 0) / count))

    folded_before_flop = HandAction.objects.filter(
        hand_id=OuterRef("hand_id"),
        seat=OuterRef("seat"),
        street=Street.PREFLOP,
        action=Action.FOLD,
    )
    players = (
        HandParticipant.objects.using(read_db())
        .filter(hand__ended_at__gt=since, hand__ended_at__lte=now)
        .values("hand__table_id")
        .annotate(
            dealt=Count("id"),
            saw_flop=Count("id", filter=~Q(hand__board=[]) & ~Q(Exists(folded_before_flop))),
        )
        .filter(**_only(table_ids, "hand__table_id"))
        .values_list("hand__table_id", "dealt", "saw_flop")
    )
    for table_id, dealt, saw_flop in players:
        if dealt:
            room(table_id)["players_per_flop"] = round(100 * saw_flop / dealt)

    lines = (
        WaitingEntry.objects.values("table_id")
        .annotate(waiting=Count("id"), reserved=Count("id", filter=Q(offered_seat__isnull=False)))
        .filter(**_only(table_ids, "table_id"))
        .values_list("table_id", "waiting", "reserved")
    )
    for table_id, waiting, reserved in lines:
        room(table_id).update(waiting=waiting, reserved=reserved)
    return figures


def rooms_with_figures(
    rooms: list[dict[str, Any]], now: datetime | None = None
) -> list[dict[str, Any]]:
    """The lobby's rooms (rooms_for_lobby) with each one's figures added."""
    figures = room_figures(now)
    return [{**room, **figures.get(room["id"], NO_FIGURES)} for room in rooms]
