"""The steps of a finished hand for the replayer (`hand_replay`): one per public event, each the
table as it stood right after it, drawn like a table frame with only the cards the viewer saw."""

from holdem import engine
from holdem.history.stored_hand import hand_moments
from holdem.history.story import later_choices, line_street, moment_line
from holdem.models import HandRecord

BOARD_STREETS = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}


def hand_replay(record: HandRecord, viewer_seat: int | None) -> dict:
    """The steps of a finished hand for the replayer: one per public event (the pots' awards
    make one last step), each the table as it stood right after it, drawn like a table frame.
    The viewer sees their own hole cards; another player's only once the table saw them (the
    hands turned face up for an all-in run-out, or shown at the showdown), and at the last step
    the hands shown when the hand was over. Mucked and folded hands stay face down."""
    names = {p["seat"]: p["username"] for p in record.players}
    moments = hand_moments(record)
    stored = record.result or {}
    shown_after = {int(seat): list(hole) for seat, hole in record.shown.items()}
    pots = stored.get("pots") or record.pots
    revealed: dict[int, list[str]] = {}
    steps: list[dict] = []
    awarded: list[str] = []
    for moment in moments:
        event = moment.event
        if event.kind == "hands_tabled":
            revealed.update({seat: list(hole) for seat, hole in event.hands.items()})
        elif event.kind == "showdown":
            revealed[event.seat] = list(event.hole)
        # Only hands the stored result says were shown (it keeps every one the table saw).
        revealed = {seat: hole for seat, hole in revealed.items() if seat in shown_after}
        if event.kind == "pot_awarded":
            awarded.append(moment_line(moment, names, len(pots))["text"])
            continue
        if event.kind == "hand_ended":
            later = [line["text"] for line in later_choices(record, moments, names)]
            steps.append(
                _result_step(record, moment.state, viewer_seat, shown_after, awarded + later)
            )
            continue
        line = moment_line(moment, names, len(pots))
        step = {
            "kind": event.kind,
            "street": line_street(moment),
            "seat": getattr(event, "seat", None),
            "text": line["text"] if line else _start_text(record, event, names),
            "hand": _hand_frame(moment.state),
            "seats": _seat_frames(moment.state, viewer_seat, revealed),
        }
        if event.kind == "action":
            step["event"] = event.as_dict()  # the table's own words for a seat's last action
        steps.append(step)
    you = next((p for p in record.players if p["seat"] == viewer_seat), None)
    return {
        "hand_id": record.pk,
        "table": record.table.name,
        "seat_count": max(record.table.seats, *(p["seat"] + 1 for p in record.players)),
        "button": record.button_seat,
        "players": [{"seat": p["seat"], "username": p["username"]} for p in record.players],
        "you": {"seat": viewer_seat, "username": you["username"]} if you else None,
        "steps": steps,
    }


def _start_text(record: HandRecord, event, names: dict) -> str:
    """The first step's words, as the table's log starts a hand."""
    blinds = f"{event.small_blind:,}/{event.big_blind:,}"
    if event.ante:
        blinds += f", ante {event.ante:,}"  # RULES.md 8
    # RULES.md 8: the button may be on a seat nobody holds any more (the dead button).
    button = names.get(event.button, f"Seat {event.button + 1}")
    return f"Hand #{record.pk} · blinds {blinds} · {button} has the button"


def _hand_frame(state) -> dict:
    seen = engine.view(state, None)
    return {
        key: seen[key]
        for key in (
            "street",
            "board",
            "button",
            "small_blind_seat",
            "big_blind_seat",
            "small_blind",
            "big_blind",
            "ante",
            "pot_total",
            "pots",
            "to_act",
        )
    }


def _seat_frames(state, viewer_seat: int | None, revealed: dict) -> list[dict]:
    """The seats of the hand at one step. Hole cards: the viewer's own and those `revealed`."""
    seats = []
    for entry in engine.view(state, None)["seats"]:
        entry.pop("hole", None)  # the engine's view shows the replayed showdown: ours decides
        seat = entry["seat"]
        if seat == viewer_seat:
            entry["hole"] = list(state.player(seat).hole)
        elif seat in revealed:
            entry["hole"] = revealed[seat]
        seats.append(entry)
    return seats


def _result_step(record, final, viewer_seat, shown_after: dict, lines: list[str]) -> dict:
    """The last step: the pots paid, the final stacks, every hand shown (the table's last hand)."""
    stored = record.result or {}
    winners = sorted({seat for pot in stored.get("pots", []) for seat in pot["winners"]})
    uncontested = bool(stored.get("uncontested"))
    return {
        "kind": "result",
        # Uncontested: the street it ended on (no showdown to jump to).
        "street": BOARD_STREETS[len(final.board)] if uncontested else "showdown",
        "seat": None,
        "text": " · ".join(lines),
        "hand": None,
        "seats": _seat_frames(final, viewer_seat, shown_after),
        "result": {
            "board": list(final.board),
            "pots": [
                {key: pot[key] for key in ("amount", "rake", "winners", "shares")}
                for pot in stored.get("pots", [])
            ],
            "winners": winners,
            "net": stored.get("net", {}),
            "shown": {str(seat): hole for seat, hole in shown_after.items()},
            "best": {
                seat: best
                for seat, best in stored.get("best", {}).items()
                if int(seat) in shown_after
            },
            "uncontested": uncontested,
            "undecided": [],
        },
    }
