// Time left on the table's clocks (the turn, the countdown, Show or Muck), from the server's
// epoch-millisecond deadlines and the server's time now. No DOM here, so tests/js runs it.

/** The share of the turn's time still left, 0..1 (0 when there is no running turn). While the
 * player's time bank runs (`turn.bank_from`), the share of the bank left. */
export function turnFractionLeft(turn, now) {
  if (!turn || !turn.deadline) return 0;
  const span = inTimeBank(turn) ? turn.deadline - turn.bank_from : (turn.seconds || 0) * 1000;
  if (span <= 0) return 0;
  return Math.max(0, Math.min(1, (turn.deadline - now) / span));
}

/** Whether the turn clock ran out and the player to act is on their time bank. */
export function inTimeBank(turn) {
  return Boolean(turn && typeof turn.bank_from === "number" && typeof turn.deadline === "number");
}

/** Whole seconds left to act, rounded up (0 when there is no running turn). */
export function turnSecondsLeft(turn, now) {
  if (!turn || !turn.deadline) return 0;
  return secondsUntil(turn.deadline, now);
}

/** Whole seconds until `at`, rounded up, never below 0. */
export function secondsUntil(at, now) {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Milliseconds left to choose Show or Muck, or null when the server gave no deadline. */
export function decideLeftMs(lastHand, now) {
  const by = lastHand && lastHand.decide_by;
  if (typeof by !== "number") return null;
  return Math.max(0, by - now);
}
