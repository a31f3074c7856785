"""What changed in a table's public view from one event to the next, and how a client applies it
(docs/protocol.md, "event"). Pure functions on JSON-shaped dicts: the server makes the changes,
the test and benchmark clients apply them (static/js/table-delta.js does the same in the browser).

The changes are the top-level keys whose value changed, each sent whole, except `seats`: when the
number of seats is the same, only the seat entries that changed travel, as `seat_updates`.
"""

import hashlib
from typing import Any

import orjson

_ENCODE = orjson.OPT_NON_STR_KEYS


def encode(payload: Any) -> str:
    """The one JSON encoding of everything the table sends (int keys become strings)."""
    return orjson.dumps(payload, option=_ENCODE).decode()


def decode(text: str) -> Any:
    return orjson.loads(text)


def plain(payload: Any) -> Any:
    """`payload` as it reads back from JSON (tuples become lists, keys strings): what a client
    holds, so that two views compare equal exactly when their JSON does."""
    return orjson.loads(orjson.dumps(payload, option=_ENCODE))


def digest(payload: Any, key: bytes) -> str:
    """A short keyed fingerprint of a JSON payload (the private part a player was last sent).
    Keyed, so that nobody who reads the stored fingerprint can try the 1,326 possible hole card
    pairs against it."""
    text = orjson.dumps(payload, option=_ENCODE | orjson.OPT_SORT_KEYS)
    return hashlib.blake2b(text, digest_size=8, key=key[:64]).hexdigest()


def table_changes(before: dict | None, after: dict) -> dict:
    """The changes that turn the view `before` into `after` (everything, when there is no before)."""
    if before is None:
        return dict(after)
    changes = {
        key: value for key, value in after.items() if key != "seats" and before.get(key) != value
    }
    old_seats, new_seats = before.get("seats"), after.get("seats")
    if old_seats is None or new_seats is None or len(old_seats) != len(new_seats):
        if old_seats != new_seats:
            changes["seats"] = new_seats
    else:
        updates = [new for old, new in zip(old_seats, new_seats) if old != new]
        if updates:
            changes["seat_updates"] = updates
    return changes


def apply_changes(table: dict, changes: dict) -> dict:
    """The view after `changes` (a new dict; `table` is left as it was)."""
    updated = {key: value for key, value in changes.items() if key != "seat_updates"}
    table = {**table, **updated}
    if "seat_updates" in changes:
        seats = list(table["seats"])
        for seat in changes["seat_updates"]:
            seats[seat["number"]] = seat
        table["seats"] = seats
    return table


def apply_you(you: dict | None, new: dict) -> dict:
    """A private part as the client keeps it: mid-hand parts leave the unchanged balance out."""
    if "balance" not in new and you is not None and "balance" in you:
        return {**new, "balance": you["balance"]}
    return new


def client_view(table: dict | None, you: dict | None, frame: dict) -> tuple:
    """The (table, you) a client holds after receiving `frame`, given what it held before: what
    the site's own client does (static/js/table-app.js), for the test and benchmark clients.
    Events before the first snapshot are ignored (the snapshot includes them)."""
    kind = frame.get("type")
    if kind == "snapshot":
        return frame["table"], frame["you"]
    if table is None:
        return table, you
    if kind == "event":
        table = apply_changes(table, frame["changes"])
        if frame.get("you"):
            you = apply_you(you, frame["you"])
    elif kind == "you":
        you = apply_you(you, frame["you"])
    elif kind == "spectators":
        table = {**table, "spectators": frame["count"]}
    return table, you
