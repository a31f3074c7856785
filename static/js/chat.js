// The table chat's decisions, without the page: what may be sent, which lines show, and what a
// line says. chat-view.js draws them. No DOM here, so tests/js runs it under Node.

/** The server's limit on a line (holdem/models.py CHAT_MAX_CHARS). */
export const CHAT_MAX_CHARS = 200;

/** What is wrong with sending `text`, or "" (the server checks again, and more). */
export function chatProblem(text) {
  const trimmed = (text || "").trim();
  if (!trimmed) return "Write something first.";
  if ([...trimmed].length > CHAT_MAX_CHARS) return `A line is at most ${CHAT_MAX_CHARS} characters.`;
  return "";
}

/** Whether a line shows for a player who muted `mutedIds` (their own lines always show). */
export function chatShows(line, mutedIds, myUserId) {
  return line.user_id === myUserId || !(mutedIds || []).includes(line.user_id);
}

/** The parts of a line as the log shows it: who, what, whether it is ours, and whether the
 * reader may mute its author. The text stays text: the view puts it in a text node. */
export function chatLineParts(line, myUserId) {
  const mine = line.user_id === myUserId;
  return { name: line.username, text: line.text, mine, canMute: !mine && Number.isInteger(line.user_id) };
}

/** The lines of a snapshot to show, oldest first, without those already shown (by id). */
export function newChatLines(lines, shownIds) {
  return (lines || []).filter((line) => !shownIds.has(line.id));
}
