// The main area of the betting console, one screen per console state (console-state.js): the
// turn screens with their buttons, the confirmations, the waiting screens and Show or Muck.

import { actionButton, cardBackChooser, preActionBoxes, roomList, satOutNotice } from "./console-parts.js";
import {
  ACTING_STATES, WAITING_STATES, dealtInHand, isForcedAllIn, raiseVerb, showsSatOutNotice, sitsOutAfterHand,
} from "./console-state.js";
import { el } from "./dom.js";
import { chips } from "./format.js";
import { statusLine } from "./messages.js";
import { allInCallAmount } from "./raise-sizes.js";
import { isMultiTable } from "./tournament.js";

const title = (text, sub = null) => el("div", { class: "console-title" }, el("h2", {}, text), sub ? el("p", { class: "muted" }, sub) : null);
const clock = () => el("div", { class: "my-clock", "aria-hidden": "true" }, el("i"));
const turnHead = (text) =>
  el("div", { class: "console-title turn" }, el("h2", {}, text), el("span", { class: "turn-seconds", dataset: { turnSeconds: "" } }, ""), clock());

/** The nodes of the console's main area for `state`; `con` is the BettingConsole. */
export function mainScreen(con, state, legal) {
  const app = con.app;
  const disabled = app.pending || !app.connected;
  const parts = [];
  const line = () => statusLine(app, app.serverNow());
  const foldButton = () => actionButton("Fold", { kind: "fold", key: "F", disabled, onclick: () => con.askFold() });
  const allInButton = (key = null, amount = legal && legal.all_in_to) =>
    actionButton("All in", { kind: "allin", key, amount, disabled, onclick: () => con.askAllIn(), describe: `for ${chips(amount)} chips` });

  switch (state) {
    case "switching":
      parts.push(
        el("div", { class: "switching" }, el("span", { class: "spinner", "aria-hidden": "true" }),
          el("div", {}, el("h2", {}, "Switching rooms…"),
            el("p", { class: "muted" }, "If this takes more than 10 seconds there is a connection problem: reload the page or go back to the lobby."))),
      );
      break;
    case "not_playing":
      parts.push(...notPlaying(app));
      break;
    case "waiting": {
      parts.push(el("div", { class: "console-title" }, el("h2", { dataset: { liveLine: "" } }, line())));
      const boxes = preActionBoxes(app); // dealt in, somebody else's turn
      if (boxes) parts.push(boxes);
      parts.push(cardBackChooser(app));
      break;
    }
    case "waiting_all_in": {
      const mine = app.handSeat(app.you.seat);
      parts.push(mine && mine.protected
        // RULES.md 5: a protected player who comes back stays all in for what they had put in.
        ? title("You are all in (protected)", "You were disconnected: all-in protection keeps you in the hand for what you had put in. Your turns are skipped until the showdown.")
        : title("You are all in", "Your turns are skipped until the showdown."));
      parts.push(el("p", { class: "muted live", dataset: { liveLine: "" } }, line()));
      break;
    }
    case "show_or_muck":
      parts.push(...showOrMuck(con, disabled));
      break;
    case "waiting_folded":
      parts.push(title("You folded", "Your cards are not shown. Wait for the next game."));
      parts.push(el("p", { class: "muted live", dataset: { liveLine: "" } }, line()));
      break;
    case "start_bet": {
      parts.push(turnHead("Your turn"));
      const row = el("div", { class: "actions" });
      if (legal.actions.includes("fold")) row.append(...foldButton());
      if (legal.actions.includes("check")) row.append(...actionButton("Check", { kind: "check", key: "C", disabled, onclick: () => con.act("check") }));
      // Nothing to call: a bet, or (the big blind's option before the flop) a raise.
      if (legal.actions.includes("bet")) row.append(...raiseButton(con, legal, "Bet", disabled));
      else if (legal.actions.includes("raise")) row.append(...raiseButton(con, legal, "Raise", disabled));
      if (legal.actions.includes("all_in")) row.append(...allInButton());
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
      row.append(...foldButton());
      row.append(...actionButton("Call", { kind: "call", key: "C", amount: legal.to_call, disabled, onclick: () => con.act("call"), describe: `${chips(legal.to_call)} chips` }));
      if (state === "call_bet" && legal.actions.includes("raise")) row.append(...raiseButton(con, legal, "Raise", disabled));
      if (legal.actions.includes("all_in") && state === "call_bet") row.append(...allInButton());
      parts.push(row);
      break;
    }
    case "forced_all_in": {
      // Calling takes every chip left: the call is for what the player actually puts in.
      const putIn = allInCallAmount(legal);
      parts.push(turnHead(`Call ${chips(putIn)} (all in)`));
      parts.push(el("p", { class: "notice-line" }, putIn < legal.to_call
        ? `You have ${chips(putIn)} of the ${chips(legal.to_call)} to call: call all in for ${chips(putIn)}, or fold.`
        : "Calling puts in every chip you have."));
      const row = el("div", { class: "actions" });
      row.append(...foldButton());
      row.append(...allInButton("C", putIn));
      parts.push(row);
      break;
    }
    case "confirm_fold": {
      const free = legal.actions.includes("check");
      parts.push(title("Fold your hand?", free ? "Nothing is owed: you could check instead." : "Your chips in the pot stay there."));
      const row = el("div", { class: "actions" });
      row.append(...actionButton("Cancel", { kind: "secondary", key: "Esc", onclick: () => con.setMode(null) }));
      row.append(...actionButton("Confirm", { kind: "fold", key: "Enter", disabled, onclick: () => con.act("fold") }));
      parts.push(row);
      break;
    }
    case "confirm_all_in": {
      parts.push(isForcedAllIn(legal)
        ? title(`Call ${chips(allInCallAmount(legal))} (all in)?`, "Every chip in front of you goes in.")
        : title(`Go all in for ${chips(legal.all_in_to)}?`, "You bet every chip in front of you."));
      const row = el("div", { class: "actions" });
      row.append(...actionButton("Cancel", { kind: "secondary", key: "Esc", onclick: () => con.setMode(null) }));
      row.append(...actionButton("Confirm", { kind: "allin", key: "Enter", disabled, onclick: () => con.act("all_in") }));
      parts.push(row);
      break;
    }
    case "raise":
      parts.push(con.raise.build(legal, disabled));
      break;
    default:
      break;
  }
  // Still dealt in when sat out, the player may have turns left: a one-line reminder then.
  if (showsSatOutNotice(app.you, state)) parts.unshift(satOutNotice(app, disabled, ACTING_STATES.includes(state)));
  if (sitsOutAfterHand(app.you, app.hand)) {
    parts.unshift(el("p", { class: "notice-line", role: "status", dataset: { sitOutNote: "" } }, "You will sit out after this hand."));
  }
  if (con.roomsOpen && WAITING_STATES.includes(state) && !dealtInHand(app.you, app.hand)) {
    parts.push(el("div", { class: "rooms-drawer", id: "rooms-drawer" }, el("h3", {}, "Switch room"), roomList(app)));
  }
  return parts;
}

/** Bet or Raise: straight to the action when the amount is set, else to the raise screen. */
function raiseButton(con, legal, name, disabled) {
  const exact = legal.min_to === legal.max_to;
  const fixed = con.app.structure() === "fixed_limit";
  if (fixed || exact) {
    // Fixed limit (or a window of one amount): the amount is set, no raise screen needed.
    const verb = raiseVerb(legal);
    return actionButton(name, { kind: "raise", key: "R", amount: legal.min_to, disabled, onclick: () => con.act(verb, legal.min_to),
      describe: `${name === "Bet" ? "bet" : "raise to"} ${chips(legal.min_to)}` });
  }
  return actionButton(name, { kind: "raise", key: "R", disabled, onclick: () => con.setMode("raise"),
    describe: `from ${chips(legal.min_to)} to ${chips(legal.max_to)}` });
}

/** RULES.md 4 [003]: a hand already shown beats yours; show it or muck it before decide_by. */
function showOrMuck(con, disabled) {
  const head = el("div", { class: "console-title turn" },
    el("h2", {}, "Show or muck?"),
    el("span", { class: "turn-seconds", dataset: { decideSeconds: "" } }, ""),
    el("p", { class: "muted" }, "A hand already shown beats yours. Show your cards to the table, or muck them unseen. When the time runs out they are mucked."),
    el("div", { class: "my-clock decide-clock", "aria-hidden": "true", hidden: true }, el("i")));
  const row = el("div", { class: "actions" });
  row.append(...actionButton("Show", { kind: "check", key: "S", disabled, onclick: () => con.chooseShowOrMuck("show") }));
  row.append(...actionButton("Muck", { kind: "fold", key: "M", disabled, onclick: () => con.chooseShowOrMuck("muck") }));
  return [head, row];
}

function notPlaying(app) {
  const you = app.you || {};
  let sub;
  if (you.seated_elsewhere) sub = `You have a seat at ${you.seated_elsewhere.name}. Switching rooms gives it up.`;
  // RULES.md 8 and 9: a tournament's seats are its players', drawn or given by the tournament.
  else if (app.table && app.table.tournament) {
    const what = isMultiTable(app.table.tournament) ? "tournament" : "Sit & Go";
    sub = app.table.tournament.status === "finished"
      ? `This ${what} is over: its results are on its page. Switch rooms, or go back to the lobby.`
      : `Only the players of this ${what} sit here. Watch, or switch rooms.`;
  }
  else if (app.canSit) sub = "Pick an open seat to play, or switch rooms.";
  else sub = "No seat is free here right now. Watch, or switch rooms.";
  return [el("div", { class: "console-title" }, el("h2", {}, "You are watching"), el("p", { class: "muted" }, sub)), roomList(app)];
}
