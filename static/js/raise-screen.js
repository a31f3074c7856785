// The raise (or bet) screen of the console: the total to raise to in a box, a slider that steps by
// the big blind, the player's own quick sizes, and the amount kept in step between them. raise-sizes.js does the
// arithmetic; the console sends the action (Enter places the amount shown, from anywhere here).

import { actionButton } from "./console-parts.js";
import { raiseVerb } from "./console-state.js";
import { el } from "./dom.js";
import { chips } from "./format.js";
import {
  amountAtStop, chipsAdded, clampRaiseTo, lastStop, quickSizes, raiseLimitsText, raiseStep, raiseToProblem,
  stepFrom, stopNearest,
} from "./raise-sizes.js";

const STEP_KEYS = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1 };

export class RaiseScreen {
  constructor(bettingConsole) {
    this.console = bettingConsole;
    this.to = null; // the total for the round to raise (or bet) to; null until the screen opens
  }

  get main() {
    return this.console.main;
  }

  get app() {
    return this.console.app;
  }

  /** A new raise screen starts at the minimum. */
  reset() {
    this.to = null;
  }

  /** Chips per slider step, arrow key or wheel notch. */
  step() {
    return raiseStep(this.app.hand, this.app.table && this.app.table.options);
  }

  build(legal, disabled) {
    const verb = raiseVerb(legal);
    if (this.to === null || this.to < legal.min_to || this.to > legal.max_to) this.to = legal.min_to;
    const name = verb === "raise" ? "Raise" : "Bet";
    const boxLabel = verb === "raise" ? "Raise to" : "Bet";
    const step = this.step();
    const nudge = (event) => {
      const direction = STEP_KEYS[event.key];
      if (!direction) return;
      event.preventDefault();
      this.setTo(stepFrom(legal, step, this.to, direction), null);
    };
    const wheel = (event) => {
      if (!event.deltaY) return;
      event.preventDefault(); // the page does not scroll under the pointer
      this.setTo(stepFrom(legal, step, this.to, event.deltaY < 0 ? 1 : -1), null);
    };
    const quickButton = ({ label, name: quickName, to }) =>
      el("button", { type: "button", class: "quick", "aria-label": quickName === label ? null : `${label}: ${quickName}`,
        title: `${quickName}: to ${chips(to)}${to === legal.all_in_to ? " (all in)" : ""}`,
        dataset: { to: String(to) }, onclick: () => this.setTo(to, "quick") }, label);
    return el("div", { class: "raise-screen" },
      el("div", { class: "console-title turn" },
        el("h2", {}, name),
        el("span", { class: "turn-seconds", dataset: { turnSeconds: "" } }, ""),
        el("div", { class: "my-clock", "aria-hidden": "true" }, el("i"))),
      el("div", { class: "raise-total" },
        el("span", {}, `${boxLabel} `), el("strong", { class: "total", dataset: { raiseTotal: "" } }, ""),
        el("span", { class: "muted", dataset: { raiseAdded: "" } }, "")),
      el("div", { class: "raise-inputs", onwheel: wheel },
        el("input", { type: "range", min: "0", max: String(lastStop(legal, step)), step: "1", value: String(stopNearest(legal, step, this.to)),
          "aria-label": `${boxLabel} (slider, ${chips(step)} a step)`, dataset: { raiseSlider: "" },
          oninput: (event) => this.setTo(amountAtStop(legal, step, Number(event.target.value)), "slider"), onkeydown: nudge }),
        el("input", { type: "number", min: String(legal.min_to), max: String(legal.max_to), step: "1", value: String(this.to), inputmode: "numeric",
          "aria-label": boxLabel, dataset: { raiseBox: "" },
          oninput: (event) => this.typed(event.target.value),
          onchange: (event) => this.clampTyped(event.target), onkeydown: nudge })),
      el("div", { class: "quick-row" }, ...quickSizes(legal, this.app.hand, this.app.settings.current).map(quickButton)),
      el("p", { class: "raise-limits muted", dataset: { raiseLimits: "" } }, raiseLimitsText(legal)),
      el("p", { class: "raise-problem", role: "alert", dataset: { raiseProblem: "" } }, ""),
      el("div", { class: "actions" },
        ...actionButton("Cancel", { kind: "secondary", key: "Esc", onclick: () => this.console.setMode(null) }),
        ...actionButton(name, { kind: "raise", key: "Enter", amount: this.to, disabled, onclick: () => this.submit(), describe: `to ${chips(this.to)}` })),
    );
  }

  /** A quick button, the slider, an arrow key or the wheel: the total `to`, kept in the window. */
  setTo(to, source) {
    const legal = this.console.legal();
    if (!legal) return;
    this.to = clampRaiseTo(legal, to);
    this.sync(source);
  }

  /** Typing in the box: say what is wrong, and take the amount Enter would send (a number outside
   * the window is moved into it, as leaving the box does): the totals and the button never show
   * another amount than that. The button waits until the box holds an amount it may send. */
  typed(text) {
    const legal = this.console.legal();
    if (!legal) return;
    const message = raiseToProblem(legal, text);
    this.main.querySelector("[data-raise-problem]").textContent = message;
    const value = Number(text);
    if (String(text).trim() !== "" && Number.isFinite(value)) this.to = clampRaiseTo(legal, value);
    this.sync("box");
    const submit = this.submitButton();
    if (submit && message) submit.disabled = true;
  }

  /** Leaving the box (or Enter): whatever was typed is moved into the window and shown. */
  clampTyped(input) {
    const value = Number(input.value);
    this.setTo(input.value.trim() !== "" && Number.isFinite(value) ? value : this.to, null);
  }

  submitButton() {
    return this.main.querySelector(".raise-screen .actions .act.raise");
  }

  /** Bring the slider, box, totals, quick buttons and the button in line with the amount (all
   * but `source`, which the player is moving). */
  sync(source = null) {
    const legal = this.console.legal();
    if (!legal) return;
    const step = this.step();
    const slider = this.main.querySelector("[data-raise-slider]");
    const box = this.main.querySelector("[data-raise-box]");
    if (slider && source !== "slider") slider.value = String(stopNearest(legal, step, this.to));
    if (slider) slider.setAttribute("aria-valuetext", chips(this.to));
    if (box && source !== "box") box.value = String(this.to);
    const total = this.main.querySelector("[data-raise-total]");
    if (total) total.textContent = chips(this.to);
    const added = this.main.querySelector("[data-raise-added]");
    const more = chipsAdded(legal, this.to);
    if (added) added.textContent = more !== this.to ? ` \u00B7 ${chips(more)} more` : ""; // what is in front stays in
    const submit = this.submitButton();
    if (submit) {
      submit.querySelector(".act-amount").textContent = chips(this.to);
      const description = document.getElementById(submit.getAttribute("aria-describedby"));
      if (description) description.textContent = `to ${chips(this.to)}`;
    }
    if (submit) submit.disabled = this.app.pending || !this.app.connected;
    if (source !== "box") {
      const problem = this.main.querySelector("[data-raise-problem]");
      if (problem) problem.textContent = "";
    }
    for (const quick of this.main.querySelectorAll(".quick")) {
      quick.classList.toggle("on", Number(quick.dataset.to) === this.to);
    }
  }

  /** Enter or the button: place the amount shown (an amount typed outside the window is first
   * moved into it, so what goes is what the screen then shows). */
  submit() {
    const legal = this.console.legal();
    if (!legal || this.app.pending || !this.app.connected) return;
    const box = this.main.querySelector("[data-raise-box]");
    if (box) this.clampTyped(box);
    this.console.act(raiseVerb(legal), this.to);
  }
}
