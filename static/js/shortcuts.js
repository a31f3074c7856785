// The console's keyboard shortcuts: which command a key stands for in each console state. No
// DOM here (console.js listens and carries the command out), so tests/js runs it under Node.

import { canRaise } from "./console-state.js";

const BETTING_STATES = ["start_bet", "call_bet", "call_no_raise", "forced_all_in"];

/** The command for `key` (KeyboardEvent.key), or null when the console leaves the key alone.
 * "ignore" swallows the key and does nothing. Others: "show", "muck", "cancel", "fold",
 * "all_in" (confirmed), "ask_fold", "ask_all_in" (confirmation first), "check", "call", "raise",
 * "place_raise" (the raise screen's amount, as shown).
 * `typing`: the key went to a text field; `pending`: an action is on its way to the server. */
export function shortcutFor(key, { state, legal, typing = false, pending = false }) {
  const letter = key.toLowerCase();
  if (state === "show_or_muck" && !typing && !pending && (letter === "s" || letter === "m")) {
    return letter === "s" ? "show" : "muck";
  }
  if (key === "Escape" && ["confirm_fold", "confirm_all_in", "raise"].includes(state)) return "cancel";
  // On the raise screen Enter places the amount shown, wherever the focus is (the box included).
  if (key === "Enter" && state === "raise") return pending ? "ignore" : "place_raise";
  if (key === "Enter" && (state === "confirm_fold" || state === "confirm_all_in") && !typing) {
    if (pending) return "ignore";
    return state === "confirm_fold" ? "fold" : "all_in";
  }
  if (typing || pending) return null;
  if (!legal || !BETTING_STATES.includes(state)) return null;
  if (letter === "f" && legal.actions.includes("fold")) return "ask_fold";
  if (letter === "c") {
    if (state === "forced_all_in") return "ask_all_in";
    if (legal.actions.includes("check")) return "check";
    if (legal.actions.includes("call")) return "call";
    return "ignore";
  }
  if (letter === "r" && canRaise(legal) && state !== "call_no_raise" && state !== "forced_all_in") return "raise";
  return null;
}
