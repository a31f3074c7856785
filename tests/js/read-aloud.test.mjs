// The table read aloud on demand: the keys (shortcuts.js) and the words (read-aloud.js).

import assert from "node:assert/strict";
import { test } from "node:test";

import { boardWords, handWords, potWords, readAloud, stackWords, timeWords } from "../../static/js/read-aloud.js";
import { READ_ALOUD_KEYS, TABLE_KEYS, readAloudFor, shortcutFor } from "../../static/js/shortcuts.js";

const NOW = 1_800_000_000_000;

// Three players; we sit in seat 2 (shown as seat 3), bob's cards are public only as `has_cards`.
function inHand({ board = [], currentBet = 300, mine = {}, turn = {}, pots = [{ amount: 600, eligible: [0, 2, 4] }] } = {}) {
  const me = { seat: 2, stack: 1_700, bet: 100, committed: 200, folded: false, all_in: false, has_cards: true, ...mine };
  return {
    hand: {
      street: "flop", board, current_bet: currentBet, pot_total: 1_200, pots,
      seats: [
        { seat: 0, stack: 1_500, bet: 300, committed: 400, folded: false, all_in: false, has_cards: true },
        me,
        { seat: 4, stack: 0, bet: 0, committed: 500, folded: false, all_in: true, has_cards: true },
      ],
    },
    seats: [
      { number: 0, occupied: true, username: "alice", stack: 1_500, bet: 300, time_bank: 30 },
      { number: 1, occupied: false },
      { number: 2, occupied: true, username: "me", stack: me.stack, bet: me.bet, folded: me.folded, time_bank: 90 },
      { number: 4, occupied: true, username: "bob", stack: 0, all_in: true, time_bank: 12, disconnected: true },
    ],
    turn: { seat: 2, deadline: NOW + 41_200, seconds: 180, token: "t", bank_from: null, ...turn },
    countdown: null,
    last_hand: null,
  };
}

const you = (extra = {}) => ({ seat: 2, hole: ["As", "Kd"], legal: null, ...extra });

test("your hand is said in words, and only yours", () => {
  assert.equal(handWords(inHand(), you()), "Your hand: ace of spades, king of diamonds.");
  assert.equal(handWords(inHand({ mine: { folded: true } }), you()), "Your hand: ace of spades, king of diamonds. You folded.");
  // A seat's cards in the public table (shown at a showdown) are never "your hand".
  const table = inHand();
  table.seats[0].hole = ["Qh", "Qc"];
  table.hand.seats[0].hole = ["Qh", "Qc"];
  assert.doesNotMatch(handWords(table, you()), /queen/);
  assert.equal(handWords(table, { seat: null, hole: null }), "You are watching: you have no cards.");
  assert.equal(handWords(table, null), "You are watching: you have no cards.");
  assert.equal(handWords(table, you({ hole: null })), "You are not dealt in this hand.");
  assert.equal(handWords({ ...table, hand: null }, you()), "Your last hand: ace of spades, king of diamonds.");
  assert.equal(handWords({ ...table, hand: null }, you({ hole: null })), "No hand in play: you have no cards.");
});

test("the board in words, before the flop, and the last hand's between hands", () => {
  assert.equal(boardWords(inHand({ board: ["2c", "Th", "Jd"] })), "Board: two of clubs, ten of hearts, jack of diamonds.");
  assert.equal(boardWords(inHand()), "Board: no cards yet, before the flop.");
  const after = { ...inHand(), hand: null, last_hand: { board: ["2c", "Th", "Jd", "3s", "9s"] } };
  assert.equal(boardWords(after), "Last hand's board: two of clubs, ten of hearts, jack of diamonds, three of spades, nine of spades.");
  assert.equal(boardWords({ ...after, last_hand: { board: [] } }), "The last hand ended before the flop.");
  assert.equal(boardWords({ hand: null, last_hand: null }), "No hand in play: no board.");
});

test("the pot and what you owe: to call, nothing, short, folded, all in, watching", () => {
  assert.equal(potWords(inHand(), you()), "Pot 1,200; you owe 200 to call.");
  // On your turn the legal actions' current bet is the one that counts.
  assert.equal(potWords(inHand(), you({ legal: { current_bet: 400, to_call: 300 } })), "Pot 1,200; you owe 300 to call.");
  assert.equal(potWords(inHand({ currentBet: 100 }), you()), "Pot 1,200; nothing to call.");
  assert.equal(potWords(inHand({ mine: { stack: 150 } }), you()), "Pot 1,200; you owe 200: calling puts you all in for 150.");
  assert.equal(potWords(inHand({ mine: { folded: true } }), you()), "Pot 1,200; you folded.");
  assert.equal(potWords(inHand({ mine: { all_in: true, stack: 0 } }), you()), "Pot 1,200; you are all in.");
  assert.equal(potWords(inHand(), { seat: null }), "Pot 1,200.");
  const sides = inHand({ pots: [{ amount: 600 }, { amount: 300 }, { amount: 0 }] });
  assert.equal(potWords(sides, you()), "Pot 1,200 (main 600, side 1 300); you owe 200 to call.");
  assert.equal(potWords({ hand: null }, you()), "No hand in play: no pot, nothing to call.");
});

test("the stacks in seat order, you as you, with what each has bet and where they stand", () => {
  assert.equal(
    stackWords(inHand(), you()),
    "Stacks: alice 1,500, bet 300; you 1,700, bet 100; bob 0, all in, disconnected.",
  );
  assert.equal(stackWords(inHand(), { seat: null }).split("; ")[1], "me 1,700, bet 100");
  assert.equal(stackWords({ seats: [{ number: 0, occupied: false }] }, you()), "Nobody is seated.");
});

test("the time left: your turn, another's, the time bank, the countdown, Show or Muck", () => {
  // Your own bank is said after your turn's clock: it is the time behind it.
  assert.equal(timeWords(inHand(), you(), NOW), "Your turn: 42 seconds left. Your time bank: 90 seconds.");
  const theirs = inHand({ turn: { seat: 0, deadline: NOW + 1_000 } });
  assert.equal(timeWords(theirs, you(), NOW), "alice's turn: 1 second left. Your time bank: 90 seconds.");
  const banked = inHand({ turn: { seat: 0, bank_from: NOW - 5_000, deadline: NOW + 25_000 } });
  assert.equal(timeWords(banked, { seat: null }, NOW), "alice's turn on the time bank: 25 seconds left.");
  const mineBanked = inHand({ turn: { bank_from: NOW - 5_000, deadline: NOW + 85_000 } });
  assert.equal(timeWords(mineBanked, you(), NOW), "Your turn on the time bank: 85 seconds left.");
  const between = { ...inHand(), hand: null, turn: null, countdown: { starts_at: NOW + 9_500 } };
  assert.equal(timeWords(between, you(), NOW), "Next game in 10 seconds. Your time bank: 90 seconds.");
  const deciding = { ...between, last_hand: { board: [], decide_by: NOW + 7_000 } };
  assert.equal(timeWords(deciding, { seat: null }, NOW), "7 seconds to show or muck.");
  assert.equal(timeWords({ seats: [], hand: null, turn: null, countdown: null }, null, NOW), "No clock is running.");
});

test("readAloud picks the words for each key; an unknown request says nothing", () => {
  const table = inHand();
  assert.equal(readAloud("hand", table, you(), NOW), handWords(table, you()));
  assert.equal(readAloud("board", table, you(), NOW), boardWords(table));
  assert.equal(readAloud("pot", table, you(), NOW), potWords(table, you()));
  assert.equal(readAloud("stacks", table, you(), NOW), stackWords(table, you()));
  assert.equal(readAloud("time", table, you(), NOW), timeWords(table, you(), NOW));
  assert.equal(readAloud("cards of seat 0", table, you(), NOW), null);
});

test("Alt+1..Alt+5 by the physical key ask for the hand, board, pot, stacks and time", () => {
  const alt = (code, extra = {}) => readAloudFor({ code, altKey: true, ...extra });
  assert.deepEqual(["Digit1", "Digit2", "Digit3", "Digit4", "Digit5"].map((code) => alt(code)), ["hand", "board", "pot", "stacks", "time"]);
  assert.equal(alt("Digit6"), null);
  assert.equal(alt("Numpad1"), null); // Alt+number pad types characters on Windows
  assert.equal(readAloudFor({ code: "Digit1", altKey: false }), null); // a plain 1: the screen reader's heading key
  assert.equal(alt("Digit1", { ctrlKey: true }), null); // AltGr, or the browser's Ctrl+Alt
  assert.equal(alt("Digit1", { shiftKey: true }), null);
  assert.equal(alt("Digit1", { metaKey: true }), null);
  assert.equal(readAloudFor({ code: "Digit1", altKey: true }, { typing: true }), null); // the chat box
});

test("the read-aloud keys clash with no console shortcut, and the keyboard help lists every key", () => {
  const legal = { actions: ["fold", "call", "raise", "all_in"], min_to: 400, max_to: 2_000 };
  for (const state of ["call_bet", "start_bet", "show_or_muck", "raise", "confirm_fold"]) {
    for (const { keys } of READ_ALOUD_KEYS) {
      // The console leaves digits alone (and ignores any key with Alt held: console.js).
      assert.equal(shortcutFor(keys.slice(-1), { state, legal }), null, `${keys} in ${state}`);
    }
  }
  const listed = TABLE_KEYS.map((entry) => entry.keys);
  for (const keys of ["F", "C", "R", "Enter", "Escape", "S / M", "Alt+1", "Alt+2", "Alt+3", "Alt+4", "Alt+5"]) {
    assert.ok(listed.includes(keys), `${keys} is in the keyboard help`);
  }
  assert.equal(new Set(READ_ALOUD_KEYS.map((entry) => entry.code)).size, READ_ALOUD_KEYS.length);
});
