// The session reminder's arithmetic (docs/rules.md 11): when the next reminder is due, and the
// time played and the chips won or lost as the dialog says them. No DOM here, so tests/js runs
// it under Node; session-reminder-view.js shows the dialog.

import { signedChips } from "./format.js";

/** When the next reminder is due, in server milliseconds: a period after the session's start or
 * after the last answer given in this session, whichever is later. null: no reminder (off, or
 * no session in progress). `state` is the server's session.json. */
export function reminderDue(state, answeredAt) {
  if (!state || !state.period_seconds || !state.session) return null;
  const started = Date.parse(state.session.started_at);
  if (!Number.isFinite(started)) return null;
  const from = Number.isFinite(answeredAt) && answeredAt > started ? answeredAt : started;
  return from + state.period_seconds * 1000;
}

/** "2 h 05 min", "45 min", "under a minute". */
export function playedWords(seconds) {
  const minutes = Math.floor(Math.max(0, Number(seconds) || 0) / 60);
  if (minutes < 1) return "under a minute";
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (!hours) return `${rest} min`;
  return `${hours} h ${String(rest).padStart(2, "0")} min`;
}

/** "+500 chips (up)", "−1,200 chips (down)", "0 chips (even)". */
export function netWords(net) {
  const amount = Number(net) || 0;
  const way = amount > 0 ? "up" : amount < 0 ? "down" : "even";
  return `${signedChips(amount)} chips (${way})`;
}
