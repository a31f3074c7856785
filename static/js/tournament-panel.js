// A tournament's table page: the tournament panel from `table.tournament`. A Sit & Go's (RULES.md
// 8): the level, the next one and a live countdown to it, the players left, the prizes, and the
// word to a player who is out, or has won, with the way to keep watching or go back to the lobby.
// A multi-table tournament's (RULES.md 9): the same level and countdown, the players left, the
// average stack, the player's own rank by chips, what the next place pays, the places paid, hand
// for hand, and the tournament's page. The words are tournament.js's; the time is the server's
// (TableApp.serverNow).

import { el } from "./dom.js";
import { showModal } from "./focus.js";
import { chips } from "./format.js";
import {
  averageStackText,
  finishOf,
  finishTitle,
  finishWords,
  isMultiTable,
  levelCountdownText,
  levelText,
  nextLevelText,
  nextPrizeText,
  placesPaidText,
  playersLeftText,
  prizeRows,
  rankText,
} from "./tournament.js";

/** One figure of the panel: a term and its value (either may be nodes). */
function fact(term, value, className = null) {
  return el("div", {}, el("dt", {}, term), el("dd", { class: className }, value));
}

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
    showModal(dialog);
    dialog.querySelector("#finish-keep-watching").focus();
  }

  render() {
    const box = this.box;
    if (!box) return;
    const t = this.tournament;
    box.hidden = !t;
    this.app.root.classList.toggle("at-tournament", Boolean(t));
    if (!t) return;
    const you = this.app.you;
    const seat = you && Number.isInteger(you.seat) ? you.seat : null;
    if (isMultiTable(t)) {
      this.renderMultiTable(t, seat);
      return;
    }
    const finish = finishOf(t, this.app.client.username);
    const key = JSON.stringify([t, finish]);
    if (key === this.key) return;
    this.key = key;
    const facts = el(
      "dl",
      { class: "tournament-facts" },
      ...this.levelFacts(t),
      fact("Players", playersLeftText(t), "tournament-left"),
      fact("Prize pool", chips(t.prize_pool)),
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

  /** The level now, and the next one with the time until it while the tournament runs. */
  levelFacts(t) {
    const next = nextLevelText(t);
    const countdown = el("span", { class: "tournament-countdown", dataset: { levelCountdown: "" } }, "");
    return [
      fact("Now", levelText(t), "tournament-level"),
      next && t.status === "running" ? fact("Next level", el("span", {}, el("span", { class: "tournament-next" }, next), " ", countdown)) : null,
    ];
  }

  /** RULES.md 9: what every table of a multi-table tournament shows; `seat`: the player's own
   * here (their rank), or null for a watcher. */
  renderMultiTable(t, seat) {
    const rank = rankText(t, seat);
    const key = JSON.stringify([t, rank]);
    if (key === this.key) return;
    this.key = key;
    const running = t.status === "running";
    const facts = el(
      "dl",
      { class: "tournament-facts" },
      ...this.levelFacts(t),
      fact("Players", playersLeftText(t), "tournament-left"),
      running ? fact("Average stack", averageStackText(t), "tournament-average") : fact("Prize pool", chips(t.prize_pool)),
      rank ? fact("Your rank", rank, "tournament-rank") : null,
      running
        ? fact(["Next place pays · ", el("span", { class: "tournament-paid" }, placesPaidText(t))], nextPrizeText(t), "tournament-next-prize")
        : fact("Prizes", placesPaidText(t), "tournament-paid"),
    );
    this.box.replaceChildren(
      el(
        "div",
        { class: "tournament-head" },
        el(
          "h2",
          {},
          t.name,
          t.status === "finished" ? el("span", { class: "badge" }, "Finished") : null,
          t.hand_for_hand && running ? el("span", { class: "badge hand-for-hand" }, "Hand for hand") : null,
        ),
        el("a", { class: "button small ghost", href: t.url }, "Tournament"),
      ),
      facts,
    );
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
