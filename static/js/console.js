// The betting console: shows the screen of the player's console state (console-state.js), keeps
// its clocks running, answers the keyboard and sends the player's actions. The screens are built
// by console-screens.js, raise-screen.js and console-tools.js.

import { decideLeftMs } from "./clock.js";
import { ACTING_STATES, consoleState, dealtInHand, foldAsks, showsSatOutNotice, sitsOutAfterHand, turnLegal } from "./console-state.js";
import { mainScreen } from "./console-screens.js";
import { toolNodes } from "./console-tools.js";
import { focusMark, focusRestore } from "./focus.js";
import { statusLine } from "./messages.js";
import { preActionOptions } from "./pre-actions.js";
import { RaiseScreen } from "./raise-screen.js";
import { shortcutFor } from "./shortcuts.js";

const NOT_TYPED = ["checkbox", "radio", "button", "submit", "reset", "range"];

export class BettingConsole {
  constructor(app, root) {
    this.app = app;
    this.root = root;
    this.main = root.querySelector("#console-main");
    this.tools = root.querySelector("#console-tools");
    this.errorBox = root.querySelector("#console-error");
    this.mode = null; // null | "raise" | "confirm_fold" | "confirm_all_in"
    this.mainKey = null;
    this.toolsKey = null;
    this.raise = new RaiseScreen(this);
    this.errorTimer = null;
    this.roomsOpen = false; // the room list, opened from the tools while seated
    this.decideSpan = null; // {by, total}: the Show-or-Muck countdown, for its bar
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  /** Which of the console states the console is in now. */
  state() {
    return consoleState(this.app, this.mode);
  }

  /** you.legal, only when it is really this player's turn. */
  legal() {
    return turnLegal(this.app.you);
  }

  /** Milliseconds left to choose Show or Muck, or null when the server gave no deadline. */
  decideLeftMs() {
    return decideLeftMs(this.app.lastHand, this.app.serverNow());
  }

  render() {
    const mark = focusMark(this.root);
    this.draw();
    // A redraw that took the focused button away (an action sent, a turn over) leaves the
    // keyboard in the console, not at the top of the page.
    focusRestore(mark, this.root);
  }

  draw() {
    const state = this.state();
    if (!this.legal()) this.mode = null; // the turn is over: confirmations and raise screen close
    const legal = this.legal();
    const you = this.app.you || {};
    const satOut = showsSatOutNotice(this.app.you, state);
    this.root.dataset.consoleState = state;
    const mainKey = JSON.stringify([state, legal, this.app.pending, this.app.switching, this.app.connected,
      state === "not_playing" ? [this.app.canSit, you.seated_elsewhere, this.app.rooms] : null,
      state === "waiting" ? [you.card_back, you.card_backs, you.in_hand, preActionOptions(this.app.table, you), you.pre_action] : null,
      this.roomsOpen, satOut, sitsOutAfterHand(this.app.you, this.app.hand), dealtInHand(this.app.you, this.app.hand),
      state === "show_or_muck" ? this.app.lastHand.decide_by : null]);
    if (mainKey !== this.mainKey) {
      this.mainKey = mainKey;
      // A redraw keeps the keyboard where it was (a pre-action box toggled with Space, say).
      const focused = this.main.contains(document.activeElement) && document.activeElement.id;
      this.main.replaceChildren(...mainScreen(this, state, legal));
      if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
      if (state === "raise") this.raise.sync();
      if (state !== this.shownState && (ACTING_STATES.includes(state) || state === "show_or_muck")) this.bringIntoView();
    }
    this.shownState = state;
    const toolsKey = JSON.stringify([state, you.seat, you.in_hand, you.sitting_out, you.sit_out_reason, you.waiting_for_big_blind, you.wants_to_post,
      you.auto_muck, you.can_show && !you.can_muck && this.app.wonLastHand(), this.app.hasPreviousHand(), this.app.connected, this.app.entry(), this.roomsOpen,
      dealtInHand(you, this.app.hand)]);
    if (toolsKey !== this.toolsKey) {
      this.toolsKey = toolsKey;
      this.tools.replaceChildren(...toolNodes(this, state));
    }
    this.tick();
  }

  /** On a phone the console may be below the fold when the turn comes: scroll just enough. */
  bringIntoView() {
    const box = this.root.getBoundingClientRect();
    if (box.bottom > window.innerHeight || box.top < 0) {
      this.root.scrollIntoView({ block: "end", behavior: "smooth" });
    }
  }

  /** Updates that follow the clock only (turn time left, countdown). */
  tick() {
    const line = this.main.querySelector("[data-live-line]");
    if (line) line.textContent = statusLine(this.app, this.app.serverNow());
    // The time bank reads as such, in its own colour: it is not more of the turn clock.
    const bank = this.app.inTimeBank();
    const clock = this.main.querySelector(".my-clock:not(.decide-clock) i");
    if (clock) {
      const left = this.app.turnFractionLeft();
      clock.style.width = `${Math.round(left * 100)}%`;
      clock.parentElement.classList.toggle("hurry", left < 0.25);
      clock.parentElement.classList.toggle("bank", bank);
    }
    const secondsBox = this.main.querySelector("[data-turn-seconds]");
    if (secondsBox) {
      const seconds = this.app.turnSecondsLeft();
      secondsBox.textContent = bank ? `Time bank ${seconds} s` : `${seconds}s`;
      secondsBox.classList.toggle("bank", bank);
    }
    this.tickDecide();
  }

  /** The Show-or-Muck countdown: seconds left and a bar that empties towards decide_by. */
  tickDecide() {
    const box = this.main.querySelector("[data-decide-seconds]");
    const bar = this.main.querySelector(".decide-clock");
    const left = this.decideLeftMs();
    if (!box && !bar) return;
    if (left === null) {
      if (box) box.textContent = "";
      if (bar) bar.hidden = true;
      return;
    }
    const by = this.app.lastHand.decide_by;
    if (!this.decideSpan || this.decideSpan.by !== by) this.decideSpan = { by, total: Math.max(left, 1000) };
    const seconds = Math.ceil(left / 1000);
    if (box) box.textContent = seconds > 0 ? `${seconds}s` : "0s";
    if (bar) {
      const fraction = Math.min(1, left / this.decideSpan.total);
      bar.hidden = false;
      bar.firstElementChild.style.width = `${Math.round(fraction * 100)}%`;
      bar.classList.toggle("hurry", fraction < 0.35);
    }
  }

  setMode(mode) {
    const from = this.mode;
    this.mode = mode;
    if (mode === "raise") this.raise.reset();
    this.render();
    // On a touch screen the number box is not focused: its keyboard would cover the table (the
    // slider and the quick sizes are there for a finger); the Raise button takes the focus.
    const box = mode === "raise" && !matchMedia("(pointer: coarse)").matches;
    // Back from the raise screen or a confirmation, the focus returns to the button that opened it.
    const back = !mode && { raise: ".act.raise", confirm_fold: ".act.fold", confirm_all_in: ".act.allin" }[from];
    const focus = this.main.querySelector(box ? "[data-raise-box]" : mode === "raise" ? ".act.raise" : mode ? ".act:not(.secondary)" : ".act");
    const opener = back && this.main.querySelector(back);
    if (opener) {
      opener.focus();
      return;
    }
    if (focus) focus.focus();
    if (focus && box) focus.select(); // typing replaces the minimum
  }

  /** Fold, or first the fold confirmation (foldAsks: the player's setting, and a free fold). */
  askFold() {
    if (foldAsks(this.legal(), this.app.settings.current)) this.setMode("confirm_fold");
    else this.act("fold");
  }

  askAllIn() {
    this.setMode("confirm_all_in");
  }

  act(action, amount = null) {
    const frame = { type: "act", action, action_id: crypto.randomUUID() };
    if (amount !== null) frame.amount = amount;
    // The turn this answers: if it is over by the time the frame arrives, the server refuses it
    // (stale_turn) rather than applying it to a later turn of ours.
    const turn = this.app.table && this.app.table.turn;
    if (turn && turn.token) frame.turn = turn.token;
    if (this.app.send(frame, { pending: true })) this.mode = null;
    this.render();
  }

  chooseShowOrMuck(choice) {
    if (this.app.pending) return;
    this.app.send({ type: choice }, { pending: true });
    this.render();
  }

  showError(message) {
    this.errorBox.textContent = message;
    this.errorBox.hidden = false;
    clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => { this.errorBox.hidden = true; }, 8000);
  }

  clearError() {
    this.errorBox.hidden = true;
  }

  onKey(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    // Typing: a box that takes letters. A focused checkbox, radio or button leaves the shortcuts on.
    const typing = Boolean(target && ((target.tagName === "INPUT" && !NOT_TYPED.includes(target.type)) || target.tagName === "TEXTAREA" || target.isContentEditable));
    if (document.querySelector("dialog[open]")) return;
    const command = shortcutFor(event.key, { state: this.state(), legal: this.legal(), typing, pending: this.app.pending });
    if (!command) return;
    event.preventDefault();
    switch (command) {
      case "show":
      case "muck":
        this.chooseShowOrMuck(command);
        break;
      case "cancel":
        this.setMode(null);
        break;
      case "fold":
      case "all_in":
      case "check":
      case "call":
        this.act(command);
        break;
      case "ask_fold":
        this.askFold();
        break;
      case "ask_all_in":
        this.askAllIn();
        break;
      case "raise": {
        const button = this.main.querySelector(".act.raise");
        if (button) button.click();
        break;
      }
      case "place_raise":
        this.raise.submit();
        break;
      default:
        break; // "ignore": the key is the console's, but does nothing now
    }
  }
}
