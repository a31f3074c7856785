"""Hand histories name a closed account by its anonymous name (RULES.md 10), never the one it
played under. A hand's record keeps the name as it was dealt: its `players` are covered by the
table's hash chain (holdem/hand_chain.py), so the name is replaced when the hand is read for a
page, not in the stored record (docs/decisions.md, "Your account")."""

import copy
from collections.abc import Iterable
from typing import Any

from casino.accounts.models import User
from holdem.models import HandRecord


def closed_names(user_ids: Iterable[int]) -> dict[int, str]:
    """{user id: the name it goes by now} for the closed accounts among `user_ids` (one query)."""
    ids = set(user_ids)
    if not ids:
        return {}
    return dict(
        User.objects.filter(pk__in=ids, closed_at__isnull=False).values_list("pk", "username")
    )


def players_named(players: list[dict[str, Any]], names: dict[int, str]) -> list[dict[str, Any]]:
    """A copy of a hand's `players`, each closed account under its name of now."""
    return [
        {**p, "username": names[p["user_id"]]} if p.get("user_id") in names else p for p in players
    ]


def hands_as_shown(records: Iterable[HandRecord]) -> list[HandRecord]:
    """The hands as a page shows them: a hand with a closed account among its players is a copy
    with the names replaced (saving that copy is refused, since its record would no longer match
    its hash); the others are the records themselves."""
    records = list(records)
    names = closed_names(p["user_id"] for record in records for p in record.players)
    shown = []
    for record in records:
        if not any(p.get("user_id") in names for p in record.players):
            shown.append(record)
            continue
        named = copy.copy(record)
        named.players = players_named(record.players, names)
        named.save = _not_saved  # type: ignore[method-assign]
        shown.append(named)
    return shown


def hand_as_shown(record: HandRecord) -> HandRecord:
    return hands_as_shown([record])[0]


def _not_saved(*args: Any, **kwargs: Any) -> None:
    raise TypeError("a hand as shown, with a closed account's name replaced, is never saved")
