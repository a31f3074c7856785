import assert from "node:assert/strict";
import { test } from "node:test";

import {
  CHAT_MAX_CHARS, chatLineParts, chatProblem, chatShows, chatTime, newChatLines, restoredLog,
} from "../../static/js/chat.js";

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
  assert.deepEqual(parts, { name: "bob", text: "<script>x</script>", mine: false, canMute: true, time: "" });
  assert.equal(chatLineParts({ id: 3, user_id: 5, username: "me", text: "hey" }, 5).canMute, false);
});

test("a snapshot's lines already shown are not shown twice", () => {
  const lines = [{ id: 1 }, { id: 2 }, { id: 3 }];
  assert.deepEqual(newChatLines(lines, new Set([1, 2])), [{ id: 3 }]);
});

test("a line carries the time it was said, as hours and minutes", () => {
  const at = new Date(2026, 11, 2, 9, 5, 30).getTime();
  assert.equal(chatTime(at), "09:05");
  assert.equal(chatLineParts({ id: 4, user_id: 7, username: "bob", text: "gl", at }, 5).time, "09:05");
  assert.equal(chatTime(undefined), "");
});

test("after a reload, chat and the hand's events keep the order they happened in", () => {
  const events = [{ kind: "hand_started", at: 1000 }, { kind: "action", at: 2000 }, { kind: "street", at: 3000 }];
  const lines = [{ id: 1, at: 10 }, { id: 2, at: 2500 }, { id: 3, at: 9000 }];
  const order = restoredLog(events, lines).map((item) => (item.event ? item.event.kind : `chat ${item.line.id}`));
  assert.deepEqual(order, ["chat 1", "hand_started", "action", "chat 2", "street", "chat 3"]);
  // Without times (an older server), the lines follow the events, as before.
  assert.deepEqual(restoredLog([{ kind: "hand_started" }], [{ id: 1 }]).map((i) => Boolean(i.event)), [true, false]);
});
