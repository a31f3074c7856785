// The waiting-list notices, on the lobby and on every table page: a seat offered to the player
// ("Take seat" / "Decline", with the time left by the server's clock) and why a line ended. The
// lines arrive as `waiting` frames on the page's own socket (the user's group); the time to take
// a seat is kept by the server's sweep, never by this page: at zero it only waits for the word.

import { el } from "./dom.js";
import { capitalise } from "./format.js";
import { applyWaiting, leftText, linesFrom, offerSecondsLeft, offers } from "./waiting.js";
import { callJson } from "./http.js";

const TICK_MS = 500;
const ASK_AFTER_ZERO_MS = 3000; // no word from the server this long after zero: ask (a lost frame)
const GONE_NOTICE_MS = 8000;
const TAKE_WAIT_MS = 10000; // a table page opened to take a seat waits this long for its snapshot
const UNBIDDEN = new Set(["lapsed", "closed"]);

export class WaitingNotices {
  /**
   * tableId: the table this page shows (null on the lobby); entries/now: the lines as the page
   * was served (else they are fetched); takeHere(seat): open this table's buy-in for the seat,
   * true if it could; onChange(lines): the lines changed (the lobby draws its rows again).
   */
  constructor({ tableId = null, entries = null, now = null, takeHere = null, onChange = null } = {}) {
    this.tableId = tableId;
    this.takeHere = takeHere || (() => false);
    this.onChange = onChange || (() => {});
    this.lines = new Map();
    this.clockOffset = 0;
    this.errors = new Map(); // table_id -> the server's answer to a click
    this.gone = null; // {text, until}
    this.timer = null;
    this.zeroSince = null;
    this.box = el("section", { class: "waiting-notices", "aria-label": "Waiting list", "aria-live": "assertive" });
    document.body.append(this.box);
    if (entries) this.setLines(entries, now);
    else this.refresh();
  }

  lineAt(tableId) {
    return this.lines.get(tableId) || null;
  }

  serverNow() {
    return Date.now() + this.clockOffset;
  }

  noteClock(now) {
    if (typeof now === "number") this.clockOffset = now - Date.now();
  }

  /** A `waiting` frame from the page's socket. */
  receive(frame) {
    this.noteClock(frame.now);
    this.lines = applyWaiting(this.lines, frame);
    this.errors.delete(frame.table_id);
    // Said only when the player did not do it themselves: the time ran out, or the room closed.
    if ((frame.place === null || frame.place === undefined) && UNBIDDEN.has(frame.reason)) {
      this.gone = { text: `${leftText(frame)} (${frame.name}).`, until: Date.now() + GONE_NOTICE_MS };
    }
    this.changed();
  }

  setLines(entries, now) {
    this.noteClock(now);
    this.lines = linesFrom(entries);
    this.changed();
    this.takeOnArrival();
  }

  async refresh() {
    try {
      const body = await callJson("/lobby/waiting/", "GET");
      this.setLines(body.entries, body.now);
    } catch {
      // Offline for a moment: the next frame or refresh brings the lines.
    }
  }

  async join(tableId) {
    return this.send(tableId, `/lobby/waiting/${tableId}/join/`);
  }

  async leave(tableId) {
    return this.send(tableId, `/lobby/waiting/${tableId}/leave/`);
  }

  async send(tableId, url) {
    try {
      const body = await callJson(url);
      this.errors.delete(tableId);
      this.setLines(body.entries, body.now);
      return null;
    } catch (error) {
      this.errors.set(tableId, capitalise(error.message));
      this.changed();
      return error;
    }
  }

  /** "Take seat": on this table's page, its buy-in; elsewhere, to that table (a seat held in
   * another room is given up, as switching rooms does), whose page opens the buy-in. */
  async take(tableId) {
    const line = this.lineAt(tableId);
    if (line && line.offer && tableId === this.tableId && this.takeHere(line.offer.seat)) return;
    try {
      const body = await callJson(`/lobby/waiting/${tableId}/take/`);
      location.assign(body.url);
    } catch (error) {
      this.errors.set(tableId, capitalise(error.message));
      this.changed();
    }
  }

  /** A table page opened by "Take seat" (?take_seat=N) opens the buy-in once it can. */
  takeOnArrival() {
    if (this.tableId === null) return;
    const params = new URLSearchParams(location.search);
    if (!params.has("take_seat")) return;
    params.delete("take_seat");
    const query = params.toString();
    history.replaceState(null, "", location.pathname + (query ? `?${query}` : "") + location.hash);
    const line = this.lineAt(this.tableId);
    if (!line || !line.offer) return;
    const giveUpAt = Date.now() + TAKE_WAIT_MS;
    const attempt = () => {
      const current = this.lineAt(this.tableId);
      if (!current || !current.offer || this.takeHere(current.offer.seat) || Date.now() > giveUpAt) return;
      setTimeout(attempt, 200);
    };
    attempt();
  }

  changed() {
    this.render();
    this.onChange(this.lines);
    const running = offers(this.lines).length > 0 || this.gone !== null;
    if (running && this.timer === null) this.timer = setInterval(() => this.tick(), TICK_MS);
    if (!running && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  tick() {
    if (this.gone && Date.now() > this.gone.until) {
      this.gone = null;
      this.changed();
      return;
    }
    const now = this.serverNow();
    const lapsed = offers(this.lines).some((line) => offerSecondsLeft(line.offer, now) === 0);
    if (!lapsed) this.zeroSince = null;
    else if (this.zeroSince === null) this.zeroSince = Date.now();
    else if (Date.now() - this.zeroSince > ASK_AFTER_ZERO_MS) {
      this.zeroSince = Date.now();
      this.refresh();
    }
    this.render();
  }

  render() {
    const now = this.serverNow();
    const notices = offers(this.lines).map((line) => this.offerNotice(line, now));
    if (this.gone) notices.push(el("p", { class: "waiting-gone", role: "status" }, this.gone.text));
    this.box.replaceChildren(...notices);
    this.box.hidden = notices.length === 0;
  }

  offerNotice(line, now) {
    const seconds = offerSecondsLeft(line.offer, now);
    const error = this.errors.get(line.table_id);
    return el(
      "div",
      { class: "waiting-offer", role: "alert", dataset: { tableId: String(line.table_id) } },
      el(
        "p",
        { class: "waiting-offer-text" },
        el("strong", {}, `A seat is free at ${line.name}`),
        el(
          "span",
          { class: "waiting-offer-time" },
          seconds > 0 ? `Seat ${line.offer.seat + 1} is held for you for ${seconds} s.` : "Time is up…",
        ),
      ),
      el(
        "div",
        { class: "waiting-offer-actions" },
        el(
          "button",
          { type: "button", class: "button small", disabled: seconds === 0, onclick: () => this.take(line.table_id) },
          "Take seat",
        ),
        el("button", { type: "button", class: "button small ghost", onclick: () => this.leave(line.table_id) }, "Decline"),
      ),
      error ? el("p", { class: "waiting-offer-error", role: "alert" }, error) : null,
    );
  }
}
