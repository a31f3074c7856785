// The session reminder's arithmetic (docs/rules.md 11).

import assert from "node:assert/strict";
import { test } from "node:test";

import { netWords, playedWords, reminderDue } from "../../static/js/session-reminder.js";

const started = "2026-12-09T10:00:00+00:00";
const state = { period_seconds: 900, session: { started_at: started, played_seconds: 0, net: 0 } };
const start = Date.parse(started);

test("the first reminder comes a period after the session starts, the next a period after the answer", () => {
  assert.equal(reminderDue(state, null), start + 900_000);
  assert.equal(reminderDue(state, start + 1_000_000), start + 1_900_000);
  // An answer given in an earlier session does not count.
  assert.equal(reminderDue(state, start - 5_000), start + 900_000);
});

test("no reminder when it is off or no session is in progress", () => {
  assert.equal(reminderDue({ ...state, period_seconds: null }, null), null);
  assert.equal(reminderDue({ ...state, session: null }, null), null);
  assert.equal(reminderDue(null, null), null);
});

test("the time played and the chips as the dialog says them", () => {
  assert.equal(playedWords(30), "under a minute");
  assert.equal(playedWords(45 * 60 + 20), "45 min");
  assert.equal(playedWords(2 * 3600 + 5 * 60), "2 h 05 min");
  assert.equal(netWords(500), "+500 chips (up)");
  assert.equal(netWords(-1200), "\u22121,200 chips (down)");
  assert.equal(netWords(0), "0 chips (even)");
});
