// Card codes ("Td", "As") in words and symbols, and the card-back designs a player may choose
// from. No DOM here (card-view.js draws the cards), so tests/js runs it under Node.

const SUITS = {
  s: { symbol: "\u2660", name: "spades" },
  h: { symbol: "\u2665", name: "hearts" },
  d: { symbol: "\u2666", name: "diamonds" },
  c: { symbol: "\u2663", name: "clubs" },
};

const RANK_NAMES = {
  A: "ace", K: "king", Q: "queen", J: "jack", T: "ten",
  9: "nine", 8: "eight", 7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two",
};

/** "Td" -> {rank: "10", suit: "d", ...}; null for anything that is not a card code. */
export function parseCard(code) {
  if (typeof code !== "string" || code.length !== 2) return null;
  const rank = code[0].toUpperCase();
  const suit = code[1].toLowerCase();
  if (!(rank in RANK_NAMES) || !(suit in SUITS)) return null;
  return {
    code: rank + suit,
    rank: rank === "T" ? "10" : rank,
    suit,
    symbol: SUITS[suit].symbol,
    label: `${RANK_NAMES[rank]} of ${SUITS[suit].name}`,
  };
}

/** Plain words for a list of card codes ("ace of spades, king of diamonds"). */
export function cardsInWords(codes) {
  return (codes || []).map((c) => parseCard(c)?.label || c).join(", ");
}

/** Short symbols for a list of card codes ("A♠ 10♦"); an unknown code is shown as it came. */
export function cardsInSymbols(codes) {
  return (codes || []).map((c) => {
    const card = parseCard(c);
    return card ? `${card.rank}${card.symbol}` : c;
  }).join(" ");
}

// Only the classic back when the server names none (the designs are defined on the server).
const CLASSIC_ONLY = [{ value: "classic", label: "Classic blue" }];
// A design becomes a CSS class (back-<value>): letters, digits, - and _ only.
const DESIGN_NAME = /^[a-z0-9_-]+$/;

/** The card backs offered in the snapshot's `you.card_backs` ([[value, label], ...]) as
 * [{value, label}], leaving out malformed entries; just the classic back if none is offered. */
export function cardBackChoices(you) {
  const offered = you && Array.isArray(you.card_backs) ? you.card_backs : [];
  const choices = offered
    .filter((pair) => Array.isArray(pair) && typeof pair[0] === "string" && DESIGN_NAME.test(pair[0]) && typeof pair[1] === "string")
    .map(([value, label]) => ({ value, label }));
  return choices.length ? choices : CLASSIC_ONLY;
}

/** The design to draw face-down cards in: the player's own when it is one offered, else classic. */
export function cardBackDesign(you) {
  const design = (you && you.card_back) || "classic";
  return cardBackChoices(you).some((choice) => choice.value === design) ? design : "classic";
}
