// Notes on players and their colour tags (rules.md 6), without the page: the eight colours and
// their default names, what a note may hold, the notes the client keeps by player, and what a
// seat or a lobby name shows of them. notes-view.js and notes-lobby.js draw it. These are the
// viewer's own: the server sends them to nobody else (docs/protocol.md, `note`).

/** The server's limits (holdem/models.py NOTE_MAX_CHARS, holdem/selectors/notes.py). */
export const NOTE_MAX_CHARS = 1000;
export const TAG_NAME_MAX_CHARS = 24;
export const TAG_COLOURS = ["red", "orange", "yellow", "green", "teal", "blue", "purple", "grey"];
export const DEFAULT_TAG_NAMES = Object.fromEntries(TAG_COLOURS.map((key) => [key, key[0].toUpperCase() + key.slice(1)]));

/** What is wrong with saving `text` as a note, or "" (the server checks again, and more). */
export function noteProblem(text) {
  const length = [...(text || "").trim()].length;
  if (length > NOTE_MAX_CHARS) return `A note is at most ${NOTE_MAX_CHARS.toLocaleString("en")} characters (this one has ${length.toLocaleString("en")}).`;
  return "";
}

/** "120 / 1,000": the characters written and the limit. */
export function noteCount(text) {
  return `${[...(text || "")].length.toLocaleString("en")} / ${NOTE_MAX_CHARS.toLocaleString("en")}`;
}

/** The eight names, the player's own where they gave one. */
export function tagNames(names) {
  const given = names && typeof names === "object" ? names : {};
  return Object.fromEntries(TAG_COLOURS.map((key) => [key, typeof given[key] === "string" && given[key] ? given[key] : DEFAULT_TAG_NAMES[key]]));
}

/** Whether a note frame's note is none (deleted: no text, no colour). */
export function isEmptyNote(note) {
  return !note || (!note.text && !note.colour);
}

/** The notes kept by player id after `note` (a `note` frame's, or an HTTP answer's): a new Map. */
export function withNote(notes, note) {
  const next = new Map(notes);
  if (!note || !Number.isInteger(note.user_id)) return next;
  if (isEmptyNote(note)) next.delete(note.user_id);
  else next.set(note.user_id, { user_id: note.user_id, username: note.username, text: note.text || "", colour: note.colour || "" });
  return next;
}

/** A snapshot's notes (a list) as the Map the client keeps. */
export function notesFrom(list) {
  let notes = new Map();
  for (const note of Array.isArray(list) ? list : []) notes = withNote(notes, note);
  return notes;
}

/** What a seat (or a lobby name) shows of the viewer's note on its player: the tag, named (never
 * its colour alone, WCAG 1.4.1), and whether there is text; null without a note. */
export function noteMarks(note, names) {
  if (isEmptyNote(note)) return null;
  const named = tagNames(names);
  const tag = TAG_COLOURS.includes(note.colour) ? { colour: note.colour, name: named[note.colour] } : null;
  const hasText = Boolean(note.text);
  const parts = [];
  if (tag) parts.push(`tag: ${tag.name}`);
  if (hasText) parts.push("you have a note");
  return { tag, hasText, label: parts.join(", ") };
}

/** The lobby's map of tags by username, from `/accounts/notes/tags/`'s `tags`. */
export function tagsByName(tags) {
  const byName = new Map();
  for (const tag of Array.isArray(tags) ? tags : []) {
    if (tag && typeof tag.username === "string" && TAG_COLOURS.includes(tag.colour)) byName.set(tag.username, tag.colour);
  }
  return byName;
}

/** The lobby's tags after a `note` frame: the player's tag set, changed or gone. */
export function tagsAfter(byName, note) {
  const next = new Map(byName);
  if (!note || typeof note.username !== "string") return next;
  if (TAG_COLOURS.includes(note.colour)) next.set(note.username, note.colour);
  else next.delete(note.username);
  return next;
}

/** A player list's text ("alice, bob") as names, in order. */
export function listedNames(text) {
  return (text || "").split(",").map((name) => name.trim()).filter(Boolean);
}
