// The previous-hand dialog's body (RULES.md 4): when and where, the board, your own cards, every
// hand shown, every blind and amount put in, the pots and who collected them, from the server's
// `previous_hand` frame (holdem/selectors/hand_history.py hand_summary_for; the record's lines
// are written by holdem/history/story.py hand_story, the same the history pages show).

import { cardFace } from "./card-view.js";
import { cardsInWords } from "./cards.js";
import { el } from "./dom.js";
import { STREET_NAMES, categoryName, chips, signedChips } from "./format.js";

const STORY_TITLES = { ...STREET_NAMES, showdown: "Showdown", result: "Result" };
const STORY_CLASSES = { pot_awarded: "log-win", street: "log-street", showdown: "log-show", hand_shown: "log-show" };

/** The hand's record by street: a heading where the street changes, then its lines. */
function storyList(hand) {
  const list = el("ol", { class: "action-log compact hand-story" });
  let street = null;
  for (const line of hand.story || []) {
    if (line.street !== street) {
      street = line.street;
      if (line.kind !== "street") list.append(el("li", { class: "log-street" }, STORY_TITLES[street] || street));
    }
    const kind = STORY_CLASSES[line.kind] || (line.action ? `log-${line.action}` : "");
    list.append(el("li", { class: kind, dataset: { kind: line.kind } }, line.text));
  }
  return list;
}

function potList(hand) {
  const list = el("ul", { class: "pot-summary" });
  for (const pot of hand.pots || []) {
    const shares = (pot.collected || []).map((share) => `${share.username} collected ${chips(share.amount)}`).join(", ");
    list.append(el("li", {}, el("span", { class: "pot-name" }, pot.label || "Pot"), " ", el("b", { class: "pot-amount" }, chips(pot.amount)),
      pot.rake ? el("span", { class: "muted" }, ` (rake ${chips(pot.rake)})`) : null, shares ? `: ${shares}` : ""));
  }
  for (const back of hand.returned || []) list.append(el("li", {}, `Uncalled ${chips(back.amount)} returned to ${back.username}`));
  return list;
}

export function previousHandView(hand) {
  const seatName = {};
  for (const p of hand.players || []) seatName[p.seat] = p.username;
  const name = (seat) => seatName[seat] || `Seat ${seat + 1}`;
  const parts = [];
  // One number for a hand everywhere: the table's "Hand #", the history pages, the PokerStars text.
  const facts = [hand.table, `Hand #${hand.hand_id}`, hand.played_at, hand.stakes ? `${hand.structure || ""} ${hand.stakes}`.trim() : null,
    Number.isInteger(hand.button) ? `${name(hand.button)} has the button` : null];
  parts.push(el("p", { class: "muted hand-facts" }, facts.filter(Boolean).join(" · ")));
  const board = el("div", { class: "mini-board", role: "group", "aria-label": hand.board && hand.board.length ? `Board: ${cardsInWords(hand.board)}` : "No board" });
  if (hand.board && hand.board.length) hand.board.forEach((c) => board.append(cardFace(c, { size: "sm" })));
  else board.append(el("span", { class: "muted" }, "No flop: the hand ended before it."));
  parts.push(el("h3", {}, "Board"), board);
  if (hand.your_cards && hand.your_cards.length) {
    const mine = el("div", { class: "mini-board", role: "group", "aria-label": `Your cards: ${cardsInWords(hand.your_cards)}` });
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
  parts.push(el("h3", {}, "Blinds and actions"), storyList(hand));
  if (hand.pots && hand.pots.length) parts.push(el("h3", {}, "Pots"), potList(hand));
  if (hand.your_seat !== null && hand.your_seat !== undefined) {
    // The history pages show a player their own hands only.
    parts.push(el("p", { class: "dialog-links" }, el("a", { href: `/hands/${hand.hand_id}/` }, "Replay this hand"), " · ",
      el("a", { href: `/hands/${hand.hand_id}/pokerstars.txt` }, "Download (PokerStars text)")));
  }
  return parts;
}
