// The hand page's replayer (templates/holdem/_replayer.html): the table's own felt drawn from one
// step of the hand at a time (replay-model.js), with Previous / Play / Next, a jump to each
// street, and the arrow keys (Home and End too, for the first and last step, while the focus is
// in the replayer). `replayer` is exported for the browser tests.

import { el } from "./dom.js";
import { renderBoard, renderPots, renderSeats } from "./felt.js";
import { REPLAY_STREETS, centerText, clampStep, playDelay, positionText, replayView, stepForKey, streetStarts } from "./replay-model.js";

class Replayer {
  constructor(root, replay) {
    this.root = root;
    this.replay = replay;
    this.steps = replay.steps || [];
    this.index = 0;
    this.timer = null;
    this.starts = streetStarts(this.steps);
    const find = (id) => root.querySelector(`#${id}`);
    this.dom = {
      stage: find("replay-stage"), seats: find("replay-seats"), board: find("replay-board"), pots: find("replay-pots"),
      center: find("replay-center"), caption: find("replay-caption"), position: find("replay-position"), prev: find("replay-prev"), next: find("replay-next"),
      play: find("replay-play"), streets: find("replay-streets"),
    };
    this.streetButtons = REPLAY_STREETS.map(({ street, label }) =>
      el("button", {
        type: "button", class: "tool", dataset: { street }, disabled: !(street in this.starts),
        onclick: () => this.go(this.starts[street]),
      }, label));
    this.dom.streets.replaceChildren(...this.streetButtons);
    this.dom.prev.addEventListener("click", () => this.go(this.index - 1));
    this.dom.next.addEventListener("click", () => this.go(this.index + 1));
    this.dom.play.addEventListener("click", () => (this.timer ? this.pause() : this.play()));
    document.addEventListener("keydown", (event) => this.key(event));
    root.hidden = false;
    this.render();
  }

  /** Show step `index` (a move by hand stops Play). */
  go(index, { playing = false } = {}) {
    if (!playing) this.pause();
    this.index = clampStep(index, this.steps.length);
    this.render();
  }

  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const inside = event.target.closest ? event.target.closest("#replay, input, textarea, select, [contenteditable]") : null;
    if (inside && inside !== this.root) return; // typing somewhere
    // Home and End scroll the page, unless the replayer has the focus.
    if ((event.key === "Home" || event.key === "End") && !inside) return;
    const target = stepForKey(event.key, this.index, this.steps.length);
    if (target === null) return;
    event.preventDefault();
    this.go(target);
  }

  play() {
    if (this.index >= this.steps.length - 1) this.go(0);
    this.dom.play.textContent = "Pause";
    this.dom.play.setAttribute("aria-pressed", "true");
    const advance = () => {
      if (this.index >= this.steps.length - 1) {
        this.pause();
        return;
      }
      this.go(this.index + 1, { playing: true });
      this.timer = setTimeout(advance, playDelay(this.steps[this.index]));
    };
    this.timer = setTimeout(advance, playDelay(this.steps[this.index]));
  }

  pause() {
    clearTimeout(this.timer);
    this.timer = null;
    this.dom.play.textContent = "Play";
    this.dom.play.setAttribute("aria-pressed", "false");
  }

  render() {
    if (!this.steps.length) return;
    const step = this.steps[this.index];
    const view = replayView(this.replay, this.index);
    renderSeats(this.dom.seats, view);
    renderBoard(this.dom.board, view);
    renderPots(this.dom.pots, view);
    this.dom.stage.classList.toggle("in-hand", Boolean(view.hand));
    this.dom.stage.classList.toggle("showdown", Boolean(view.lastHand));
    this.dom.stage.dataset.step = String(this.index);
    this.dom.stage.dataset.kind = step.kind;
    this.dom.center.textContent = centerText(view);
    this.dom.caption.textContent = step.text;
    this.dom.position.textContent = positionText(this.steps, this.index);
    this.dom.prev.disabled = this.index === 0;
    this.dom.next.disabled = this.index === this.steps.length - 1;
    for (const button of this.streetButtons) {
      const here = button.dataset.street === step.street;
      button.classList.toggle("on", here);
      if (here) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    }
  }
}

const root = document.getElementById("replay");
const data = document.getElementById("hand-replay");
export const replayer = root && data ? new Replayer(root, JSON.parse(data.textContent)) : null;
