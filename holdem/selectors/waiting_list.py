"""Reads of the waiting lists: the lines a player stands in, and one player's standing in one
room's line as the `waiting` frame says it (docs/protocol.md). holdem/services/waiting.py
changes the lines.
"""

from datetime import datetime
from typing import Any

from django.utils import timezone

from casino.accounts.models import User
from holdem.models import Table, WaitingEntry
from holdem.selectors.game_state import epoch_ms

# How long a seat freed in a full room is held for the first in line (the frame tells them).
OFFER_SECONDS = 30


def waiting_lines_of(user: User, now: datetime | None = None) -> list[dict[str, Any]]:
    """Every line the player stands in, as the `waiting` frames would say it (docs/protocol.md):
    for the lobby page and GET /lobby/waiting/. Two queries."""
    mine = list(WaitingEntry.objects.filter(user=user).select_related("table").order_by("id"))
    if not mine:
        return []
    now = now or timezone.now()
    lines: dict[int, list[int]] = {}
    for table_id, user_id in (
        WaitingEntry.objects.filter(table_id__in=[entry.table_id for entry in mine])
        .order_by("id")
        .values_list("table_id", "user_id")
    ):
        lines.setdefault(table_id, []).append(user_id)
    return [
        waiting_frame(
            entry.table,
            entry,
            place=lines[entry.table_id].index(user.pk) + 1,
            size=len(lines[entry.table_id]),
            now=now,
        )
        for entry in mine
    ]


def waiting_frame(
    table: Table,
    entry: WaitingEntry | None,
    *,
    place: int | None,
    size: int,
    now: datetime,
    reason: str | None = None,
) -> dict[str, Any]:
    """One player's standing in one room's line: `place` None once they left it (`reason`)."""
    offer = None
    if place is not None and entry is not None and entry.offered_seat is not None:
        offer = {
            "seat": entry.offered_seat,
            "expires_at": epoch_ms(entry.offer_expires_at),
            "seconds": OFFER_SECONDS,
        }
    return {
        "type": "waiting",
        "table_id": table.pk,
        "name": table.name,
        "place": place,
        "waiting": size,
        "offer": offer,
        "reason": reason,
        "now": epoch_ms(now),
    }
