// The table page's dialogs: the buy-in when taking a seat or buying in again after a bust
// (buy-in.js has its rules), the previous hand, and the room's rules (as the server words them).

import {
  autoTopUpForm, autoTopUpFrame, autoTopUpProblem, autoTopUpWords,
  buyInButtons, buyInDefault, buyInProblem, buyInRange, buyInToSend, buyInWords, rebuySeat, topUpProblem, topUpRange,
} from "./buy-in.js";
import { el } from "./dom.js";
import { showModal } from "./focus.js";
import { chips } from "./format.js";
import { previousHandView } from "./previous-hand.js";
import { roomRules } from "./rules.js";
import { TABLE_KEYS } from "./shortcuts.js";

export class TableDialogs {
  constructor(app, root) {
    this.app = app;
    this.root = root;
    this.sit = root.querySelector("#sit-dialog");
    this.previous = root.querySelector("#previous-dialog");
    this.rules = root.querySelector("#rules-dialog");
    this.topUp = root.querySelector("#topup-dialog");
    this.autoTopUp = root.querySelector("#auto-topup-form");
    this.autoSaving = false;
    this.sitSeat = null;
    this.addBuyInParts();
    this.bind();
  }

  /** The parts of the buy-in form the page's markup leaves out: the line that greets a player
   * who just busted, and the Min and Max buttons under the amount. */
  addBuyInParts() {
    const sit = this.sit;
    this.rebuyLine = el("p", { class: "sit-rebuy", id: "sit-rebuy", hidden: true }, "You busted. Buy in again?");
    sit.querySelector("#sit-title").after(this.rebuyLine);
    const fill = (which) => {
      const input = sit.querySelector("#sit-amount");
      input.value = String(buyInButtons(this.buyInRange())[which]);
      this.checkBuyIn();
      input.focus();
    };
    this.minButton = el("button", { type: "button", class: "tool", id: "sit-min", onclick: () => fill("min") }, "Min");
    this.maxButton = el("button", { type: "button", class: "tool", id: "sit-max", onclick: () => fill("max") }, "Max");
    sit.querySelector("#sit-amount").after(el("div", { class: "sit-presets" }, this.minButton, this.maxButton));
  }

  bind() {
    const sit = this.sit;
    sit.querySelector("#sit-cancel").addEventListener("click", () => this.closeSit());
    sit.querySelector("#sit-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.submitSit();
    });
    sit.querySelector("#sit-amount").addEventListener("input", () => this.checkBuyIn());
    const topUp = this.topUp;
    topUp.querySelector("#topup-cancel").addEventListener("click", () => topUp.close());
    topUp.querySelector("#topup-amount").addEventListener("input", () => this.checkTopUp());
    topUp.querySelector("#topup-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.submitTopUp();
    });
    const auto = this.autoTopUp;
    for (const box of auto.querySelectorAll("input, select")) box.addEventListener("input", () => this.checkAutoTopUp());
    auto.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submitAutoTopUp();
    });
    const previous = this.previous;
    previous.querySelector("#previous-close").addEventListener("click", () => previous.close());
    previous.addEventListener("click", (event) => {
      if (event.target === previous) previous.close(); // a click on the backdrop closes it
    });
    const rules = this.rules;
    this.root.querySelector("#rules-open").addEventListener("click", () => this.showRules());
    rules.querySelector("#rules-close").addEventListener("click", () => rules.close());
    rules.addEventListener("click", (event) => {
      if (event.target === rules) rules.close();
    });
  }

  /** Modal, Tab kept inside; closed, the focus goes back to the opener or, if a redraw took
   * it away (a seat taken), to the console. */
  showModal(dialog) {
    showModal(dialog, this.root.querySelector("#console"));
  }

  /** RULES.md 1: the room's options in plain words, as the server sent them (table.rules). */
  showRules() {
    const body = this.rules.querySelector("#rules-body");
    const lines = roomRules(this.app.table);
    if (!lines) {
      body.replaceChildren(el("p", { class: "muted" }, "Connecting… the rules appear once the table has loaded."));
    } else {
      const list = el("dl", { class: "rules-list" });
      for (const { term, text, key } of lines) list.append(el("dt", {}, term), el("dd", { dataset: { rule: key } }, text));
      body.replaceChildren(list);
    }
    body.append(keyboardHelp());
    this.showModal(this.rules);
  }

  buyInRange() {
    const app = this.app;
    return buyInRange(app.table && app.table.options, app.you);
  }

  /** `rebuy`: the player just busted at this table, and the dialog opened by itself. */
  openSit(seat, { rebuy = false } = {}) {
    if (!this.app.canSit) return;
    this.sitSeat = seat;
    const dialog = this.sit;
    const range = this.buyInRange();
    dialog.querySelector("#sit-seat-number").textContent = String(seat + 1);
    dialog.querySelector("#sit-balance").textContent = chips(range.balance);
    dialog.querySelector("#sit-range").textContent = buyInWords(range);
    const reason = dialog.querySelector("#sit-reason");
    reason.textContent = range.reason || "";
    reason.hidden = !range.reason;
    this.rebuyLine.hidden = !rebuy;
    const ends = buyInButtons(range);
    this.minButton.textContent = `Min ${chips(ends.min)}`;
    this.maxButton.textContent = `Max ${chips(ends.max)}`;
    this.minButton.disabled = !ends.usable;
    this.maxButton.disabled = !ends.usable;
    const input = dialog.querySelector("#sit-amount");
    input.min = String(ends.min);
    input.max = String(ends.max);
    input.value = String(buyInDefault(range));
    dialog.querySelector("#sit-problem").textContent = "";
    this.showModal(dialog);
    this.checkBuyIn();
    input.focus();
    input.select();
  }

  /** After an event: a player who just busted is offered the buy-in at once (closing it is fine). */
  offerRebuy(before, event) {
    if (this.sit.open) return;
    const app = this.app;
    if (app.tournament) return; // RULES.md 8: no rebuy in a tournament
    const seat = rebuySeat({ before, you: app.you, event, table: app.table });
    if (seat !== null) this.openSit(seat, { rebuy: true });
  }

  checkBuyIn() {
    const dialog = this.sit;
    const problem = buyInProblem(this.buyInRange(), Number(dialog.querySelector("#sit-amount").value));
    dialog.querySelector("#sit-problem").textContent = problem;
    dialog.querySelector("#sit-confirm").disabled = Boolean(problem);
    return !problem;
  }

  submitSit() {
    if (!this.checkBuyIn() || this.sitSeat === null) return;
    const value = Number(this.sit.querySelector("#sit-amount").value);
    if (!this.app.send({ type: "sit", seat: this.sitSeat, buy_in: buyInToSend(this.buyInRange(), value) })) {
      this.showSitProblem("Not connected; try again in a moment.");
    }
  }

  /** The server's answer to a sit goes into the open buy-in dialog; false when it is closed. */
  showSitProblem(message) {
    if (!this.sit.open) return false;
    this.sit.querySelector("#sit-problem").textContent = message;
    return true;
  }

  closeSit() {
    if (this.sit.open) this.sit.close();
    this.sitSeat = null;
  }

  /** Between hands: more chips from the wallet to the seat (you.top_up says how many the room
   * allows; the wallet caps it). At other times the dialog holds the auto top-up setting alone. */
  openTopUp() {
    if (this.app.tournament || !this.app.you || !Number.isInteger(this.app.you.seat)) return;
    const range = topUpRange(this.app.you);
    const dialog = this.topUp;
    const form = dialog.querySelector("#topup-form");
    dialog.querySelector("#topup-title").textContent = range ? "Top up" : "Auto top-up";
    for (const part of form.querySelectorAll("label, input, .dialog-actions")) part.hidden = !range;
    dialog.querySelector("#topup-range").textContent = range
      ? `Add up to ${chips(range.max)} chips now (your wallet: ${chips(range.balance)}).`
      : "You can add chips by hand between hands, below the room's maximum.";
    const input = dialog.querySelector("#topup-amount");
    if (range) {
      input.max = String(range.max);
      input.value = String(range.max);
    }
    dialog.querySelector("#topup-problem").textContent = "";
    this.fillAutoTopUp();
    this.showModal(dialog);
    if (range) {
      this.checkTopUp();
      input.focus();
      input.select();
    } else this.autoTopUp.querySelector("#auto-topup-on").focus();
  }

  /** RULES.md 2: the player's auto top-up as the server keeps it (app.autoTopUp), into the form. */
  fillAutoTopUp() {
    const form = autoTopUpForm(this.app.autoTopUp);
    const auto = this.autoTopUp;
    auto.querySelector("#auto-topup-on").checked = form.enabled;
    auto.querySelector("#auto-topup-below").value = String(form.belowPercent);
    auto.querySelector("#auto-topup-target").value = form.target;
    auto.querySelector("#auto-topup-bb").value = String(form.toBigBlinds);
    auto.querySelector("#auto-topup-status").textContent = "";
    this.checkAutoTopUp();
  }

  /** The setting saved from another tab or device: the open form follows it. */
  autoTopUpSaved() {
    if (!this.topUp.open) return;
    this.fillAutoTopUp();
    if (this.autoSaving) this.autoTopUp.querySelector("#auto-topup-status").textContent = "Saved.";
    this.autoSaving = false;
  }

  autoTopUpValues() {
    const auto = this.autoTopUp;
    const whole = (id) => {
      const text = auto.querySelector(id).value.trim();
      return /^\d+$/.test(text) ? Number(text) : NaN;
    };
    return {
      enabled: auto.querySelector("#auto-topup-on").checked,
      belowPercent: whole("#auto-topup-below"),
      target: auto.querySelector("#auto-topup-target").value,
      toBigBlinds: whole("#auto-topup-bb"),
    };
  }

  checkAutoTopUp() {
    const auto = this.autoTopUp;
    const form = this.autoTopUpValues();
    const bb = auto.querySelector("#auto-topup-bb");
    bb.hidden = form.target !== "bb";
    auto.querySelector("label[for=auto-topup-bb]").hidden = bb.hidden;
    const problem = autoTopUpProblem(form);
    auto.querySelector("#auto-topup-problem").textContent = problem;
    auto.querySelector("#auto-topup-words").textContent = problem ? "" : autoTopUpWords(this.app.table && this.app.table.options, form);
    auto.querySelector("#auto-topup-save").disabled = Boolean(problem);
    auto.querySelector("#auto-topup-status").textContent = "";
    return !problem;
  }

  submitAutoTopUp() {
    if (!this.checkAutoTopUp()) return;
    this.autoSaving = true;
    if (!this.app.send(autoTopUpFrame(this.autoTopUpValues()))) {
      this.autoSaving = false;
      this.autoTopUp.querySelector("#auto-topup-problem").textContent = "Not connected; try again in a moment.";
    }
  }

  checkTopUp() {
    const dialog = this.topUp;
    const problem = topUpProblem(topUpRange(this.app.you), Number(dialog.querySelector("#topup-amount").value));
    dialog.querySelector("#topup-problem").textContent = problem;
    dialog.querySelector("#topup-confirm").disabled = Boolean(problem);
    return !problem;
  }

  submitTopUp() {
    if (!this.checkTopUp()) return;
    const amount = Number(this.topUp.querySelector("#topup-amount").value);
    if (!this.app.send({ type: "top_up", amount })) {
      this.topUp.querySelector("#topup-problem").textContent = "Not connected; try again in a moment.";
    }
  }

  /** The server's answer to a top-up, or to saving auto top-up, goes into the open dialog; false
   * when it is closed. */
  showTopUpProblem(message) {
    if (!this.topUp.open) return false;
    const where = this.autoSaving ? "#auto-topup-problem" : "#topup-problem";
    this.autoSaving = false;
    this.topUp.querySelector(where).textContent = message;
    return true;
  }

  closeTopUp() {
    if (this.topUp.open) this.topUp.close();
  }

  showPreviousHand() {
    const dialog = this.previous;
    dialog.querySelector("#previous-body").replaceChildren(el("p", { class: "muted" }, "Loading…"));
    this.showModal(dialog);
    if (!this.app.send({ type: "previous_hand" })) {
      dialog.querySelector("#previous-body").replaceChildren(el("p", {}, "Not connected; try again in a moment."));
    }
  }

  showPreviousHandBody(hand) {
    const body = this.previous.querySelector("#previous-body");
    if (!hand) {
      body.replaceChildren(el("p", {}, "No hand has been played at this table yet."));
      return;
    }
    body.replaceChildren(...previousHandView(hand));
  }
}

/** The keys the table answers to, under the room's rules (where a player looks for them). */
function keyboardHelp() {
  const list = el("dl", { class: "rules-list keys-list" });
  for (const { keys, does } of TABLE_KEYS) list.append(el("dt", {}, el("kbd", {}, keys)), el("dd", {}, does));
  return el("section", { class: "table-keys", id: "table-keys", "aria-labelledby": "table-keys-title" },
    el("h3", { id: "table-keys-title" }, "Keyboard"),
    el("p", { class: "muted" }, "Alt+1 to Alt+5 read the table aloud through your screen reader without moving the focus. Letters and Alt+digits do nothing while you type in a box (the chat, an amount)."),
    list);
}
