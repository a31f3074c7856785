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

// Hearing the table (read-aloud.js words it): Alt with a digit, matched by the physical key
// (`KeyboardEvent.code`), so it works on any layout and a Mac's Option+digit, which types a
// character, still counts. Alt, since screen readers in browse mode take plain and Shift+ letters
// and digits for their own navigation (H, B, T, 1-6) but pass Alt+digit to the page; the number
// pad is left out, where Alt+digits type characters on Windows. Docs: docs/decisions.md, Front end.
export const READ_ALOUD_KEYS = [
  { code: "Digit1", keys: "Alt+1", what: "hand", label: "Hear your hand" },
  { code: "Digit2", keys: "Alt+2", what: "board", label: "Hear the board" },
  { code: "Digit3", keys: "Alt+3", what: "pot", label: "Hear the pot and what you owe" },
  { code: "Digit4", keys: "Alt+4", what: "stacks", label: "Hear the stacks" },
  { code: "Digit5", keys: "Alt+5", what: "time", label: "Hear the time left" },
];

/** What the player asks to hear with this key ("hand", "board", "pot", "stacks", "time"), or
 * null. Alt alone (AltGr is Ctrl+Alt on Windows and types characters), never while typing. */
export function readAloudFor({ code, altKey, ctrlKey = false, metaKey = false, shiftKey = false }, { typing = false } = {}) {
  if (typing || !altKey || ctrlKey || metaKey || shiftKey) return null;
  const found = READ_ALOUD_KEYS.find((entry) => entry.code === code);
  return found ? found.what : null;
}

/** Every key the table answers to, as the rules dialog lists them: [{keys, does}]. */
export const TABLE_KEYS = [
  { keys: "F", does: "Fold (asks first), on your turn" },
  { keys: "C", does: "Check or call, on your turn" },
  { keys: "R", does: "Raise: opens the raise screen, on your turn" },
  { keys: "Enter", does: "Place the raise shown; confirm a fold or an all-in" },
  { keys: "Escape", does: "Leave the raise screen or a question" },
  { keys: "S / M", does: "Show or muck your hand, when asked after a showdown" },
  ...READ_ALOUD_KEYS.map((entry) => ({ keys: entry.keys, does: entry.label })),
];
