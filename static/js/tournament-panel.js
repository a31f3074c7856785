// A Sit & Go's table page (RULES.md 8): the tournament panel (the level, the next one and a live
// countdown to it, the players left, the prizes) from `table.tournament`, and the word to a
// player who is out, or has won, with the way to keep watching or go back to the lobby. The words
// are tournament.js's; the time is the server's (TableApp.serverNow).

import { el } from "./dom.js";
import { chips } from "./format.js";
import {
  finishOf,
  finishTitle,
  finishWords,
  levelCountdownText,
  levelText,
  nextLevelText,
  playersLeftText,
  prizeRows,
} from "./tournament.js";

export class TournamentPanel {
  constructor(app, root) {
    this.app = app;
    this.box = root.querySelector("#tournament-panel");
    this.dialog = root.querySelector("#finish-dialog");
    this.key = null;
    this.shownFinish = null; // the tournament id whose finish this page has announced
    if (this.dialog) {
      this.dialog.querySelector("#finish-keep-watching").addEventListener("click", () => this.dialog.close());
    }
  }

  get tournament() {
    return this.app.table ? this.app.table.tournament || null : null;
  }

  /** After each snapshot or event: `before` is the tournament as it was. A player who just went
   * out (or won) hears it once, in the dialog. */
  update(before) {
    const t = this.tournament;
    const username = this.app.client.username;
    if (t && this.dialog && this.shownFinish !== t.id) {
      const had = finishOf(before, username);
      const now = finishOf(t, username);
      if (now && !had && before) this.showFinish(t, now);
    }
    this.render();
  }

  showFinish(t, finish) {
    this.shownFinish = t.id;
    const dialog = this.dialog;
    dialog.querySelector("#finish-title").textContent = finishTitle(finish);
    const prize = dialog.querySelector("#finish-prize");
    prize.textContent = finish.prize > 0 ? `Your prize: ${chips(finish.prize)} chips, paid into your wallet.` : "No prize this time.";
    dialog.querySelector("#finish-results").href = t.results_url;
    dialog.classList.toggle("won", finish.won);
    if (!dialog.open) dialog.showModal();
    dialog.querySelector("#finish-keep-watching").focus();
  }

  render() {
    const box = this.box;
    if (!box) return;
    const t = this.tournament;
    box.hidden = !t;
    this.app.root.classList.toggle("at-tournament", Boolean(t));
    if (!t) return;
    const finish = finishOf(t, this.app.client.username);
    const key = JSON.stringify([t, finish]);
    if (key === this.key) return;
    this.key = key;
    const next = nextLevelText(t);
    const facts = el(
      "dl",
      { class: "tournament-facts" },
      el("div", {}, el("dt", {}, "Now"), el("dd", { class: "tournament-level" }, levelText(t))),
      next && t.status === "running"
        ? el(
            "div",
            {},
            el("dt", {}, "Next level"),
            el("dd", {}, el("span", { class: "tournament-next" }, next), " ", el("span", { class: "tournament-countdown", dataset: { levelCountdown: "" } }, "")),
          )
        : null,
      el("div", {}, el("dt", {}, "Players"), el("dd", { class: "tournament-left" }, playersLeftText(t))),
      el("div", {}, el("dt", {}, "Prize pool"), el("dd", {}, chips(t.prize_pool))),
    );
    const prizes = el(
      "ol",
      { class: "tournament-prizes", "aria-label": "Prizes" },
      ...prizeRows(t).map((row) =>
        el("li", {}, el("span", { class: "prize-place" }, row.place), el("span", { class: "prize-chips" }, row.prize), row.username ? el("span", { class: "prize-who" }, row.username) : null),
      ),
    );
    const parts = [
      el(
        "div",
        { class: "tournament-head" },
        el("h2", {}, t.name, t.status === "finished" ? el("span", { class: "badge" }, "Finished") : null),
        el("a", { class: "button small ghost", href: t.results_url }, "Results"),
      ),
      finish ? el("p", { class: `tournament-finish${finish.won ? " won" : ""}` }, `${finishWords(finish)}.`) : null,
      facts,
      prizes,
    ];
    box.replaceChildren(...parts.filter(Boolean));
    this.tick(this.app.serverNow());
  }

  /** Four times a second (TableApp.tick): the countdown to the next level. */
  tick(now) {
    const t = this.tournament;
    if (!t || !this.box) return;
    const spot = this.box.querySelector("[data-level-countdown]");
    if (!spot) return;
    const text = levelCountdownText(t, now);
    if (spot.textContent !== text) spot.textContent = text;
  }
}
