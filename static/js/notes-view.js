// The table's notes on players (rules.md 6): the notes the viewer keeps on the players here and
// the note dialog a seat's name opens (notes-marks.js draws the name, the tag and the note mark).
// The notes come in the viewer's own snapshot and `note` frames (their table socket, their
// ws/me/), sent to them alone (docs/protocol.md); notes.js decides what they show.

import { el } from "./dom.js";
import { callJson } from "./http.js";
import { NOTE_MAX_CHARS, TAG_COLOURS, noteCount, noteProblem, notesFrom, tagNames, withNote } from "./notes.js";
import { NOTE_EVENT, TAG_NAMES_EVENT } from "./user-socket.js";

const NOTES_PAGE = "/accounts/notes/";
const TAGS_URL = "/accounts/notes/tags/";

export class TableNotes {
  constructor(app, root) {
    this.app = app;
    this.notes = new Map(); // player id -> {user_id, username, text, colour}
    this.names = tagNames(null); // the viewer's names for the eight tags
    this.namesKnown = false;
    this.editing = null; // {userId, username} while the dialog is open
    this.dialog = this.buildDialog();
    root.append(this.dialog);
    root.querySelector("#seats").addEventListener("click", (event) => {
      const button = event.target.closest("[data-note-for]");
      if (button) this.open(Number(button.dataset.noteFor), button.dataset.noteName);
    });
    // Saved on another page or tab (the notes page, another table): ws/me/ tells every page.
    document.addEventListener(NOTE_EVENT, (event) => this.apply(event.detail));
    document.addEventListener(TAG_NAMES_EVENT, (event) => this.setNames(event.detail));
  }

  noteOn(userId) {
    return this.notes.get(userId) || null;
  }

  /** The snapshot's notes on the players here (and the tag names, when a tag is to be shown). */
  fromSnapshot(frame) {
    this.notes = notesFrom(frame.notes);
    if (frame.tag_names) this.setNames(frame.tag_names, { redraw: false });
  }

  /** A `note` frame of the table socket: a player the viewer wrote on has sat down here. */
  receive(frame) {
    this.apply(frame.note);
  }

  apply(note) {
    if (!note) return;
    this.notes = withNote(this.notes, note);
    if (note.colour && !this.namesKnown) this.loadNames();
    this.app.redrawSeats();
  }

  setNames(names, { redraw = true } = {}) {
    this.names = tagNames(names);
    this.namesKnown = true;
    this.fillChoices();
    if (redraw) this.app.redrawSeats();
  }

  /** The tag names, asked once when a tag is to be named and the snapshot did not bring them. */
  async loadNames() {
    if (this.loadingNames) return;
    this.loadingNames = true;
    try {
      const answer = await callJson(TAGS_URL, "GET");
      this.setNames(answer.tag_names);
    } catch {
      // The colours' own names stay; the next snapshot or ws/me/ frame brings the player's.
    } finally {
      this.loadingNames = false;
    }
  }

  buildDialog() {
    const text = el("textarea", { id: "note-text", name: "text", rows: "5", maxlength: String(NOTE_MAX_CHARS), "aria-describedby": "note-count note-private" });
    const dialog = el(
      "dialog",
      { class: "panel-dialog note-dialog", id: "note-dialog", "aria-labelledby": "note-title" },
      el(
        "form",
        { method: "dialog", id: "note-form", class: "note-form" },
        el("h2", { id: "note-title" }, "Note"),
        el("p", { class: "muted", id: "note-private" }, "Only you see this note and tag."),
        el("label", { for: "note-text" }, "Your note"),
        text,
        el("p", { class: "note-count", id: "note-count" }, noteCount("")),
        el("fieldset", { class: "tag-choices", id: "note-tags" }, el("legend", {}, "Colour tag")),
        el("p", { class: "note-problem", id: "note-problem", role: "alert" }),
        el(
          "div",
          { class: "dialog-actions note-actions" },
          el("button", { type: "button", class: "button ghost", id: "note-delete" }, "Delete"),
          el("button", { type: "button", class: "button ghost", id: "note-cancel" }, "Cancel"),
          el("button", { type: "submit", class: "button", id: "note-save" }, "Save"),
        ),
        el("p", { class: "note-all" }, el("a", { href: NOTES_PAGE }, "All your notes and tag names")),
      ),
    );
    this.text = text;
    this.problem = dialog.querySelector("#note-problem");
    this.count = dialog.querySelector("#note-count");
    this.choices = dialog.querySelector("#note-tags");
    text.addEventListener("input", () => {
      this.count.textContent = noteCount(text.value);
      this.problem.textContent = noteProblem(text.value);
    });
    dialog.querySelector("#note-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.save(text.value, this.chosenColour());
    });
    dialog.querySelector("#note-cancel").addEventListener("click", () => dialog.close());
    dialog.querySelector("#note-delete").addEventListener("click", () => this.save("", ""));
    dialog.addEventListener("close", () => this.closed());
    this.fillChoices();
    return dialog;
  }

  /** "No tag" and the eight colours, each with the player's name for it. */
  fillChoices() {
    const box = this.choices;
    if (!box) return;
    const chosen = this.chosenColour();
    const choice = (value, name) => el(
      "label",
      { class: "tag-choice" },
      el("input", { type: "radio", name: "colour", value, checked: value === chosen }),
      el("span", { class: `tag-swatch tag-${value || "none"}`, "aria-hidden": "true" }),
      el("span", {}, name),
    );
    box.replaceChildren(
      el("legend", {}, "Colour tag"),
      choice("", "No tag"),
      ...TAG_COLOURS.map((key) => choice(key, this.names[key])),
    );
  }

  chosenColour() {
    const checked = this.choices ? this.choices.querySelector("input:checked") : null;
    return checked ? checked.value : "";
  }

  open(userId, username) {
    if (!Number.isInteger(userId)) return;
    const note = this.noteOn(userId);
    this.editing = { userId, username };
    this.dialog.querySelector("#note-title").textContent = `Note on ${username}`;
    this.text.value = note ? note.text : "";
    this.count.textContent = noteCount(this.text.value);
    this.problem.textContent = "";
    for (const input of this.choices.querySelectorAll("input")) input.checked = input.value === (note ? note.colour : "");
    this.dialog.querySelector("#note-delete").hidden = !note;
    if (!this.namesKnown) this.loadNames();
    this.dialog.showModal();
    this.text.focus();
  }

  async save(text, colour) {
    const editing = this.editing;
    if (!editing) return;
    const problem = noteProblem(text);
    if (problem) {
      this.problem.textContent = problem;
      return;
    }
    const buttons = this.dialog.querySelectorAll(".note-actions button");
    for (const button of buttons) button.disabled = true;
    try {
      const answer = await callJson(`/accounts/notes/${editing.userId}/`, "POST", new URLSearchParams({ text, colour }));
      this.apply(answer.note || { user_id: editing.userId, username: editing.username, text: "", colour: "" });
      this.dialog.close();
    } catch (error) {
      this.problem.textContent = `Not saved: ${error.message}.`;
    } finally {
      for (const button of buttons) button.disabled = false;
    }
  }

  /** Back to the seat's name the dialog was opened from (the seats were drawn again). */
  closed() {
    const editing = this.editing;
    this.editing = null;
    if (!editing) return;
    const button = this.app.dom.seats.querySelector(`[data-note-for="${editing.userId}"]`);
    if (button) button.focus();
  }
}
