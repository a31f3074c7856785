// Which screen the betting console shows: the twelve console states of RULES.md 6 [000], plus
// Show or Muck after a showdown (RULES.md 4 [003]), from the private part of the snapshot (`you`,
// `you.legal`) and the player's own clicks (`mode`). Only the actions in you.legal.actions are
// ever offered; the server decides every rule. No DOM here, so tests/js runs it under Node.

export const CONSOLE_STATES = [
  "not_playing", "waiting", "start_bet", "call_bet", "call_no_raise", "forced_all_in",
  "confirm_all_in", "confirm_fold", "raise", "waiting_all_in", "waiting_folded", "switching",
  "show_or_muck",
];

export const ACTING_STATES = ["start_bet", "call_bet", "call_no_raise", "forced_all_in", "confirm_all_in", "confirm_fold", "raise"];

// States in which the player waits; the room list and the sat-out notice may join them.
export const WAITING_STATES = ["waiting", "waiting_all_in", "waiting_folded"];

/** you.legal, only when it is really this player's turn; else null. */
export function turnLegal(you) {
  const legal = you && you.legal;
  if (!legal || !Array.isArray(legal.actions) || legal.seat !== you.seat) return null;
  return legal;
}

export function canRaise(legal) {
  return legal.actions.includes("raise") || legal.actions.includes("bet");
}

/** Calling would take every chip left (and more): all in or fold. */
export function isForcedAllIn(legal) {
  return legal.to_call > 0 && legal.all_in_to <= legal.current_bet;
}

/** Whether Fold asks first: when the player keeps fold confirmation on (their table settings),
 * and always when checking is free (RULES.md 6: a free fold is most likely a slip). */
export function foldAsks(legal, preferences) {
  if (legal && legal.actions.includes("check")) return true;
  return !preferences || preferences.fold_confirm !== false;
}

/** "raise" when there is a bet to raise, else "bet". */
export function raiseVerb(legal) {
  return legal.actions.includes("raise") ? "raise" : "bet";
}

/** RULES.md 4 [003]: beaten by a hand already shown, without auto-muck: show or muck. */
export function mayShowOrMuck(you, lastHand) {
  if (!you || !you.can_show || !you.can_muck || !lastHand) return false;
  const undecided = lastHand.undecided;
  return !Array.isArray(undecided) || undecided.includes(you.seat);
}

/** RULES.md 2: sat out by the table for letting the clock run out twice in a row. */
export function satOutIdle(you) {
  return Boolean(you && you.sitting_out && you.sit_out_reason === "idle");
}

/** Dealt into the hand in progress (folded or not): RULES.md 2, no switching rooms until it ends. */
export function dealtInHand(you, hand) {
  return Boolean(hand && you && Number.isInteger(you.seat) && you.in_hand);
}

/** Asked to sit out while dealt in: the player plays the hand out, and sits out after it. */
export function sitsOutAfterHand(you, hand) {
  return dealtInHand(you, hand) && Boolean(you.sitting_out) && !satOutIdle(you);
}

/** The sat-out notice (with "I'm back") replaces the "Sit in" tool in these states. */
export function showsSatOutNotice(you, state) {
  return satOutIdle(you) && (WAITING_STATES.includes(state) || ACTING_STATES.includes(state));
}

/** Which of the console states the player is in. `view`: the table client (switching, you,
 * hand, lastHand, handSeat(number)); `mode`: null, "raise", "confirm_fold" or "confirm_all_in". */
export function consoleState(view, mode) {
  const you = view.you;
  if (view.switching) return "switching";
  if (!you || !Number.isInteger(you.seat)) return "not_playing";
  const legal = turnLegal(you);
  if (legal) {
    if (mode === "confirm_fold") return "confirm_fold";
    if (mode === "confirm_all_in") return "confirm_all_in";
    if (mode === "raise" && canRaise(legal)) return "raise";
    if (isForcedAllIn(legal)) return "forced_all_in";
    if (legal.actions.includes("call")) {
      return legal.actions.includes("raise") ? "call_bet" : "call_no_raise";
    }
    return "start_bet";
  }
  const mySeat = view.handSeat(you.seat);
  if (view.hand && you.in_hand && mySeat) {
    if (mySeat.folded) return "waiting_folded";
    if (mySeat.all_in || mySeat.protected) return "waiting_all_in";
  }
  if (mayShowOrMuck(you, view.lastHand)) return "show_or_muck";
  return "waiting";
}
