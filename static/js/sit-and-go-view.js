// The lobby's Sit & Go list (RULES.md 8), drawn from the `lobby` and `sit_and_go` frames of the
// lobby socket (docs/protocol.md, "Sit & Go"): Register and Unregister are CSRF-protected POSTs,
// whose refusal is shown on the row it came from. The words and the buttons are sit-and-go.js's.

import { el, rowButton } from "./dom.js";
import { capitalise, chips } from "./format.js";
import {
  applySitAndGo,
  entryText,
  isEntered,
  orderedSitAndGos,
  placesPaidText,
  prizesText,
  rowControls,
  sitAndGosFrom,
  speedText,
  stateText,
} from "./sit-and-go.js";
import { callJson } from "./http.js";

const COLUMNS = 7;

export class SitAndGoList {
  /** body: the list's <tbody>; served: the tournaments as the page was served; username: the
   * viewer; onStarted(s): a tournament this player is entered in has just started. */
  constructor({ body, served, username, onStarted = () => {} }) {
    this.body = body;
    this.username = username;
    this.onStarted = onStarted;
    this.held = sitAndGosFrom(served);
    this.errors = new Map(); // tournament id -> the server's answer to a click
    this.busy = new Set(); // tournament ids with a click on its way
    this.focusAfter = null;
    this.render();
  }

  /** A `lobby` frame's list replaces the one held. */
  replaceAll(list) {
    if (!Array.isArray(list)) return;
    const before = this.held;
    this.held = sitAndGosFrom(list);
    for (const s of this.held.values()) this.noteStart(before.get(s.id), s);
    this.render();
  }

  /** A `sit_and_go` frame (or the answer to a click). */
  apply(s) {
    if (!s || !Number.isInteger(s.id)) return;
    const before = this.held.get(s.id);
    this.held = applySitAndGo(this.held, s);
    this.noteStart(before, s);
    this.render();
  }

  noteStart(before, s) {
    if (before && before.status === "registering" && s.status === "running" && s.table_url && isEntered(s, this.username)) {
      this.onStarted(s);
    }
  }

  async send(s, action) {
    if (this.busy.has(s.id)) return;
    this.busy.add(s.id);
    this.focusAfter = s.id; // the button is disabled meanwhile, and so loses the focus: give it back
    this.errors.delete(s.id);
    this.render();
    try {
      const body = await callJson(`/lobby/sit-and-go/${s.id}/${action}/`);
      this.busy.delete(s.id);
      this.apply(body.sit_and_go);
      return;
    } catch (error) {
      if (error.code) {
        const text = capitalise(error.message || error.code);
        this.errors.set(s.id, /[.!?]$/.test(text) ? text : `${text}.`);
      } else {
        this.errors.set(s.id, "Not connected: nothing was done. Try again in a moment.");
      }
    }
    this.busy.delete(s.id);
    this.render();
  }

  render() {
    const shown = orderedSitAndGos(this.held);
    // A row whose button has focus is drawn again: keep the focus on the same button.
    const focused = document.activeElement && document.activeElement.closest ? document.activeElement.closest("[data-sit-and-go-id] [data-action]") : null;
    let refocus = focused ? focused.closest("[data-sit-and-go-id]").dataset.sitAndGoId : null;
    if (this.focusAfter !== null && !this.busy.has(this.focusAfter)) {
      refocus = String(this.focusAfter);
      this.focusAfter = null;
    }
    this.body.replaceChildren(
      ...(shown.length ? shown.map((s) => this.row(s)) : [el("tr", { class: "sng-empty" }, el("td", { colspan: String(COLUMNS) }, "No Sit & Go is open right now."))]),
    );
    if (refocus) {
      const again = this.body.querySelector(`[data-sit-and-go-id="${refocus}"] [data-action], [data-sit-and-go-id="${refocus}"] a`);
      if (again) again.focus();
    }
  }

  row(s) {
    const mine = isEntered(s, this.username);
    const controls = rowControls(s, this.username);
    const problem = this.errors.get(s.id);
    const busy = this.busy.has(s.id);
    const problemId = `sng-problem-${s.id}`;
    const button = (action, text, kind) =>
      rowButton({
        action,
        text,
        kind,
        busy,
        problemId: problem ? problemId : null,
        onClick: () => this.send(s, action),
      });
    const actions = [];
    if (controls.unregister) actions.push(button("unregister", "Unregister", "ghost sng-unregister"));
    if (controls.register) actions.push(button("register", "Register", "sng-register"));
    if (controls.table) actions.push(el("a", { class: "button small", href: controls.table.url }, controls.table.text));
    if (controls.results) actions.push(el("a", { class: "button small ghost", href: controls.results }, "Results"));
    return el(
      "tr",
      { class: ["sng-row", `sng-${s.status}`, mine ? "mine" : ""].filter(Boolean).join(" "), dataset: { sitAndGoId: String(s.id) } },
      el(
        "td",
        { class: "sng-cell" },
        el(
          "div",
          { class: "sng-top" },
          el("span", { class: "sng-name" }, s.name),
          mine ? el("span", { class: "badge your-seat" }, { registering: "Registered", running: "You play" }[s.status] || "You played") : null,
        ),
        el("p", { class: "sng-players" }, s.players && s.players.length ? s.players.join(", ") : el("span", { class: "muted" }, "Nobody registered yet")),
        el("p", { class: "sng-state" }, stateText(s)),
      ),
      el("td", { class: "num", dataset: { label: "Players" } }, el("b", { class: "sng-taken" }, String(s.registered)), `/${s.seats}`),
      el("td", { class: "num sng-entry-cell", dataset: { label: "Buy-in + fee" } }, el("span", { class: "sng-entry" }, entryText(s))),
      el("td", { class: "num", dataset: { label: "Stack" } }, chips(s.starting_stack)),
      el("td", { class: "num", dataset: { label: "Levels" } }, speedText(s)),
      el(
        "td",
        { class: "num sng-pool-cell", dataset: { label: "Prize pool" } },
        el("span", { class: "sng-pool" }, chips(s.prize_pool)),
        el("span", { class: "sng-paid muted" }, placesPaidText(s)),
        el("span", { class: "sng-prizes muted" }, prizesText(s.prizes)),
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
