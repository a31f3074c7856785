// Playing cards drawn with CSS: a four-colour deck (spades black, hearts red, diamonds blue,
// clubs green) so suits stay readable at small sizes, and four card-back designs.

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

export const CARD_BACKS = ["classic", "red", "green", "black"];

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

/** A face-up card. `size` is "sm", "md" or "lg"; `highlight` marks one of the best five. */
export function cardFace(code, { size = "md", highlight = false, dim = false } = {}) {
  const card = parseCard(code);
  const el = document.createElement("span");
  if (!card) {
    el.className = `pcard pcard-${size} face`;
    el.textContent = "?";
    return el;
  }
  el.className = `pcard pcard-${size} face suit-${card.suit}`;
  if (highlight) el.classList.add("best");
  if (dim) el.classList.add("dim");
  el.dataset.card = card.code;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", card.label);
  el.innerHTML =
    `<span class="corner" aria-hidden="true"><b>${card.rank}</b><i>${card.symbol}</i></span>` +
    `<span class="pip" aria-hidden="true">${card.symbol}</span>`;
  return el;
}

/** A face-down card in the player's chosen back design. */
export function cardBack(design = "classic", { size = "md" } = {}) {
  const el = document.createElement("span");
  const back = CARD_BACKS.includes(design) ? design : "classic";
  el.className = `pcard pcard-${size} back back-${back}`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", "face-down card");
  return el;
}

/** An empty place on the board where a card will be dealt. */
export function cardSlot({ size = "md" } = {}) {
  const el = document.createElement("span");
  el.className = `pcard pcard-${size} slot`;
  el.setAttribute("aria-hidden", "true");
  return el;
}

/** Plain words for a list of card codes ("ace of spades, king of diamonds"). */
export function cardsInWords(codes) {
  return (codes || []).map((c) => parseCard(c)?.label || c).join(", ");
}
