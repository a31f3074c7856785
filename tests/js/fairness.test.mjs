// The hand page's Verify (static/js/fairness.js) against the server's own scheme: a reveal made by
// holdem/engine/commitment.py (tests/js/fixtures/fairness-hand.json; tests/engine/test_commitment.py
// checks the same file) verifies, and every kind of tampering is named.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { dealPositions, sha256Hex, verifyHand } from "../../static/js/fairness.js";

const HAND = JSON.parse(readFileSync(new URL("./fixtures/fairness-hand.json", import.meta.url), "utf8"));
const copy = () => JSON.parse(JSON.stringify(HAND));

test("sha256Hex is SHA-256, for short and multi-block inputs", () => {
  for (const text of ["", "abc", "x".repeat(55), "y".repeat(56), "z".repeat(64), "0123456789abcdef".repeat(208)]) {
    assert.equal(sha256Hex(text), createHash("sha256").update(text).digest("hex"), `length ${text.length}`);
  }
});

test("the deal order matches the engine's", () => {
  const where = dealPositions([0, 3, 5], 3);
  assert.deepEqual([where["5:0"], where["0:0"], where["3:0"], where["5:1"]], [0, 1, 2, 3]);
  assert.deepEqual([0, 1, 2, 3, 4].map((i) => where[`board:${i}`]), [7, 8, 9, 11, 13]);
});

test("the server's reveal verifies", () => {
  const verdict = verifyHand(HAND);
  assert.deepEqual(verdict.problems, []);
  assert.equal(verdict.ok, true);
  assert.equal(verdict.revealed, 7);
});

test("a changed card, a changed commitment or a board card at another place is named", () => {
  const card = copy();
  const river = card.cards.findIndex((entry) => entry.card === card.board[4]);
  const other = card.board[4] === "2c" ? "3c" : "2c";
  card.cards[river].card = other;
  card.board[4] = other;
  assert.match(verifyHand(card).problems.join(" "), /do not hash to the commitment/);

  const commitment = copy();
  commitment.commitment = commitment.commitment.replace(/^./, (c) => (c === "0" ? "1" : "0"));
  assert.equal(verifyHand(commitment).ok, false);

  const moved = copy();
  moved.board = [moved.board[1], moved.board[0], ...moved.board.slice(2)];
  const verdict = verifyHand(moved);
  assert.equal(verdict.ok, false);
  assert.match(verdict.problems[0], /should be at deck position 7/);
});
