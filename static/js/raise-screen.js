// The raise (or bet) screen of the console: slider, number box, quick sizes, and the amount kept
// in step between them. raise-sizes.js does the arithmetic; the console sends the action.

import { actionButton } from "./console-parts.js";
import { raiseVerb } from "./console-state.js";
import { el } from "./dom.js";
import { chips } from "./format.js";
import { clampRaiseBy, quickAmounts, raiseByAllowed, raiseByProblem, raiseByWindow, raiseLimitsText } from "./raise-sizes.js";

export class RaiseScreen {
  constructor(bettingConsole) {
    this.console = bettingConsole;
    this.by = null; // the amount above the current bet; null until the screen opens
  }

  get main() {
    return this.console.main;
  }

  /** A new raise screen starts at the minimum. */
  reset() {
    this.by = null;
  }

  build(legal, disabled) {
    const verb = raiseVerb(legal);
    const { minBy, maxBy } = raiseByWindow(legal);
    if (this.by === null || this.by < minBy || this.by > maxBy) this.by = minBy;
    const name = verb === "raise" ? "Raise" : "Bet";
    const inputLabel = verb === "raise" ? "Raise by" : "Bet amount";
    const quick = quickAmounts(legal);
    const quickButton = (label, to, aria, note = null) =>
      el("button", { type: "button", class: "quick", "aria-label": aria, title: note, dataset: { to: String(to) }, onclick: () => this.setTo(to) }, label);
    return el("div", { class: "raise-screen" },
      el("div", { class: "console-title turn" },
        el("h2", {}, verb === "raise" ? "Raise" : "Bet"),
        el("span", { class: "turn-seconds", dataset: { turnSeconds: "" } }, ""),
        el("div", { class: "my-clock", "aria-hidden": "true" }, el("i"))),
      el("div", { class: "raise-total" },
        el("span", {}, verb === "raise" ? `Raise by ` : "Bet "), el("strong", { dataset: { raiseBy: "" } }, ""),
        el("span", { class: "muted" }, " · total bet "), el("strong", { class: "total", dataset: { raiseTotal: "" } }, "")),
      el("div", { class: "raise-inputs" },
        el("input", { type: "range", min: String(minBy), max: String(maxBy), step: "1", value: String(this.by), "aria-label": `${inputLabel} (slider)`, dataset: { raiseSlider: "" },
          oninput: (event) => this.setBy(Number(event.target.value), "slider") }),
        el("input", { type: "number", min: String(minBy), max: String(maxBy), step: "1", value: String(this.by), inputmode: "numeric", "aria-label": inputLabel, dataset: { raiseBox: "" },
          oninput: (event) => this.typed(event.target.value),
          onchange: (event) => this.clampTyped(event.target),
          onkeydown: (event) => { if (event.key === "Enter") { event.preventDefault(); this.clampTyped(event.target); this.submit(); } } })),
      el("div", { class: "quick-row" },
        quickButton("Min", quick.min, "Min"),
        quickButton("½ Pot", quick.half, "Half pot"),
        quickButton("Pot", quick.pot, "Pot"),
        quickButton("Max", quick.max, "Max", legal.max_to === legal.all_in_to ? "all in" : "the most allowed")),
      el("p", { class: "raise-limits muted", dataset: { raiseLimits: "" } }, raiseLimitsText(legal)),
      el("p", { class: "raise-problem", role: "alert", dataset: { raiseProblem: "" } }, ""),
      el("div", { class: "actions" },
        ...actionButton("Cancel", { kind: "secondary", key: "Esc", onclick: () => this.console.setMode(null) }),
        ...actionButton(name, { kind: "raise", key: "Enter", disabled, onclick: () => this.submit() })),
    );
  }

  /** A quick button: the total bet `to`. */
  setTo(to) {
    const legal = this.console.legal();
    if (!legal) return;
    this.setBy(to - (legal.current_bet || 0), "quick");
  }

  setBy(amount, source) {
    const legal = this.console.legal();
    if (!legal) return;
    this.by = clampRaiseBy(legal, amount);
    this.sync(source);
  }

  /** Typing in the box: say what is wrong, or take the amount. */
  typed(text) {
    const legal = this.console.legal();
    if (!legal) return;
    const problem = this.main.querySelector("[data-raise-problem]");
    const submit = this.main.querySelector(".raise-screen .actions .act.raise");
    const message = raiseByProblem(legal, text);
    problem.textContent = message;
    if (submit) submit.disabled = Boolean(message) || this.console.app.pending;
    if (!message) {
      this.by = Number(text);
      this.sync("box");
    }
  }

  clampTyped(input) {
    const value = Number(input.value);
    this.setBy(Number.isFinite(value) ? value : 0, null);
  }

  /** Bring the slider, box, totals and quick buttons in line with the amount (except `source`). */
  sync(source = null) {
    const legal = this.console.legal();
    if (!legal) return;
    const current = legal.current_bet || 0;
    const app = this.console.app;
    const slider = this.main.querySelector("[data-raise-slider]");
    const box = this.main.querySelector("[data-raise-box]");
    if (slider && source !== "slider") slider.value = String(this.by);
    if (box && source !== "box") box.value = String(this.by);
    const byLine = this.main.querySelector("[data-raise-by]");
    const total = this.main.querySelector("[data-raise-total]");
    if (byLine) byLine.textContent = chips(this.by);
    if (total) total.textContent = chips(current + this.by);
    if (source !== "box") {
      const problem = this.main.querySelector("[data-raise-problem]");
      if (problem) problem.textContent = "";
      const submit = this.main.querySelector(".raise-screen .actions .act.raise");
      if (submit) submit.disabled = app.pending || !app.connected;
    }
    for (const quick of this.main.querySelectorAll(".quick")) {
      quick.classList.toggle("on", Number(quick.dataset.to) === current + this.by);
    }
  }

  submit() {
    const legal = this.console.legal();
    if (!legal || this.console.app.pending) return;
    const box = this.main.querySelector("[data-raise-box]");
    const submit = this.main.querySelector(".raise-screen .actions .act.raise");
    if (submit && submit.disabled) return;
    if (box) {
      const typed = Number(box.value);
      if (!raiseByAllowed(legal, typed)) return;
      this.by = typed;
    }
    this.console.act(raiseVerb(legal), (legal.current_bet || 0) + this.by);
  }
}
