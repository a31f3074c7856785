// The table's session reminder (docs/rules.md 11): every N minutes of a play session (the
// player's choice on the Responsible play page; off by default) a dialog says the time played
// and the chips won or lost in this session, and waits for an answer: Continue, Leave table,
// Take a break. The figures come from the server (session.json); the next reminder counts from
// the answer, remembered in this browser for the session in progress.

import { netWords, playedWords, reminderDue } from "./session-reminder.js";

export const SESSION_URL = "/accounts/responsible-play/session.json";
const BREAK_URL = "/accounts/responsible-play/#break";
const ANSWERED_KEY = "casino:reminder-answered";
const REFRESH_MS = 60_000; // the period may change on another page; a new session may start

export class SessionReminder {
  constructor(app, root) {
    this.app = app;
    this.dialog = root.querySelector("#reminder-dialog");
    this.state = null;
    this.offset = 0; // server clock minus this one
    this.timer = null;
    this.seated = false;
    if (!this.dialog) return;
    this.dialog.querySelector("#reminder-continue").addEventListener("click", () => this.answer());
    this.dialog.querySelector("#reminder-leave").addEventListener("click", () => {
      this.answer();
      // Dealt in, the player plays the hand out and leaves as it ends (RULES.md 2).
      this.app.send({ type: "leave_after_hand" });
    });
    this.dialog.querySelector("#reminder-break").addEventListener("click", () => {
      this.answer();
      window.location.assign(BREAK_URL);
    });
    // It waits for an answer: Escape does not dismiss it.
    this.dialog.addEventListener("cancel", (event) => event.preventDefault());
    this.refresh();
    setInterval(() => this.refresh(), REFRESH_MS);
  }

  /** Called as the table renders: sitting down or standing up asks the server again. */
  follow(you) {
    const seated = Boolean(you && Number.isInteger(you.seat));
    if (seated === this.seated) return;
    this.seated = seated;
    this.refresh();
  }

  async refresh() {
    try {
      const response = await fetch(SESSION_URL, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!response.ok) return;
      this.state = await response.json();
      this.offset = Date.parse(this.state.now) - Date.now();
    } catch {
      return; // offline for a moment: the next refresh tries again
    }
    if (this.dialog.open) this.fill();
    else this.schedule();
  }

  serverNow() {
    return Date.now() + this.offset;
  }

  answeredAt() {
    const stored = Number(window.localStorage.getItem(ANSWERED_KEY));
    return Number.isFinite(stored) ? stored : null;
  }

  schedule() {
    clearTimeout(this.timer);
    const due = reminderDue(this.state, this.answeredAt());
    if (due === null) return;
    this.timer = setTimeout(() => this.due(), Math.max(0, due - this.serverNow()));
  }

  async due() {
    if (!this.seated) return; // at the table only; sitting down again asks anew
    await this.refresh(); // the figures of this moment (and a period changed meanwhile)
    const due = reminderDue(this.state, this.answeredAt());
    if (due === null || due > this.serverNow() + 500 || this.dialog.open) return;
    this.fill();
    this.dialog.showModal();
    this.dialog.querySelector("#reminder-continue").focus();
  }

  fill() {
    const session = this.state && this.state.session;
    if (!session) return;
    const played = session.played_seconds + Math.max(0, (this.serverNow() - Date.parse(this.state.now)) / 1000);
    this.dialog.querySelector("#reminder-played").textContent = playedWords(played);
    this.dialog.querySelector("#reminder-net").textContent = netWords(session.net);
  }

  answer() {
    window.localStorage.setItem(ANSWERED_KEY, String(Math.round(this.serverNow())));
    this.dialog.close();
    this.schedule();
  }
}
