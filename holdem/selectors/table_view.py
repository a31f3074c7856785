"""The table as anyone watching it may see it: seats, stacks, the hand in play through the
engine's spectator view, the turn clock, and the last hand's result while it stays on the felt.

No hole card appears here unless shown at showdown (style.md 5): a player's own cards travel in
their private part (holdem/selectors/player_view.py), to them alone.
"""

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.utils import timezone

from holdem import engine
from holdem.models import Seat, Table, TableKind
from holdem.selectors.closed_names import closed_names, players_named
from holdem.selectors.game_state import current_state, epoch_ms, stakes_label
from holdem.selectors.multi_table import mtt_table_panel
from holdem.selectors.tournaments import tournament_of_table, tournament_panel
from holdem.table_options import rules_dialog, rules_of, turn_seconds_of


def public_table(
    table: Table,
    state: engine.HandState | None = None,
    seat_rows: Iterable[Seat] | None = None,
    *,
    tournament_kept: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything anyone watching the table may see. No hole card unless shown at showdown.
    The server's clock (`now`) is the frame's: see table_view_for (snapshot.py).
    `tournament_kept`: a tournament table's panel as its clients hold it, when the caller knows
    it has not changed (holdem/services/notify.py): it is kept instead of read again."""
    if state is None:
        state = current_state(table)
    elif state.is_over:
        state = None  # the hand is finished: the result travels in `last_hand`
    hand_view = engine.view(state, None) if state is not None else None
    in_hand = {s["seat"]: s for s in hand_view["seats"]} if hand_view else {}
    if seat_rows is None:
        seat_rows = table.seat_set.select_related("user")
    seats = {s.number: s for s in seat_rows}
    # Between hands the last result stays on the felt, unless everybody has gone: an empty table
    # shows no old result.
    last = _last_result(table, seats) if hand_view is None and seats else None
    if last is not None and not _result_on_felt(table):
        last = None
    rows: list[dict[str, Any]] = []
    for number in range(table.seats):
        seat = seats.get(number)
        if seat is None:
            row: dict[str, Any] = {"number": number, "occupied": False}
            held_until = (table.held_seats or {}).get(str(number))
            if held_until is not None:
                row["reserved_until"] = held_until  # held for the first in the waiting list
            rows.append(row)
            continue
        row = {
            "number": number,
            "occupied": True,
            "user_id": seat.user_id,
            "username": seat.user.username,
            "stack": seat.stack,
            "in_hand": seat.in_hand,
            "sitting_out": seat.sitting_out,
            "waiting_for_big_blind": seat.waiting_for_big_blind,
            "disconnected": seat.disconnected,
            "time_bank": seat.time_bank_ms // 1000,
        }
        if number in in_hand:
            played = in_hand[number]
            row.update(
                {
                    k: played[k]
                    for k in (
                        "stack",
                        "bet",
                        "committed",
                        "folded",
                        "all_in",
                        "protected",
                        "has_cards",
                    )
                    if k in played
                }
            )
            if played.get("hole"):
                row["hole"] = played["hole"]
        # A seat shows the last result only to the player who played it, not to a newcomer.
        played_here = (
            last is not None and last["players"].get(str(number), {}).get("user_id") == seat.user_id
        )
        row["state"] = _seat_state(row, hand_view, last if played_here else None)
        if played_here and last is not None and str(number) in last["net"]:
            row["net"] = last["net"][str(number)]
            row["winner"] = number in last["winners"]
        rows.append(row)
    options = rules_of(table)
    return {
        "id": table.pk,
        "name": table.name,
        "status": table.status,
        "options": options,
        "rules": rules_dialog(options),  # the rules dialog's lines, worded by the server
        "stakes": stakes_label(table),
        "button": table.button_seat,
        "seats": rows,
        "hand": hand_view,
        "hand_number": table.hands_played,
        # The hand's number on the history pages and in its PokerStars text: the hand being
        # played, else the last one (null before the first).
        "hand_id": table.hand_id or table.last_hand_id,
        # docs/fairness.md: the deck commitment of that hand, published before its deal.
        "commitment": table.commitment or None,
        "turn": {
            "seat": hand_view["to_act"],
            "deadline": epoch_ms(table.turn_deadline),
            "seconds": turn_seconds_of(table),  # the pace's (RULES.md 1): the ring's span
            "token": table.turn_token,
            # The turn clock ran out and the player's time bank runs until `deadline`.
            "bank_from": epoch_ms(table.turn_bank_from),
        }
        if hand_view and hand_view.get("to_act") is not None
        else None,
        "countdown": {"starts_at": epoch_ms(table.next_hand_at)} if table.next_hand_at else None,
        # RULES.md 9: why a tournament's table waits between hands instead of counting down.
        "held": table.held_for or None,
        "last_hand": last,
        "spectators": table.spectators,
        **_tournament_part(table, tournament_kept),
    }


def _tournament_part(table: Table, kept: dict[str, Any] | None) -> dict[str, Any]:
    """A tournament table's panel: a Sit & Go's (RULES.md 8), or a multi-table tournament's
    (RULES.md 9); nothing at a cash table."""
    if table.kind == TableKind.CASH:
        return {}
    if kept is not None:
        return {"tournament": kept}
    tournament = tournament_of_table(table)
    if tournament is None:
        return {"tournament": None}
    if table.kind == TableKind.TOURNAMENT:
        return {"tournament": mtt_table_panel(tournament, table)}
    return {"tournament": tournament_panel(tournament)}


# How long a finished hand's result stays on a table that has nothing next (as long as the time
# to choose Show or Muck, holdem/services/hand_end.py SHOW_OR_MUCK_SECONDS).
RESULT_ON_FELT_SECONDS = 8


def _result_on_felt(table: Table) -> bool:
    """The last hand's result stays on the felt until the table moves on: while players choose
    Show or Muck, while the countdown to the next game runs, and for a few seconds after the hand
    ended. A table left waiting for players does not keep an old winner beside that."""
    if table.show_or_muck_deadline is not None or table.next_hand_at is not None:
        return True
    ended = table.last_hand.ended_at if table.last_hand is not None else None
    return ended is not None and timezone.now() - ended < timedelta(seconds=RESULT_ON_FELT_SECONDS)


def _seat_state(
    row: dict[str, Any], hand_view: dict[str, Any] | None, last: dict[str, Any] | None
) -> str:
    """RULES.md 6 seat states that do not depend on who looks (the client adds open/closed empty
    and 'your seat' variants)."""
    if row["disconnected"]:
        return "disconnected"
    if hand_view is None:
        if last and row["number"] in last["winners"]:
            return "winner"
        if row["sitting_out"]:
            return "sitting_out"
        return "post_game" if last else "waiting"
    if not row["in_hand"]:
        return "sitting_out" if row["sitting_out"] else "waiting_next_game"
    if row.get("folded"):
        return "folded"
    if row.get("all_in") or row.get("protected"):
        return "all_in"
    if hand_view.get("to_act") == row["number"]:
        return "betting"
    return "waiting"


def _last_result(table: Table, seats: dict[int, Seat]) -> dict[str, Any] | None:
    """The last hand's result as the felt shows it between hands. A seat's cards, hand and net
    stay only while the player who played it sits there: once they have gone (left, busted), the
    seat, empty or taken by someone else, shows nothing of them. Who played where (`players`)
    names the pots' winners."""
    record = table.last_hand
    if record is None or not record.result:
        return None
    result = record.result
    # RULES.md 10: a closed account who played it goes by its name of now. Only a player who
    # has left may have closed it: while everyone still sits here, no query.
    seated_ids = {seat.user_id for seat in seats.values()}
    names = closed_names(p["user_id"] for p in record.players if p["user_id"] not in seated_ids)
    players = {
        str(p["seat"]): {"user_id": p["user_id"], "username": p["username"]}
        for p in players_named(record.players, names)
    }
    still_here = {
        str(number)
        for number, seat in seats.items()
        if players.get(str(number), {}).get("user_id") == seat.user_id
    }

    def of_those_here(by_seat: dict[str, Any]) -> dict[str, Any]:
        return {key: value for key, value in by_seat.items() if key in still_here}

    return {
        "hand_id": record.pk,
        "number": record.number,
        "board": record.board,
        "pots": result["pots"],
        "winners": sorted({w for pot in result["pots"] for w in pot["winners"]}),
        "players": players,
        "net": of_those_here(result["net"]),
        "shown": of_those_here(result["shown"]),
        "best": of_those_here(result["best"]),
        "uncontested": result["uncontested"],
        "rake": result["rake"],
        # RULES.md 4: seats still choosing Show or Muck, and until when.
        "undecided": result.get("undecided", []),
        "decide_by": epoch_ms(table.show_or_muck_deadline),
    }
