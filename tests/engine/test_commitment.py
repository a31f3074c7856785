"""The deck commitment (docs/fairness.md): a reveal proves the public cards against the hash
published before the deal and hides the others; any change of a card, a salt, a position or
the commitment is caught."""

import hashlib
import json
import random
from pathlib import Path

from holdem.engine.cards import new_deck, shuffle
from holdem.engine.commitment import (
    deal_positions,
    deck_commitment,
    leaf,
    public_positions,
    reveal,
    verify,
)


def dealt_deck(seed=3):
    rng = random.Random(seed)
    deck = shuffle(new_deck(), rng)
    salts = [rng.randbytes(16).hex() for _ in deck]
    return deck, salts


def test_the_deal_order_gives_each_card_its_deck_position():
    """RULES.md 3: two hole cards each, one at a time clockwise from the first seat left of the
    button; then burn, flop, burn, turn, burn, river."""
    where = deal_positions([1, 4, 7], button=4)
    assert [where["7:0"], where["1:0"], where["4:0"]] == [0, 1, 2]
    assert [where["7:1"], where["1:1"], where["4:1"]] == [3, 4, 5]
    assert [where[f"board:{i}"] for i in range(5)] == [7, 8, 9, 11, 13]
    # A button past the last seat (or on an empty seat) deals from the lowest seat.
    assert deal_positions([1, 4, 7], button=8)["1:0"] == 0
    assert deal_positions([1, 4, 7], button=5)["7:0"] == 0


def test_a_reveal_of_the_public_cards_verifies_and_hides_the_rest():
    deck, salts = dealt_deck()
    commitment = deck_commitment(deck, salts)
    board = [deck[7], deck[8], deck[9], deck[11], deck[13]]
    public = public_positions(
        dealt_seats=[1, 4, 7], button=4, board=board, holes={1: [deck[1], deck[4]]}
    )
    cards = reveal(deck, salts, public)
    verdict = verify(commitment, cards, public)
    assert verdict.ok, verdict.problems
    assert verdict.revealed == 7
    hidden = [entry for entry in cards if "card" not in entry]
    assert len(hidden) == 45
    # A hidden position gives its leaf only: neither its card nor its salt.
    for entry in hidden:
        assert set(entry) == {"position", "leaf"}
        assert salts[entry["position"]] not in entry["leaf"]


def test_a_changed_card_is_caught():
    deck, salts = dealt_deck()
    commitment = deck_commitment(deck, salts)
    public = {7: deck[7], 8: deck[8], 9: deck[9]}
    cards = reveal(deck, salts, public)
    other = next(card for card in new_deck() if card not in deck[:20])
    cards[8] = {**cards[8], "card": other}
    verdict = verify(commitment, cards, {**public, 8: other})
    assert not verdict.ok
    assert "do not hash to the commitment" in " ".join(verdict.problems)


def test_a_changed_commitment_is_caught():
    deck, salts = dealt_deck()
    commitment = deck_commitment(deck, salts)
    cards = reveal(deck, salts, {7: deck[7]})
    forged = ("0" if commitment[0] != "0" else "1") + commitment[1:]
    assert not verify(forged, cards, {7: deck[7]}).ok


def test_a_card_claimed_at_another_position_is_caught():
    """Honest leaves, but the board the record shows is not where the deal put it."""
    deck, salts = dealt_deck()
    commitment = deck_commitment(deck, salts)
    cards = reveal(deck, salts, {7: deck[7], 20: deck[20]})
    verdict = verify(commitment, cards, {7: deck[20]})
    assert not verdict.ok
    assert f"{deck[20]} should be at position 7" in verdict.problems[0]


def test_a_missing_salt_or_a_short_reveal_is_caught():
    deck, salts = dealt_deck()
    commitment = deck_commitment(deck, salts)
    cards = reveal(deck, salts, {7: deck[7]})
    broken = [*cards[:7], {"position": 7, "card": deck[7]}, *cards[8:]]
    assert "neither a card with its salt nor a leaf" in " ".join(
        verify(commitment, broken).problems
    )
    # A position left out of the reveal changes what hashes to the commitment.
    assert "do not hash to the commitment" in verify(commitment, cards[:51]).problems[0]


def test_the_leaf_is_the_documented_hash():
    assert leaf(17, "As", "00" * 16) == hashlib.sha256(b"17:As:" + b"0" * 32).hexdigest()


def test_the_browser_verifiers_fixture_is_a_reveal_the_engine_verifies():
    """tests/js/fairness.test.mjs checks the page's Verify against this file: both sides agree."""
    hand = json.loads((Path(__file__).parents[1] / "js/fixtures/fairness-hand.json").read_text())
    where = deal_positions(hand["dealt"], hand["button"])
    expected = {where[f"board:{i}"]: card for i, card in enumerate(hand["board"])}
    for seat, hole in hand["holes"].items():
        expected.update({where[f"{seat}:{i}"]: card for i, card in enumerate(hole)})
    verdict = verify(hand["commitment"], hand["cards"], expected)
    assert verdict.ok and verdict.revealed == 7
