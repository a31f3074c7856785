// A scheduled tournament's own page (RULES.md 9): its sections are drawn again from
// /tournaments/<id>/live.json every few seconds while it registers or runs (docs/decisions.md,
// Tournaments), and the time to the next level counts down between two answers by the server's
// clock. templates/holdem/scheduled_tournament.html draws the same sections on the server.

import { el } from "./dom.js";
import { chips } from "./format.js";
import { lateRegistrationText, pollDelayMs, reEntriesText } from "./scheduled.js";
import { entryText, speedText } from "./sit-and-go.js";
import { blindsText, levelCountdownText } from "./tournament.js";
import { ordinal } from "./waiting.js";

const root = document.querySelector("[data-tournament-id]");
const tournamentId = root.dataset.tournamentId;
let page = JSON.parse(document.getElementById("tournament-page").textContent || "{}");
let skew = page.now ? page.now - Date.now() : 0; // the server's clock minus ours
let failures = 0;
const WHEN = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };

const muted = (text) => el("span", { class: "muted" }, text);
const time = (ms, options) => el("time", { datetime: new Date(ms).toISOString() }, new Date(ms).toLocaleString([], options));
const capital = (text) => (text ? text[0].toUpperCase() + text.slice(1) : "");

function replace(id, ...children) {
  const section = document.getElementById(id);
  if (section) section.replaceChildren(...children.filter((child) => child !== null && child !== undefined));
}

function item(term, ...value) {
  return el("div", {}, el("dt", {}, term), el("dd", {}, ...value));
}

function drawSummary(t) {
  const late = lateRegistrationText(t);
  const reEntries = reEntriesText(t);
  replace(
    "mtt-summary",
    item("Status", el("span", { class: `badge tournament-status status-${t.status}` }, capital(t.status))),
    item(t.status === "registering" ? "Starts" : "Started", time(t.starts_at, WHEN)),
    item("Buy-in + fee", entryText(t)),
    item("Entrants", chips(t.entrants), t.max_entrants && t.status === "registering" ? muted(` of ${chips(t.max_entrants)}`) : null),
    item("Players left", t.players_left === null ? muted("–") : chips(t.players_left)),
    item("Average stack", t.average_stack ? chips(t.average_stack) : muted("–")),
    item("Prize pool", chips(t.prize_pool)),
    item("Starting stack", chips(t.starting_stack)),
    item("Levels", speedText({ level_minutes: t.level_seconds / 60 })),
    item("Tables", String(t.tables), muted(` of ${t.table_seats} seats`)),
    Object.assign(item("Late registration", late || muted("Over"), reEntries ? muted(` · ${reEntries}`) : null), { className: "wide" }),
  );
}

function drawLevel(t) {
  const title = el("h2", { id: "level-title" }, "Level");
  if (t.status === "running" && t.level) {
    const next = t.next_level;
    replace(
      "mtt-level",
      title,
      el(
        "p",
        { class: "mtt-level-now" },
        el("b", {}, `Level ${t.level.level}`),
        ` · blinds ${blindsText(t.level).replace(" ante ", " · ante ")}`,
        t.hand_for_hand ? el("span", { class: "badge hand-for-hand" }, "Hand for hand") : null,
      ),
      next ? el("p", { class: "muted mtt-level-next" }, `Next: level ${next.level} · ${blindsText(next)} `, el("span", { class: "mtt-clock" })) : null,
    );
    tick();
  } else if (t.status === "registering") {
    replace("mtt-level", title, el("p", { class: "muted" }, "The first level starts with the first hand, a few seconds after the start."));
  } else {
    replace("mtt-level", title, el("p", { class: "muted" }, `The levels have stopped: the tournament is ${t.status}.`));
  }
}

function drawPrizes(t, prizes) {
  const title = el("h2", { id: "prizes-title" }, "Prizes");
  if (!prizes.length) {
    replace("mtt-prizes", title, el("p", { class: "muted" }, "The prizes are set once two players have entered."));
    return;
  }
  const growing = t.status === "registering" || t.registration_open ? ", for the entrants so far: more entries, more prizes" : "";
  replace(
    "mtt-prizes",
    title,
    el("p", { class: "muted" }, `${t.places_paid} place${t.places_paid === 1 ? "" : "s"} paid${growing}.`),
    el(
      "table",
      { class: "ledger compact mtt-prizes" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "num" }, "Place"), el("th", { scope: "col", class: "num" }, "Prize"))),
      el("tbody", {}, ...prizes.map((row) => el("tr", {}, el("td", { class: "num" }, ordinal(row.place)), el("td", { class: "num" }, chips(row.prize))))),
    ),
  );
}

function drawTables(t, tables, viewer) {
  const title = el("h2", { id: "tables-title" }, "Tables");
  if (!tables.length) {
    const why = t.status === "registering" ? "The entrants are seated at random when it starts." : "No table is playing.";
    replace("mtt-tables", title, el("p", { class: "muted" }, why));
    return;
  }
  const cards = tables.map((table) =>
    el(
      "article",
      { class: `mtt-table-card${table.in_hand ? " in-hand" : ""}`, dataset: { tableId: String(table.id) } },
      el("header", {}, el("a", { href: table.url }, table.name), " ", muted(`${table.players.length}/${table.seats}${table.in_hand ? " · hand in play" : ""}`)),
      el(
        "ol",
        { class: "mtt-seats" },
        ...(table.players.length
          ? table.players.map((p) =>
              el(
                "li",
                { class: p.username === viewer ? "you-row" : null },
                el("span", {}, p.username, p.sitting_out ? muted(" (away)") : null),
                el("span", { class: "num" }, chips(p.stack)),
              ),
            )
          : [el("li", { class: "muted" }, "Nobody seated")]),
      ),
      el("a", { class: "button small ghost", href: table.url }, "Watch"),
    ),
  );
  replace("mtt-tables", title, el("div", { class: "mtt-table-grid" }, ...cards));
}

function drawFinished(finished, outUnplaced, viewer) {
  const title = el("h2", { id: "finished-title" }, "Places");
  const waiting = outUnplaced.length
    ? el("p", { class: "muted mtt-out-unplaced" }, `Out, placed when late registration closes or the round of hands ends: ${outUnplaced.join(", ")}.`)
    : null;
  if (!finished.length) {
    replace("mtt-finished", title, el("p", { class: "muted" }, "Nobody has been placed yet."), waiting);
    return;
  }
  const rows = finished.map((row) =>
    el(
      "tr",
      { class: [row.username === viewer ? "you-row" : "", row.place === 1 ? "winner-row" : ""].filter(Boolean).join(" ") || null },
      el("td", { class: "num" }, ordinal(row.place)),
      el("td", {}, row.username, row.entry > 1 ? muted(` (entry ${row.entry})`) : null, row.username === viewer ? muted(" (you)") : null),
      el("td", { class: row.prize ? "num pos" : "num" }, row.prize ? chips(row.prize) : muted("–")),
    ),
  );
  replace(
    "mtt-finished",
    title,
    el(
      "table",
      { class: "ledger places-table" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "num" }, "Place"), el("th", { scope: "col" }, "Player"), el("th", { scope: "col", class: "num" }, "Prize"))),
      el("tbody", {}, ...rows),
    ),
    waiting,
  );
}

function drawHands(hands, total) {
  const title = el("h2", { id: "hands-title" }, "Hands");
  if (!hands.length) {
    replace("mtt-hands", title, el("p", { class: "muted" }, "No hand has been played yet."));
    return;
  }
  const latest = total > hands.length ? `The latest ${hands.length} of ${chips(total)} hands. ` : "";
  const rows = hands.map((hand) =>
    el(
      "tr",
      {},
      el("td", {}, hand.yours ? el("a", { href: `/hands/${hand.id}/` }, `Hand #${hand.id}`) : `Hand #${hand.id}`),
      el("td", {}, String(hand.level ?? "")),
      el("td", { class: "num" }, `${chips(hand.small_blind)}/${chips(hand.big_blind)}`, hand.ante ? muted(` ante ${chips(hand.ante)}`) : null),
      el("td", {}, time(hand.started_at, { hour: "2-digit", minute: "2-digit", second: "2-digit" })),
    ),
  );
  replace(
    "mtt-hands",
    title,
    el("p", { class: "muted" }, `${latest}A hand opens for the players dealt into it.`),
    el(
      "table",
      { class: "ledger compact tournament-hands" },
      el("thead", {}, el("tr", {}, ...["Hand", "Level", "Blinds", "Started"].map((h, i) => el("th", { scope: "col", class: i === 2 ? "num" : null }, h)))),
      el("tbody", {}, ...rows),
    ),
  );
}

function drawNav(you) {
  replace(
    "mtt-nav",
    you && you.table_url ? el("a", { class: "button small", href: you.table_url }, "Take your seat") : null,
    " ",
    el("a", { class: "button small ghost", href: "/lobby/#tournaments" }, "Lobby"),
  );
}

function draw() {
  const t = page.tournament;
  const viewer = document.querySelector(".nav-user")?.textContent || "";
  drawNav(page.you);
  drawSummary(t);
  drawLevel(t);
  drawPrizes(t, page.prizes || []);
  drawTables(t, page.tables || [], viewer);
  drawFinished(page.finished || [], page.out_unplaced || [], viewer);
  drawHands(page.hands || [], page.hands_total || 0);
}

/** The time to the next level, by the server's clock (RULES.md 9: one clock for every table). */
function tick() {
  const clock = document.querySelector(".mtt-clock");
  if (clock) clock.textContent = levelCountdownText(page.tournament, Date.now() + skew);
}

function setLive(text, state) {
  const box = document.getElementById("mtt-live");
  box.dataset.state = state;
  box.querySelector(".text").textContent = text;
}

async function poll() {
  if (document.hidden) {
    schedule(); // nobody is looking: ask again later
    return;
  }
  try {
    const response = await fetch(`/tournaments/${tournamentId}/live.json`, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    page = await response.json();
    skew = page.now - Date.now();
    failures = 0;
    draw();
    setLive(["registering", "running"].includes(page.tournament.status) ? "Live" : capital(page.tournament.status), "open");
  } catch {
    failures += 1;
    setLive("Not connected: trying again…", "reconnecting");
  }
  schedule();
}

function schedule() {
  const delay = pollDelayMs(page.tournament.status, failures);
  if (delay !== null) setTimeout(poll, delay);
}

draw();
setInterval(tick, 1000);
schedule();
