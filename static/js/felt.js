// The felt: seats around an oval, hole cards, bets, dealer button, the board and the pots, drawn
// from the client's view of the table (table-app.js); seats.js decides what each seat shows.

import { cardBack, cardFace, cardSlot } from "./card-view.js";
import { cardsInWords } from "./cards.js";
import { el } from "./dom.js";
import { chips, signedChips } from "./format.js";
import { seatName } from "./notes-marks.js";
import {
  anchorSeat, halfOf, isHigh, lastHandName, placement, rowOf, seatStateOf, seatStatus, seatSummary, seatTags,
  shownAtShowdown, winningCards,
} from "./seats.js";

function positionStyle(place) {
  return { "--sin": place.sin, "--cos": place.cos };
}

/** The cards one seat shows: your own faces, others' backs while they hold cards, shown hands. */
function seatCards(row, view, state, bestCodes) {
  const mine = view.you && view.you.seat === row.number;
  const box = el("div", { class: "seat-cards", role: "group" }); // named below
  const size = mine ? "lg" : "sm";
  const shown = row.hole || shownAtShowdown(row, view);
  const showdown = Boolean(view.lastHand) && !view.hand;
  // RULES.md 4 [002]: your own folded cards leave the table (they are not part of the hand any more).
  if (mine && (state === "folded" || view.foldedLastHand())) return null;
  if (mine && view.you.hole && view.you.hole.length) {
    for (const code of view.you.hole) {
      box.append(cardFace(code, { size, highlight: showdown && bestCodes.has(code) }));
    }
    box.setAttribute("aria-label", `Your cards: ${cardsInWords(view.you.hole)}`);
    return box;
  }
  if (shown && shown.length) {
    box.classList.add("shown");
    for (const code of shown) box.append(cardFace(code, { size, highlight: showdown && bestCodes.has(code) }));
    box.setAttribute("aria-label", `Shown: ${cardsInWords(shown)}`);
    return box;
  }
  if (view.hand && row.in_hand && row.has_cards && !row.folded) {
    box.append(cardBack(view.cardBack, { size }), cardBack(view.cardBack, { size }));
    box.setAttribute("aria-label", "Two face-down cards");
    return box;
  }
  return null;
}

function turnClock() {
  const bar = el("div", { class: "turn-clock", role: "progressbar", "aria-label": "Time to act", "aria-valuemin": "0", "aria-valuemax": "100" });
  bar.append(el("i"));
  return bar;
}

function seatElement(row, view, count, anchor, bestCodes) {
  const place = placement(row.number, count, anchor);
  const state = seatStateOf(row, view);
  const mine = view.you && view.you.seat === row.number;
  const classes = ["seat", `state-${state}`, rowOf(place), halfOf(place), isHigh(place) ? "high" : "low"];
  if (mine) classes.push("mine");
  const seatEl = el("div", {
    class: classes.join(" "),
    style: positionStyle(place),
    dataset: { seat: String(row.number), state },
  });

  if (!row.occupied) {
    // An empty seat shows nothing of whoever sat there (the log and "Show previous hand" keep it).
    if (state === "open") {
      seatEl.append(
        el(
          "button",
          { type: "button", class: "seat-box seat-open", "aria-describedby": `seat-label-${row.number}`, dataset: { sit: String(row.number) } },
          "Sit here",
        ),
        el("span", { class: "visually-hidden", id: `seat-label-${row.number}` }, `seat ${row.number + 1}`),
      );
    } else if (state === "reserved") {
      seatEl.append(
        el(
          "div",
          { class: "seat-box seat-closed seat-reserved", role: "group", "aria-label": `Seat ${row.number + 1}: reserved for the waiting list` },
          el("span", {}, "Reserved for the waiting list"),
          el("span", { class: "seat-reserved-time", dataset: { until: String(row.reserved_until) } }),
        ),
      );
    } else {
      seatEl.append(el("div", { class: "seat-box seat-closed", role: "group", "aria-label": `Seat ${row.number + 1}: empty` }, el("span", {}, "Empty")));
    }
    return seatEl;
  }

  const cards = seatCards(row, view, state, bestCodes);
  if (cards) seatEl.append(cards);

  const hand = view.hand;
  const seatTagNames = seatTags(row, view);
  const tags = seatTagNames.filter((tag) => tag !== "D").map((tag) => el("span", { class: "tag blind" }, tag));
  const box = el(
    "div",
    { class: "seat-box", role: "group", "aria-label": seatSummary(row, state, view) },
    el("div", { class: "seat-name" }, seatName(row, view, mine), mine ? el("span", { class: "you-tag" }, "you") : null),
    el("div", { class: "seat-stack" }, chips(row.stack)),
    el("div", { class: "seat-status" }, seatStatusNode(seatStatus(row, state, view))),
    tags.length ? el("div", { class: "seat-tags" }, tags) : null,
  );
  if (state === "winner") {
    box.append(el("span", { class: "win-flag", "aria-hidden": "true" }, "W"));
  }
  if (view.table.turn && view.table.turn.seat === row.number && hand) box.append(turnClock());
  seatEl.append(box);
  // The dealer button rides on the box's outer edge (a lower corner, or half-way down a side
  // seat): cards go above, below or inward of the box, never there, so it covers no card.
  if (seatTagNames.includes("D")) seatEl.append(el("div", { class: "dealer-button", title: "Dealer button", "aria-hidden": "true" }, "D"));
  return seatEl;
}

const netClass = (net) => (net > 0 ? "net pos" : "net neg");

/** `text`, or on a phone its `short` form when there is one. */
function wideOrShort(text, short) {
  if (!short || short === text) return text;
  return [el("span", { class: "wide-only" }, text), el("span", { class: "narrow-only", "aria-hidden": "true" }, short)];
}

/** The status line under a seat's stack (seats.js seatStatus says which). */
function seatStatusNode(status) {
  switch (status.kind) {
    case "deciding":
      return el("span", { class: "deciding" }, "Deciding\u2026");
    case "protected":
      return el("span", {}, wideOrShort(status.label, status.short), " ", el("span", { class: "tag protected", title: "All-in protection: disconnected during the hand" }, "protected"));
    case "winner":
      return el("span", { class: "net pos" }, signedChips(status.net));
    case "hand":
      // A phone shows the short name and leaves the result out (the log has it).
      return el("span", {}, wideOrShort(status.category, status.short),
        status.net ? el("span", { class: `${netClass(status.net)} wide-only` }, ` ${signedChips(status.net)}`) : null);
    case "net":
      return el("span", { class: netClass(status.net) }, signedChips(status.net));
    case "last_action":
      // The amount is also on the seat's chips: a phone leaves it out of the status line.
      return el("span", { class: "last-action" }, status.verb, status.amount ? el("span", { class: "wide-only" }, status.amount) : null);
    default:
      return wideOrShort(status.text, status.short);
  }
}

function betElement(row, count, anchor, mine) {
  const place = placement(row.number, count, anchor);
  const classes = ["bet", rowOf(place), halfOf(place), isHigh(place) ? "high" : "low"];
  if (mine) classes.push("mine");
  return el(
    "div",
    { class: classes.join(" "), style: positionStyle(place), dataset: { seatBet: String(row.number) }, role: "group", "aria-label": `Seat ${row.number + 1} bet ${chips(row.bet)}` },
    el("span", { class: "chip-stack", "aria-hidden": "true" }, el("i"), el("i"), el("i")),
    el("span", { class: "amount" }, chips(row.bet)),
  );
}

export function renderSeats(container, view) {
  const table = view.table;
  const rows = table.seats || [];
  const count = rows.length || table.options?.seats || 0;
  const anchor = anchorSeat(view);
  const best = winningCards(view);
  const nodes = [];
  for (const row of rows) nodes.push(seatElement(row, view, count, anchor, best));
  if (view.hand) {
    const mySeat = view.you ? view.you.seat : null;
    for (const row of rows) if (row.occupied && row.bet > 0) nodes.push(betElement(row, count, anchor, row.number === mySeat));
  }
  container.replaceChildren(...nodes);
  container.parentElement.dataset.seatCount = String(count);
}

export function renderBoard(container, view) {
  const board = view.hand ? view.hand.board : view.lastHand ? view.lastHand.board || [] : [];
  const best = winningCards(view);
  const showdown = Boolean(view.lastHand) && !view.hand && best.size > 0;
  for (let i = 0; i < 5; i += 1) {
    const code = board[i];
    const present = container.children[i];
    if (present && (present.dataset.card || null) === (code || null)) {
      // Same card as before: only its showdown marks change (no new deal animation).
      present.classList.toggle("best", Boolean(code) && showdown && best.has(code));
      present.classList.toggle("dim", Boolean(code) && showdown && !best.has(code));
      continue;
    }
    const card = code
      ? cardFace(code, { size: "md", highlight: showdown && best.has(code), dim: showdown && !best.has(code) })
      : cardSlot({ size: "md" });
    if (present) present.replaceWith(card);
    else container.append(card);
  }
  while (container.children.length > 5) container.lastElementChild.remove();
  container.setAttribute("aria-label", board.length ? `Board: ${cardsInWords(board)}` : "Board: no cards yet");
}

export function renderPots(container, view) {
  const nodes = [];
  if (view.hand) {
    const pots = (view.hand.pots || []).filter((p) => p.amount > 0);
    nodes.push(el("div", { class: "pot-total" }, el("span", { class: "label" }, "Pot"), el("strong", { dataset: { potTotal: "" } }, chips(view.hand.pot_total))));
    if (pots.length > 1) {
      const list = el("ul", { class: "pot-list" });
      pots.forEach((pot, i) => list.append(el("li", {}, i === 0 ? "Main " : `Side ${i} `, el("b", {}, chips(pot.amount)))));
      nodes.push(list);
    }
  } else if (view.lastHand && view.lastHand.pots) {
    const pots = view.lastHand.pots.filter((p) => p.amount > 0);
    const list = el("ul", { class: "pot-list results" });
    pots.forEach((pot, i) => {
      const names = (pot.winners || []).map((seat) => lastHandName(view, seat)).join(" & ");
      const label = pots.length > 1 ? (i === 0 ? "Main pot" : `Side pot ${i}`) : "Pot";
      list.append(el("li", {}, `${label} `, el("b", {}, chips(pot.amount)), names ? ` \u2192 ${names}` : ""));
    });
    if (pots.length) nodes.push(list);
  }
  container.replaceChildren(...nodes);
}
