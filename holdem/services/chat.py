"""Table chat: short plain-text lines from players (and spectators, if the room lets
them), kept for the admin, sent to the table as they come. Chat is not table state: it has no
seq, and a lost line is not asked for again."""

import unicodedata
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from casino.accounts.models import User
from casino.errors import DomainError
from holdem.models import CHAT_MAX_CHARS, ChatBan, ChatLine, ChatMute, ChatRule, Seat, Table
from holdem.realtime.broadcast import (
    frame_message,
    send_on_commit,
    table_group,
    user_socket_group,
)
from holdem.selectors.chat import chat_line_view, chat_muted_players

FLOOD_LINES = 5  # at most this many lines ...
FLOOD_SECONDS = 10  # ... in this many seconds, per user, over every table


def chat_say(*, table_id: int, user: User, text: str) -> ChatLine:
    """Post a line to a table's chat; refused with a coded error, and nothing stored, when it is
    empty, too long, holds control characters, comes too fast, or the user may not write."""
    text = text.strip()
    if not text:
        raise DomainError("chat_empty", "write something first")
    if len(text) > CHAT_MAX_CHARS:
        raise DomainError("chat_too_long", f"a line is at most {CHAT_MAX_CHARS} characters")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in text):
        raise DomainError("chat_bad_text", "plain text only: no control or invisible characters")
    with transaction.atomic():
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise DomainError("no_table", "there is no such table")
        ban = ChatBan.objects.filter(user=user).first()
        if ban is not None:
            raise DomainError("chat_muted", f"you may not chat on this site: {ban.reason}")
        if (
            table.chat == ChatRule.PLAYERS
            and not Seat.objects.filter(table=table, user=user).exists()
        ):
            raise DomainError("chat_players_only", "only the players at this table may chat here")
        since = timezone.now() - timedelta(seconds=FLOOD_SECONDS)
        if ChatLine.objects.filter(user=user, created_at__gte=since).count() >= FLOOD_LINES:
            raise DomainError(
                "chat_flood",
                f"at most {FLOOD_LINES} lines in {FLOOD_SECONDS} seconds; wait a moment",
            )
        line = ChatLine.objects.create(table=table, user=user, text=text)
        frame = {"type": "chat", "line": chat_line_view(line, user.username)}
        send_on_commit([(table_group(table.pk), frame_message(frame))])
    return line


def chat_mute(*, user: User, muted_id: int, mute: bool) -> dict[str, Any]:
    """Stop (or start again) reading another player's lines, on every table. Returns the
    `chat_muted` frame: everyone this user now mutes, which every page of theirs also hears."""
    if muted_id == user.pk:
        raise DomainError("chat_mute_self", "you cannot mute yourself")
    with transaction.atomic():
        if mute:
            from_user = get_user_model().objects.filter(pk=muted_id).first()
            if from_user is None:
                raise DomainError("no_user", "there is no such player")
            ChatMute.objects.get_or_create(user=user, muted=from_user)
        else:
            ChatMute.objects.filter(user=user, muted_id=muted_id).delete()
        players = chat_muted_players(user)
        frame = {
            "type": "chat_muted",
            "user_ids": [player["user_id"] for player in players],
            "players": players,
        }
        # The player's other pages (another table, a phone) hide or show the lines too.
        send_on_commit([(user_socket_group(user.pk), frame_message(frame))])
    return frame
