import assert from "node:assert/strict";
import { test } from "node:test";

import {
  TURN_TITLE, flashingTitle, keepsFlashing, leavingGivesUpAHand, opponentActionLines, turnToAlert, turnWords,
} from "../../static/js/alerts.js";
import { emptySeat, seatRow } from "./view.mjs";

const legalFor = (fields) => ({
  seat: 3, actions: ["fold", "call", "raise", "all_in"], to_call: 200, current_bet: 200, min_to: 400, max_to: 5000,
  all_in_to: 5000, can_raise: true, raise_closed_reason: null, pot: 350, ...fields,
});

test("the turn alert says what the player may do", () => {
  assert.equal(turnWords(legalFor({})), "Your turn: call 200 or raise");
  assert.equal(turnWords(legalFor({ actions: ["check", "bet", "all_in"], to_call: 0, current_bet: 0 })), "Your turn: check or bet");
  // The big blind's option before the flop: nothing to call, a raise to make.
  assert.equal(turnWords(legalFor({ actions: ["check", "raise", "all_in"], to_call: 0, current_bet: 100 })), "Your turn: check or raise");
  // Raising closed (the cap, a short all-in): call or fold.
  assert.equal(turnWords(legalFor({ actions: ["fold", "call"], can_raise: false, raise_closed_reason: "the raise cap is reached" })),
    "Your turn: call 200 or fold");
  assert.equal(turnWords(legalFor({ actions: ["check"], to_call: 0 })), "Your turn: check");
  assert.equal(turnWords(legalFor({ actions: ["check", "all_in"], to_call: 0 })), "Your turn: check or go all in");
});

test("a call that takes every chip left says so, with what goes in", () => {
  // Facing a raise to 6,000 with 4,000 behind and 100 already in: 4,000 more, all in.
  const short = legalFor({ actions: ["fold", "all_in"], to_call: 5900, current_bet: 6000, all_in_to: 4100, min_to: null, max_to: null });
  assert.equal(turnWords(short), "Your turn: call 4,000 (all in) or fold");
  // Exactly enough to call: the call is the all-in.
  assert.equal(turnWords(legalFor({ actions: ["fold", "call"], to_call: 1200, current_bet: 1200, all_in_to: 1200 })),
    "Your turn: call 1,200 (all in) or fold");
});

const turnTable = (token, seat = 3) => ({ turn: { seat, token, deadline: 0, seconds: 20 } });

test("the turn to alert is the table's turn token, only when the legal actions are ours", () => {
  const you = { seat: 3, legal: legalFor({}) };
  assert.equal(turnToAlert(turnTable("t1"), you), "t1");
  assert.equal(turnToAlert(turnTable("t1", 5), you), null); // someone else's turn; our legal part is stale
  assert.equal(turnToAlert(turnTable("t1"), { seat: 3, legal: null }), null);
  assert.equal(turnToAlert(turnTable("t1"), { seat: 4, legal: legalFor({}) }), null); // legal for a seat we left
  assert.equal(turnToAlert({ turn: null }, you), null);
  assert.equal(turnToAlert(turnTable(""), you), null);
  assert.equal(turnToAlert(null, you), null);
  assert.equal(turnToAlert(turnTable("t1"), null), null);
});

const NAMES = { 0: "alice", 1: "bob", 3: "dave" };
const name = (seat) => NAMES[seat] || `Seat ${seat + 1}`;

test("opponents' actions are read out one line each; our own and other events are not", () => {
  const events = [
    { kind: "hand_started", small_blind: 50, big_blind: 100, button: 0 },
    { kind: "blind_posted", seat: 0, blind: "small", amount: 50 },
    { kind: "action", seat: 1, action: "raise", to: 600 },
    { kind: "action", seat: 3, action: "call", amount: 600 },
    { kind: "action", seat: 0, action: "fold", reason: "timeout" },
    { kind: "street", street: "flop", cards: ["As", "Kd", "2c"] },
  ];
  assert.deepEqual(opponentActionLines(events, 3, name), ["bob raises to 600", "alice folds (time ran out)"]);
  // A spectator hears every action.
  assert.equal(opponentActionLines(events, null, name).length, 3);
  assert.deepEqual(opponentActionLines(undefined, 3, name), []);
});

test("the title alternates between the turn and the page's own title", () => {
  assert.equal(flashingTitle(0, "Room · Hold'em"), TURN_TITLE);
  assert.equal(flashingTitle(1, "Room · Hold'em"), "Room · Hold'em");
  assert.equal(flashingTitle(2, "Room · Hold'em"), TURN_TITLE);
  assert.ok(TURN_TITLE.includes("Your turn"));
});

test("the title flashes through the turn, and after it until the player looks", () => {
  assert.equal(keepsFlashing({ myTurn: true, flashing: false, looking: true }), true);
  assert.equal(keepsFlashing({ myTurn: false, flashing: true, looking: false }), true); // timed out in a hidden tab
  assert.equal(keepsFlashing({ myTurn: false, flashing: true, looking: true }), false);
  assert.equal(keepsFlashing({ myTurn: false, flashing: false, looking: false }), false);
});

test("leaving warns only a player dealt in and still in the hand", () => {
  const me = { user_id: 103, seat: 3, in_hand: true };
  const table = (mine, hand = { street: "flop" }) => ({ hand, seats: [seatRow(0, "alice"), emptySeat(1), emptySeat(2), mine] });
  assert.equal(leavingGivesUpAHand(table(seatRow(3, "dave")), me), true);
  assert.equal(leavingGivesUpAHand(table(seatRow(3, "dave", { folded: true })), me), false);
  assert.equal(leavingGivesUpAHand(table(seatRow(3, "dave"), null), me), false); // between hands
  assert.equal(leavingGivesUpAHand(table(seatRow(3, "dave")), { ...me, in_hand: false }), false); // waiting for the next game
  assert.equal(leavingGivesUpAHand(table(seatRow(3, "dave")), { user_id: 103, seat: null }), false); // watching
  assert.equal(leavingGivesUpAHand(table(seatRow(3, "eve", { user_id: 999 })), me), false); // not our seat any more
  assert.equal(leavingGivesUpAHand(null, me), false);
});
