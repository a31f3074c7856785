// The header's own socket, ws/me/ (docs/protocol.md, "The user's socket"), on every page: the
// wallet, live. Whatever shows it is marked `data-live-wallet`; a page that needs the figure
// itself (the table's buy-in and Top up) listens for WALLET_EVENT on the document. When a
// tournament the user entered starts, or seats them late (RULES.md 8 and 9),
// TOURNAMENT_STARTED_EVENT goes to the document: a page that takes the player there itself (the
// lobby) cancels it; on any other page a notice links the table. When the tournament moves them
// to another table (RULES.md 9), TOURNAMENT_MOVED_EVENT goes the same way: the table page they
// played on follows them by itself; any other page links the new table.

import { el } from "./dom.js";
import { chips } from "./format.js";
import { LiveSocket, socketUrl } from "./socket.js";

export const WALLET_EVENT = "casino:wallet";
export const TOURNAMENT_STARTED_EVENT = "casino:tournament-started";
export const TOURNAMENT_MOVED_EVENT = "casino:tournament-moved";
// The player's table settings (detail: the settings in force) and whom they mute in the chat
// (detail: {user_ids, players}), changed on another of their pages: a table page applies them.
export const PREFERENCES_EVENT = "casino:preferences";
export const CHAT_MUTED_EVENT = "casino:chat-muted";
// The player's own notes on players and their tag names changed (rules.md 6): the table and the
// lobby redraw their marks (notes-view.js, notes-lobby.js).
export const NOTE_EVENT = "casino:note";
export const TAG_NAMES_EVENT = "casino:tag-names";

let known = null; // {balance, version}: the newest wallet this page has heard of

function showWallet(frame) {
  if (!Number.isInteger(frame.balance) || !Number.isInteger(frame.version)) return;
  // Two changes committed by two processes may arrive out of order: the higher version wins.
  if (known && frame.version < known.version) return;
  known = { balance: frame.balance, version: frame.version };
  for (const element of document.querySelectorAll("[data-live-wallet]")) {
    element.textContent = chips(known.balance);
    element.dataset.version = String(known.version);
  }
  // A free-chips offer was drawn for a player who could not buy in anywhere; a wallet that now
  // covers the smallest buy-in ends it. (It never appears this way: the chips on a seat count
  // too, and only the server knows them.)
  for (const offer of document.querySelectorAll("[data-free-chips-below]")) {
    if (known.balance >= Number(offer.dataset.freeChipsBelow)) offer.hidden = true;
  }
  document.dispatchEvent(new CustomEvent(WALLET_EVENT, { detail: { ...known } }));
}

const NOTICES = {
  [TOURNAMENT_STARTED_EVENT]: {
    id: "started",
    title: (name) => `${name || "Your tournament"} has started`,
    text: "Your seat is waiting: the cards are dealt in a few seconds.",
  },
  [TOURNAMENT_MOVED_EVENT]: {
    id: "moved",
    title: (name) => `${name || "Your tournament"}: you were moved to another table`,
    text: "Your seat and your chips are waiting there.",
  },
};

/** A `tournament_started` or `tournament_moved` frame: the page takes the player to the table
 * itself (it cancels the event), or a notice links the table. */
function tournamentSeat(type, tournament) {
  if (!tournament || typeof tournament.table_url !== "string") return;
  const event = new CustomEvent(type, { detail: { ...tournament }, cancelable: true });
  if (!document.dispatchEvent(event)) return; // the page goes there itself
  if (location.pathname === new URL(tournament.table_url, location.href).pathname) return; // already there
  showTournamentNotice(NOTICES[type], tournament);
}

function showTournamentNotice(words, tournament) {
  let box = document.getElementById("tournament-notices");
  if (!box) {
    box = el("section", { class: "tournament-notices", id: "tournament-notices", "aria-label": "Tournaments" });
    document.body.append(box);
  }
  const id = `tournament-${words.id}-${tournament.id}-${tournament.table_id || ""}`;
  if (document.getElementById(id)) return;
  const notice = el(
    "div",
    { class: "tournament-notice", id, role: "alert" },
    el("p", { class: "tournament-notice-text" }, el("strong", {}, words.title(tournament.name)), el("span", {}, words.text)),
    el(
      "div",
      { class: "tournament-notice-actions" },
      el("a", { class: "button small", href: tournament.table_url }, "Go to the table"),
      el("button", { type: "button", class: "button small ghost", onclick: () => notice.remove() }, "Dismiss"),
    ),
  );
  box.append(notice);
}

const shown = document.querySelector("[data-live-wallet]");
if (shown && shown.dataset.version) {
  known = { balance: null, version: Number(shown.dataset.version) || 0 };
}

new LiveSocket(socketUrl("/ws/me/"), {
  onFrame(frame) {
    if (frame.type === "wallet") showWallet(frame);
    else if (frame.type === "tournament_started") tournamentSeat(TOURNAMENT_STARTED_EVENT, frame.tournament);
    else if (frame.type === "tournament_moved") tournamentSeat(TOURNAMENT_MOVED_EVENT, frame.tournament);
    else if (frame.type === "preferences") document.dispatchEvent(new CustomEvent(PREFERENCES_EVENT, { detail: frame.preferences }));
    else if (frame.type === "chat_muted") document.dispatchEvent(new CustomEvent(CHAT_MUTED_EVENT, { detail: frame }));
    else if (frame.type === "note") document.dispatchEvent(new CustomEvent(NOTE_EVENT, { detail: frame.note }));
    else if (frame.type === "tag_names") document.dispatchEvent(new CustomEvent(TAG_NAMES_EVENT, { detail: frame.tag_names }));
  },
}).connect();
