"""A table's chat as the clients read it: a line as a frame carries it, the last lines a snapshot
brings, and the players a user has muted.
"""

from typing import Any

from casino.accounts.models import User
from holdem.models import ChatLine, ChatMute, Table
from holdem.selectors.game_state import epoch_ms

CHAT_IN_SNAPSHOT = 50


def chat_line_view(line: ChatLine, username: str) -> dict[str, Any]:
    return {
        "id": line.pk,
        "user_id": line.user_id,
        "username": username,
        "text": line.text,
        "at": epoch_ms(line.created_at),
    }


def chat_recent(table: Table) -> list[dict[str, Any]]:
    """The table's last chat lines, oldest first."""
    lines = list(ChatLine.objects.filter(table=table).select_related("user")[:CHAT_IN_SNAPSHOT])
    return [chat_line_view(line, line.user.username) for line in reversed(lines)]


def chat_muted_players(user: User) -> list[dict[str, Any]]:
    """Whom this user muted, by name (the list they unmute from), in the order of their ids."""
    rows = ChatMute.objects.filter(user=user).order_by("muted_id")
    return [
        {"user_id": user_id, "username": username}
        for user_id, username in rows.values_list("muted_id", "muted__username")
    ]
