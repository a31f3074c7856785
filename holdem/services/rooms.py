"""Rooms: created from a preset (RULES.md 7) or by hand, validated, closed by an admin."""

from django.db import transaction

from casino.errors import DomainError
from holdem.locks import seats_lock, table_lock
from holdem.models import Table, TableStatus
from holdem.options import room_problems
from holdem.presets import PRESETS
from holdem.services.notify import notify_table
from holdem.services.seats import seat_release


def room_create(*, name: str, preset: str | None = None, **options) -> Table:
    """A new room from a preset's options, overridden by any given; refused if it cannot be played."""
    values = {}
    if preset is not None:
        if preset not in PRESETS:
            raise DomainError(
                "unknown_preset", f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}"
            )
        values.update({k: v for k, v in PRESETS[preset].items() if k != "name"})
    values.update(options)
    table = Table(name=name, preset=preset or "", **values)
    problems = room_problems(table)
    if problems:
        raise DomainError(
            "bad_options",
            "this room cannot be played: " + "; ".join(problems.values()),
            fields=problems,
        )
    table.save()
    return table


def rooms_seed_presets() -> int:
    """One room per preset, created once (seed_demo runs this every time `make run` starts)."""
    for key, preset in PRESETS.items():
        if not Table.objects.filter(preset=key).exists():
            room_create(name=preset["name"], preset=key)
    return Table.objects.exclude(status=TableStatus.CLOSED).count()


def room_close(*, table_id: int) -> Table:
    """Close a room: the hand in progress finishes, no new hand starts, seated players are stood
    up with their chips returned."""
    with transaction.atomic():
        table = table_lock(table_id)
        if table.status == TableStatus.CLOSED:
            return table
        table.next_hand_at = None
        if table.in_hand:
            table.status = TableStatus.CLOSING  # the end of the hand finishes the closing
            table.save(update_fields=["status", "next_hand_at"])
            notify_table(table, "closing", {})
            return table
        for seat in seats_lock(table):
            seat_release(table, seat, reason=f"Room {table.name} closed")
        table.status = TableStatus.CLOSED
        table.save(update_fields=["status", "next_hand_at"])
        notify_table(table, "closed", {})
    return table


def room_reopen(*, table_id: int) -> Table:
    with transaction.atomic():
        table = table_lock(table_id)
        if table.status == TableStatus.OPEN:
            return table
        if table.in_hand:
            raise DomainError("in_hand", "the room is still finishing a hand")
        table.status = TableStatus.OPEN
        table.save(update_fields=["status"])
        notify_table(table, "opened", {})
    return table
