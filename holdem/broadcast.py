"""The one way table events leave the server: JSON-safe payloads sent after the transaction commits.

Public events go to the table's group; a player's hole cards and legal actions go to a group for
that player at that table only (STYLE.md 4, 5). The services choose the recipients.
"""

import json
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def player_group(table_id: int, user_id: int) -> str:
    return f"table.{table_id}.user.{user_id}"


def json_safe(payload):
    """Round-trip through JSON: the Redis layer speaks msgpack, so only JSON primitives travel."""
    return json.loads(json.dumps(payload))


def send_on_commit(messages: list[tuple[str, dict]]) -> None:
    """Queue (group, message) pairs to be sent once the current transaction commits."""
    prepared = [(group, json_safe(message)) for group, message in messages]
    transaction.on_commit(lambda: _send(prepared))


def _send(prepared) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group, message in prepared:
        try:
            async_to_sync(layer.group_send)(group, {"type": "table.message", "message": message})
        except Exception:  # a broadcast failure must never undo a committed action
            log.exception("broadcast to %s failed", group)


def user_group(user_id: int) -> str:
    """Every socket of one user, on any table or the lobby (sign-out, eviction)."""
    return f"user.{user_id}"


def auth_changed_on_commit(user_id: int, ended_session: str | None = None) -> None:
    """After commit, ask every socket of the user to check its session again
    (casino/accounts/sessions.py); `ended_session` names one that signed out."""
    message = {"type": "auth.check", "ended_session": ended_session}
    transaction.on_commit(lambda: _send_control(user_group(user_id), message))


def _send_control(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        log.exception("control message to %s failed", group)
