import assert from "node:assert/strict";
import { test } from "node:test";

import { STREET_NAMES, STRUCTURE_NAMES, capitalise, categoryName, chips, signedChips } from "../../static/js/format.js";

test("chips have thousands separators and nothing for a missing amount", () => {
  assert.equal(chips(0), "0");
  assert.equal(chips(999), "999");
  assert.equal(chips(12500), "12,500");
  assert.equal(chips(1234567), "1,234,567");
  assert.equal(chips(null), "");
  assert.equal(chips(undefined), "");
});

test("signed chips carry a plus or a real minus sign, zero none", () => {
  assert.equal(signedChips(1200), "+1,200");
  assert.equal(signedChips(-300), "\u2212300");
  assert.equal(signedChips(0), "0");
  assert.equal(signedChips(null), "0");
});

test("engine categories read as players say them", () => {
  assert.equal(categoryName("one pair"), "Pair");
  assert.equal(categoryName("one_pair"), "Pair");
  assert.equal(categoryName("two_pair"), "Two pair");
  assert.equal(categoryName("FOUR_OF_A_KIND"), "Four of a kind");
  assert.equal(categoryName("royal flush"), "Royal flush");
  assert.equal(categoryName("high card"), "High card");
  assert.equal(categoryName(""), "");
  assert.equal(categoryName(null), "");
});

test("structure and street names", () => {
  assert.equal(STRUCTURE_NAMES.pot_limit, "Pot Limit");
  assert.equal(STREET_NAMES.preflop, "Pre-flop");
  assert.equal(STREET_NAMES.river, "River");
});

test("capitalise makes only the first letter a capital", () => {
  assert.equal(capitalise("minimum raise is to 400"), "Minimum raise is to 400");
  assert.equal(capitalise(""), "");
  assert.equal(capitalise("x"), "X");
});
