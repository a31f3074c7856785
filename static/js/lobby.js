// The lobby: one page of the rooms under the player's filter, kept live over ws/lobby/. The server
// filters and pages: the page asks with a `lobby_view` frame and gets a `lobby` frame (the page,
// its figures, the totals); then at most one `rooms` frame a second carries the changes of the
// rooms on that page (docs/protocol.md, Lobby). The player's filters and sort order
// (lobby-view.js) are remembered in localStorage; the sort order sorts the page shown. Join/Watch
// are plain form POSTs to /tables/<id>/enter/; a full room offers its waiting list
// (waiting-notice.js). The Sit & Go list (sit-and-go-view.js) and the scheduled tournaments
// (scheduled-view.js) follow the same socket; when one the player entered starts, the page goes
// to its table.

import { CLOSE_SIGNED_OUT, CLOSE_TOO_MANY_SOCKETS } from "./close-codes.js";
import { el } from "./dom.js";
import { STRUCTURE_NAMES, chips } from "./format.js";
import {
  DEFAULT_VIEW,
  STRUCTURES,
  countText,
  freeSeats,
  isFull,
  mergeRoom,
  nextSort,
  readView,
  sameFilter,
  stakesChoices,
  viewFrame,
  visibleRooms,
} from "./lobby-view.js";
import { TournamentList } from "./scheduled-view.js";
import { SitAndGoList } from "./sit-and-go-view.js";
import { LiveSocket, socketUrl } from "./socket.js";
import { TOURNAMENT_STARTED_EVENT } from "./user-socket.js";
import { WaitingNotices } from "./waiting-notice.js";
import { placeText } from "./waiting.js";

const VIEW_KEY = "casino.lobby.view";

const list = document.getElementById("room-list");
const statusBox = document.getElementById("lobby-status");
const filters = document.getElementById("lobby-filters");
const countBox = document.getElementById("room-count");
const headings = [...document.querySelectorAll("#room-table thead th[data-sort]")];
const pager = document.getElementById("room-pager");
const roomTable = document.getElementById("room-table");
const sngSection = document.getElementById("sit-and-go");
const mttSection = document.getElementById("tournaments");
const rooms = new Map(); // the page shown, by id
const viewer = JSON.parse(document.getElementById("lobby-viewer").textContent || "{}");
// The page as the server last described it: {view, page, pages, totals, stakes}.
let served = JSON.parse(document.getElementById("lobby-page").textContent || "null");
let view = loadView();
let pageWanted = 1;

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
    // The room's name in the button's name: a screen reader's list of buttons would otherwise
    // read "Join" once per room (WCAG 2.4.6); the visible word comes first (WCAG 2.5.3).
    el(
      "button",
      { type: "submit", class: open ? "button small" : "button small ghost", "aria-label": `${open ? "Join" : "Watch"} ${room.name}` },
      open ? "Join" : "Watch",
    ),
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
  const totals = served ? served.totals : null;
  let rows;
  if (totals && !totals.rooms) rows = [el("tr", { class: "room-empty" }, el("td", { colspan: "9" }, "No rooms are open right now."))];
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
  countBox.textContent = countText(totals, Boolean(totals) && totals.matching !== totals.rooms);
  roomTable.hidden = view.kind === "sit_and_go";
  if (sngSection) sngSection.hidden = view.kind === "cash";
  if (mttSection) mttSection.hidden = view.kind === "cash";
  drawStakes(all);
  drawHeadings();
  drawPager();
}

function drawStakes(all) {
  const select = filters.elements.stakes;
  const choices = served && Array.isArray(served.stakes) ? [...served.stakes] : stakesChoices(all);
  if (view.stakes && !choices.includes(view.stakes)) choices.push(view.stakes); // keep the choice
  const wanted = ["", ...choices];
  const have = [...select.options].map((option) => option.value);
  if (wanted.join("\n") !== have.join("\n")) {
    select.replaceChildren(...wanted.map((value) => el("option", { value }, value || "Any stakes")));
  }
  select.value = view.stakes;
}

function drawPager() {
  const page = served ? served.page : 1;
  const pages = served ? served.pages : 1;
  pager.hidden = pages <= 1 || view.kind === "sit_and_go";
  pager.querySelector("#page-at").textContent = `Page ${page} of ${pages}`;
  pager.querySelector("#page-prev").disabled = page <= 1;
  pager.querySelector("#page-next").disabled = page >= pages;
}

/** Ask the server for the view's page (its answer, a `lobby` frame, redraws the list). */
function askPage(page) {
  pageWanted = page;
  socket.send(viewFrame(view, page));
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
  filters.elements.kind.value = view.kind;
}

function readFilters() {
  view = {
    ...view,
    structures: STRUCTURES.filter((name) => filters.querySelector(`input[name=structure][value=${name}]`).checked),
    stakes: filters.elements.stakes.value,
    free: Number(filters.elements.free.value) || 0,
    hideEmpty: filters.elements.hide_empty.checked,
    hideFull: filters.elements.hide_full.checked,
    kind: filters.elements.kind.value,
  };
  saveView();
  render(); // what the new filter hides goes at once; the server's page follows
  askPage(1);
}

function resetView() {
  view = { ...DEFAULT_VIEW, sort: view.sort };
  saveView();
  drawFilters();
  render();
  askPage(1);
}

function setStatus(kind, text) {
  statusBox.dataset.state = kind;
  statusBox.querySelector(".text").textContent = text;
}

/** The room counts of the player's own lines: a `waiting` frame, or the lines the page holds. */
function noteLineSize(tableId, size) {
  const room = rooms.get(tableId);
  if (room && typeof size === "number") rooms.set(tableId, { ...room, waiting: size });
}

function onFrame(frame) {
  if (frame.type === "lobby" && Array.isArray(frame.rooms)) {
    served = { view: frame.view, page: frame.page, pages: frame.pages, totals: frame.totals, stakes: frame.stakes };
    rooms.clear();
    for (const room of frame.rooms) rooms.set(room.id, room);
    // The first frame is the site's first page: the player's own filter and page are asked for.
    if (sameFilter(view, frame.view)) pageWanted = frame.page;
    else askPage(pageWanted);
    render();
  } else if (frame.type === "rooms") {
    for (const change of frame.rooms || []) {
      if (rooms.has(change.id)) rooms.set(change.id, mergeRoom(rooms.get(change.id), change));
    }
    if (served && frame.totals) served = { ...served, totals: frame.totals };
    if (served && Array.isArray(frame.stakes)) served = { ...served, stakes: frame.stakes };
    render();
    for (const s of frame.sit_and_gos || []) sitAndGos.apply(s);
    for (const t of frame.tournaments || []) tournaments.apply(t);
  } else if (frame.type === "waiting") {
    waiting.receive(frame); // a line joined or changed: its size is noted as it is drawn
    if (frame.place === null || frame.place === undefined) noteLineSize(frame.table_id, frame.waiting);
    render();
  }
  if (frame.type === "lobby" && Array.isArray(frame.sit_and_gos)) sitAndGos.replaceAll(frame.sit_and_gos);
  if (frame.type === "lobby" && Array.isArray(frame.tournaments)) tournaments.replaceAll(frame.tournaments);
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
const tournaments = new TournamentList({
  body: document.getElementById("mtt-list"),
  served: JSON.parse(document.getElementById("lobby-tournaments").textContent || "[]"),
  yours: JSON.parse(document.getElementById("lobby-your-entries").textContent || "{}"),
});
document.addEventListener(TOURNAMENT_STARTED_EVENT, (event) => {
  const tournament = event.detail || {};
  if (!tournament.table_url) return;
  event.preventDefault(); // this page goes there itself: no notice
  goToTable(tournament.table_url);
});

const sizesNoted = new WeakSet();
const servedLines = JSON.parse(document.getElementById("lobby-waiting").textContent || "{}");
let waiting = null; // drawn from once it holds the lines served with the page
waiting = new WaitingNotices({
  entries: servedLines.entries || [],
  now: servedLines.now,
  onChange: (lines) => {
    if (!waiting) return;
    // The player's own join changed that line's size: the lobby's count follows now. Each line
    // once, as it came (a line's size is not news after that: others join behind unheard).
    for (const line of lines.values()) {
      if (sizesNoted.has(line)) continue;
      sizesNoted.add(line);
      noteLineSize(line.table_id, line.waiting);
    }
    render();
  },
});

for (const room of JSON.parse(document.getElementById("lobby-rooms").textContent || "[]")) rooms.set(room.id, room);
filters.addEventListener("change", readFilters);
filters.addEventListener("submit", (event) => event.preventDefault());
document.getElementById("filters-reset").addEventListener("click", resetView);
pager.querySelector("#page-prev").addEventListener("click", () => askPage(Math.max(1, (served ? served.page : 1) - 1)));
pager.querySelector("#page-next").addEventListener("click", () => askPage((served ? served.page : 1) + 1));
for (const th of headings) {
  th.querySelector("button").addEventListener("click", () => {
    view = { ...view, sort: nextSort(view.sort, th.dataset.sort) };
    saveView();
    render();
  });
}
drawFilters();
render();

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
