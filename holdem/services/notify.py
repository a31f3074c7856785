"""Tell everyone at a table (and the lobby) what changed: one sequence number per change."""

from casino.accounts.selectors import wallet_balances
from holdem.broadcast import LOBBY_GROUP, player_group, send_on_commit, table_group
from holdem.selectors import private_part, public_table, room_summary

# Changes that alter what the lobby shows (seats taken, players, game running).
LOBBY_KINDS = {
    "seated",
    "left",
    "hand_ended",
    "closed",
    "opened",
    "waiting_for_players",
    "spectators",
}


def notify_table(
    table,
    kind: str,
    detail: dict,
    engine_events=(),
    state=None,
    also_tell=(),
    save=(),
    seats=None,
    balances=True,
) -> int:
    """Queue, for after commit, the public event for the table group and each seated player's
    private part for their own group (and for `also_tell`: users who just lost their seat).
    Returns the new sequence number, saved in one UPDATE with the table fields named in `save`.
    `seats`: the table's seat rows with their users, if the caller has them. `balances=False`:
    no wallet changed, so the private parts leave the balance out (the client keeps its own)."""
    table.seq += 1
    table.save(update_fields=["seq", *save])
    if seats is None:
        seats = list(table.seat_set.select_related("user"))
    public = public_table(table, state=state, seat_rows=seats)
    event = {
        "kind": kind,
        **detail,
        "engine": [e.as_dict() for e in engine_events if e.private_to is None],
    }
    messages = [
        (
            table_group(table.pk),
            {"type": "event", "seq": table.seq, "event": event, "table": public},
        )
    ]
    wallets = wallet_balances(user_ids=[s.user_id for s in seats]) if balances else {}
    for seat in seats:
        you = private_part(
            table,
            seat.user,
            state=state,
            seat=seat,
            balance=wallets.get(seat.user_id, 0) if balances else None,
            with_balance=balances,
            seated_here=True,
        )
        messages.append(
            (player_group(table.pk, seat.user_id), {"type": "you", "seq": table.seq, "you": you})
        )
    for user in also_tell:
        you = private_part(table, user, state=state, seat=None, seated_here=True)
        messages.append(
            (player_group(table.pk, user.pk), {"type": "you", "seq": table.seq, "you": you})
        )
    if kind in LOBBY_KINDS:
        messages.append((LOBBY_GROUP, {"type": "room", "room": room_summary(table)}))
    send_on_commit(messages)
    return table.seq


def lobby_room_changed(table) -> None:
    """Spectators came or went: only the lobby's counts change (no table event)."""
    send_on_commit([(LOBBY_GROUP, {"type": "room", "room": room_summary(table)})])
