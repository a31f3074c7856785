// The felt: seats around an oval, hole cards, bets, dealer button, the board, the pots and the
// message in the middle. Pure rendering from the client's view of the table (see table.js).

import { cardBack, cardFace, cardSlot, cardsInWords } from "./cards.js";
import { categoryName, chips, el, signedChips } from "./format.js";

// RULES.md 6: the eleven seat states of [000], plus sitting out (wait-or-post rooms).
export const SEAT_STATE_LABELS = {
  closed: "Empty",
  open: "Open seat",
  mine_post_game: "Your seat · game over",
  mine_waiting_next: "Your seat · next game",
  waiting: "Waiting",
  waiting_next_game: "Next game",
  betting: "Betting",
  all_in: "All in",
  folded: "Folded",
  winner: "Winner",
  disconnected: "Disconnected",
  sitting_out: "Sitting out",
};

/** The seat state as this viewer sees it (the server's state plus open/closed and "your seat"). */
export function seatStateOf(row, view) {
  if (!row.occupied) return view.canSit ? "open" : "closed";
  const mine = view.you && view.you.seat === row.number;
  if (mine && row.state === "post_game") return "mine_post_game";
  if (mine && row.state === "waiting_next_game") return "mine_waiting_next";
  if (row.state === "post_game") return "waiting";
  return row.state in SEAT_STATE_LABELS ? row.state : "waiting";
}

/** Which seat is drawn at the bottom: your own, else seat 0. Seats go round clockwise. */
function anchorSeat(view) {
  return view.you && Number.isInteger(view.you.seat) ? view.you.seat : 0;
}

function placement(number, count, anchor, turn = 0) {
  const index = (number - anchor + count) % count;
  const angle = (2 * Math.PI * index) / count + turn;
  // Screen coordinates: index 0 at the bottom centre, then to the left, up and round (clockwise).
  return { sin: Math.sin(angle).toFixed(4), cos: Math.cos(angle).toFixed(4), index };
}

function positionStyle(place) {
  return { "--sin": place.sin, "--cos": place.cos };
}

/** The cards shown from a seat at the last showdown, if the one who showed them still sits there. */
function shownAtShowdown(row, view) {
  const last = view.lastHand;
  const cards = last && !view.hand && last.shown ? last.shown[String(row.number)] : null;
  if (!cards) return null;
  const player = view.lastHandPlayer(row.number);
  if (player && row.occupied && player.user_id !== row.user_id) return null; // a newcomer's seat
  return cards;
}

/** A hand shown at the showdown by a player who then left the seat (busted, or removed). */
function leftBehindCards(row, view) {
  const cards = shownAtShowdown(row, view);
  if (!cards || !cards.length) return null;
  const player = view.lastHandPlayer(row.number);
  const who = player ? player.username : `Seat ${row.number + 1}`;
  const best = winningCards(view);
  const faces = el("div", { class: "left-cards" });
  for (const code of cards) faces.append(cardFace(code, { size: "sm", highlight: best.has(code) }));
  return el("div", { class: "seat-cards shown left-behind", role: "group", "aria-label": `${who} showed: ${cardsInWords(cards)}` },
    el("span", { class: "left-name", "aria-hidden": "true" }, who), faces);
}

/** The cards one seat shows: your own faces, others' backs while they hold cards, shown hands. */
function seatCards(row, view, state, bestCodes) {
  const mine = view.you && view.you.seat === row.number;
  const box = el("div", { class: "seat-cards" });
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
  const classes = ["seat", `state-${state}`, rowOf(place)];
  if (mine) classes.push("mine");
  const seatEl = el("div", {
    class: classes.join(" "),
    style: positionStyle(place),
    dataset: { seat: String(row.number), state },
  });

  if (!row.occupied) {
    const leftBehind = leftBehindCards(row, view);
    if (leftBehind) seatEl.append(leftBehind);
    if (state === "open") {
      seatEl.append(
        el(
          "button",
          { type: "button", class: "seat-box seat-open", "aria-describedby": `seat-label-${row.number}`, dataset: { sit: String(row.number) } },
          "Sit here",
        ),
        el("span", { class: "visually-hidden", id: `seat-label-${row.number}` }, `seat ${row.number + 1}`),
      );
    } else {
      seatEl.append(el("div", { class: "seat-box seat-closed", "aria-label": `Seat ${row.number + 1}: empty` }, el("span", {}, "Empty")));
    }
    return seatEl;
  }

  const cards = seatCards(row, view, state, bestCodes);
  if (cards) seatEl.append(cards);

  const hand = view.hand;
  const tags = [];
  const button = hand ? hand.button : view.table.button;
  if (button === row.number) tags.push(el("span", { class: "tag dealer", title: "Dealer button" }, "D"));
  if (hand && hand.small_blind_seat === row.number) tags.push(el("span", { class: "tag blind" }, "SB"));
  if (hand && hand.big_blind_seat === row.number) tags.push(el("span", { class: "tag blind" }, "BB"));

  const extra = [];
  if ((state === "all_in" || state === "disconnected") && row.protected) extra.push("all-in protected");
  if (isDeciding(row, view)) extra.push("deciding whether to show");
  const box = el(
    "div",
    { class: "seat-box", "aria-label": `Seat ${row.number + 1}: ${row.username}, ${chips(row.stack)} chips, ${[SEAT_STATE_LABELS[state], ...extra].join(", ")}` },
    el("div", { class: "seat-name" }, el("span", { class: "name" }, row.username), mine ? el("span", { class: "you-tag" }, "you") : null),
    el("div", { class: "seat-stack" }, chips(row.stack)),
    el("div", { class: "seat-status" }, seatStatusText(row, state, view)),
    tags.length ? el("div", { class: "seat-tags" }, tags) : null,
  );
  if (state === "winner") {
    box.append(el("span", { class: "win-flag", "aria-hidden": "true" }, "W"));
  }
  if (view.table.turn && view.table.turn.seat === row.number && hand) box.append(turnClock());
  seatEl.append(box);
  return seatEl;
}

/** RULES.md 4 [003]: this seat is still choosing whether to show the hand that lost. */
function isDeciding(row, view) {
  const last = view.lastHand;
  return Boolean(last && !view.hand && Array.isArray(last.undecided) && last.undecided.includes(row.number));
}

function seatStatusText(row, state, view) {
  if (isDeciding(row, view)) return el("span", { class: "deciding" }, "Deciding\u2026");
  if ((state === "all_in" || state === "disconnected") && row.protected) {
    // RULES.md 5: all in through all-in protection after a disconnect (still away, or back).
    return el("span", {}, SEAT_STATE_LABELS[state], " ", el("span", { class: "tag protected", title: "All-in protection: disconnected during the hand" }, "protected"));
  }
  if (state === "winner") {
    const net = row.net ?? (view.lastHand && view.lastHand.net ? view.lastHand.net[String(row.number)] : 0);
    return el("span", { class: "net pos" }, signedChips(net || 0));
  }
  const best = view.lastHand && !view.hand && view.lastHand.best ? view.lastHand.best[String(row.number)] : null;
  if (best && (state === "waiting" || state === "mine_post_game")) {
    const net = view.lastHand.net ? view.lastHand.net[String(row.number)] : null;
    return el("span", {}, categoryName(best.category), net ? el("span", { class: net > 0 ? "net pos" : "net neg" }, ` ${signedChips(net)}`) : null);
  }
  if (state === "mine_post_game" || (state === "waiting" && !view.hand)) {
    const net = view.lastHand && view.lastHand.net ? view.lastHand.net[String(row.number)] : null;
    if (net) return el("span", { class: net > 0 ? "net pos" : "net neg" }, signedChips(net));
  }
  if (state === "waiting" && row.waiting_for_big_blind) return "Waits for big blind";
  if (state === "waiting" && view.hand && view.lastActions && view.lastActions[row.number]) {
    return el("span", { class: "last-action" }, view.lastActions[row.number]);
  }
  return SEAT_STATE_LABELS[state];
}

/** "upper", "side" or "lower": where a seat sits on the oval (cards and chips go inward). */
function rowOf(place) {
  const cos = Number(place.cos);
  return cos > 0.35 ? "lower" : cos < -0.35 ? "upper" : "side";
}

function betElement(row, count, anchor, mine) {
  const place = placement(row.number, count, anchor);
  return el(
    "div",
    { class: `bet ${rowOf(place)}${mine ? " mine" : ""}`, style: positionStyle(place), dataset: { seatBet: String(row.number) }, "aria-label": `Seat ${row.number + 1} bet ${chips(row.bet)}` },
    el("span", { class: "chip-stack", "aria-hidden": "true" }, el("i"), el("i"), el("i")),
    el("span", { class: "amount" }, chips(row.bet)),
  );
}

function dealerElement(number, count, anchor) {
  // A little clockwise of the seat's bet, so the button and the chips do not cover each other;
  // on phones it sits on the seat's corner instead (--seat-sin/--seat-cos).
  const place = placement(number, count, anchor, Math.PI / Math.max(count, 4) * 0.55);
  const seat = placement(number, count, anchor);
  return el("div", { class: `dealer-button ${rowOf(seat)}`, style: { ...positionStyle(place), "--seat-sin": seat.sin, "--seat-cos": seat.cos }, "aria-hidden": "true" }, "D");
}

/** The best five cards of the winning hands at showdown (RULES.md 4), as a set of codes. */
export function winningCards(view) {
  const codes = new Set();
  const last = view.lastHand;
  if (!last || view.hand || !last.best) return codes;
  const winners = new Set((last.winners || []).map(String));
  for (const [seat, best] of Object.entries(last.best)) {
    if (winners.has(seat) && best && best.cards) best.cards.forEach((c) => codes.add(c));
  }
  return codes;
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
  const buttonSeat = view.hand ? view.hand.button : table.button;
  if (Number.isInteger(buttonSeat) && rows[buttonSeat] && rows[buttonSeat].occupied) {
    nodes.push(dealerElement(buttonSeat, count, anchor));
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
      const names = (pot.winners || []).map((seat) => view.nameOf(seat)).join(" & ");
      const label = pots.length > 1 ? (i === 0 ? "Main pot" : `Side pot ${i}`) : "Pot";
      list.append(el("li", {}, `${label} `, el("b", {}, chips(pot.amount)), names ? ` \u2192 ${names}` : ""));
    });
    if (pots.length) nodes.push(list);
  }
  container.replaceChildren(...nodes);
}

/** The sentence in the middle of the felt: who won, the countdown, or what we wait for. */
export function centerMessage(view, nowServer) {
  const table = view.table;
  if (table.status === "closing") return "This room closes after this hand.";
  if (table.status === "closed") return "This room is closed.";
  if (view.hand) {
    const street = { preflop: "Pre-flop", flop: "Flop", turn: "Turn", river: "River" }[view.hand.street] || "";
    const blinds = `Blinds ${chips(view.hand.small_blind)}/${chips(view.hand.big_blind)}`;
    return `${street} · ${blinds}`;
  }
  const parts = [];
  const last = view.lastHand;
  if (last) {
    const winners = (last.winners || []).map((seat) => {
      const best = last.best ? last.best[String(seat)] : null;
      const name = view.nameOf(seat);
      return best && !last.uncontested ? `${name} wins with ${categoryName(best.category).toLowerCase()}` : `${name} wins`;
    });
    if (winners.length) parts.push(winners.join(", ") + ".");
  }
  if (table.countdown && table.countdown.starts_at) {
    const seconds = Math.max(0, Math.ceil((table.countdown.starts_at - nowServer) / 1000));
    parts.push(seconds > 0 ? `Next game in ${seconds}s` : "Dealing…");
  } else {
    const seated = (table.seats || []).filter((s) => s.occupied && !s.sitting_out).length;
    if (seated < 2) parts.push("Waiting for players");
  }
  return parts.join(" ");
}
