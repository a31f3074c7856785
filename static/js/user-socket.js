// The header's own socket, ws/me/ (docs/protocol.md, "The user's socket"), on every page: the
// wallet, live. Whatever shows it is marked `data-live-wallet`; a page that needs the figure
// itself (the table's buy-in and Top up) listens for WALLET_EVENT on the document.

import { chips } from "./format.js";
import { LiveSocket, socketUrl } from "./socket.js";

export const WALLET_EVENT = "casino:wallet";

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

const shown = document.querySelector("[data-live-wallet]");
if (shown && shown.dataset.version) {
  known = { balance: null, version: Number(shown.dataset.version) || 0 };
}

new LiveSocket(socketUrl("/ws/me/"), {
  onFrame(frame) {
    if (frame.type === "wallet") showWallet(frame);
  },
}).connect();
