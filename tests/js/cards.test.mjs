import assert from "node:assert/strict";
import { test } from "node:test";

import { cardBackChoices, cardBackDesign, cardsInSymbols, cardsInWords, parseCard } from "../../static/js/cards.js";

test("a card code parses to rank, suit, symbol and words", () => {
  assert.deepEqual(parseCard("Td"), { code: "Td", rank: "10", suit: "d", symbol: "\u2666", label: "ten of diamonds" });
  assert.deepEqual(parseCard("As"), { code: "As", rank: "A", suit: "s", symbol: "\u2660", label: "ace of spades" });
  assert.equal(parseCard("2c").label, "two of clubs");
  assert.equal(parseCard("Qh").symbol, "\u2665");
});

test("card codes are read case-insensitively and normalised", () => {
  assert.equal(parseCard("kH").code, "Kh");
  assert.equal(parseCard("tS").label, "ten of spades");
});

test("anything that is not a card code parses to null", () => {
  for (const bad of ["", "A", "Asd", "1s", "10s", "Ax", "ZZ", "s9", " A", null, undefined, 42, ["A", "s"], { rank: "A" }]) {
    assert.equal(parseCard(bad), null, `parseCard(${JSON.stringify(bad)})`);
  }
});

test("cards in words and in symbols; an unknown code is kept as it came", () => {
  assert.equal(cardsInWords(["As", "Kd"]), "ace of spades, king of diamonds");
  assert.equal(cardsInWords(["As", "??"]), "ace of spades, ??");
  assert.equal(cardsInWords(null), "");
  assert.equal(cardsInSymbols(["As", "Td", "7c"]), "A\u2660 10\u2666 7\u2663");
  assert.equal(cardsInSymbols(["9h", "xx"]), "9\u2665 xx");
  assert.equal(cardsInSymbols(undefined), "");
});

test("card backs are the ones the snapshot offers", () => {
  const you = { card_back: "red", card_backs: [["classic", "Classic blue"], ["red", "Red"], ["black", "Black"]] };
  assert.deepEqual(cardBackChoices(you), [
    { value: "classic", label: "Classic blue" }, { value: "red", label: "Red" }, { value: "black", label: "Black" },
  ]);
  assert.equal(cardBackDesign(you), "red");
});

test("without card backs in the snapshot only the classic back is offered and drawn", () => {
  const classicOnly = [{ value: "classic", label: "Classic blue" }];
  assert.deepEqual(cardBackChoices(null), classicOnly);
  assert.deepEqual(cardBackChoices({ card_back: "red" }), classicOnly);
  assert.deepEqual(cardBackChoices({ card_backs: [] }), classicOnly);
  assert.equal(cardBackDesign({ card_back: "red" }), "classic");
  assert.equal(cardBackDesign(null), "classic");
});

test("a malformed or unsafe card back is left out, and a design not offered is drawn classic", () => {
  const you = {
    card_back: "gold",
    card_backs: [["green", "Green"], ["x\" onclick=\"", "Evil"], ["Gold Leaf", "Gold"], ["blue"], "red", [7, "Seven"], ["black", null]],
  };
  assert.deepEqual(cardBackChoices(you), [{ value: "green", label: "Green" }]);
  assert.equal(cardBackDesign(you), "classic");
  assert.equal(cardBackDesign({ ...you, card_back: "green" }), "green");
});
