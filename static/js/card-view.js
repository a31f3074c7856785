// Playing cards drawn with CSS: a four-colour deck (spades black, hearts red, diamonds blue,
// clubs green) so suits stay readable at small sizes, and the player's card-back design.

import { parseCard } from "./cards.js";

/** A face-up card. `size` is "xs", "sm", "md" or "lg"; `highlight` marks one of the best five. */
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

/** A face-down card in a back design (cards.js cardBackDesign chooses it). */
export function cardBack(design = "classic", { size = "md" } = {}) {
  const el = document.createElement("span");
  el.className = `pcard pcard-${size} back back-${design}`;
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
