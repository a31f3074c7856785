"""The one way table events leave the server: frames encoded once, sent after the transaction commits.

Public events go to the table's group; a player's hole cards and legal actions go to a group for
that player at that table only (style.md 4, 5). The services choose the recipients.

A channel message carries its frame as JSON text, so each consumer forwards it without encoding
it again; all of one commit's messages leave in one hop to the event loop.
"""

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from casino import metrics
from holdem.realtime.delta import encode

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def player_group(table_id: int, user_id: int) -> str:
    return f"table.{table_id}.user.{user_id}"


def user_group(user_id: int) -> str:
    """Every socket of one user, on any table or the lobby (sign-out, eviction)."""
    return f"user.{user_id}"


def user_socket_group(user_id: int) -> str:
    """The user's own socket of every page (ws/me/, casino/user_socket.py): their wallet, and
    whatever else concerns them wherever they are. The table and lobby sockets are not in it."""
    return f"me.{user_id}"


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
    metrics.commit_stamp(messages)  # metrics: the commit's time, for commit-to-delivery
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    try:
        async_to_sync(_send_all)(layer, messages)
    except Exception:  # a broadcast failure must never undo a committed action
        log.exception("broadcast of %d messages failed", len(messages))


async def _send_all(layer, messages) -> None:
    send_many = getattr(layer, "group_send_many", None)  # casino/layers.py: one round trip
    if send_many is not None:
        try:
            await send_many(messages)
        except Exception:
            log.exception("broadcast to %s failed", ", ".join(group for group, _ in messages))
        return
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


def wallet_changed_on_commit(*, user_id: int, balance: int, version: int) -> None:
    """After commit, the new balance to every page the user has open (docs/protocol.md, `wallet`)."""
    frame = {"type": "wallet", "balance": balance, "version": version}
    send_on_commit([(user_socket_group(user_id), frame_message(frame))])


def preferences_changed_on_commit(*, user_id: int, preferences: dict) -> None:
    """After commit, the player's table settings to every page they have open (docs/protocol.md,
    `preferences`): each table they watch applies them at once."""
    frame = {"type": "preferences", "preferences": preferences}
    send_on_commit([(user_socket_group(user_id), frame_message(frame))])
