"""The snapshot a client gets of a table (style.md 6): the public view and its own part, the
hand's log so far, the chat and whom the user muted; and the "previous hand" dialog.
"""

from typing import Any

from django.utils import timezone

from casino.accounts.models import User
from holdem.history.stored_hand import hand_log
from holdem.models import Table, TableKind, TableStatus
from holdem.selectors.chat import chat_muted_ids, chat_recent
from holdem.selectors.game_state import epoch_ms
from holdem.selectors.hand_history import hand_summary_for
from holdem.selectors.player_view import viewer_part
from holdem.selectors.table_view import public_table


def table_is_open(table_id: int) -> bool:
    # A finished Sit & Go's table stays open to watchers: its panel holds the result.
    closed = {"status": TableStatus.CLOSED, "kind": TableKind.CASH}
    return Table.objects.filter(pk=table_id).exclude(**closed).exists()


def table_snapshot(table_id: int, user: User) -> dict[str, Any]:
    return table_view_for(Table.objects.get(pk=table_id), user)


def previous_hand_at(table_id: int, user: User) -> dict[str, Any] | None:
    return previous_hand_for(Table.objects.get(pk=table_id), user)


def table_view_for(table: Table, user: User) -> dict[str, Any]:
    """The snapshot a client gets on connect or when it asks: public part + its own part."""
    public = public_table(table)
    public["now"] = epoch_ms(timezone.now())
    snapshot: dict[str, Any] = {
        "type": "snapshot",
        "seq": table.seq,
        "table": public,
        "you": viewer_part(table, user),
    }
    # The table log survives a reload: the hand's so far, or between hands the last one's, as a
    # page that stayed open still shows it.
    record = table.hand if table.in_hand else table.last_hand
    if record is not None:
        snapshot["log"] = hand_log(record)
    snapshot["chat"] = chat_recent(table)
    snapshot["chat_muted"] = chat_muted_ids(user)
    return snapshot


def previous_hand_for(table: Table, user: User) -> dict[str, Any] | None:
    """RULES.md 4 'show previous hand': board, actions, every hand shown, and the player's own cards."""
    record = table.last_hand
    if record is None:
        return None
    return hand_summary_for(record, user)
