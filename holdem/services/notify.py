"""Tell everyone at a table (and the lobby) what changed: one sequence number per change, one
frame per socket, carrying only what changed (docs/protocol.md, "event")."""

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

from django.conf import settings
from django.utils import timezone

from casino.accounts.models import User
from casino.accounts.selectors import wallet_balances
from holdem import engine
from holdem.db import rows
from holdem.db.locks import LockedTable
from holdem.models import Seat, TableKind
from holdem.realtime.broadcast import (
    LOBBY_GROUP,
    frame_message,
    player_group,
    send_on_commit,
    table_group,
)
from holdem.realtime.delta import decode, digest, encode, plain, table_changes
from holdem.selectors.game_state import epoch_ms
from holdem.selectors.liveness import spectator_count
from holdem.selectors.lobby import room_summary
from holdem.selectors.notes import notes_for_arrivals
from holdem.selectors.player_view import seated_part, unseated_part
from holdem.selectors.table_view import public_table

# Changes of who sits at the table (the spectators are counted again).
SEAT_KINDS = {"seated", "left"}

# Changes that alter what the lobby shows (seats taken, players, game running).
LOBBY_KINDS = {
    "seated",
    "left",
    "hand_ended",
    "closed",
    "opened",
    "waiting_for_players",
    "spectators",
    "sitting_out",  # the lobby says whether a game can start (room_summary's `ready`)
    "sitting_in",
}

# Changes after which a tournament table's panel (the view's `tournament`) is read again: a
# level, a hand dealt or ended (players out, places, hand for hand, the stacks the ranks are
# of), players coming and going, the table opening or closing, and the turns renewed after
# downtime (the clock extended the level then). Any other event (an action, a timeout, a hold
# between hands) carries the panel its clients hold: no query for it on the action path
# (docs/decisions.md, Tournaments).
PANEL_KINDS = {
    "hand_ended",
    "level",
    "seated",
    "left",
    "moved_in",
    "moved_out",
    "closing",
    "closed",
    "opened",
    "turn_renewed",
}


@dataclass(frozen=True, slots=True)
class TableChange:
    """What happened at a table, as everyone there is told it (docs/protocol.md, "event").
    `state`: the hand's engine state when one is in play. `also_tell`: users who just lost their
    seat (they hear of it with their own part). `seats`: the table's seat rows with their users,
    if the caller has them. `balances=False`: no wallet changed, so the private parts leave the
    balance out (the client keeps its own)."""

    kind: str
    detail: dict[str, Any] = field(default_factory=dict)
    _: KW_ONLY
    engine_events: Sequence[engine.Event] = ()
    state: engine.HandState | None = None
    also_tell: Sequence[User] = ()
    seats: list[Seat] | None = None
    balances: bool = True


def notify_table(table: LockedTable, change: TableChange) -> int:
    """Publish `change` (table_change_publish) and save what was sent; the caller has saved, or
    saves, the change itself. Returns the new sequence number."""
    rows.save_fields(table, table_change_publish(table, change))
    return table.seq


def table_change_publish(table: LockedTable, change: TableChange) -> list[str]:
    """Queue, for after commit, the event for everyone at the table: the public changes since the
    last event, and for each player whose private part changed (and each user in `also_tell`)
    the same frame with their own part, to them alone. Sets the table's bookkeeping of what was
    sent (seq, sent_view, the spectator count) and returns those fields' names, unsaved: a caller
    that writes the table row anyway saves them with its own fields, in one UPDATE."""
    table.seq += 1
    saved = ["seq", "sent_view"]
    state = change.state
    seats = change.seats
    if seats is None:
        seats = rows.seats_with_users(table.pk)
    if change.kind in SEAT_KINDS and spectators_counted(table):
        saved.append("spectators")  # who sat down or stood up was watching, or now is
    sent = decode(table.sent_view) if table.sent_view else {}
    kept = None if _panel_changes(change) else (sent.get("table") or {}).get("tournament")
    public = plain(public_table(table, state=state, seat_rows=seats, tournament_kept=kept))
    # The rules dialog's words follow from the options: sent when they change, and left out of
    # sent_view, which every event rewrites (2 KB less per write).
    rules = public.pop("rules")
    changes = table_changes(sent.get("table"), public)
    if "options" in changes:
        changes["rules"] = rules
    changes["now"] = epoch_ms(timezone.now())

    balances = change.balances
    wallets = wallet_balances(user_ids=[s.user_id for s in seats]) if balances else {}
    yous: dict[int, dict[str, Any]] = {}
    for seat in seats:
        yous[seat.user_id] = seated_part(
            table, seat, state=state, balance=wallets.get(seat.user_id, 0) if balances else None
        )
    digests = {str(user_id): _fingerprint(you) for user_id, you in yous.items()}
    before = sent.get("you", {})
    changed = {uid: you for uid, you in yous.items() if before.get(str(uid)) != digests[str(uid)]}
    for user in change.also_tell:
        changed[user.pk] = unseated_part(table, user, seated_elsewhere=None)  # they sit nowhere

    table.sent_view = encode({"table": public, "you": digests})

    event = {
        "kind": change.kind,
        **change.detail,
        "engine": [e.as_dict() for e in change.engine_events if e.private_to is None],
    }
    frame = {"type": "event", "seq": table.seq, "event": event, "changes": changes}
    messages = [(table_group(table.pk), frame_message(frame, skip=changed))]
    for user_id, you in changed.items():
        messages.append((player_group(table.pk, user_id), frame_message({**frame, "you": you})))
    messages.extend(_notes_on_arrivals(table.pk, sent.get("table"), public))
    if change.kind in LOBBY_KINDS and table.kind == TableKind.CASH:
        room = room_summary(table, seats)
        messages.append((LOBBY_GROUP, frame_message({"type": "room", "room": room})))
    send_on_commit(messages)
    return saved


def _seated_ids(public: dict[str, Any] | None) -> set[int]:
    return {s["user_id"] for s in (public or {}).get("seats") or [] if s.get("user_id")}


def _notes_on_arrivals(
    table_id: int, before: dict[str, Any] | None, public: dict[str, Any]
) -> list[tuple[str, dict[str, Any]]]:
    """Players seated since the last event (a seat taken, a tournament's draw or move): whoever
    watches here and wrote a note on one of them gets it, in their own group (rules.md 6). Their
    snapshot, older than the arrival, did not have it. No query when nobody arrived."""
    arrived = _seated_ids(public) - _seated_ids(before)
    return [
        (player_group(table_id, author_id), frame_message({"type": "note", "note": note}))
        for author_id, note in notes_for_arrivals(table_id, arrived)
    ]


def _panel_changes(change: TableChange) -> bool:
    """Whether a tournament table's panel may have changed with `change` (PANEL_KINDS, or the
    deal of a hand)."""
    if change.kind in PANEL_KINDS:
        return True
    return any(e.kind == "hand_started" for e in change.engine_events)


def spectators_counted(table: LockedTable) -> bool:
    """Count the table's spectators again (the caller holds the table lock); True if it changed."""
    count = spectator_count(table)
    if count == table.spectators:
        return False
    table.spectators = count
    return True


def spectators_changed(
    table: LockedTable, user_id: int, seats: Sequence[Seat] | None = None
) -> None:
    """A socket of `user_id` came or went (the caller holds the table lock): when the number of
    spectators changed, the lobby and the table hear it (no table event: nothing else changed).
    That user's own sockets are left out: a new one's snapshot already has the new count.
    `seats`: the table's seats with their players, if the caller has them (the lobby's row)."""
    if not spectators_counted(table):
        return
    # The clients now hold this count (table-delta.js): the next event's changes are measured
    # from it. Left at the last event's count, a seat taken back to that count sent no change,
    # and "1 watching" stayed on the players' screens.
    sent = decode(table.sent_view) if table.sent_view else {}
    if "table" in sent:
        sent["table"]["spectators"] = table.spectators
        table.sent_view = encode(sent)
    rows.save_fields(table, ["spectators", "sent_view"])
    messages = [
        (
            table_group(table.pk),
            frame_message({"type": "spectators", "count": table.spectators}, skip=[user_id]),
        )
    ]
    if table.kind == TableKind.CASH:  # the lobby lists cash rooms (a Sit & Go has its own row)
        room = room_summary(table, seats)
        messages.append((LOBBY_GROUP, frame_message({"type": "room", "room": room})))
    send_on_commit(messages)


def _fingerprint(you: dict[str, Any]) -> str:
    """What `sent_view` remembers of a private part (keyed with the site's secret)."""
    return digest(you, settings.SECRET_KEY.encode())


def notify_player(table: LockedTable, seat: Seat, state: engine.HandState | None) -> None:
    """Only this seated player's private part changed (nothing anyone else sees): send it to them
    alone, with the table's current seq (no new event), and remember what they were sent."""
    you = seated_part(table, seat, state=state, balance=None)
    sent = decode(table.sent_view) if table.sent_view else {}
    sent.setdefault("you", {})[str(seat.user_id)] = _fingerprint(you)
    table.sent_view = encode(sent)
    rows.save_fields(table, ["sent_view"])
    frame = {"type": "you", "seq": table.seq, "you": you}
    send_on_commit([(player_group(table.pk, seat.user_id), frame_message(frame))])
