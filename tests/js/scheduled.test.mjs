// The lobby's scheduled tournaments (static/js/scheduled.js, RULES.md 9): which are listed and
// in what order, each row's words (start, entrants, late registration, re-entries), the buttons
// a player is offered (Register, Re-enter, Unregister) and how often the tournament page asks.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  NOT_ENTERED,
  POLL_MS,
  applyTournament,
  entrantsText,
  lateRegistrationText,
  orderedTournaments,
  pollDelayMs,
  reEntriesText,
  rowControls,
  startText,
  stateText,
  tournamentsFrom,
} from "../../static/js/scheduled.js";

const NOW = Date.UTC(2026, 11, 6, 18, 0, 0);

const mtt = (id, fields = {}) => ({
  id,
  kind: "scheduled",
  name: `Daily #${id}`,
  status: "registering",
  starts_at: NOW + 2 * 3600_000,
  entrants: 0,
  registered: 0,
  players_left: null,
  max_entrants: null,
  structure: "no_limit",
  buy_in: 1000,
  fee: 100,
  starting_stack: 3000,
  level_seconds: 600,
  table_seats: 9,
  tables: 0,
  prize_pool: 0,
  places_paid: 0,
  registration_open: true,
  late_registration_levels: 4,
  re_entries: 0,
  level: null,
  level_ends_at: null,
  hand_for_hand: false,
  url: `/tournaments/${id}/`,
  ...fields,
});

test("the list keeps well-formed tournaments and a change replaces the one held", () => {
  const held = tournamentsFrom([mtt(1), { id: "x" }, null, mtt(2, { status: "bogus" })]);
  assert.deepEqual([...held.keys()], [1]);
  const next = applyTournament(held, mtt(1, { registered: 5 }));
  assert.equal(next.get(1).registered, 5);
  assert.equal(held.get(1).registered, 0, "a new Map: the old one is unchanged");
  assert.equal(applyTournament(next, { id: 3 }).has(3), false);
});

test("the first to start comes first, then those over, the latest first", () => {
  const held = tournamentsFrom([
    mtt(1, { starts_at: NOW + 3000 }),
    mtt(2, { status: "finished", starts_at: NOW - 9000 }),
    mtt(3, { status: "running", starts_at: NOW - 1000 }),
    mtt(4, { status: "cancelled", starts_at: NOW - 5000 }),
    mtt(5, { starts_at: NOW + 1000 }),
  ]);
  assert.deepEqual(orderedTournaments(held).map((t) => t.id), [3, 5, 1, 4, 2]);
});

test("RULES.md 9: late registration is worded from the status, the level and the cap", () => {
  assert.equal(lateRegistrationText(mtt(1)), "Late registration until the end of level 4");
  assert.equal(lateRegistrationText(mtt(1, { late_registration_levels: 0 })), "No late registration");
  assert.equal(lateRegistrationText(mtt(1, { registration_open: false })), "Full");
  const running = { status: "running", level: { level: 2, small_blind: 20, big_blind: 40, ante: 0 } };
  assert.equal(lateRegistrationText(mtt(1, running)), "Late registration open until the end of level 4");
  assert.equal(lateRegistrationText(mtt(1, { ...running, registration_open: false })), "Full");
  const past = { status: "running", registration_open: false, level: { level: 5, small_blind: 50, big_blind: 100, ante: 10 } };
  assert.equal(lateRegistrationText(mtt(1, past)), "Late registration closed");
  assert.equal(lateRegistrationText(mtt(1, { status: "finished", registration_open: false })), "");
});

test("re-entries, entrants and the state line", () => {
  assert.equal(reEntriesText(mtt(1)), "");
  assert.equal(reEntriesText(mtt(1, { re_entries: 1 })), "1 re-entry");
  assert.equal(reEntriesText(mtt(1, { re_entries: 3 })), "3 re-entries");
  assert.equal(reEntriesText(mtt(1, { re_entries: 3, status: "finished" })), "");
  assert.deepEqual(entrantsText(mtt(1, { entrants: 12, max_entrants: 1000 })), { count: "12", rest: "/1,000" });
  assert.deepEqual(entrantsText(mtt(1, { status: "running", entrants: 60, players_left: 47 })), { count: "47", rest: " left of 60" });
  assert.equal(stateText(mtt(1)), "3,000 chips · 10 min levels · 9 a table");
  const level = { level: 3, small_blind: 50, big_blind: 100, ante: 10 };
  assert.equal(stateText(mtt(1, { status: "running", level })), "Level 3 · 50/100 ante 10");
  assert.equal(stateText(mtt(1, { status: "running", level, hand_for_hand: true })), "Level 3 · 50/100 ante 10 · hand for hand");
  assert.equal(stateText(mtt(1, { status: "cancelled" })), "Cancelled");
});

test("the start: in minutes within the hour, then the time; starting once it is due", () => {
  const when = (ms) => `at ${ms}`;
  assert.equal(startText(mtt(1, { starts_at: NOW + 25 * 60_000 }), NOW, when), "Starts in 25 min");
  assert.equal(startText(mtt(1, { starts_at: NOW + 2 * 3600_000 }), NOW, when), `Starts at ${NOW + 2 * 3600_000}`);
  assert.equal(startText(mtt(1, { starts_at: NOW - 500 }), NOW, when), "Starting…");
  assert.equal(startText(mtt(1, { status: "running", starts_at: NOW - 500 }), NOW, when), `Started at ${NOW - 500}`);
});

test("RULES.md 9: Register, Re-enter while entries are open and a re-entry remains, Unregister before the start", () => {
  const open = mtt(1);
  assert.deepEqual(rowControls(open, NOT_ENTERED), { register: "Register", unregister: false, table: null, page: { url: "/tournaments/1/", text: "Details" } });
  assert.deepEqual(rowControls(open, { entries: 1, entered: true, table_url: null }).unregister, true);
  assert.equal(rowControls(open, { entries: 1, entered: true, table_url: null }).register, null);
  assert.equal(rowControls(mtt(1, { registration_open: false }), NOT_ENTERED).register, null);

  const late = mtt(2, { status: "running", re_entries: 1 });
  assert.equal(rowControls(late, NOT_ENTERED).register, "Register", "a late entry");
  const playing = { entries: 1, entered: true, table_url: "/tables/9/" };
  assert.deepEqual(rowControls(late, playing), { register: null, unregister: false, table: "/tables/9/", page: { url: "/tournaments/2/", text: "Watch" } });
  assert.equal(rowControls(late, { entries: 1, entered: false, table_url: null }).register, "Re-enter");
  assert.equal(rowControls(late, { entries: 2, entered: false, table_url: null }).register, null, "the one re-entry is used");
  assert.equal(rowControls(mtt(3, { status: "running" }), { entries: 1, entered: false }).register, null, "no re-entry allowed");
  assert.equal(rowControls({ ...late, registration_open: false }, { entries: 1, entered: false }).register, null, "registration closed");
  assert.equal(rowControls(mtt(4, { status: "finished", registration_open: false }), NOT_ENTERED).page.text, "Results");
});

test("the tournament page asks every few seconds while live, backs off when unanswered, stops once over", () => {
  assert.equal(pollDelayMs("running"), POLL_MS);
  assert.equal(pollDelayMs("registering", 1), 2 * POLL_MS);
  assert.equal(pollDelayMs("running", 10), 60_000);
  assert.equal(pollDelayMs("finished"), null);
  assert.equal(pollDelayMs("cancelled"), null);
});
