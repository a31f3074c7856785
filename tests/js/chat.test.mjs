import assert from "node:assert/strict";
import { test } from "node:test";

import { CHAT_MAX_CHARS, chatLineParts, chatProblem, chatShows, newChatLines } from "../../static/js/chat.js";

test("empty and too long lines are stopped before sending", () => {
  assert.equal(chatProblem("   "), "Write something first.");
  assert.equal(chatProblem("x".repeat(CHAT_MAX_CHARS + 1)), "A line is at most 200 characters.");
  assert.equal(chatProblem(" nice hand "), "");
  assert.equal(chatProblem("🂡".repeat(CHAT_MAX_CHARS)), ""); // characters, not UTF-16 units
});

test("muted players' lines are hidden, never our own", () => {
  const line = { id: 1, user_id: 7, username: "bob", text: "hi" };
  assert.equal(chatShows(line, [7], 5), false);
  assert.equal(chatShows(line, [], 5), true);
  assert.equal(chatShows(line, [7], 7), true);
});

test("a line's parts keep the text as it was typed", () => {
  const parts = chatLineParts({ id: 2, user_id: 7, username: "bob", text: "<script>x</script>" }, 5);
  assert.deepEqual(parts, { name: "bob", text: "<script>x</script>", mine: false, canMute: true });
  assert.equal(chatLineParts({ id: 3, user_id: 5, username: "me", text: "hey" }, 5).canMute, false);
});

test("a snapshot's lines already shown are not shown twice", () => {
  const lines = [{ id: 1 }, { id: 2 }, { id: 3 }];
  assert.deepEqual(newChatLines(lines, new Set([1, 2])), [{ id: 3 }]);
});
