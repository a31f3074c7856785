// What the viewer's notes on players show beside a player's name (rules.md 6): the colour tag,
// named (WCAG 1.4.1: never the colour alone), and a note mark; on a seat, the name is the button
// that opens the note dialog (notes-view.js). Used by the felt (felt.js) and the lobby's lists.

import { el } from "./dom.js";
import { noteMarks } from "./notes.js";

/** A colour tag as text on its colour: its name shows, and a reader hears "tag: <name>" (WCAG
 * 1.4.1: never the colour alone). `short` (a seat, where the player's name comes first): the
 * name's first letter shows, the whole name in the title and for a reader. */
export function tagPill(tag, { short = false } = {}) {
  const title = `Tag: ${tag.name}`;
  const classes = `note-tag tag-${tag.colour}${short ? " short" : ""}`;
  if (!short) return el("span", { class: classes, title }, el("span", { class: "visually-hidden" }, "tag: "), tag.name);
  return el(
    "span",
    { class: classes, title },
    el("span", { class: "visually-hidden" }, `tag: ${tag.name}`),
    el("span", { "aria-hidden": "true" }, [...tag.name][0] || "?"),
  );
}

/** The name on a seat: the viewer's own as text; another player's as a button that opens the
 * note dialog, with the viewer's tag and note mark beside it (only on the viewer's screen). */
export function seatName(row, view, mine) {
  const notes = view.notes;
  if (mine || !notes || !Number.isInteger(row.user_id)) return el("span", { class: "name" }, row.username);
  const note = notes.noteOn(row.user_id);
  const marks = noteMarks(note, notes.names);
  const button = el(
    "button",
    {
      type: "button",
      class: "name name-button",
      dataset: { noteFor: String(row.user_id), noteName: row.username },
      "aria-haspopup": "dialog",
      "aria-label": `${row.username}: ${marks ? `${marks.label}; edit your note` : "write a note"}`,
      title: note && note.text ? note.text.slice(0, 300) : `Write a note on ${row.username}`,
    },
    row.username,
  );
  if (!marks) return button;
  return [
    button,
    marks.tag ? tagPill(marks.tag, { short: true }) : null,
    marks.hasText ? el("span", { class: "note-mark", title: "You have a note", "aria-hidden": "true" }, "\u270E") : null,
  ];
}
