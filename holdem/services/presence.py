"""Who is connected: one row per open websocket, owned by a web process that beats every second.

A connection counts only while its process is alive, so a crash, a SIGKILL or a deploy leaves no
ghost: the sweeper (`connections_expire`, run by the deadline clock) drops the rows of a process
that stopped beating. A seated player with no live socket left has lost the connection; after the
room's grace period (RULES.md 5, `disconnect_grace_seconds`) without coming back they are
disconnected (`disconnections_due`) and the room's rule applies. A process that was only stalled
counts its sockets again when it comes back (`connections_restore`). docs/decisions.md, "Presence".
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from casino.accounts.models import User
from holdem.db import rows
from holdem.db.locks import LockedTable, table_lock
from holdem.models import Connection, Seat, WebProcess
from holdem.selectors.liveness import live_connections, live_cutoff
from holdem.services.hand_act import hand_protect_disconnected
from holdem.services.notify import TableChange, notify_table, spectators_changed

log = logging.getLogger(__name__)

PROCESS_BEAT_SECONDS = 1
# Open sockets one user may hold across the site; the oldest beyond this is closed. Every page
# holds the user's own socket (ws/me/) beside its table's or the lobby's: five tabs' worth.
MAX_SOCKETS_PER_USER = 10

# The row id of each web process key this process has held (process_held): a socket's open
# then locks its process row with the one UPDATE that beats it.
_process_ids: dict[str, int] = {}


def process_beat(*, process_key: str, now: datetime | None = None) -> None:
    """The web process `process_key` is alive (one write a second per process). A beat never
    moves `seen_at` back: one delayed behind a later beat (a slow database thread) would make
    the clock's sweep think the process stopped beating and drop its sockets."""
    now = now or timezone.now()
    updated = WebProcess.objects.filter(key=process_key, seen_at__lt=now).update(seen_at=now)
    if not updated:
        WebProcess.objects.get_or_create(
            key=process_key, defaults={"started_at": now, "seen_at": now}
        )


def process_held(*, process_key: str, now: datetime) -> WebProcess:
    """The row of web process `process_key`, beaten, made again if the sweep took it, and locked
    until the caller's transaction ends: the sweep cannot delete it under a connection being
    written (a socket open failed with a ForeignKeyViolation when it did).

    Usually one statement: the UPDATE that beats the row also locks it (FOR NO KEY UPDATE, as
    the SELECT ... FOR NO KEY UPDATE that followed the beat did), found by the id remembered
    from the last time; GREATEST never moves `seen_at` back (process_beat). A row the sweep
    took, or one made again by the heartbeat, is looked up as before."""
    known = _process_ids.get(process_key)
    if known is not None:
        held = WebProcess.objects.filter(pk=known, key=process_key).update(
            seen_at=Greatest(F("seen_at"), Value(now))
        )
        if held:
            return WebProcess(pk=known, key=process_key, seen_at=now)
    process_beat(process_key=process_key, now=now)
    process = WebProcess.objects.select_for_update(no_key=True).filter(key=process_key).first()
    if process is None:  # swept between the beat and the lock
        process, _ = WebProcess.objects.get_or_create(
            key=process_key, defaults={"started_at": now, "seen_at": now}
        )
    _process_ids[process_key] = process.pk
    return process


@dataclass(frozen=True)
class OpenedAt:
    """The table a socket was counted at, as the count left it: the row, locked by the caller's
    transaction, and its seats with their players (the snapshot reads neither again)."""

    table: LockedTable
    seats: list[Seat]


def connection_open(
    *,
    process_key: str,
    channel_name: str,
    user: User,
    table_id: int | None = None,
    now: datetime | None = None,
) -> list[str]:
    """A websocket opened. Returns the channel names of the user's oldest sockets beyond
    MAX_SOCKETS_PER_USER, for the caller to close."""
    evicted, _ = connection_open_reading(
        process_key=process_key,
        channel_name=channel_name,
        user=user,
        table_id=table_id,
        now=now,
        read=lambda table: None,
    )
    return evicted


def connection_open_reading[Read](
    *,
    process_key: str,
    channel_name: str,
    user: User,
    table_id: int | None,
    read: Callable[[OpenedAt | None], Read],
    now: datetime | None = None,
) -> tuple[list[str], Read]:
    """connection_open, and `read` (the socket's first snapshot) in the same call on the
    database thread: one trip there per socket instead of two or three. At a table `read` gets
    the table row locked by the open, and its seats, and runs under that lock: the snapshot is
    the state the open left (its spectator count, the seat found again), and it reads neither
    the row nor the seats a second time.
    Returns the channels to evict and what `read` returned."""
    now = now or timezone.now()
    with transaction.atomic():
        process = process_held(process_key=process_key, now=now)
        opened = _connection_add(
            process, channel_name=channel_name, user=user, table_id=table_id, at=now
        )
        seen = read(opened)
    mine = list(
        live_connections()
        .filter(user=user)
        .order_by("-opened_at", "-pk")
        .values_list("channel_name", flat=True)
    )
    return mine[MAX_SOCKETS_PER_USER:], seen


@dataclass(frozen=True)
class OpenSocket:
    """A socket a web process holds, as it counts it (`connections_restore`)."""

    channel_name: str
    user: User
    table_id: int | None
    opened_at: datetime


def connections_restore(
    *, process_key: str, sockets: list[OpenSocket], now: datetime | None = None
) -> int:
    """The web process `process_key` was silent long enough to be taken for dead (a stall: CPU
    starvation, a long pause), and the sweep may have dropped its connections. The sockets it
    still holds count again, each as a socket opened anew: a lost connection is found again
    within the grace, a player disconnected meanwhile is reconnected. Idempotent; returns the
    connections made again."""
    now = now or timezone.now()
    known = set(
        Connection.objects.filter(channel_name__in=[s.channel_name for s in sockets]).values_list(
            "channel_name", flat=True
        )
    )
    restored = 0
    for socket in sockets:
        if socket.channel_name in known:
            continue
        with transaction.atomic():
            process = process_held(process_key=process_key, now=now)
            if Connection.objects.filter(channel_name=socket.channel_name).exists():
                continue
            _connection_add(
                process,
                channel_name=socket.channel_name,
                user=socket.user,
                table_id=socket.table_id,
                at=socket.opened_at,
            )
            restored += 1
    if restored:
        log.warning("a stalled web process counted %s of its sockets again", restored)
    return restored


def _connection_add(
    process: WebProcess, *, channel_name: str, user: User, table_id: int | None, at: datetime
) -> OpenedAt | None:
    """Count a socket of `user` (the caller's transaction holds the process row): at a table,
    the user is there again, and a seat's lost connection is found. Returns the table, locked,
    with its seats."""
    if table_id is None:
        Connection.objects.create(
            process=process, user=user, table_id=None, channel_name=channel_name, opened_at=at
        )
        return None
    table = table_lock(table_id)
    seats = rows.seats_with_users(table.pk)
    seat = next((s for s in seats if s.user_id == user.pk), None)
    # A seated player is no spectator: their sockets never move the count.
    newly_watching = seat is None and not live_connections().filter(table=table, user=user).exists()
    Connection.objects.create(
        process=process, user=user, table_id=table_id, channel_name=channel_name, opened_at=at
    )
    if newly_watching:
        spectators_changed(table, user.pk, seats)
    if seat is not None and seat.connection_lost_at is not None:
        seat.connection_lost_at = None  # back within the grace period: nothing happened
        seat.save(update_fields=["connection_lost_at"])
    if seat is not None and seat.disconnected:
        seat.disconnected = False
        seat.save(update_fields=["disconnected"])
        notify_table(table, TableChange("reconnected", {"seat": seat.number}))
    return OpenedAt(table, seats)


def connection_close(*, channel_name: str, user: User, table_id: int | None = None) -> None:
    """A websocket closed; when it was the user's last live one at the table, the seat is marked
    disconnected and the room's disconnect rule applies (RULES.md 5)."""
    with transaction.atomic():
        if table_id is None:
            Connection.objects.filter(channel_name=channel_name).delete()
            return
        table = table_lock(table_id)
        Connection.objects.filter(channel_name=channel_name).delete()
        _left_if_gone(table, user.pk)


def connections_expire(now: datetime | None = None) -> int:
    """Drop the connections of web processes that stopped beating; players with no live socket
    left at their table have lost their connection. Idempotent; the deadline clock runs it."""
    cutoff = live_cutoff(now)
    # The most recent first: a player whose sockets were on several dead processes lost the
    # connection when the last of them stopped.
    dead = WebProcess.objects.filter(seen_at__lt=cutoff).order_by("-seen_at")
    dropped = 0
    buried = 0
    for process_id in list(dead.values_list("pk", flat=True)):
        count, gone = _process_bury(process_id, cutoff)
        dropped += count
        buried += gone
    if dropped:
        log.info("dropped %s connections of %s dead web processes", dropped, buried)
    return dropped


def _process_bury(process_id: int, cutoff: datetime) -> tuple[int, int]:
    """Drop a silent process's connections, one table and player at a time, then its row. Each
    step locks the row and checks it again: a process that beats meanwhile was only stalled, and
    is left alone (it counts its sockets again itself, `connections_restore`). Returns the
    connections dropped and 1 if the row went."""
    at_tables = Connection.objects.filter(process_id=process_id, table__isnull=False)
    dropped = 0
    for table_id, user_id in sorted(set(at_tables.values_list("table_id", "user_id"))):
        with transaction.atomic():
            last_seen = _still_silent(process_id, cutoff)
            if last_seen is None:
                return dropped, 0
            table = table_lock(table_id)
            dropped += Connection.objects.filter(
                process_id=process_id, table=table, user_id=user_id
            ).delete()[0]
            # The player was last known connected when their server last beat.
            _left_if_gone(table, user_id, lost_at=last_seen)
    with transaction.atomic():
        if _still_silent(process_id, cutoff) is None:
            return dropped, 0
        dropped += Connection.objects.filter(process_id=process_id).delete()[0]
        WebProcess.objects.filter(pk=process_id).delete()
    return dropped, 1


def _still_silent(process_id: int, cutoff: datetime) -> datetime | None:
    """Lock the process's row (before any table: the order connection_open takes them in) and
    return its last beat if that is still before `cutoff`, else None. FOR UPDATE, not FOR NO
    KEY UPDATE: the last step of a burial deletes the row."""
    rows = WebProcess.objects.select_for_update().filter(pk=process_id, seen_at__lt=cutoff)
    return rows.values_list("seen_at", flat=True).first()


def disconnections_due(now: datetime | None = None) -> int:
    """RULES.md 5: players whose connection was lost longer ago than their room's grace period
    (and who did not come back) are disconnected now. Idempotent; the deadline clock runs it."""
    now = now or timezone.now()
    lost = Seat.objects.filter(disconnected=False, connection_lost_at__isnull=False).values_list(
        "table_id", "user_id", "connection_lost_at", "table__disconnect_grace_seconds"
    )
    due = [
        (t, u)
        for t, u, at, grace in lost
        if at is not None and at <= now - timedelta(seconds=grace)  # not null: filtered
    ]
    marked = 0
    for table_id, user_id in sorted(due):
        with transaction.atomic():
            table = table_lock(table_id)
            seat = Seat.objects.filter(table=table, user_id=user_id).select_related("user").first()
            if seat is None or seat.disconnected or seat.connection_lost_at is None:
                continue
            if seat.connection_lost_at > now - timedelta(seconds=table.disconnect_grace_seconds):
                continue
            _disconnect(table, seat, now)
            marked += 1
    return marked


def _left_if_gone(table: LockedTable, user_id: int, lost_at: datetime | None = None) -> None:
    """The caller holds the table lock and has removed a connection of `user_id` here. With no
    live socket left, the connection is lost; it counts as a disconnection once the room's grace
    period has passed without a new socket (RULES.md 5), at once when the grace is 0."""
    if live_connections().filter(table=table, user_id=user_id).exists():
        return
    spectators_changed(table, user_id)
    seat = Seat.objects.filter(table=table, user_id=user_id).select_related("user").first()
    if seat is None or seat.disconnected or seat.connection_lost_at is not None:
        return
    now = timezone.now()
    seat.connection_lost_at = min(lost_at or now, now)
    seat.save(update_fields=["connection_lost_at"])
    if table.disconnect_grace_seconds == 0:
        _disconnect(table, seat, now)


def _disconnect(table: LockedTable, seat: Seat, now: datetime) -> None:
    seat.disconnected = True
    seat.connection_lost_at = None
    seat.save(update_fields=["disconnected", "connection_lost_at"])
    notify_table(table, TableChange("disconnected", {"seat": seat.number}))
    if seat.in_hand:
        hand_protect_disconnected(table, seat, now=now)
