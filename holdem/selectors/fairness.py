"""The proof that a finished hand's public cards are the ones committed to before its deal
(docs/fairness.md): for a viewer, each card they may see with its salt, every other position
as its leaf only.
"""

from typing import Any

from holdem.engine.commitment import SCHEME, deal_positions, public_positions, reveal
from holdem.models import HandRecord
from holdem.selectors.hand_history import final_state


def visible_holes(record: HandRecord, viewer_id: int | None) -> dict[int, list[str]]:
    """Seat -> hole cards a finished hand proves for the viewer: every hand shown (at the
    showdown or by choice), and the viewer's own. Folded and mucked hands stay hidden: a reveal
    is as public as the PokerStars text it goes into, which the staff's pages show too."""
    holes = {int(seat): list(cards) for seat, cards in (record.shown or {}).items()}
    own = next((p["seat"] for p in record.players if p["user_id"] == viewer_id), None)
    if own is not None and record.final_state:
        holes[own] = list(final_state(record).player(own).hole)
    return holes


def hand_fairness(record: HandRecord, viewer_id: int | None) -> dict[str, Any] | None:
    """The reveal of a finished hand for the user `viewer_id` (None: nobody's own cards), or None
    for a hand still in play or dealt before commitments were made."""
    if record.ended_at is None or not record.commitment:
        return None
    dealt = [p["seat"] for p in record.players]
    holes = visible_holes(record, viewer_id)
    public = public_positions(
        dealt_seats=dealt, button=record.button_seat, board=record.board, holes=holes
    )
    where = deal_positions(dealt, record.button_seat)
    return {
        "scheme": SCHEME,
        "commitment": record.commitment,
        "button": record.button_seat,
        "dealt": sorted(dealt),
        "board": list(record.board),
        "holes": {str(seat): cards for seat, cards in sorted(holes.items())},
        # Where each public card must be (the deal's order): a verifier checks it too.
        "positions": {key: where[key] for key in _public_keys(record.board, holes)},
        "cards": reveal(record.deck, record.salts, public),
    }


def _public_keys(board: list[str], holes: dict[int, list[str]]) -> list[str]:
    keys = [f"board:{i}" for i in range(len(board))]
    for seat in sorted(holes):
        keys += [f"{seat}:0", f"{seat}:1"]
    return keys
