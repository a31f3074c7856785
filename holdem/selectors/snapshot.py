"""The snapshot a client gets of a table (style.md 6): the public view and its own part, the
hand's log so far, the chat and whom the user muted, the user's table settings, their notes on
the players; and the "previous hand" dialog.
"""

import time
from typing import Any

from django.utils import timezone

from casino.accounts.models import User
from casino.accounts.preferences import preferences_for
from casino.accounts.table_settings import table_settings_view
from holdem.history.stored_hand import hand_log
from holdem.models import Seat, Table, TableKind, TableStatus
from holdem.selectors.auto_top_up import auto_top_up_view
from holdem.selectors.chat import chat_muted_players, chat_recent
from holdem.selectors.closed_names import hand_as_shown
from holdem.selectors.game_state import epoch_ms
from holdem.selectors.hand_history import hand_summary_for
from holdem.selectors.notes import notes_on, tag_names_view
from holdem.selectors.player_view import viewer_part
from holdem.selectors.table_view import public_table

# How long a table found open is taken to be open without asking again (table_is_open).
OPEN_TABLE_CACHE_SECONDS = 5.0
_open_until: dict[int, float] = {}


def table_known_open(table_id: int) -> bool:
    """Whether the table was found open a moment ago (table_is_open): asked on the event loop,
    so a socket to a table this server has just seen open makes no trip for it at all."""
    return _open_until.get(table_id, 0.0) > time.monotonic()


def table_is_open(table_id: int) -> bool:
    """Whether a socket may watch this table. An open table is remembered for a few seconds:
    a server's sockets arrive a table's worth at a time (six seats, their ws/me/, watchers), in
    a reconnect storm thousands at once. Only "open" is remembered, so a room reopened or made is
    found at once; a room closed meanwhile lets a socket in for up to those seconds, and its
    snapshot then says it is closed, as for a socket that was already open when it closed."""
    if table_known_open(table_id):
        return True
    now = time.monotonic()
    # A finished Sit & Go's table stays open to watchers: its panel holds the result.
    closed = {"status": TableStatus.CLOSED, "kind": TableKind.CASH}
    is_open = Table.objects.filter(pk=table_id).exclude(**closed).exists()
    if is_open:
        if len(_open_until) > 10_000:  # tables come and go; forget the old ones now and then
            _open_until.clear()
        _open_until[table_id] = now + OPEN_TABLE_CACHE_SECONDS
    return is_open


def table_snapshot(table_id: int, user: User) -> dict[str, Any]:
    return table_view_for(Table.objects.get(pk=table_id), user)


def previous_hand_at(table_id: int, user: User) -> dict[str, Any] | None:
    return previous_hand_for(Table.objects.get(pk=table_id), user)


def table_view_for(table: Table, user: User, seat_rows: list[Seat] | None = None) -> dict[str, Any]:
    """The snapshot a client gets on connect or when it asks: public part + its own part.
    `seat_rows`: the table's seats with their players, if the caller has them."""
    if seat_rows is None:
        seat_rows = list(table.seat_set.select_related("user"))  # read once, for both parts
    public = public_table(table, seat_rows=seat_rows)
    public["now"] = epoch_ms(timezone.now())
    snapshot: dict[str, Any] = {
        "type": "snapshot",
        "seq": table.seq,
        "table": public,
        "you": viewer_part(table, user, seat_rows),
    }
    # The table log survives a reload: the hand's so far, or between hands the last one's, as a
    # page that stayed open still shows it.
    record = table.hand if table.in_hand else table.last_hand
    if record is not None:
        snapshot["log"] = hand_log(record)
    preferences = preferences_for(user)  # read once for the two parts below
    if table.kind == TableKind.CASH:
        # The player's auto top-up (their preferences): the top-up dialog shows and edits it.
        snapshot["auto_top_up"] = auto_top_up_view(preferences)
    snapshot["chat"] = chat_recent(table)
    muted = chat_muted_players(user)
    snapshot["chat_muted"] = [player["user_id"] for player in muted]
    snapshot["chat_muted_players"] = muted
    # The player's table settings, so that every device draws the table the same way.
    snapshot["preferences"] = table_settings_view(preferences)
    # The viewer's own notes on the players here (rules.md 6): this frame goes to them alone.
    notes = notes_on(user, [s.user_id for s in seat_rows if s.user_id != user.pk])
    snapshot["notes"] = notes
    if any(note["colour"] for note in notes):
        snapshot["tag_names"] = tag_names_view(preferences)
    return snapshot


def previous_hand_for(table: Table, user: User) -> dict[str, Any] | None:
    """RULES.md 4 'show previous hand': board, actions, every hand shown, and the player's own cards."""
    record = table.last_hand
    if record is None:
        return None
    return hand_summary_for(hand_as_shown(record), user)  # RULES.md 10: closed accounts
