import assert from "node:assert/strict";
import { test } from "node:test";

import {
  DEFAULT_TAG_NAMES, NOTE_MAX_CHARS, TAG_COLOURS, listedNames, noteCount, noteMarks, noteProblem, notesFrom, tagNames, tagsAfter,
  tagsByName, withNote,
} from "../../static/js/notes.js";

const bob = { user_id: 7, username: "bob", text: "calls too much", colour: "red" };

test("eight colours, each named after itself until the player names it (rules.md 6)", () => {
  assert.equal(TAG_COLOURS.length, 8);
  assert.equal(DEFAULT_TAG_NAMES.grey, "Grey");
  assert.deepEqual(tagNames({ red: "Fish", pink: "Whale", blue: "" }), { ...DEFAULT_TAG_NAMES, red: "Fish" });
  assert.deepEqual(tagNames(null), DEFAULT_TAG_NAMES);
});

test("a note too long is stopped before sending, counted in characters", () => {
  assert.equal(noteProblem("x".repeat(NOTE_MAX_CHARS)), "");
  assert.equal(noteProblem("🂡".repeat(NOTE_MAX_CHARS)), ""); // characters, not UTF-16 units
  assert.equal(noteProblem("x".repeat(NOTE_MAX_CHARS + 1)), "A note is at most 1,000 characters (this one has 1,001).");
  assert.equal(noteCount("abc"), "3 / 1,000");
});

test("notes are kept by player, replaced, and dropped when emptied", () => {
  let notes = notesFrom([bob, { user_id: 8, username: "cy", text: "", colour: "teal" }]);
  assert.equal(notes.size, 2);
  notes = withNote(notes, { ...bob, text: "now folds", colour: "" });
  assert.deepEqual(notes.get(7), { user_id: 7, username: "bob", text: "now folds", colour: "" });
  notes = withNote(notes, { user_id: 8, username: "cy", text: "", colour: "", updated_at: null });
  assert.deepEqual([...notes.keys()], [7]);
  assert.equal(withNote(notes, null).size, 1);
  assert.equal(notesFrom(undefined).size, 0);
});

test("a seat shows the tag by its name and marks a note, never the colour alone", () => {
  const marks = noteMarks(bob, { red: "Fish" });
  assert.deepEqual(marks, { tag: { colour: "red", name: "Fish" }, hasText: true, label: "tag: Fish, you have a note" });
  assert.deepEqual(noteMarks({ ...bob, colour: "" }, {}), { tag: null, hasText: true, label: "you have a note" });
  assert.equal(noteMarks({ ...bob, text: "", colour: "" }, {}), null);
  assert.equal(noteMarks(null, {}), null);
  assert.equal(noteMarks({ ...bob, text: "", colour: "pink" }, {}).tag, null); // an unknown colour draws nothing
});

test("the lobby keeps tags by name and follows a note frame", () => {
  let tags = tagsByName([{ user_id: 7, username: "bob", colour: "red" }, { username: "x", colour: "pink" }, null]);
  assert.deepEqual([...tags], [["bob", "red"]]);
  tags = tagsAfter(tags, { user_id: 8, username: "cy", text: "", colour: "blue" });
  tags = tagsAfter(tags, { user_id: 7, username: "bob", text: "kept, untagged", colour: "" });
  assert.deepEqual([...tags], [["cy", "blue"]]);
  assert.deepEqual(listedNames("alice, bob,  cy"), ["alice", "bob", "cy"]);
  assert.deepEqual(listedNames(""), []);
});
