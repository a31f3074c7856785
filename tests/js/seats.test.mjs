import assert from "node:assert/strict";
import { test } from "node:test";

import {
  SEAT_STATE_LABELS, anchorSeat, halfOf, isDeciding, isHigh, lastHandName, placement, rowOf, seatStateOf, seatStatus, seatSummary,
  seatTags, shownAtShowdown, splitAction, stateLabel, winningCards,
} from "../../static/js/seats.js";
import { emptySeat, seatRow, viewOf } from "./view.mjs";

test("an empty seat is open to a viewer who may sit, else closed", () => {
  assert.equal(seatStateOf(emptySeat(4), viewOf({ canSit: true })), "open");
  assert.equal(seatStateOf(emptySeat(4), viewOf({ canSit: false })), "closed");
});

test("your own seat after a game or before the next one is drawn as yours", () => {
  const you = { seat: 2 };
  assert.equal(seatStateOf(seatRow(2, "alice", { state: "post_game" }), viewOf({ you })), "mine_post_game");
  assert.equal(seatStateOf(seatRow(2, "alice", { state: "waiting_next_game" }), viewOf({ you })), "mine_waiting_next");
  assert.equal(seatStateOf(seatRow(3, "bob", { state: "post_game" }), viewOf({ you })), "waiting");
  assert.equal(seatStateOf(seatRow(3, "bob", { state: "waiting_next_game" }), viewOf({ you })), "waiting_next_game");
});

test("the server's seat states pass through; an unknown one reads as waiting", () => {
  for (const state of ["betting", "all_in", "folded", "winner", "disconnected", "sitting_out", "waiting"]) {
    assert.equal(seatStateOf(seatRow(1, "bob", { state }), viewOf()), state);
  }
  assert.equal(seatStateOf(seatRow(1, "bob", { state: "levitating" }), viewOf()), "waiting");
  assert.equal(SEAT_STATE_LABELS.mine_post_game, "Your seat · game over");
  assert.equal(Object.keys(SEAT_STATE_LABELS).length, 12);
});

test("your seat is at the bottom, and seats go round clockwise from it", () => {
  assert.equal(anchorSeat(viewOf({ you: { seat: 4 } })), 4);
  assert.equal(anchorSeat(viewOf({ you: { seat: null } })), 0);
  assert.equal(anchorSeat(viewOf()), 0);
  assert.deepEqual(placement(4, 6, 4), { sin: "0.0000", cos: "1.0000", index: 0 });
  assert.deepEqual(placement(5, 6, 4), { sin: "0.8660", cos: "0.5000", index: 1 });
  assert.deepEqual(placement(1, 6, 4), { sin: "0.0000", cos: "-1.0000", index: 3 });
  assert.deepEqual(placement(1, 4, 0), { sin: "1.0000", cos: "0.0000", index: 1 });
});

test("a seat's row on the oval", () => {
  assert.equal(rowOf(placement(0, 6, 0)), "lower");
  assert.equal(rowOf(placement(1, 6, 0)), "lower"); // cos 0.5
  assert.equal(rowOf(placement(3, 6, 0)), "upper");
  assert.equal(rowOf(placement(2, 4, 0)), "upper");
  assert.equal(rowOf(placement(1, 4, 0)), "side");
});

const showdownTable = (overrides = {}) => ({
  button: 1,
  seats: [seatRow(0, "alice"), seatRow(1, "bob"), emptySeat(2)],
  hand: null,
  last_hand: {
    number: 7,
    winners: [1],
    shown: { 1: ["Ah", "Kh"], 2: ["2c", "2d"] },
    best: { 0: { category: "one_pair", cards: ["Qs", "Qd", "9c", "8c", "3h"] }, 1: { category: "flush", cards: ["Ah", "Kh", "9h", "5h", "2h"] } },
    net: { 0: -400, 1: 400 },
    players: { 0: { user_id: 100, username: "alice" }, 1: { user_id: 101, username: "bob" }, 2: { user_id: 102, username: "cid" } },
    undecided: [0],
  },
  ...overrides,
});

test("the winning cards are the best five of each winner only", () => {
  assert.deepEqual([...winningCards(viewOf({ table: showdownTable() }))], ["Ah", "Kh", "9h", "5h", "2h"]);
  const hand = { button: 0, board: [] };
  assert.equal(winningCards(viewOf({ table: showdownTable({ hand }) })).size, 0);
  assert.equal(winningCards(viewOf({ table: { seats: [], hand: null, last_hand: null } })).size, 0);
});

test("cards shown at the showdown stay with the seat's player, never an empty seat or a newcomer", () => {
  const table = showdownTable();
  assert.deepEqual(shownAtShowdown(table.seats[1], viewOf({ table })), ["Ah", "Kh"]);
  assert.equal(shownAtShowdown(table.seats[0], viewOf({ table })), null);
  // Seat 2 emptied at the end of the hand (its player left or busted): it shows nothing of them.
  assert.equal(shownAtShowdown(emptySeat(2), viewOf({ table })), null);
  const newcomer = seatRow(1, "zed", { user_id: 999 });
  const taken = { ...table, seats: [table.seats[0], newcomer, emptySeat(2)] };
  assert.equal(shownAtShowdown(newcomer, viewOf({ table: taken })), null);
  // Nor the hand, the net or the button of the one who sat there.
  assert.deepEqual(seatStatus(newcomer, seatStateOf(newcomer, viewOf({ table: taken })), viewOf({ table: taken })),
    { kind: "label", text: "Waiting", short: "Waiting" });
  assert.deepEqual(seatTags(newcomer, viewOf({ table: taken })), []);
  assert.deepEqual(seatTags(table.seats[1], viewOf({ table })), ["D"]);
  // The pot's winner is still named, from who played the hand.
  assert.equal(lastHandName(viewOf({ table: taken }), 1), "bob");
  // A replay's result has no `players`: everyone on its felt played the hand.
  const { players, ...replayed } = table.last_hand;
  assert.ok(players);
  assert.deepEqual(shownAtShowdown(table.seats[1], viewOf({ table: { ...table, last_hand: replayed } })), ["Ah", "Kh"]);
});

test("a seat still choosing Show or Muck is deciding", () => {
  const table = showdownTable();
  assert.equal(isDeciding(table.seats[0], viewOf({ table })), true);
  assert.equal(isDeciding(table.seats[1], viewOf({ table })), false);
});

test("dealer button and blind tags", () => {
  const hand = { button: 0, small_blind_seat: 1, big_blind_seat: 2 };
  const table = { button: 2, seats: [], hand };
  assert.deepEqual(seatTags(seatRow(0, "a"), viewOf({ table })), ["D"]);
  assert.deepEqual(seatTags(seatRow(1, "b"), viewOf({ table })), ["SB"]);
  assert.deepEqual(seatTags(seatRow(2, "c"), viewOf({ table })), ["BB"]);
  // Between hands the table's button counts; there are no blinds.
  assert.deepEqual(seatTags(seatRow(2, "c"), viewOf({ table: { ...table, hand: null } })), ["D"]);
  // Heads-up: the button posts the small blind.
  const headsUp = { button: 0, seats: [], hand: { button: 0, small_blind_seat: 0, big_blind_seat: 1 } };
  assert.deepEqual(seatTags(seatRow(0, "a"), viewOf({ table: headsUp })), ["D", "SB"]);
});

test("a seat in one sentence for screen readers", () => {
  const table = showdownTable();
  assert.equal(seatSummary(seatRow(3, "dave", { stack: 12500 }), "betting", viewOf({ table: { ...table, last_hand: null } })),
    "Seat 4: dave, 12,500 chips, To act");
  assert.equal(seatSummary(seatRow(3, "dave", { protected: true }), "all_in", viewOf({ table })),
    "Seat 4: dave, 5,000 chips, All in, all-in protected");
  assert.equal(seatSummary(table.seats[0], "waiting", viewOf({ table })),
    "Seat 1: alice, 5,000 chips, Waiting, deciding whether to show");
});

test("the status line under a seat", () => {
  const table = showdownTable();
  const view = viewOf({ table, you: { seat: 1 } });
  assert.deepEqual(seatStatus(table.seats[0], "waiting", view), { kind: "deciding" });
  assert.deepEqual(seatStatus(seatRow(2, "c", { protected: true }), "disconnected", viewOf({ table: { ...table, last_hand: null } })),
    { kind: "protected", label: "Disconnected", short: "Offline" });
  assert.deepEqual(seatStatus(table.seats[1], "winner", view), { kind: "winner", net: 400 });
  assert.deepEqual(seatStatus(seatRow(1, "bob", { net: 250 }), "winner", view), { kind: "winner", net: 250 });
  assert.deepEqual(seatStatus(table.seats[1], "mine_post_game", view), { kind: "hand", category: "Flush", short: "Flush", net: 400 });
  const noBest = { ...table, last_hand: { ...table.last_hand, best: {}, undecided: [] } };
  assert.deepEqual(seatStatus(table.seats[0], "waiting", viewOf({ table: noBest })), { kind: "net", net: -400 });
  assert.deepEqual(seatStatus(seatRow(5, "erin"), "waiting", viewOf({ table: noBest })), { kind: "label", text: "Waiting", short: "Waiting" });
});

test("during a hand a waiting seat shows its last action, or that it waits for the big blind", () => {
  const table = { button: 0, seats: [], hand: { button: 0 }, last_hand: null };
  const view = viewOf({ table, lastActions: { 2: "Raise to 600" } });
  assert.deepEqual(seatStatus(seatRow(2, "c"), "waiting", view), { kind: "last_action", text: "Raise to 600", verb: "Raise", amount: " to 600" });
  assert.deepEqual(seatStatus(seatRow(3, "d", { waiting_for_big_blind: true }), "waiting", view),
    { kind: "label", text: "Waits for big blind", short: "Waits for BB" });
  assert.deepEqual(seatStatus(seatRow(3, "d"), "folded", view), { kind: "label", text: "Folded", short: "Folded" });
});

test("the one to act reads To act; the others still in the hand never read Waiting", () => {
  const table = { button: 0, seats: [], hand: { button: 0, to_act: 1 }, last_hand: null };
  const view = viewOf({ table });
  assert.deepEqual(seatStatus(seatRow(1, "b"), "betting", view), { kind: "label", text: "To act", short: "To act" });
  // Dealt in, nothing done yet this round (a new street clears lastActions): in the hand.
  assert.deepEqual(seatStatus(seatRow(2, "c"), "waiting", view), { kind: "label", text: "In hand", short: "In hand" });
  assert.equal(stateLabel(seatRow(2, "c"), "waiting", view), "In hand");
  // Your own seat mid-hand is the same.
  assert.deepEqual(seatStatus(seatRow(2, "c"), "waiting", viewOf({ table, you: { seat: 2 } })), { kind: "label", text: "In hand", short: "In hand" });
  // Sat out from the next hand, but dealt into this one: still in it.
  assert.deepEqual(seatStatus(seatRow(4, "e", { sitting_out: true }), "waiting", view), { kind: "label", text: "In hand", short: "In hand" });
  // Seated after the deal: waits for the next game; between hands: waits.
  assert.deepEqual(seatStatus(seatRow(3, "d", { in_hand: false }), "waiting_next_game", view), { kind: "label", text: "Next game", short: "Next game" });
  const between = { ...table, hand: null };
  assert.deepEqual(seatStatus(seatRow(2, "c", { in_hand: false }), "waiting", viewOf({ table: between })), { kind: "label", text: "Waiting", short: "Waiting" });
  assert.equal(stateLabel(seatRow(2, "c", { in_hand: false }), "waiting", viewOf({ table: between })), "Waiting");
});

test("a player in the hand is told apart in the screen reader sentence too", () => {
  const table = { button: 0, seats: [], hand: { button: 0, to_act: 1 }, last_hand: null };
  assert.equal(seatSummary(seatRow(2, "carol"), "waiting", viewOf({ table })), "Seat 3: carol, 5,000 chips, In hand");
  assert.equal(seatSummary(seatRow(2, "carol"), "waiting", viewOf({ table, lastActions: { 2: "Call 100" } })),
    "Seat 3: carol, 5,000 chips, In hand, last action Call 100");
  assert.equal(seatSummary(seatRow(1, "bob"), "betting", viewOf({ table })), "Seat 2: bob, 5,000 chips, To act");
});

test("the status line fits a phone's seat box: short words, the verb of the last action", () => {
  const table = { button: 0, seats: [], hand: null, last_hand: null };
  const view = viewOf({ table, you: { seat: 2 } });
  // Your own seat is drawn as yours already: its status line says only what happens.
  assert.deepEqual(seatStatus(seatRow(2, "c"), "mine_post_game", view), { kind: "label", text: "Game over", short: "Game over" });
  assert.deepEqual(seatStatus(seatRow(2, "c"), "mine_waiting_next", view), { kind: "label", text: "Next game", short: "Next game" });
  assert.deepEqual(seatStatus(seatRow(3, "d"), "disconnected", view), { kind: "label", text: "Disconnected", short: "Offline" });
  const shown = { ...table, last_hand: { winners: [1], best: { 3: { category: "three_of_a_kind", cards: [] } }, net: { 3: -300 } } };
  assert.deepEqual(seatStatus(seatRow(3, "d"), "waiting", viewOf({ table: shown })),
    { kind: "hand", category: "Three of a kind", short: "Trips", net: -300 });
  assert.deepEqual(splitAction("Raise to 12,500"), { verb: "Raise", amount: " to 12,500" });
  assert.deepEqual(splitAction("All in 1,950"), { verb: "All in", amount: " 1,950" });
  assert.deepEqual(splitAction("Call 100"), { verb: "Call", amount: " 100" });
  assert.deepEqual(splitAction("Check"), { verb: "Check", amount: "" });
});

test("which half of the oval a seat is on, and whether it is above the middle line", () => {
  assert.equal(halfOf(placement(0, 6, 0)), "middle");
  assert.equal(halfOf(placement(1, 6, 0)), "left"); // clockwise from the bottom: up the left side
  assert.equal(halfOf(placement(5, 6, 0)), "right");
  assert.equal(halfOf(placement(3, 6, 0)), "middle");
  assert.equal(isHigh(placement(2, 6, 0)), true);
  assert.equal(isHigh(placement(1, 6, 0)), false);
  assert.equal(isHigh(placement(2, 10, 0)), false); // a side seat just below the middle line
  assert.equal(isHigh(placement(3, 10, 0)), true);
});

test("the dealer button is named in the screen reader sentence", () => {
  const table = { button: 3, seats: [], hand: null, last_hand: null };
  assert.equal(seatSummary(seatRow(3, "dave"), "waiting", viewOf({ table })), "Seat 4: dave, 5,000 chips, Waiting, dealer button");
});
