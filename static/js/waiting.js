// The waiting lists the player stands in, as the `waiting` frames build them (docs/protocol.md):
// their place in each line and the seat offered to them, with its time left. No DOM here, so
// tests/js runs it under Node; waiting-notice.js draws it.

/** Apply one `waiting` frame to the lines held (a Map table_id -> frame); returns the new Map.
 * `place: null` means the player left that line (the frame's `reason` says why). */
export function applyWaiting(lines, frame) {
  const next = new Map(lines);
  if (!frame || !Number.isInteger(frame.table_id)) return next;
  if (frame.place === null || frame.place === undefined) next.delete(frame.table_id);
  else next.set(frame.table_id, frame);
  return next;
}

/** The lines from GET /lobby/waiting/ (or the lobby page): they replace all held. */
export function linesFrom(entries) {
  const lines = new Map();
  for (const entry of Array.isArray(entries) ? entries : []) {
    if (entry && Number.isInteger(entry.table_id) && Number.isInteger(entry.place)) lines.set(entry.table_id, entry);
  }
  return lines;
}

/** The seats offered now, the one running out first first. */
export function offers(lines) {
  return [...lines.values()].filter((line) => line.offer).sort((a, b) => a.offer.expires_at - b.offer.expires_at);
}

/** Whole seconds left to take an offered seat, by the server's clock (`serverNow`, epoch ms).
 * Zero once it ran out: the server's sweep then passes the seat on and says so. */
export function offerSecondsLeft(offer, serverNow) {
  if (!offer || typeof offer.expires_at !== "number") return 0;
  return Math.max(0, Math.ceil((offer.expires_at - serverNow) / 1000));
}

/** "You are next" / "3rd in line of 5": a player's place, as the lobby writes it. */
export function placeText(line) {
  if (!line || !Number.isInteger(line.place)) return "";
  if (line.offer) return "A seat is yours to take";
  if (line.place === 1) return "You are next in line";
  return `You are ${ordinal(line.place)} in line`;
}

export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${suffix}`;
}

/** Why the player is out of a line, for the notice that replaces the offer. */
export const LEFT_REASONS = {
  left: "You left the waiting list",
  declined: "You let the seat go to the next in line",
  lapsed: "Your time to take the seat ran out; it went to the next in line",
  seated: "You took your seat",
  closed: "The room closed",
};

// The same, when nobody else was in line: the seat did not go to anyone, it is simply free.
const LEFT_OPEN_REASONS = {
  declined: "You let the seat go; nobody else was waiting, so it is open to anyone",
  lapsed: "Your time to take the seat ran out; nobody else was waiting, so it is open to anyone",
};

/** Why the player is out of a line, in words that say what happened to the seat offered
 * (`passed_on: false`: nobody was next in line). */
export function leftText(frame) {
  if (frame && frame.passed_on === false && LEFT_OPEN_REASONS[frame.reason]) return LEFT_OPEN_REASONS[frame.reason];
  return LEFT_REASONS[frame && frame.reason] || "You are off the waiting list";
}
