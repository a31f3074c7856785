// The lobby: the room list kept live over ws/lobby/ (a `lobby` frame replaces the list, a `room`
// frame updates one room, `waiting_room` its waiting list), with the last hour's figures polled
// from /lobby/rooms/. The player's filters and sort order (lobby-view.js) are remembered in
// localStorage and hold through every update. Join/Watch are plain form POSTs to
// /tables/<id>/enter/; a full room offers its waiting list (waiting-notice.js). The Sit & Go list
// (sit-and-go-view.js) follows the same socket; when one the player entered starts, the page goes
// to its table.

import { CLOSE_SIGNED_OUT, CLOSE_TOO_MANY_SOCKETS } from "./close-codes.js";
import { el } from "./dom.js";
import { STRUCTURE_NAMES, chips } from "./format.js";
import {
  DEFAULT_VIEW,
  STRUCTURES,
  freeSeats,
  isFull,
  mergeRoom,
  nextSort,
  readView,
  stakesChoices,
  visibleRooms,
  withWaiting,
} from "./lobby-view.js";
import { SitAndGoList } from "./sit-and-go-view.js";
import { LiveSocket, socketUrl } from "./socket.js";
import { TOURNAMENT_STARTED_EVENT } from "./user-socket.js";
import { WaitingNotices } from "./waiting-notice.js";
import { placeText } from "./waiting.js";

const VIEW_KEY = "casino.lobby.view";
const FIGURES_EVERY_MS = 45000;

const list = document.getElementById("room-list");
const statusBox = document.getElementById("lobby-status");
const filters = document.getElementById("lobby-filters");
const countBox = document.getElementById("room-count");
const headings = [...document.querySelectorAll("#room-table thead th[data-sort]")];
const rooms = new Map();
const viewer = JSON.parse(document.getElementById("lobby-viewer").textContent || "{}");
let view = loadView();

function loadView() {
  try {
    return readView(localStorage.getItem(VIEW_KEY));
  } catch {
    return { ...DEFAULT_VIEW }; // storage refused (a private window): the defaults, unsaved
  }
}

function saveView() {
  try {
    localStorage.setItem(VIEW_KEY, JSON.stringify(view));
  } catch {
    // Not remembered; the page still filters.
  }
}

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

function hasMySeat(room) {
  return Boolean(viewer.username && Array.isArray(room.players) && room.players.includes(viewer.username));
}

function figure(value, suffix = "") {
  return value === null || value === undefined ? el("span", { class: "muted", title: "No hands in the last hour" }, "–") : `${chips(value)}${suffix}`;
}

function structureBadge(room, extra = "") {
  return el("span", { class: `badge structure-${room.structure} ${extra}`.trim() }, STRUCTURE_NAMES[room.structure] || room.structure);
}

function stateText(room) {
  if (room.playing) return "Game in progress";
  // RULES.md 2: two players who can be dealt in, not two seated (one may be sitting out).
  return (room.ready ?? room.taken) >= 2 ? "Next game soon" : "Waiting for players";
}

function enterControl(room, mine) {
  // Our own seat: a plain link back to the table (nothing to switch, nothing to give up).
  if (mine) return el("a", { class: "button small", href: `/tables/${room.id}/` }, "Back to your seat");
  const open = freeSeats(room) > 0;
  return el(
    "form",
    { method: "post", action: `/tables/${room.id}/enter/` },
    el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrfToken() }),
    el("button", { type: "submit", class: open ? "button small" : "button small ghost" }, open ? "Join" : "Watch"),
  );
}

function waitingControl(room, mine, line) {
  if (mine) return null;
  if (line) {
    return el("button", { type: "button", class: "button small ghost waiting-leave", onclick: () => waiting.leave(room.id) }, "Leave list");
  }
  if (!isFull(room)) return null;
  return el("button", { type: "button", class: "button small waiting-join", onclick: () => waiting.join(room.id) }, "Wait for a seat");
}

function waitingCell(room, line) {
  const count = el("span", { class: "room-waiting" }, chips(room.waiting || 0));
  if (!line) return [count];
  return [count, el("span", { class: "waiting-place" }, placeText(line))];
}

function roomRow(room) {
  const mine = hasMySeat(room);
  const line = waiting.lineAt(room.id);
  const problem = waiting.errors.get(room.id);
  const classes = ["room-tile", room.playing ? "playing" : "", mine ? "mine" : "", line ? "in-line" : ""];
  return el(
    "tr",
    { class: classes.filter(Boolean).join(" "), dataset: { roomId: String(room.id) } },
    el(
      "td",
      { class: "room-cell" },
      el(
        "div",
        { class: "room-top" },
        el("span", { class: "room-name" }, room.name),
        mine ? el("span", { class: "badge your-seat" }, "Your seat") : null,
        structureBadge(room, "room-structure-inline"),
      ),
      el(
        "p",
        { class: "room-players" },
        room.players && room.players.length ? room.players.join(", ") : el("span", { class: "muted" }, "No one seated yet"),
      ),
      el("p", { class: "room-state" }, stateText(room), el("span", { class: "muted" }, ` · ${chips(room.spectators ?? 0)} watching`)),
    ),
    el("td", { class: "room-structure", dataset: { label: "Game" } }, structureBadge(room)),
    el(
      "td",
      { class: "room-stakes-cell", dataset: { label: "Stakes" } },
      el("span", { class: "room-stakes" }, room.stakes),
      el("span", { class: "room-buy-in muted" }, `buy-in ${buyInText(room)}`),
    ),
    el("td", { class: "num", dataset: { label: "Seated" } }, el("b", { class: "room-taken" }, String(room.taken)), `/${room.seats}`),
    el("td", { class: "num room-pot", dataset: { label: "Avg pot" } }, figure(room.average_pot)),
    el("td", { class: "num room-hands", dataset: { label: "Hands/h" } }, figure(room.hands_per_hour)),
    el("td", { class: "num room-flop", dataset: { label: "Players/flop" } }, figure(room.players_per_flop, "%")),
    el("td", { class: "num", dataset: { label: "Waiting" } }, ...waitingCell(room, line)),
    el(
      "td",
      { class: "room-actions" },
      el("div", { class: "room-buttons" }, waitingControl(room, mine, line), enterControl(room, mine)),
      problem ? el("p", { class: "room-problem", role: "alert" }, problem) : null,
    ),
  );
}

function render() {
  const all = [...rooms.values()].filter((room) => room.status !== "closed");
  const shown = visibleRooms(all, view);
  let rows;
  if (!all.length) rows = [el("tr", { class: "room-empty" }, el("td", { colspan: "9" }, "No rooms are open right now."))];
  else if (!shown.length) {
    rows = [
      el(
        "tr",
        { class: "room-empty" },
        el("td", { colspan: "9" }, "No room matches these filters. ", el("button", { type: "button", class: "linkish", onclick: resetView }, "Show every room")),
      ),
    ];
  } else rows = shown.map(roomRow);
  list.replaceChildren(...rows);
  countBox.textContent = shown.length === all.length ? `${all.length} rooms` : `${shown.length} of ${all.length} rooms`;
  drawStakes(all);
  drawHeadings();
}

function drawStakes(all) {
  const select = filters.elements.stakes;
  const choices = stakesChoices(all);
  if (view.stakes && !choices.includes(view.stakes)) choices.push(view.stakes); // keep the choice
  const wanted = ["", ...choices];
  const have = [...select.options].map((option) => option.value);
  if (wanted.join("\n") !== have.join("\n")) {
    select.replaceChildren(...wanted.map((value) => el("option", { value }, value || "Any stakes")));
  }
  select.value = view.stakes;
}

function drawHeadings() {
  for (const th of headings) {
    const key = th.dataset.sort;
    const sorted = view.sort && view.sort.key === key;
    th.setAttribute("aria-sort", sorted ? (view.sort.dir === "asc" ? "ascending" : "descending") : "none");
    th.classList.toggle("sorted", Boolean(sorted));
  }
}

function drawFilters() {
  for (const box of filters.querySelectorAll("input[name=structure]")) box.checked = view.structures.includes(box.value);
  filters.elements.free.value = String(view.free);
  filters.elements.hide_empty.checked = view.hideEmpty;
  filters.elements.hide_full.checked = view.hideFull;
}

function readFilters() {
  view = {
    ...view,
    structures: STRUCTURES.filter((name) => filters.querySelector(`input[name=structure][value=${name}]`).checked),
    stakes: filters.elements.stakes.value,
    free: Number(filters.elements.free.value) || 0,
    hideEmpty: filters.elements.hide_empty.checked,
    hideFull: filters.elements.hide_full.checked,
  };
  saveView();
  render();
}

function resetView() {
  view = { ...DEFAULT_VIEW, sort: view.sort };
  saveView();
  drawFilters();
  render();
}

function setStatus(kind, text) {
  statusBox.dataset.state = kind;
  statusBox.querySelector(".text").textContent = text;
}

function onFrame(frame) {
  if (frame.type === "lobby" && Array.isArray(frame.rooms)) {
    const before = new Map(rooms);
    rooms.clear();
    for (const room of frame.rooms) rooms.set(room.id, mergeRoom(before.get(room.id), room));
    render();
  } else if (frame.type === "room" && frame.room) {
    rooms.set(frame.room.id, mergeRoom(rooms.get(frame.room.id), frame.room));
    render();
  } else if (frame.type === "waiting_room" && rooms.has(frame.table_id)) {
    rooms.set(frame.table_id, withWaiting(rooms.get(frame.table_id), frame));
    render();
  } else if (frame.type === "waiting") {
    waiting.receive(frame);
  }
  if (frame.type === "lobby" && Array.isArray(frame.sit_and_gos)) sitAndGos.replaceAll(frame.sit_and_gos);
  else if (frame.type === "sit_and_go" && frame.sit_and_go) sitAndGos.apply(frame.sit_and_go);
}

/** RULES.md 8: the player's Sit & Go has started: off to its table (once, whichever socket said it
 * first: the user's `tournament_started` or the lobby's `sit_and_go`). */
let leaving = false;
function goToTable(url) {
  if (leaving || !url) return;
  leaving = true;
  location.assign(url);
}

const sitAndGos = new SitAndGoList({
  body: document.getElementById("sng-list"),
  served: JSON.parse(document.getElementById("lobby-sit-and-gos").textContent || "[]"),
  username: viewer.username,
  onStarted: (s) => goToTable(s.table_url),
});
document.addEventListener(TOURNAMENT_STARTED_EVENT, (event) => {
  const tournament = event.detail || {};
  if (!tournament.table_url) return;
  event.preventDefault(); // this page goes there itself: no notice
  goToTable(tournament.table_url);
});

/** The figures of the last hour (and the waiting lists' sizes): the room frames carry none. */
async function refreshFigures() {
  if (document.hidden) return;
  try {
    const response = await fetch("/lobby/rooms/", { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const body = await response.json();
    if (!Array.isArray(body.rooms)) return;
    rooms.clear();
    for (const room of body.rooms) rooms.set(room.id, room);
    render();
  } catch {
    // Offline for a moment: the figures stay as they were.
  }
}

const served = JSON.parse(document.getElementById("lobby-waiting").textContent || "{}");
let waiting = null; // drawn from once it holds the lines served with the page
waiting = new WaitingNotices({
  entries: served.entries || [],
  now: served.now,
  onChange: () => {
    if (!waiting) return;
    render();
    // The player's own join or leave changed that line's size: the lobby's count follows now,
    // not at the next poll (the room frames do not carry it).
    refreshFigures();
  },
});

for (const room of JSON.parse(document.getElementById("lobby-rooms").textContent || "[]")) rooms.set(room.id, room);
filters.addEventListener("change", readFilters);
filters.addEventListener("submit", (event) => event.preventDefault());
document.getElementById("filters-reset").addEventListener("click", resetView);
for (const th of headings) {
  th.querySelector("button").addEventListener("click", () => {
    view = { ...view, sort: nextSort(view.sort, th.dataset.sort) };
    saveView();
    render();
  });
}
drawFilters();
render();
setInterval(refreshFigures, FIGURES_EVERY_MS);
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) refreshFigures();
});

let everOpen = false;
const socket = new LiveSocket(socketUrl("/ws/lobby/"), {
  onFrame,
  onStatus(status, detail) {
    if (status === "open") {
      setStatus("open", "Live");
      if (everOpen) waiting.refresh(); // frames may have been missed while away
      everOpen = true;
    } else if (status === "connecting") setStatus("connecting", "Connecting…");
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
