"""The one way table events leave the server: frames encoded once, sent after the transaction commits.

Public events go to the table's group; a player's hole cards and legal actions go to a group for
that player at that table only (STYLE.md 4, 5). The services choose the recipients.

A channel message carries its frame as JSON text, so each consumer forwards it without encoding
it again; all of one commit's messages leave in one hop to the event loop, in commit order, and
the database thread does not wait for them (`send_now`).
"""

import asyncio
import logging
import os
import weakref
from collections import deque

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from holdem.delta import encode

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def player_group(table_id: int, user_id: int) -> str:
    return f"table.{table_id}.user.{user_id}"


def user_group(user_id: int) -> str:
    """Every socket of one user, on any table or the lobby (sign-out, eviction)."""
    return f"user.{user_id}"


def frame_message(frame: dict, skip=()) -> dict:
    """The channel message that delivers `frame` to the sockets of a group, except those of the
    users in `skip` (they get their own copy of the same change through their private group)."""
    message = {"type": "table.message", "text": encode(frame)}
    if frame.get("type") == "event":
        message["seq"] = frame["seq"]
    if skip:
        message["skip"] = list(skip)
    return message


def send_on_commit(messages: list[tuple[str, dict]]) -> None:
    """Queue (group, channel message) pairs to be sent once the current transaction commits."""
    transaction.on_commit(lambda: send_now(messages))


def send_now(messages: list[tuple[str, dict]]) -> None:
    """Send (group, message) pairs. On a server's database thread (a consumer's
    `database_sync_to_async` call) they are handed to the server's event loop, which sends each
    commit's messages after the previous commit's: the thread goes on to the next transaction
    instead of waiting for Redis. Elsewhere (a Celery worker, a command) they are sent before
    this returns."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    loop = _server_loop()
    if loop is not None:
        loop.call_soon_threadsafe(_post, layer, messages)
        return
    try:
        async_to_sync(_send_all)(layer, messages)
    except Exception:  # a broadcast failure must never undo a committed action
        log.exception("broadcast of %d messages failed", len(messages))


def _server_loop():
    """The event loop that called this thread through `sync_to_async`, if it still runs and this
    is not its own thread."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or not loop.is_running() or _running_loop() is loop:
        return None
    return loop


def _running_loop():
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class _Outbox:
    """One event loop's messages waiting to be sent, in commit order, by one task at a time."""

    def __init__(self):
        self.waiting: deque = deque()
        self.sending = False
        self.task: asyncio.Task | None = None


_outboxes: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Outbox]" = (
    weakref.WeakKeyDictionary()
)


def _post(layer, messages) -> None:
    """On the server's loop: queue one commit's messages behind the earlier ones."""
    loop = asyncio.get_running_loop()
    box = _outboxes.setdefault(loop, _Outbox())
    box.waiting.append((layer, messages))
    if not box.sending:
        box.sending = True
        box.task = loop.create_task(_drain(box))


async def _drain(box: _Outbox) -> None:
    try:
        while box.waiting:
            layer, messages = box.waiting.popleft()
            try:
                await _send_all(layer, messages)
            except Exception:  # one failed commit's broadcast must not stop the next ones
                log.exception("broadcast of %d messages failed", len(messages))
    finally:
        box.sending = False


async def _send_all(layer, messages) -> None:
    results = await asyncio.gather(
        *(layer.group_send(group, message) for group, message in messages),
        return_exceptions=True,
    )
    for (group, _), result in zip(messages, results):
        if isinstance(result, BaseException):
            log.error("broadcast to %s failed", group, exc_info=result)


def auth_changed_on_commit(user_id: int, ended_session: str | None = None) -> None:
    """After commit, ask every socket of the user to check its session again
    (casino/accounts/sessions.py); `ended_session` names one that signed out."""
    message = {"type": "auth.check", "ended_session": ended_session}
    transaction.on_commit(lambda: send_now([(user_group(user_id), message)]))
