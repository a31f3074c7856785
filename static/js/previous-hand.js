// The previous-hand dialog's body (RULES.md 4): board, actions, every hand shown, and your own
// cards, from the server's `previous_hand` frame.

import { cardFace } from "./card-view.js";
import { cardsInWords } from "./cards.js";
import { el } from "./dom.js";
import { STREET_NAMES, categoryName, signedChips } from "./format.js";
import { pastActionLine } from "./log.js";

export function previousHandView(hand) {
  const seatName = {};
  for (const p of hand.players || []) seatName[p.seat] = p.username;
  const name = (seat) => seatName[seat] || `Seat ${seat + 1}`;
  const parts = [];
  parts.push(el("p", { class: "muted" }, `${hand.table} · hand #${hand.number}${Number.isInteger(hand.button) ? ` · button ${name(hand.button)}` : ""}`));
  const board = el("div", { class: "mini-board", "aria-label": hand.board && hand.board.length ? `Board: ${cardsInWords(hand.board)}` : "No board" });
  if (hand.board && hand.board.length) hand.board.forEach((c) => board.append(cardFace(c, { size: "sm" })));
  else board.append(el("span", { class: "muted" }, "No flop: the hand ended before it."));
  parts.push(el("h3", {}, "Board"), board);
  if (hand.your_cards && hand.your_cards.length) {
    const mine = el("div", { class: "mini-board", "aria-label": `Your cards: ${cardsInWords(hand.your_cards)}` });
    hand.your_cards.forEach((c) => mine.append(cardFace(c, { size: "sm" })));
    parts.push(el("h3", {}, "Your cards"), mine);
  }
  const shown = hand.shown || {};
  const best = hand.best || {};
  // RULES.md 4 [002]: every hand still in at the showdown may be seen afterwards, mucked or not.
  const showdown = hand.showdown && typeof hand.showdown === "object" ? hand.showdown : null;
  const mucked = new Set((hand.mucked || []).map(Number));
  const rows = (hand.players || []).map((p) => {
    const cards = (showdown && showdown[String(p.seat)]) || shown[String(p.seat)];
    const cell = el("td", { class: "cards-cell" });
    if (cards) {
      cards.forEach((c) => cell.append(cardFace(c, { size: "xs" })));
      if (mucked.has(p.seat)) cell.append(el("span", { class: "mucked-tag" }, "mucked"));
    } else {
      const folded = (hand.actions || []).some((a) => a.seat === p.seat && a.action === "fold");
      cell.append(el("span", { class: "muted" }, folded ? "folded" : "not shown"));
    }
    const category = best[String(p.seat)] ? categoryName(best[String(p.seat)].category) : "";
    return el("tr", {},
      el("td", {}, p.username),
      cell,
      el("td", {}, category),
      el("td", { class: `num ${p.net > 0 ? "pos" : p.net < 0 ? "neg" : ""}` }, signedChips(p.net || 0)));
  });
  parts.push(el("h3", {}, "Players"),
    el("table", { class: "ledger compact" },
      el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", {}, showdown ? "Cards at showdown" : "Shown"), el("th", {}, "Hand"), el("th", { class: "num" }, "Net"))),
      el("tbody", {}, rows)));
  const actions = el("ul", { class: "action-log compact" });
  let street = null;
  for (const a of hand.actions || []) {
    if (a.street !== street) {
      street = a.street;
      actions.append(el("li", { class: "log-street" }, STREET_NAMES[street] || street));
    }
    actions.append(el("li", {}, pastActionLine(a, name)));
  }
  parts.push(el("h3", {}, "Actions"), actions.children.length ? actions : el("p", { class: "muted" }, "Only blinds were posted."));
  if (hand.your_seat !== null && hand.your_seat !== undefined) {
    // The history pages show a player their own hands only.
    parts.push(el("p", { class: "dialog-links" }, el("a", { href: `/hands/${hand.hand_id}/` }, "Full hand"), " · ",
      el("a", { href: `/hands/${hand.hand_id}/pokerstars.txt` }, "Download (PokerStars text)")));
  }
  return parts;
}
