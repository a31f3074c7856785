// The lobby: the room list kept live over ws/lobby/ (a `lobby` frame replaces the list, a `room`
// frame updates one room). Join/Watch are plain form POSTs to /tables/<id>/enter/; the room where
// the signed-in player has a seat (its `players` name them) is tagged and leads back to the seat.

import { CLOSE_SIGNED_OUT, CLOSE_TOO_MANY_SOCKETS } from "./close-codes.js";
import { el } from "./dom.js";
import { STRUCTURE_NAMES, chips } from "./format.js";
import { LiveSocket, socketUrl } from "./socket.js";

const list = document.getElementById("room-list");
const statusBox = document.getElementById("lobby-status");
const rooms = new Map();
const viewer = JSON.parse(document.getElementById("lobby-viewer").textContent || "{}");

function csrfToken() {
  const input = document.querySelector("#csrf-holder [name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

function buyInText(room) {
  if (room.max_buy_in === null || room.max_buy_in === undefined) {
    // No maximum: up to the whole wallet (RULES.md 1), from the minimum if there is one.
    return room.min_buy_in > 1 ? `${chips(room.min_buy_in)} – wallet` : "whole balance";
  }
  return `${chips(room.min_buy_in)}–${chips(room.max_buy_in)}`;
}

function seatDots(room) {
  const dots = el("span", { class: "seat-dots", "aria-hidden": "true" });
  for (let i = 0; i < room.seats; i += 1) dots.append(el("i", { class: i < room.taken ? "on" : "" }));
  return dots;
}

function hasMySeat(room) {
  return Boolean(viewer.username && Array.isArray(room.players) && room.players.includes(viewer.username));
}

function enterControl(room, mine) {
  // Our own seat: a plain link back to the table (nothing to switch, nothing to give up).
  if (mine) return el("a", { class: "button small", href: `/tables/${room.id}/` }, "Back to your seat");
  const full = room.taken >= room.seats;
  return el(
    "form",
    { method: "post", action: `/tables/${room.id}/enter/` },
    el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrfToken() }),
    el("button", { type: "submit", class: full ? "button small ghost" : "button small" }, full ? "Watch" : "Join"),
  );
}

function roomTile(room) {
  const mine = hasMySeat(room);
  return el(
    "li",
    { class: `room-tile${room.playing ? " playing" : ""}${mine ? " mine" : ""}`, dataset: { roomId: String(room.id) } },
    el(
      "div",
      { class: "room-top" },
      el("h2", { class: "room-name" }, room.name),
      el(
        "span",
        { class: "room-tags" },
        mine ? el("span", { class: "badge your-seat" }, "Your seat") : null,
        el("span", { class: `badge structure-${room.structure}` }, STRUCTURE_NAMES[room.structure] || room.structure),
      ),
    ),
    el(
      "dl",
      { class: "room-facts" },
      el("div", {}, el("dt", {}, "Stakes"), el("dd", { class: "room-stakes" }, room.stakes)),
      el("div", {}, el("dt", {}, "Buy-in"), el("dd", {}, buyInText(room))),
    ),
    el(
      "p",
      { class: "room-seats" },
      seatDots(room),
      el("span", {}, el("b", { class: "room-taken" }, String(room.taken)), `/${room.seats} seated`),
      el("span", { class: "muted" }, ` · ${room.spectators ?? 0} watching`),
    ),
    el(
      "p",
      { class: "room-players" },
      room.players && room.players.length ? room.players.join(", ") : el("span", { class: "muted" }, "No one seated yet"),
    ),
    el(
      "div",
      { class: "room-bottom" },
      el("span", { class: "room-state" }, room.playing ? "Game in progress" : room.taken >= 2 ? "Next game soon" : "Waiting for players"),
      enterControl(room, mine),
    ),
  );
}

function render() {
  const open = [...rooms.values()].filter((r) => r.status !== "closed").sort((a, b) => a.id - b.id);
  list.replaceChildren(...(open.length ? open.map(roomTile) : [el("li", { class: "room-empty" }, "No rooms are open right now.")]));
}

function setStatus(kind, text) {
  statusBox.dataset.state = kind;
  statusBox.querySelector(".text").textContent = text;
}

function onFrame(frame) {
  if (frame.type === "lobby" && Array.isArray(frame.rooms)) {
    rooms.clear();
    for (const room of frame.rooms) rooms.set(room.id, room);
    render();
  } else if (frame.type === "room" && frame.room) {
    rooms.set(frame.room.id, frame.room);
    render();
  }
}

const initial = JSON.parse(document.getElementById("lobby-rooms").textContent || "[]");
for (const room of initial) rooms.set(room.id, room);
render();

const socket = new LiveSocket(socketUrl("/ws/lobby/"), {
  onFrame,
  onStatus(status, detail) {
    if (status === "open") setStatus("open", "Live");
    else if (status === "connecting") setStatus("connecting", "Connecting…");
    else if (status === "reconnecting") {
      const seconds = detail.inMs ? Math.max(1, Math.round(detail.inMs / 1000)) : 0;
      setStatus("reconnecting", seconds ? `Connection lost, reconnecting in ${seconds}s…` : "Reconnecting…");
    } else if (status === "stopped" && detail.code === CLOSE_SIGNED_OUT) {
      setStatus("stopped", "Signed out · sign in again");
    } else if (status === "stopped" && detail.code === CLOSE_TOO_MANY_SOCKETS) {
      setStatus("stopped", "Open in too many tabs · reload to follow the lobby here");
    }
  },
});
socket.connect();
