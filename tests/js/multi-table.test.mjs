// A multi-table tournament's table (RULES.md 9; static/js/tournament.js, messages.js, log.js):
// the panel's figures in words, the player's own rank, why a table waits between hands instead
// of counting down, the moves in the table log, and the word to a player moved to a new table.

import assert from "node:assert/strict";
import { test } from "node:test";

import { tableLines } from "../../static/js/log.js";
import { centerMessage, statusLine, tableFacts } from "../../static/js/messages.js";
import {
  averageStackText,
  heldAfter,
  heldText,
  isMultiTable,
  levelText,
  movedText,
  nextPrizeText,
  placesPaidText,
  playersLeftText,
  rankText,
  tableLabel,
} from "../../static/js/tournament.js";
import { seatRow, viewOf } from "./view.mjs";

const NOW = 1_796_043_188_342;

const panel = (fields = {}) => ({
  id: 14,
  kind: "scheduled",
  name: "Sunday 500",
  status: "running",
  url: "/tournaments/14/",
  level: 3,
  small_blind: 25,
  big_blind: 50,
  ante: 5,
  next_level: { level: 4, small_blind: 50, big_blind: 100, ante: 10 },
  level_ends_at: NOW + 65_000,
  players_left: 87,
  entrants: 120,
  average_stack: 4_137,
  ranks: { 0: 12, 3: 1, 5: 87 },
  buy_in: 500,
  fee: 50,
  prize_pool: 60_000,
  places_paid: 18,
  next_prize: null,
  hand_for_hand: false,
  ...fields,
});

const nameOf = (seat) => `Seat ${seat + 1}`;

test("RULES.md 9: every table shows the players left, the average stack and the level", () => {
  assert.ok(isMultiTable(panel()));
  assert.ok(!isMultiTable({ ...panel(), kind: undefined })); // a Sit & Go's panel
  assert.ok(!isMultiTable(null));
  assert.equal(playersLeftText(panel()), "87 of 120 players left");
  assert.equal(averageStackText(panel()), "4,137");
  assert.equal(averageStackText(panel({ average_stack: null, players_left: 0, status: "finished" })), "");
  assert.equal(levelText(panel()), "Level 3 · 25/50 ante 5");
});

test("RULES.md 9: your rank by chips is your own seat's, among all the players left", () => {
  assert.equal(rankText(panel(), 0), "12th of 87");
  assert.equal(rankText(panel(), 3), "1st of 87");
  assert.equal(rankText(panel(), 5), "87th of 87");
  // A watcher has no seat; a seat without chips (out at this hand) has no rank; nor a Sit & Go.
  assert.equal(rankText(panel(), null), "");
  assert.equal(rankText(panel(), 7), "");
  assert.equal(rankText(panel({ ranks: {} }), 0), "");
  assert.equal(rankText({ ...panel(), kind: undefined }, 0), "");
});

test("RULES.md 9: what the next place to be decided pays, nothing before the money", () => {
  assert.equal(nextPrizeText(panel()), "Nothing yet");
  assert.equal(nextPrizeText(panel({ players_left: 18, next_prize: { place: 18, prize: 1_230 } })), "18th · 1,230");
  assert.equal(nextPrizeText(panel({ players_left: 2, next_prize: { place: 2, prize: 15_420 } })), "2nd · 15,420");
  assert.equal(nextPrizeText(panel({ status: "finished", next_prize: null })), "");
  assert.equal(placesPaidText(panel()), "18 paid");
  assert.equal(placesPaidText(panel({ places_paid: 1_250 })), "1,250 paid");
});

test("the line under the name says it is a tournament, with its level, entry and pool", () => {
  const facts = tableFacts({ tournament: panel(), hand_id: 77, spectators: 3 }, { balance: 9_000 }).map((fact) => fact.text);
  assert.deepEqual(facts, ["Tournament", "Level 3 · 25/50 ante 5", "Buy-in 500 + 50", "Prize pool 60,000", "Hand #77", "3 watching", "Wallet 9,000"]);
});

test("RULES.md 9: a held table says why it waits instead of counting down", () => {
  assert.equal(heldText("balancing"), "Balancing tables");
  assert.equal(heldText("hand_for_hand"), "Waiting for the other tables (hand for hand)");
  assert.equal(heldText(null), "");
  const table = {
    status: "open",
    tournament: panel(),
    seats: [seatRow(0, "ann", { in_hand: false }), seatRow(3, "bob", { in_hand: false })],
    hand: null,
    last_hand: null,
    countdown: { starts_at: NOW + 1_000 },
  };
  const you = { seat: 0, in_hand: false, sitting_out: false };
  const counting = viewOf({ table, you });
  assert.equal(centerMessage(counting, NOW), "Next game in 1s");
  assert.equal(statusLine(counting, NOW), "Next game in 1s.");
  const balancing = { ...viewOf({ table, you }), held: "balancing" };
  assert.equal(centerMessage(balancing, NOW), "Balancing tables…");
  assert.equal(statusLine(balancing, NOW), "Balancing tables.");
  const inStep = { ...viewOf({ table, you }), held: "hand_for_hand" };
  assert.equal(centerMessage(inStep, NOW), "Waiting for the other tables (hand for hand)…");
  assert.equal(statusLine(inStep, NOW), "Waiting for the other tables (hand for hand).");
});

test("a hold lasts from its `held` event until the table deals, ends a hand or closes", () => {
  assert.equal(heldAfter(null, { kind: "held", reason: "balancing" }), "balancing");
  assert.equal(heldAfter("balancing", { kind: "held", reason: "hand_for_hand" }), "hand_for_hand");
  // Players moving in and out, a chat, a countdown: the table still waits.
  for (const kind of ["moved_out", "moved_in", "countdown", "seated", "level", "sitting_out"]) {
    assert.equal(heldAfter("balancing", { kind }), "balancing", kind);
  }
  assert.equal(heldAfter("balancing", { kind: "hand", engine: [{ kind: "hand_started" }, { kind: "blind_posted" }] }), null);
  assert.equal(heldAfter("hand_for_hand", { kind: "hand", engine: [{ kind: "action" }] }), "hand_for_hand");
  assert.equal(heldAfter("hand_for_hand", { kind: "hand_ended" }), null);
  assert.equal(heldAfter("balancing", { kind: "closed" }), null);
  assert.equal(heldAfter("balancing", null), "balancing");
});

test("RULES.md 9: a table broken up says its players play on elsewhere", () => {
  const view = viewOf({ table: { status: "closed", tournament: panel(), seats: [], hand: null, last_hand: null } });
  assert.equal(centerMessage(view, NOW), "This table is closed: its players were moved to the other tables.");
  const over = viewOf({ table: { status: "closed", tournament: panel({ status: "finished" }), seats: [], hand: null, last_hand: null } });
  assert.equal(centerMessage(over, NOW), "This room is closed.");
});

test("the table log says who moves in and out, and why the table waits", () => {
  assert.deepEqual(tableLines({ kind: "moved_in", seat: 4, username: "cy", stack: 2_450, from_table: 9 }, nameOf), [
    { text: "cy joins from another table at seat 5 with 2,450" },
  ]);
  assert.deepEqual(tableLines({ kind: "moved_out", seat: 2, username: "dee", to_table: 11 }, nameOf), [{ text: "dee moves to another table" }]);
  assert.deepEqual(tableLines({ kind: "held", reason: "balancing" }, nameOf), [
    { text: "Balancing tables: the next hand waits for players to move", kind: "warn" },
  ]);
  assert.deepEqual(tableLines({ kind: "held", reason: "hand_for_hand" }, nameOf), [
    { text: "Hand for hand: the next hand waits for the other tables", kind: "warn" },
  ]);
});

test("RULES.md 9: a moved player is told the table they were moved to", () => {
  assert.equal(tableLabel("Sunday 500 #14 · table 2"), "table 2");
  assert.equal(tableLabel("Sunday 500 #14 · table 12"), "table 12");
  assert.equal(movedText("Sunday 500 #14 · table 3"), "You were moved to table 3");
  // A name without a table number is said whole; no name at all, in general words.
  assert.equal(movedText("Final table"), "You were moved to Final table");
  assert.equal(movedText(null), "You were moved to another table");
});
