"""Rooms: created from a preset (RULES.md 7) or by hand, validated, changed and closed by an
admin; every such change is announced to the lobbies and the table pages' room switchers."""

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from casino.errors import DomainError
from holdem.db.locks import seats_lock, table_lock
from holdem.models import Table, TableKind, TableStatus
from holdem.presets import PRESETS
from holdem.realtime.broadcast import LOBBY_GROUP, frame_message, send_on_commit, table_group
from holdem.selectors.lobby import room_summary
from holdem.services.notify import TableChange, notify_table
from holdem.services.seats import seat_release
from holdem.table_options import room_problems


def room_create(*, name: str, preset: str | None = None, **options: Any) -> Table:
    """A new room from a preset's options, overridden by any given; refused if it cannot be played."""
    values: dict[str, Any] = {}
    if preset is not None:
        if preset not in PRESETS:
            raise DomainError(
                "unknown_preset", f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}"
            )
        values.update({k: v for k, v in PRESETS[preset].items() if k != "name"})
    values.update(options)
    return room_add(table=Table(name=name, preset=preset or "", **values))


def room_add(*, table: Table) -> Table:
    """Save a new room (`table`, not saved yet: room_create's, or the admin form's) and announce
    it; refused if it cannot be played."""
    problems = room_problems(table)
    if problems:
        raise DomainError(
            "bad_options",
            "this room cannot be played: " + "; ".join(problems.values()),
            fields=problems,
        )
    with transaction.atomic():
        table.save()
        _room_announce(table)
    return table


def room_options_update(*, table: Table, fields: Iterable[str]) -> Table:
    """Save an admin's change of a room's options (the columns `fields` of `table`, the form's
    copy) and announce it. Only those columns are written: the game's own (the hand in play, its
    clocks, its sequence number) may have moved on since the form read the row."""
    with transaction.atomic():
        locked = table_lock(table.pk)
        fields = list(fields)
        for name in fields:
            setattr(locked, name, getattr(table, name))
        locked.save(update_fields=fields)
        notify_table(
            locked, TableChange("options_changed")
        )  # the room's own page shows its new rules
        _room_announce(locked)
    return locked


def _room_announce(table: Table, lobby: bool = True) -> None:
    """After commit, the room as the lobby lists it goes to the lobby and to every open table's
    page (its room switcher). Rare (an admin's doing), so one message per open table is cheap;
    seat changes stay off the table groups (docs/decisions.md, the room switcher)."""
    message = frame_message({"type": "room", "room": room_summary(table)})
    tables = Table.objects.exclude(status=TableStatus.CLOSED).exclude(pk=table.pk)
    groups = [table_group(pk) for pk in tables.values_list("pk", flat=True)]
    if lobby:
        groups.append(LOBBY_GROUP)
    send_on_commit([(group, message) for group in groups])


def rooms_seed_presets() -> int:
    """One room per preset, created once (seed_demo runs this every time `make run` starts)."""
    for key, preset in PRESETS.items():
        if not Table.objects.filter(preset=key).exists():
            room_create(name=preset["name"], preset=key)
    return Table.objects.exclude(status=TableStatus.CLOSED).filter(kind=TableKind.CASH).count()


def room_close(*, table_id: int) -> Table:
    """Close a room: the hand in progress finishes, no new hand starts, seated players are stood
    up with their chips returned."""
    with transaction.atomic():
        table = table_lock(table_id)
        if table.status == TableStatus.CLOSED:
            return table
        if table.kind != TableKind.CASH:
            raise DomainError("tournament_table", "a Sit & Go's table closes when it ends")
        table.next_hand_at = None
        if table.in_hand:
            table.status = TableStatus.CLOSING  # the end of the hand finishes the closing
            table.save(update_fields=["status", "next_hand_at"])
            notify_table(table, TableChange("closing"))
            _room_announce(table)
            return table
        for seat in seats_lock(table):
            seat_release(table, seat, reason=f"Room {table.name} closed")
        table.status = TableStatus.CLOSED
        table.save(update_fields=["status", "next_hand_at"])
        notify_table(table, TableChange("closed"))  # the lobby hears it with the table's event
        _room_announce(table, lobby=False)
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
        notify_table(table, TableChange("opened"))  # the lobby hears it with the table's event
        _room_announce(table, lobby=False)
    return table
