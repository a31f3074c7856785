// The hand replayer's pure part (static/js/replay-model.js): a step of
// holdem/history/replayer.py's hand_replay becomes the same view the table's felt and seats draw.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  PLAY_MS, REPLAY_STREETS, centerText, clampStep, lastActionsAt, playDelay, positionText, replayTable, replayView, stepForKey,
  streetStarts,
} from "../../static/js/replay-model.js";
import { seatStateOf, seatStatus, shownAtShowdown, winningCards } from "../../static/js/seats.js";

const seat = (number, fields = {}) => ({
  seat: number, stack: 5000, bet: 0, committed: 0, folded: false, all_in: false, protected: false, has_cards: true, ...fields,
});
const hand = (fields = {}) => ({
  street: "preflop", board: [], button: 0, small_blind_seat: 1, big_blind_seat: 2, small_blind: 50, big_blind: 100,
  pot_total: 0, pots: [], to_act: null, ...fields,
});

// A three-handed hand at a six-seat table, as the server sends it to the player in seat 1.
const REPLAY = {
  hand_id: 42, table: "Main", seat_count: 6, button: 0, card_back: "red",
  players: [{ seat: 0, username: "ann" }, { seat: 1, username: "bob" }, { seat: 2, username: "cat" }],
  you: { seat: 1, username: "bob" },
  steps: [
    { kind: "hand_started", street: "preflop", seat: null, text: "Hand #42", hand: hand(),
      seats: [seat(0, { stack: 2000 }), seat(1, { hole: ["Kc", "Kd"] }), seat(2)] },
    { kind: "blind_posted", street: "preflop", seat: 1, text: "bob posts the small blind 50", hand: hand({ pot_total: 50 }),
      seats: [seat(0, { stack: 2000 }), seat(1, { stack: 4950, bet: 50, committed: 50, hole: ["Kc", "Kd"] }), seat(2)] },
    { kind: "action", street: "preflop", seat: 0, text: "ann raises to 2,000, all in", hand: hand({ pot_total: 2050, to_act: 1 }),
      event: { kind: "action", seat: 0, action: "all_in", amount: 2000, to: 2000, stack: 0, all_in: true },
      seats: [seat(0, { stack: 0, bet: 2000, committed: 2000, all_in: true }), seat(1, { stack: 4950, bet: 50, committed: 50, hole: ["Kc", "Kd"] }),
        seat(2, { folded: false })] },
    { kind: "action", street: "preflop", seat: 2, text: "cat folds", hand: hand({ pot_total: 2050, to_act: 1 }),
      event: { kind: "action", seat: 2, action: "fold", amount: 0, to: 0, stack: 5000, all_in: false },
      seats: [seat(0, { stack: 0, bet: 2000, committed: 2000, all_in: true }), seat(1, { stack: 4950, bet: 50, committed: 50, hole: ["Kc", "Kd"] }),
        seat(2, { folded: true, has_cards: false })] },
    { kind: "street", street: "flop", seat: null, text: "Flop: A♥ Q♥ 7♠", hand: hand({ street: "flop", board: ["Ah", "Qh", "7s"], pot_total: 4000, pots: [{ amount: 4000 }] }),
      seats: [seat(0, { stack: 0, committed: 2000, all_in: true }), seat(1, { stack: 3000, committed: 2000, hole: ["Kc", "Kd"] }), seat(2, { folded: true, has_cards: false })] },
    { kind: "showdown", street: "showdown", seat: 0, text: "ann shows A♠ A♦", hand: hand({ street: "showdown", board: ["Ah", "Qh", "7s", "2c", "9d"], pot_total: 4000 }),
      seats: [seat(0, { stack: 0, committed: 2000, all_in: true, hole: ["As", "Ad"] }), seat(1, { stack: 3000, committed: 2000, hole: ["Kc", "Kd"] }),
        seat(2, { folded: true, has_cards: false })] },
    { kind: "result", street: "showdown", seat: null, text: "ann collects 4,000 from the pot", hand: null,
      seats: [seat(0, { stack: 4000, committed: 2000, hole: ["As", "Ad"] }), seat(1, { stack: 3000, committed: 2000, hole: ["Kc", "Kd"] }),
        seat(2, { folded: true, has_cards: false })],
      result: { board: ["Ah", "Qh", "7s", "2c", "9d"], pots: [{ amount: 4000, rake: 0, winners: [0], shares: { 0: 4000 } }], winners: [0],
        net: { 0: 2000, 1: -2000, 2: 0 }, shown: { 0: ["As", "Ad"] }, best: { 0: { category: "three of a kind", cards: ["As", "Ad", "Ah", "Qh", "9d"] } },
        uncontested: false, undecided: [] } },
  ],
};

test("each street starts at its first step; a street the hand never reached has none", () => {
  assert.deepEqual(streetStarts(REPLAY.steps), { preflop: 0, flop: 4, showdown: 5 });
  assert.deepEqual(REPLAY_STREETS.map((s) => s.street), ["preflop", "flop", "turn", "river", "showdown"]);
  assert.deepEqual(streetStarts([]), {});
});

test("the arrow keys step one at a time and stop at either end; Home and End jump there", () => {
  const count = REPLAY.steps.length;
  assert.equal(stepForKey("ArrowRight", 0, count), 1);
  assert.equal(stepForKey("ArrowLeft", 3, count), 2);
  assert.equal(stepForKey("ArrowLeft", 0, count), 0);
  assert.equal(stepForKey("ArrowRight", count - 1, count), count - 1);
  assert.equal(stepForKey("Home", 4, count), 0);
  assert.equal(stepForKey("End", 1, count), count - 1);
  assert.equal(stepForKey("a", 1, count), null);
  assert.equal(stepForKey(" ", 1, count), null);
  assert.equal(clampStep(-5, count), 0);
  assert.equal(clampStep(99, count), count - 1);
  assert.equal(clampStep("2", count), 2);
  assert.equal(clampStep(3, 0), 0);
});

test("the position reads as a step count and its street", () => {
  assert.equal(positionText(REPLAY.steps, 0), "Step 1 of 7 · Pre-flop");
  assert.equal(positionText(REPLAY.steps, 6), "Step 7 of 7 · Showdown");
});

test("Play lingers where the table deals, shows or pays", () => {
  assert.equal(playDelay(REPLAY.steps[2]), PLAY_MS);
  assert.ok(playDelay(REPLAY.steps[4]) > PLAY_MS && playDelay(REPLAY.steps[6]) > PLAY_MS);
  assert.equal(playDelay(undefined), PLAY_MS);
});

test("a seat shows what it did last this round, in the table's words, until the next street", () => {
  assert.deepEqual(lastActionsAt(REPLAY.steps, 1), {});
  assert.deepEqual(lastActionsAt(REPLAY.steps, 2), { 0: "All in 2,000" });
  assert.deepEqual(lastActionsAt(REPLAY.steps, 3), { 0: "All in 2,000", 2: "Fold" });
  assert.deepEqual(lastActionsAt(REPLAY.steps, 4), {});
});

test("a step is a table of every seat: the hand's players, and the other seats empty", () => {
  const table = replayTable(REPLAY, 2);
  assert.equal(table.seats.length, 6);
  assert.deepEqual(table.seats.filter((row) => !row.occupied).map((row) => row.number), [3, 4, 5]);
  const [ann, bob, cat] = table.seats;
  assert.equal(ann.username, "ann");
  assert.equal(ann.state, "all_in");
  assert.equal(bob.state, "betting"); // to act
  assert.equal(cat.state, "waiting");
  assert.equal(table.hand.pot_total, 2050);
  assert.equal(table.last_hand, null);
  assert.equal(replayTable(REPLAY, 3).seats[2].state, "folded");
});

test("the last step is the table after the hand: winners, nets, the hands shown, the final stacks", () => {
  const view = replayView(REPLAY, 6);
  assert.equal(view.hand, null);
  assert.equal(view.lastHand.pots[0].amount, 4000);
  const [ann, bob, cat] = view.table.seats;
  assert.deepEqual([ann.stack, bob.stack, cat.stack], [4000, 3000, 5000]);
  assert.equal(seatStateOf(ann, view), "winner");
  assert.equal(seatStateOf(bob, view), "mine_post_game");
  assert.deepEqual(seatStatus(ann, "winner", view), { kind: "winner", net: 2000 });
  assert.deepEqual([...winningCards(view)].sort(), ["9d", "Ad", "Ah", "As", "Qh"]);
  assert.deepEqual(shownAtShowdown(ann, view), ["As", "Ad"]);
  assert.equal(shownAtShowdown(cat, view), null);
  assert.equal(centerText(view), "ann wins with three of a kind.");
});

test("the viewer's own cards are theirs from the first step; another's only where the step shows them", () => {
  for (let index = 0; index < REPLAY.steps.length; index += 1) {
    const view = replayView(REPLAY, index);
    assert.deepEqual(view.you.hole, ["Kc", "Kd"]);
    const ann = view.table.seats[0];
    assert.equal(Boolean(ann.hole), index >= 5, `step ${index}`);
    assert.equal(view.table.seats[2].hole, undefined);
  }
  const spectator = replayView({ ...REPLAY, you: null }, 2);
  assert.equal(spectator.you, null);
  assert.equal(spectator.foldedLastHand(), false);
});

test("the view answers what the felt asks, as the table client does", () => {
  const view = replayView(REPLAY, 2);
  assert.equal(view.canSit, false);
  assert.equal(view.cardBack, "red");
  assert.equal(replayView({ ...REPLAY, card_back: "red bad" }, 2).cardBack, "classic");
  assert.equal(view.nameOf(2), "cat");
  assert.equal(view.nameOf(4), "Seat 5");
  assert.equal(view.handSeat(0).username, "ann");
  assert.equal(view.handSeat(4), null);
  assert.deepEqual(seatStatus(view.table.seats[0], "all_in", view), { kind: "label", text: "All in", short: "All in" });
  assert.equal(centerText(view), "Pre-flop · Blinds 50/100");
  assert.equal(centerText(replayView(REPLAY, 5)), "Showdown · Blinds 50/100");
});

test("the replayer's model is a pure module: no DOM, and it imports only pure modules", () => {
  const source = readFileSync(new URL("../../static/js/replay-model.js", import.meta.url), "utf8");
  const code = source.replace(/\/\/.*$/gm, "");
  assert.equal(code.match(/\b(document|window|location|navigator|localStorage|WebSocket|HTMLElement|Node)\b/), null);
  const imported = [...source.matchAll(/from\s+"\.\/([^"]+)";/g)].map((match) => match[1]);
  assert.deepEqual(imported, ["format.js", "log.js", "messages.js"]);
});
