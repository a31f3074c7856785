"""Each table's finished hands as a hash chain (casino/chain.py): what a hand's hash covers, its
record's fields and its action log. The services hash, the migrations backfill, the audit checks.
"""

from collections.abc import Iterable
from typing import Any

from casino.chain import chain_time

# The fields of a hand record its hash covers (docs/fairness.md): a field added to the model later
# is not covered unless it is named here (which changes every hash: a data migration would then
# chain the stored hands again).
HAND_FIELDS = (
    "id",
    "table_id",
    "number",
    "started_at",
    "ended_at",
    "button_seat",
    "options",
    "players",
    "deck",
    "salts",
    "commitment",
    "board",
    "pots",
    "shown",
    "rake",
    "result",
    "final_state",
    "blinds",
    "tournament",
)
# The fields of each of its actions, in the order of their index.
ACTION_FIELDS = (
    "index",
    "seat",
    "user_id",
    "action",
    "amount",
    "street",
    "source",
    "client_action_id",
    "created_at",
)
TIMES = ("started_at", "ended_at", "created_at")
HEAD_FIELDS = ("hand_chain_length", "hand_chain_last_id", "hand_chain_hash")


def _plain(row: dict[str, Any], names: Iterable[str]) -> dict[str, Any]:
    return {name: chain_time(row[name]) if name in TIMES else row[name] for name in names}


def hand_content(hand: dict[str, Any], actions: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The hashed content of a hand given as {field: value} (HAND_FIELDS) and its actions' rows
    (ACTION_FIELDS), by index."""
    content = _plain(hand, HAND_FIELDS)
    content["actions"] = [_plain(action, ACTION_FIELDS) for action in actions]
    return content
