// The lobby's scheduled tournaments (RULES.md 9), drawn from the lobby socket's `lobby` frames and
// the `tournaments` of its `rooms` frames (docs/protocol.md, "Scheduled tournaments"): Register,
// Re-enter and Unregister are CSRF-protected POSTs whose refusal is shown on the row it came
// from. The player's own part of each (entered, entries, seat) comes with the page and with the
// answer to each click; the frames, the same for everyone, do not carry it. The words and the
// buttons are scheduled.js's.

import { el, rowButton } from "./dom.js";
import { capitalise, chips } from "./format.js";
import { callJson } from "./http.js";
import {
  NOT_ENTERED,
  applyTournament,
  entrantsText,
  lateRegistrationText,
  orderedTournaments,
  reEntriesText,
  rowControls,
  startText,
  stateText,
  tournamentsFrom,
} from "./scheduled.js";
import { entryText, placesPaidText } from "./sit-and-go.js";

const COLUMNS = 6;
const WHEN = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };

function when(ms) {
  return new Date(ms).toLocaleString([], WHEN);
}

export class TournamentList {
  /** body: the list's <tbody>; served: the tournaments as the page was served; yours: the
   * player's part of each they entered, by id (the page's `lobby-your-entries`). */
  constructor({ body, served, yours }) {
    this.body = body;
    this.held = tournamentsFrom(served);
    this.yours = new Map(Object.entries(yours || {}).map(([id, part]) => [Number(id), part]));
    this.errors = new Map(); // tournament id -> the server's answer to a click
    this.busy = new Set(); // tournament ids with a click on its way
    this.focusAfter = null;
    this.render();
    // "Starts in 12 min" moves on by itself.
    setInterval(() => this.render(), 30_000);
  }

  /** A `lobby` frame's list replaces the one held. */
  replaceAll(list) {
    if (!Array.isArray(list)) return;
    this.held = tournamentsFrom(list);
    this.render();
  }

  /** A tournament's change (a `rooms` frame's `tournaments`, or the answer to a click). */
  apply(t) {
    if (!t || !Number.isInteger(t.id)) return;
    this.held = applyTournament(this.held, t);
    this.render();
  }

  async send(t, action) {
    if (this.busy.has(t.id)) return;
    this.busy.add(t.id);
    this.focusAfter = t.id; // the button is disabled meanwhile, and so loses the focus: give it back
    this.errors.delete(t.id);
    this.render();
    try {
      const body = await callJson(`/lobby/tournaments/${t.id}/${action}/`);
      this.busy.delete(t.id);
      this.yours.set(t.id, body.you || NOT_ENTERED);
      this.apply(body.tournament);
      return;
    } catch (error) {
      if (error.code) {
        const text = capitalise(error.message || error.code);
        this.errors.set(t.id, /[.!?]$/.test(text) ? text : `${text}.`);
      } else {
        this.errors.set(t.id, "Not connected: nothing was done. Try again in a moment.");
      }
    }
    this.busy.delete(t.id);
    this.render();
  }

  render() {
    const shown = orderedTournaments(this.held);
    // A row whose button has focus is drawn again: keep the focus on the same button.
    const active = document.activeElement;
    const focused = active && active.closest ? active.closest("[data-tournament-id] [data-action]") : null;
    let refocus = focused ? focused.closest("[data-tournament-id]").dataset.tournamentId : null;
    if (this.focusAfter !== null && !this.busy.has(this.focusAfter)) {
      refocus = String(this.focusAfter);
      this.focusAfter = null;
    }
    const now = Date.now();
    this.body.replaceChildren(
      ...(shown.length
        ? shown.map((t) => this.row(t, now))
        : [el("tr", { class: "sng-empty" }, el("td", { colspan: String(COLUMNS) }, "No tournament is scheduled right now."))]),
    );
    if (refocus) {
      const again = this.body.querySelector(`[data-tournament-id="${refocus}"] [data-action], [data-tournament-id="${refocus}"] a`);
      if (again) again.focus();
    }
  }

  row(t, now) {
    const you = this.yours.get(t.id) || NOT_ENTERED;
    const controls = rowControls(t, you);
    const problem = this.errors.get(t.id);
    const busy = this.busy.has(t.id);
    const problemId = `mtt-problem-${t.id}`;
    const button = (action, text, kind) =>
      rowButton({
        action,
        text,
        kind,
        busy,
        problemId: problem ? problemId : null,
        onClick: () => this.send(t, action),
      });
    const actions = [];
    if (controls.unregister) actions.push(button("unregister", "Unregister", "ghost sng-unregister"));
    if (controls.register) actions.push(button("register", controls.register, "sng-register"));
    if (controls.table) actions.push(el("a", { class: "button small", href: controls.table }, "Take your seat"));
    if (controls.page) actions.push(el("a", { class: "button small ghost", href: controls.page.url }, controls.page.text));
    let badge = null;
    if (you.entered) badge = el("span", { class: "badge your-seat" }, t.status === "registering" ? "Registered" : "You play");
    else if (you.entries) badge = el("span", { class: "badge" }, "Out");
    const entrants = entrantsText(t);
    const reEntries = reEntriesText(t);
    return el(
      "tr",
      {
        class: ["sng-row", "mtt-row", `sng-${t.status}`, you.entered ? "mine" : ""].filter(Boolean).join(" "),
        dataset: { tournamentId: String(t.id) },
      },
      el(
        "td",
        { class: "sng-cell" },
        el("div", { class: "sng-top" }, el("span", { class: "sng-name" }, t.name), badge),
        el("p", { class: "sng-players mtt-start" }, el("time", { datetime: new Date(t.starts_at).toISOString() }, startText(t, now, when))),
        el("p", { class: "sng-state" }, stateText(t)),
      ),
      el("td", { class: "num", dataset: { label: "Entrants" } }, el("b", { class: "sng-taken" }, entrants.count), entrants.rest),
      el("td", { class: "num sng-entry-cell", dataset: { label: "Buy-in + fee" } }, el("span", { class: "sng-entry" }, entryText(t))),
      el(
        "td",
        { class: "num sng-pool-cell", dataset: { label: "Prize pool" } },
        el("span", { class: "sng-pool" }, chips(t.prize_pool)),
        el("span", { class: "sng-paid muted" }, placesPaidText(t)),
      ),
      el(
        "td",
        { class: "mtt-late", dataset: { label: "Late registration" } },
        lateRegistrationText(t),
        reEntries ? el("span", { class: "sng-paid muted" }, reEntries) : null,
      ),
      el(
        "td",
        { class: "sng-actions" },
        el("div", { class: "sng-buttons" }, ...actions),
        problem ? el("p", { class: "sng-problem", id: problemId, role: "alert" }, problem) : null,
      ),
    );
  }
}
