// The betting console: the twelve console states of RULES.md 6 [000], plus Show or Muck after a
// showdown (RULES.md 4 [003]), chosen from the private part of the snapshot (`you`, `you.legal`)
// and the player's own clicks. Only the actions listed in you.legal.actions are ever offered; the
// server decides every rule.

import { CARD_BACKS } from "./cards.js";
import { chips, el } from "./format.js";

export const CONSOLE_STATES = [
  "not_playing", "waiting", "start_bet", "call_bet", "call_no_raise", "forced_all_in",
  "confirm_all_in", "confirm_fold", "raise", "waiting_all_in", "waiting_folded", "switching",
  "show_or_muck",
];

const ACTING_STATES = ["start_bet", "call_bet", "call_no_raise", "forced_all_in", "confirm_all_in", "confirm_fold", "raise"];

// States in which the player waits; the room list and the sat-out notice may join them.
const WAITING_STATES = ["waiting", "waiting_all_in", "waiting_folded"];

const CARD_BACK_NAMES = { classic: "Classic blue", red: "Red", green: "Green", black: "Black" };

/** Amount for a quick raise button, clamped to the legal window (RULES.md 3 is the server's). */
export function quickAmounts(legal) {
  const current = legal.current_bet || 0;
  const toCall = legal.to_call || 0;
  const pot = legal.pot || 0;
  const clamp = (to) => Math.min(legal.max_to, Math.max(legal.min_to, Math.floor(to)));
  return {
    min: legal.min_to,
    half: clamp(current + (pot + toCall) / 2),
    pot: clamp(current + pot + toCall),
    max: legal.max_to,
  };
}

let describedCounter = 0;
function described(text) {
  describedCounter += 1;
  return el("span", { class: "visually-hidden", id: `desc-${describedCounter}` }, text);
}

/** A console button with an exact accessible name and optional visible amount / shortcut key. */
function actionButton(name, { kind = "", amount = null, key = null, onclick, disabled = false, describe = null } = {}) {
  const extra = describe ? described(describe) : null;
  const button = el(
    "button",
    {
      type: "button",
      class: `act ${kind}`,
      "aria-label": name,
      "aria-describedby": extra ? extra.id : null,
      "aria-keyshortcuts": key || null,
      disabled,
      onclick,
    },
    el("span", { class: "act-name" }, name),
    amount !== null ? el("span", { class: "act-amount", "aria-hidden": "true" }, chips(amount)) : null,
    key ? el("kbd", { "aria-hidden": "true" }, key) : null,
  );
  return extra ? [button, extra] : [button];
}

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
    this.raiseBy = null;
    this.errorTimer = null;
    this.roomsOpen = false; // the room list, opened from the tools while seated
    this.decideSpan = null; // {by, total}: the Show-or-Muck countdown, for its bar
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  /** Which of the twelve states the console is in now. */
  state() {
    const app = this.app;
    const you = app.you;
    if (app.switching) return "switching";
    if (!you || !Number.isInteger(you.seat)) return "not_playing";
    const legal = this.legal();
    if (legal) {
      if (this.mode === "confirm_fold") return "confirm_fold";
      if (this.mode === "confirm_all_in") return "confirm_all_in";
      if (this.mode === "raise" && this.canRaise(legal)) return "raise";
      if (legal.to_call > 0 && legal.all_in_to <= legal.current_bet) return "forced_all_in";
      if (legal.actions.includes("call")) {
        return legal.actions.includes("raise") ? "call_bet" : "call_no_raise";
      }
      return "start_bet";
    }
    const mySeat = app.handSeat(you.seat);
    if (app.hand && you.in_hand && mySeat) {
      if (mySeat.folded) return "waiting_folded";
      if (mySeat.all_in || mySeat.protected) return "waiting_all_in";
    }
    if (this.mayShowOrMuck()) return "show_or_muck";
    return "waiting";
  }

  /** RULES.md 4 [003]: beaten by a hand already shown, without auto-muck: show or muck. */
  mayShowOrMuck() {
    const you = this.app.you;
    if (!you || !you.can_show || !you.can_muck || !this.app.lastHand) return false;
    const undecided = this.app.lastHand.undecided;
    return !Array.isArray(undecided) || undecided.includes(you.seat);
  }

  /** Milliseconds left to choose Show or Muck, or null when the server gave no deadline. */
  decideLeftMs() {
    const by = this.app.lastHand && this.app.lastHand.decide_by;
    if (typeof by !== "number") return null;
    return Math.max(0, by - this.app.serverNow());
  }

  /** RULES.md 2: sat out by the table for letting the clock run out twice in a row. */
  satOutIdle() {
    const you = this.app.you;
    return Boolean(you && you.sitting_out && you.sit_out_reason === "idle");
  }

  /** you.legal, only when it is really this player's turn. */
  legal() {
    const you = this.app.you;
    const legal = you && you.legal;
    if (!legal || !Array.isArray(legal.actions) || legal.seat !== you.seat) return null;
    return legal;
  }

  canRaise(legal) {
    return legal.actions.includes("raise") || legal.actions.includes("bet");
  }

  raiseVerb(legal) {
    return legal.actions.includes("raise") ? "raise" : "bet";
  }

  render() {
    const state = this.state();
    if (!this.legal()) this.mode = null; // the turn is over: confirmations and raise screen close
    const legal = this.legal();
    this.root.dataset.consoleState = state;
    const mainKey = JSON.stringify([state, legal, this.app.pending, this.app.switching, this.app.connected,
      state === "not_playing" ? [this.app.canSit, this.app.you && this.app.you.seated_elsewhere, this.app.rooms] : null,
      state === "waiting" ? [this.app.you.card_back, this.app.you.in_hand] : null, this.roomsOpen,
      this.showsSatOutNotice(state),
      state === "show_or_muck" ? this.app.lastHand.decide_by : null]);
    if (mainKey !== this.mainKey) {
      this.mainKey = mainKey;
      this.main.replaceChildren(...this.buildMain(state, legal));
      if (state === "raise") this.syncRaise();
      if (state !== this.shownState && (ACTING_STATES.includes(state) || state === "show_or_muck")) this.bringIntoView();
    }
    this.shownState = state;
    const you = this.app.you || {};
    const toolsKey = JSON.stringify([state, you.seat, you.in_hand, you.sitting_out, you.sit_out_reason, you.waiting_for_big_blind, you.wants_to_post,
      you.auto_muck, you.can_show && !you.can_muck && this.app.wonLastHand(), this.app.hasPreviousHand(), this.app.connected, this.app.entry(), this.roomsOpen]);
    if (toolsKey !== this.toolsKey) {
      this.toolsKey = toolsKey;
      this.tools.replaceChildren(...this.buildTools(state));
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
    if (line) line.textContent = this.statusLine();
    const clock = this.main.querySelector(".my-clock i");
    if (clock) {
      const left = this.app.turnFractionLeft();
      clock.style.width = `${Math.round(left * 100)}%`;
      clock.parentElement.classList.toggle("hurry", left < 0.25);
    }
    const secondsBox = this.main.querySelector("[data-turn-seconds]");
    if (secondsBox) secondsBox.textContent = `${this.app.turnSecondsLeft()}s`;
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

  statusLine() {
    const app = this.app;
    const you = app.you || {};
    const table = app.table;
    if (!table) return "Connecting…";
    if (app.hand) {
      if (!you.in_hand) {
        if (you.sitting_out) return "You are sitting out.";
        if (you.waiting_for_big_blind) return you.wants_to_post ? "You post a big blind and play the next game." : "You are waiting for the big blind, or post one to play the next game.";
        return "You join at the next game.";
      }
      const turn = table.turn;
      if (turn && Number.isInteger(turn.seat) && turn.seat !== you.seat) return `${app.nameOf(turn.seat)} is thinking… ${app.turnSecondsLeft()}s`;
      return "Waiting for the dealer…";
    }
    if (you.sitting_out) return this.satOutIdle() ? "You are sitting out." : "You are sitting out. Sit in to play the next game.";
    const countdown = table.countdown;
    if (countdown && countdown.starts_at) {
      const seconds = Math.max(0, Math.ceil((countdown.starts_at - app.serverNow()) / 1000));
      return seconds > 0 ? `Next game in ${seconds}s. You can still get up.` : "Dealing…";
    }
    return "Waiting for more players to sit down.";
  }

  buildMain(state, legal) {
    const app = this.app;
    const disabled = app.pending || !app.connected;
    const parts = [];
    const title = (text, sub = null) => el("div", { class: "console-title" }, el("h2", {}, text), sub ? el("p", { class: "muted" }, sub) : null);
    const clock = () => el("div", { class: "my-clock", "aria-hidden": "true" }, el("i"));
    const turnHead = (text) =>
      el("div", { class: "console-title turn" }, el("h2", {}, text), el("span", { class: "turn-seconds", dataset: { turnSeconds: "" } }, ""), clock());

    switch (state) {
      case "switching":
        parts.push(
          el("div", { class: "switching" }, el("span", { class: "spinner", "aria-hidden": "true" }),
            el("div", {}, el("h2", {}, "Switching rooms…"),
              el("p", { class: "muted" }, "If this takes more than 10 seconds there is a connection problem: reload the page or go back to the lobby."))),
        );
        break;
      case "not_playing":
        parts.push(...this.buildNotPlaying());
        break;
      case "waiting":
        parts.push(el("div", { class: "console-title" }, el("h2", { dataset: { liveLine: "" } }, this.statusLine())));
        parts.push(this.buildCardBackChooser());
        break;
      case "waiting_all_in": {
        const mine = app.handSeat(app.you.seat);
        parts.push(mine && mine.protected
          // RULES.md 5: a protected player who comes back stays all in for what they had put in.
          ? title("You are all in (protected)", "You were disconnected: all-in protection keeps you in the hand for what you had put in. Your turns are skipped until the showdown.")
          : title("You are all in", "Your turns are skipped until the showdown."));
        parts.push(el("p", { class: "muted live", dataset: { liveLine: "" } }, this.statusLine()));
        break;
      }
      case "show_or_muck":
        parts.push(...this.buildShowOrMuck(disabled));
        break;
      case "waiting_folded":
        parts.push(title("You folded", "Your cards are not shown. Wait for the next game."));
        parts.push(el("p", { class: "muted live", dataset: { liveLine: "" } }, this.statusLine()));
        break;
      case "start_bet": {
        parts.push(turnHead("Your turn"));
        const row = el("div", { class: "actions" });
        if (legal.actions.includes("fold")) row.append(...actionButton("Fold", { kind: "fold", key: "F", disabled, onclick: () => this.askFold() }));
        if (legal.actions.includes("check")) row.append(...actionButton("Check", { kind: "check", key: "C", disabled, onclick: () => this.act("check") }));
        // Nothing to call: a bet, or (the big blind's option before the flop) a raise.
        if (legal.actions.includes("bet")) row.append(...this.raiseButton(legal, "Bet", disabled));
        else if (legal.actions.includes("raise")) row.append(...this.raiseButton(legal, "Raise", disabled));
        if (legal.actions.includes("all_in")) row.append(...actionButton("All in", { kind: "allin", amount: legal.all_in_to, disabled, onclick: () => this.askAllIn(), describe: `for ${chips(legal.all_in_to)} chips` }));
        parts.push(row);
        break;
      }
      case "call_bet":
      case "call_no_raise": {
        parts.push(turnHead(`${chips(legal.to_call)} to call`));
        if (state === "call_no_raise") {
          parts.push(el("p", { class: "notice-line", dataset: { raiseClosed: "" } }, `No raising: ${legal.raise_closed_reason || "raising is closed"}. Call or fold.`));
        }
        const row = el("div", { class: "actions" });
        row.append(...actionButton("Fold", { kind: "fold", key: "F", disabled, onclick: () => this.askFold() }));
        row.append(...actionButton("Call", { kind: "call", key: "C", amount: legal.to_call, disabled, onclick: () => this.act("call"), describe: `${chips(legal.to_call)} chips` }));
        if (state === "call_bet" && legal.actions.includes("raise")) row.append(...this.raiseButton(legal, "Raise", disabled));
        if (legal.actions.includes("all_in") && state === "call_bet") {
          row.append(...actionButton("All in", { kind: "allin", amount: legal.all_in_to, disabled, onclick: () => this.askAllIn(), describe: `for ${chips(legal.all_in_to)} chips` }));
        }
        parts.push(row);
        break;
      }
      case "forced_all_in": {
        parts.push(turnHead(`${chips(legal.current_bet - (app.mySeatBet() || 0))} to call`));
        parts.push(el("p", { class: "notice-line" }, `The bet is more than your chips: go all in for ${chips(legal.all_in_to)} or fold.`));
        const row = el("div", { class: "actions" });
        row.append(...actionButton("Fold", { kind: "fold", key: "F", disabled, onclick: () => this.askFold() }));
        row.append(...actionButton("All in", { kind: "allin", key: "C", amount: legal.all_in_to, disabled, onclick: () => this.askAllIn(), describe: `for ${chips(legal.all_in_to)} chips` }));
        parts.push(row);
        break;
      }
      case "confirm_fold": {
        const free = legal.actions.includes("check");
        parts.push(title("Fold your hand?", free ? "Nothing is owed: you could check instead." : "Your chips in the pot stay there."));
        const row = el("div", { class: "actions" });
        row.append(...actionButton("Cancel", { kind: "secondary", key: "Esc", onclick: () => this.setMode(null) }));
        row.append(...actionButton("Confirm", { kind: "fold", key: "Enter", disabled, onclick: () => this.act("fold") }));
        parts.push(row);
        break;
      }
      case "confirm_all_in": {
        parts.push(title(`Go all in for ${chips(legal.all_in_to)}?`, "You bet every chip in front of you."));
        const row = el("div", { class: "actions" });
        row.append(...actionButton("Cancel", { kind: "secondary", key: "Esc", onclick: () => this.setMode(null) }));
        row.append(...actionButton("Confirm", { kind: "allin", key: "Enter", disabled, onclick: () => this.act("all_in") }));
        parts.push(row);
        break;
      }
      case "raise":
        parts.push(this.buildRaiseScreen(legal, disabled));
        break;
      default:
        break;
    }
    // Still dealt in when sat out, the player may have turns left: a one-line reminder then.
    if (this.showsSatOutNotice(state)) parts.unshift(this.buildSatOutNotice(disabled, ACTING_STATES.includes(state)));
    if (this.roomsOpen && WAITING_STATES.includes(state)) {
      parts.push(el("div", { class: "rooms-drawer", id: "rooms-drawer" }, el("h3", {}, "Switch room"), this.roomList()));
    }
    return parts;
  }

  /** RULES.md 4 [003]: a hand already shown beats yours; show it or muck it before decide_by. */
  buildShowOrMuck(disabled) {
    const head = el("div", { class: "console-title turn" },
      el("h2", {}, "Show or muck?"),
      el("span", { class: "turn-seconds", dataset: { decideSeconds: "" } }, ""),
      el("p", { class: "muted" }, "A hand already shown beats yours. Show your cards to the table, or muck them unseen. When the time runs out they are mucked."),
      el("div", { class: "my-clock decide-clock", "aria-hidden": "true", hidden: true }, el("i")));
    const row = el("div", { class: "actions" });
    row.append(...actionButton("Show", { kind: "check", key: "S", disabled, onclick: () => this.chooseShowOrMuck("show") }));
    row.append(...actionButton("Muck", { kind: "fold", key: "M", disabled, onclick: () => this.chooseShowOrMuck("muck") }));
    return [head, row];
  }

  chooseShowOrMuck(choice) {
    if (this.app.pending) return;
    this.app.send({ type: choice }, { pending: true });
    this.render();
  }

  /** The sat-out notice replaces the "Sit in" tool in these states. */
  showsSatOutNotice(state) {
    return this.satOutIdle() && (WAITING_STATES.includes(state) || ACTING_STATES.includes(state));
  }

  /** RULES.md 2: the table sat this player out after two turns in a row ran out of time. */
  buildSatOutNotice(disabled, compact = false) {
    const back = () => this.app.send({ type: "sit_in" });
    if (compact) {
      return el("div", { class: "sat-out-notice compact", role: "status" },
        el("p", {}, el("strong", {}, "You were sat out: your time ran out twice in a row.")),
        el("button", { type: "button", class: "tool accent", disabled, onclick: back }, "I'm back"));
    }
    return el("div", { class: "sat-out-notice", role: "status" },
      el("p", {}, el("strong", {}, "You were sat out: your time ran out twice in a row."),
        " You are skipped until you come back."),
      el("div", { class: "actions" }, ...actionButton("I'm back", { kind: "call", disabled, onclick: back })));
  }

  raiseButton(legal, name, disabled) {
    const exact = legal.min_to === legal.max_to;
    const fixed = this.app.structure() === "fixed_limit";
    if (fixed || exact) {
      // Fixed limit (or a window of one amount): the amount is set, no raise screen needed.
      const verb = this.raiseVerb(legal);
      return actionButton(name, { kind: "raise", key: "R", amount: legal.min_to, disabled, onclick: () => this.act(verb, legal.min_to),
        describe: `${name === "Bet" ? "bet" : "raise to"} ${chips(legal.min_to)}` });
    }
    return actionButton(name, { kind: "raise", key: "R", disabled, onclick: () => this.setMode("raise"),
      describe: `from ${chips(legal.min_to)} to ${chips(legal.max_to)}` });
  }

  buildNotPlaying() {
    const app = this.app;
    const you = app.you || {};
    const parts = [];
    let sub;
    if (you.seated_elsewhere) sub = `You have a seat at ${you.seated_elsewhere.name}. Switching rooms gives it up.`;
    else if (app.canSit) sub = "Pick an open seat to play, or switch rooms.";
    else sub = "No seat is free here right now. Watch, or switch rooms.";
    parts.push(el("div", { class: "console-title" }, el("h2", {}, "You are watching"), el("p", { class: "muted" }, sub)));
    parts.push(this.roomList());
    return parts;
  }

  roomList() {
    const app = this.app;
    const list = el("ul", { class: "room-nav", "aria-label": "Rooms" });
    for (const room of app.rooms || []) {
      const here = room.id === app.tableId;
      const details = `${room.stakes}, ${room.taken}/${room.seats} seated${room.playing ? ", playing" : ""}`;
      const desc = described(details);
      list.append(
        el("li", { class: here ? "here" : "" },
          here
            ? el("span", { class: "room-here" }, el("b", {}, room.name), el("small", {}, "you are here"))
            : el("button", { type: "button", class: "room-go", "aria-describedby": desc.id, dataset: { roomId: String(room.id) }, onclick: () => app.switchTo(room.id) },
              el("b", {}, room.name), el("small", { "aria-hidden": "true" }, details)),
          desc),
      );
    }
    return list;
  }

  buildCardBackChooser() {
    const current = (this.app.you && this.app.you.card_back) || "classic";
    const box = el("fieldset", { class: "card-backs" }, el("legend", {}, "Card back"));
    for (const design of CARD_BACKS) {
      const id = `back-${design}`;
      const input = el("input", { type: "radio", name: "card-back", id, value: design, checked: design === current,
        onchange: () => this.app.send({ type: "card_back", value: design }, { optimistic: () => { this.app.you.card_back = design; } }) });
      box.append(el("label", { for: id, class: "back-choice" }, input, el("span", { class: `pcard pcard-sm back back-${design}`, "aria-hidden": "true" }), el("span", { class: "visually-hidden" }, CARD_BACK_NAMES[design])));
    }
    return box;
  }

  buildRaiseScreen(legal, disabled) {
    const verb = this.raiseVerb(legal);
    const current = legal.current_bet || 0;
    const minBy = legal.min_to - current;
    const maxBy = legal.max_to - current;
    if (this.raiseBy === null || this.raiseBy < minBy || this.raiseBy > maxBy) this.raiseBy = minBy;
    const name = verb === "raise" ? "Raise" : "Bet";
    const inputLabel = verb === "raise" ? "Raise by" : "Bet amount";
    const quick = quickAmounts(legal);
    const quickButton = (label, to, aria, note = null) =>
      el("button", { type: "button", class: "quick", "aria-label": aria, title: note, dataset: { to: String(to) }, onclick: () => this.setRaiseTo(to) }, label);
    const screen = el("div", { class: "raise-screen" },
      el("div", { class: "console-title turn" },
        el("h2", {}, verb === "raise" ? "Raise" : "Bet"),
        el("span", { class: "turn-seconds", dataset: { turnSeconds: "" } }, ""),
        el("div", { class: "my-clock", "aria-hidden": "true" }, el("i"))),
      el("div", { class: "raise-total" },
        el("span", {}, verb === "raise" ? `Raise by ` : "Bet "), el("strong", { dataset: { raiseBy: "" } }, ""),
        el("span", { class: "muted" }, " · total bet "), el("strong", { class: "total", dataset: { raiseTotal: "" } }, "")),
      el("div", { class: "raise-inputs" },
        el("input", { type: "range", min: String(minBy), max: String(maxBy), step: "1", value: String(this.raiseBy), "aria-label": `${inputLabel} (slider)`, dataset: { raiseSlider: "" },
          oninput: (event) => this.setRaiseBy(Number(event.target.value), "slider") }),
        el("input", { type: "number", min: String(minBy), max: String(maxBy), step: "1", value: String(this.raiseBy), inputmode: "numeric", "aria-label": inputLabel, dataset: { raiseBox: "" },
          oninput: (event) => this.typedRaiseBy(event.target.value),
          onchange: (event) => this.clampTyped(event.target),
          onkeydown: (event) => { if (event.key === "Enter") { event.preventDefault(); this.clampTyped(event.target); this.submitRaise(); } } })),
      el("div", { class: "quick-row" },
        quickButton("Min", quick.min, "Min"),
        quickButton("½ Pot", quick.half, "Half pot"),
        quickButton("Pot", quick.pot, "Pot"),
        quickButton("Max", quick.max, "Max", legal.max_to === legal.all_in_to ? "all in" : "the most allowed")),
      el("p", { class: "raise-limits muted", dataset: { raiseLimits: "" } }, `${name} to between ${chips(legal.min_to)} and ${chips(legal.max_to)}${legal.max_to === legal.all_in_to ? " (all in)" : ""}.`),
      el("p", { class: "raise-problem", role: "alert", dataset: { raiseProblem: "" } }, ""),
      el("div", { class: "actions" },
        ...actionButton("Cancel", { kind: "secondary", key: "Esc", onclick: () => this.setMode(null) }),
        ...actionButton(name, { kind: "raise", key: "Enter", disabled, onclick: () => this.submitRaise() })),
    );
    return screen;
  }

  setRaiseTo(to) {
    const legal = this.legal();
    if (!legal) return;
    this.setRaiseBy(to - (legal.current_bet || 0), "quick");
  }

  setRaiseBy(amount, source) {
    const legal = this.legal();
    if (!legal) return;
    const current = legal.current_bet || 0;
    const clamped = Math.min(legal.max_to - current, Math.max(legal.min_to - current, Math.round(amount)));
    this.raiseBy = clamped;
    this.syncRaise(source);
  }

  typedRaiseBy(text) {
    const legal = this.legal();
    if (!legal) return;
    const current = legal.current_bet || 0;
    const value = Number(text);
    const problem = this.main.querySelector("[data-raise-problem]");
    const submit = this.main.querySelector(".raise-screen .actions .act.raise");
    let message = "";
    if (text === "" || !Number.isInteger(value)) message = "Enter a whole number of chips.";
    else if (value + current < legal.min_to) message = `The smallest ${this.raiseVerb(legal)} is to ${chips(legal.min_to)}.`;
    else if (value + current > legal.max_to) message = `The most you can ${this.raiseVerb(legal)} to is ${chips(legal.max_to)}.`;
    problem.textContent = message;
    if (submit) submit.disabled = Boolean(message) || this.app.pending;
    if (!message) {
      this.raiseBy = value;
      this.syncRaise("box");
    }
  }

  clampTyped(input) {
    const value = Number(input.value);
    this.setRaiseBy(Number.isFinite(value) ? value : 0, null);
  }

  syncRaise(source = null) {
    const legal = this.legal();
    if (!legal) return;
    const current = legal.current_bet || 0;
    const slider = this.main.querySelector("[data-raise-slider]");
    const box = this.main.querySelector("[data-raise-box]");
    if (slider && source !== "slider") slider.value = String(this.raiseBy);
    if (box && source !== "box") box.value = String(this.raiseBy);
    const byLine = this.main.querySelector("[data-raise-by]");
    const total = this.main.querySelector("[data-raise-total]");
    if (byLine) byLine.textContent = chips(this.raiseBy);
    if (total) total.textContent = chips(current + this.raiseBy);
    if (source !== "box") {
      const problem = this.main.querySelector("[data-raise-problem]");
      if (problem) problem.textContent = "";
      const submit = this.main.querySelector(".raise-screen .actions .act.raise");
      if (submit) submit.disabled = this.app.pending || !this.app.connected;
    }
    for (const quick of this.main.querySelectorAll(".quick")) {
      quick.classList.toggle("on", Number(quick.dataset.to) === current + this.raiseBy);
    }
  }

  submitRaise() {
    const legal = this.legal();
    if (!legal || this.app.pending) return;
    const box = this.main.querySelector("[data-raise-box]");
    const submit = this.main.querySelector(".raise-screen .actions .act.raise");
    if (submit && submit.disabled) return;
    const current = legal.current_bet || 0;
    if (box) {
      const typed = Number(box.value);
      if (!Number.isInteger(typed) || typed + current < legal.min_to || typed + current > legal.max_to) return;
      this.raiseBy = typed;
    }
    const to = current + this.raiseBy;
    this.act(this.raiseVerb(legal), to);
  }

  setMode(mode) {
    this.mode = mode;
    if (mode === "raise") this.raiseBy = null;
    this.render();
    const focus = this.main.querySelector(mode === "raise" ? "[data-raise-box]" : mode ? ".act:not(.secondary)" : ".act");
    if (focus) focus.focus();
  }

  askFold() {
    this.setMode("confirm_fold");
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

  showError(message) {
    this.errorBox.textContent = message;
    this.errorBox.hidden = false;
    clearTimeout(this.errorTimer);
    this.errorTimer = setTimeout(() => { this.errorBox.hidden = true; }, 8000);
  }

  clearError() {
    this.errorBox.hidden = true;
  }

  buildTools(state) {
    const app = this.app;
    const you = app.you || {};
    const nodes = [];
    const seated = Number.isInteger(you.seat);
    const disabled = !app.connected;
    const tool = (name, onclick, kind = "") => el("button", { type: "button", class: `tool ${kind}`, disabled, onclick }, name);
    if (seated) {
      const box = el("input", { type: "checkbox", id: "auto-muck", checked: you.auto_muck !== false, disabled,
        onchange: (event) => app.send({ type: "auto_muck", value: event.target.checked }, { optimistic: () => { app.you.auto_muck = event.target.checked; } }) });
      nodes.push(el("label", { class: "toggle", for: "auto-muck" }, box, " Auto muck losing hand"));
    }
    // RULES.md 4: the winner of an uncontested hand may show it (Show or Muck has its own screen).
    if (you.can_show && !you.can_muck && app.wonLastHand()) nodes.push(tool("Show hand", () => app.send({ type: "show" }), "accent"));
    if (seated && you.waiting_for_big_blind && !you.wants_to_post && !you.sitting_out && app.entry() === "wait_or_post") {
      nodes.push(tool("Post blind", () => app.send({ type: "post" }), "accent"));
    }
    if (seated && !you.sitting_out) nodes.push(tool("Sit out", () => app.send({ type: "sit_out" })));
    // A player sat out for being idle has "I'm back" in the console itself.
    if (seated && you.sitting_out && !this.showsSatOutNotice(state)) {
      nodes.push(tool("Sit in", () => app.send({ type: "sit_in" }), "accent"));
    }
    if (app.hasPreviousHand()) nodes.push(tool("Show previous hand", () => app.showPreviousHand()));
    if (seated && WAITING_STATES.includes(state)) {
      const toggle = tool("Switch room", () => { this.roomsOpen = !this.roomsOpen; this.render(); });
      toggle.setAttribute("aria-expanded", String(this.roomsOpen));
      toggle.setAttribute("aria-controls", "rooms-drawer");
      toggle.disabled = false;
      nodes.push(toggle);
    }
    if (seated && !you.in_hand) nodes.push(tool("Leave table", () => app.send({ type: "leave" }), "danger"));
    return nodes;
  }

  onKey(event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const typing = target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable);
    if (document.querySelector("dialog[open]")) return;
    const state = this.state();
    const key = event.key;
    if (state === "show_or_muck" && !typing && !this.app.pending && ["s", "m"].includes(key.toLowerCase())) {
      event.preventDefault();
      this.chooseShowOrMuck(key.toLowerCase() === "s" ? "show" : "muck");
      return;
    }
    if (key === "Escape" && ["confirm_fold", "confirm_all_in", "raise"].includes(state)) {
      event.preventDefault();
      this.setMode(null);
      return;
    }
    if (key === "Enter" && (state === "confirm_fold" || state === "confirm_all_in") && !typing) {
      event.preventDefault();
      if (!this.app.pending) this.act(state === "confirm_fold" ? "fold" : "all_in");
      return;
    }
    if (typing || this.app.pending) return;
    const legal = this.legal();
    if (!legal || !["start_bet", "call_bet", "call_no_raise", "forced_all_in"].includes(state)) return;
    const letter = key.toLowerCase();
    if (letter === "f" && legal.actions.includes("fold")) {
      event.preventDefault();
      this.askFold();
    } else if (letter === "c") {
      event.preventDefault();
      if (state === "forced_all_in") this.askAllIn();
      else if (legal.actions.includes("check")) this.act("check");
      else if (legal.actions.includes("call")) this.act("call");
    } else if (letter === "r" && this.canRaise(legal) && state !== "call_no_raise" && state !== "forced_all_in") {
      event.preventDefault();
      const button = this.main.querySelector(".act.raise");
      if (button) button.click();
    }
  }
}
