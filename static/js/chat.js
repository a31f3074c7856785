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
  return { name: line.username, text: line.text, mine, canMute: !mine && Number.isInteger(line.user_id), time: chatTime(line.at) };
}

/** "14:05": when a line was said (epoch ms), by this computer's clock; "" without a time. */
export function chatTime(at) {
  if (!Number.isFinite(at)) return "";
  const when = new Date(at);
  return `${String(when.getHours()).padStart(2, "0")}:${String(when.getMinutes()).padStart(2, "0")}`;
}

/** A snapshot's hand log (engine events) and chat lines, oldest first, merged in the order they
 * happened by their `at`: items `{event}` or `{line}`. A line said before the hand goes above it,
 * not under the hand's last action. Without times, the lines come after the events. */
export function restoredLog(events, lines) {
  const items = [];
  const waiting = [...(lines || [])];
  for (const event of events || []) {
    while (waiting.length && Number.isFinite(event.at) && Number.isFinite(waiting[0].at) && waiting[0].at < event.at) {
      items.push({ line: waiting.shift() });
    }
    items.push({ event });
  }
  for (const line of waiting) items.push({ line });
  return items;
}

/** The lines of a snapshot to show, oldest first, without those already shown (by id). */
export function newChatLines(lines, shownIds) {
  return (lines || []).filter((line) => !shownIds.has(line.id));
}
