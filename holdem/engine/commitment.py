"""The deck commitment (docs/fairness.md): before a card is dealt the table publishes one hash
over a salted hash of every deck position; after the hand the public cards are revealed with
their salts, and anyone can check them against it while every other card stays hidden.

Scheme `deck-sha256-v1`, all text ASCII, hashes lowercase hex SHA-256:
- leaf(i) = SHA-256 of "<i>:<card>:<salt>" for deck position i (0-51, dealing order), the card's
  code ("As", "Td") and its salt (32 hex digits: 16 random bytes);
- commitment = SHA-256 of the 52 leaves written one after the other (3,328 hex digits).
(A test may deal from a shorter stacked deck: the commitment is then over its positions.)
"""

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

SCHEME = "deck-sha256-v1"
DECK_SIZE = 52
SALT_BYTES = 16


def leaf(position: int, card: str, salt: str) -> str:
    """The hash that binds `card` to deck `position` under `salt`."""
    return hashlib.sha256(f"{position}:{card}:{salt}".encode("ascii")).hexdigest()


def commitment_of_leaves(leaves: Sequence[str]) -> str:
    """The commitment over the deck's leaves (52 on the site), in position order."""
    if not leaves:
        raise ValueError("a commitment is over one leaf or more")
    return hashlib.sha256("".join(leaves).encode("ascii")).hexdigest()


def deck_commitment(deck: Sequence[str], salts: Sequence[str]) -> str:
    """The commitment a table publishes for the shuffled `deck` and its `salts`."""
    if len(deck) != len(salts) or not deck:
        raise ValueError("a commitment needs one salt per card of the deck")
    return commitment_of_leaves(
        [leaf(i, card, salt) for i, (card, salt) in enumerate(zip(deck, salts))]
    )


def deal_positions(dealt_seats: Iterable[int], button: int) -> dict[str, int]:
    """Where each card of a hand sits in the deck (RULES.md 3: two hole cards each, one at a time
    clockwise from the first seat dealt in left of the button; then burn, flop, burn, turn, burn,
    river). Keys: "<seat>:0" and "<seat>:1" for hole cards, "board:0" .. "board:4"."""
    seats = sorted(dealt_seats)
    count = len(seats)
    if count < 2:
        raise ValueError("a hand deals to two seats or more")
    first = next((i for i, seat in enumerate(seats) if seat > button), 0)
    positions = {}
    for step in range(count):
        seat = seats[(first + step) % count]
        positions[f"{seat}:0"] = step
        positions[f"{seat}:1"] = count + step
    for index, offset in enumerate((1, 2, 3, 5, 7)):
        positions[f"board:{index}"] = 2 * count + offset
    return positions


def public_positions(
    *,
    dealt_seats: Iterable[int],
    button: int,
    board: Sequence[str],
    holes: Mapping[int, Sequence[str]],
) -> dict[int, str]:
    """Deck position -> card for the cards a viewer may see: the `board` dealt and the hole
    cards in `holes` (seat -> its two cards: shown, or the viewer's own)."""
    where = deal_positions(dealt_seats, button)
    public = {where[f"board:{i}"]: card for i, card in enumerate(board)}
    for seat, cards in holes.items():
        for i, card in enumerate(cards):
            public[where[f"{seat}:{i}"]] = card
    return public


def reveal(
    deck: Sequence[str], salts: Sequence[str], public: Mapping[int, str]
) -> list[dict[str, object]]:
    """What proves the `public` cards (position -> card) and hides the rest: for each position
    in order, {position, card, salt} where the card is public, else {position, leaf}."""
    cards: list[dict[str, object]] = []
    for i, (card, salt) in enumerate(zip(deck, salts, strict=True)):
        if i in public:
            if public[i] != card:
                raise ValueError(f"position {i} holds {card}, not {public[i]}")
            cards.append({"position": i, "card": card, "salt": salt})
        else:
            cards.append({"position": i, "leaf": leaf(i, card, salt)})
    return cards


@dataclass(frozen=True)
class Verdict:
    """A check of a reveal: `ok` when every revealed card matches the commitment and sits where
    the deal puts it; `problems` says what does not, one sentence each."""

    ok: bool
    problems: tuple[str, ...]
    revealed: int


def verify(
    commitment: str,
    cards: Sequence[Mapping[str, object]],
    expected: Mapping[int, str] | None = None,
) -> Verdict:
    """Check a reveal against the `commitment` published before the deal. `expected` (position
    -> card, from the hand's public record) must each be revealed at that position."""
    problems: list[str] = []
    leaves: list[str] = []
    revealed: dict[int, str] = {}
    if not cards:
        problems.append("the reveal has no positions")
    for index, entry in enumerate(cards):
        if entry.get("position") != index:
            problems.append(f"entry {index} names position {entry.get('position')!r}")
        card, salt, hidden = entry.get("card"), entry.get("salt"), entry.get("leaf")
        if isinstance(card, str) and isinstance(salt, str):
            leaves.append(leaf(index, card, salt))
            revealed[index] = card
        elif isinstance(hidden, str):
            leaves.append(hidden)
        else:
            problems.append(f"position {index} has neither a card with its salt nor a leaf")
            leaves.append("")
    if leaves and commitment_of_leaves(leaves) != commitment:
        problems.append("the revealed cards and hidden leaves do not hash to the commitment")
    if len(set(revealed.values())) != len(revealed):
        problems.append("a card is revealed at two positions")
    for position, card in sorted((expected or {}).items()):
        if revealed.get(position) != card:
            found = revealed.get(position, "nothing")
            problems.append(f"{card} should be at position {position}; the reveal has {found}")
    return Verdict(ok=not problems, problems=tuple(problems), revealed=len(revealed))
