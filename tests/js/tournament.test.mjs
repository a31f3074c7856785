// A Sit & Go's table panel (static/js/tournament.js): the level and the next one with the time
// until it, the players left, the prizes and a player's own finish.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  blindsText,
  clockText,
  finishOf,
  finishTitle,
  finishWords,
  levelCountdownText,
  levelSecondsLeft,
  levelText,
  nextLevelText,
  overText,
  playersLeftText,
  prizeRows,
  tournamentFacts,
  winnerOf,
} from "../../static/js/tournament.js";

const NOW = 1_796_043_188_342;

const panel = (fields = {}) => ({
  id: 7,
  name: "Sit & Go 6",
  status: "running",
  results_url: "/tournaments/7/",
  level: 7,
  small_blind: 100,
  big_blind: 200,
  ante: 25,
  next_level: { level: 8, small_blind: 150, big_blind: 300, ante: 25 },
  level_ends_at: NOW + 245_000,
  players_left: 4,
  entrants: 6,
  buy_in: 1000,
  fee: 100,
  starting_stack: 1500,
  prize_pool: 6000,
  prizes: [{ place: 1, prize: 3900 }, { place: 2, prize: 2100 }],
  finished: [{ username: "dave", place: 5, prize: 0 }, { username: "erin", place: 6, prize: 0 }],
  ...fields,
});

test("RULES.md 8: the table shows the level with its blinds and ante, and the level after it", () => {
  assert.equal(levelText(panel()), "Level 7 · 100/200 ante 25");
  assert.equal(levelText(panel({ level: 1, small_blind: 10, big_blind: 20, ante: 0 })), "Level 1 · 10/20");
  assert.equal(nextLevelText(panel()), "Level 8 · 150/300 ante 25");
  assert.equal(nextLevelText(panel({ next_level: null })), "");
  assert.equal(blindsText({ small_blind: 1000, big_blind: 2000, ante: 250 }), "1,000/2,000 ante 250");
});

test("RULES.md 8: how long until the next level starts, by the server's clock", () => {
  assert.equal(levelSecondsLeft(panel(), NOW), 245);
  assert.equal(levelCountdownText(panel(), NOW), "in 4:05");
  assert.equal(levelCountdownText(panel(), NOW + 244_001), "in 0:01");
  // The level changes from the next hand dealt: at zero, say so rather than count below it.
  assert.equal(levelCountdownText(panel(), NOW + 300_000), "with the next hand");
  // Finished: the clock has stopped.
  assert.equal(levelSecondsLeft(panel({ status: "finished", level_ends_at: null }), NOW), null);
  assert.equal(levelCountdownText(panel({ status: "finished", level_ends_at: null }), NOW), "");
  assert.equal(clockText(3_729), "1:02:09");
  assert.equal(clockText(-5), "0:00");
});

test("the players left, and the prizes with who took each once it is settled", () => {
  assert.equal(playersLeftText(panel()), "4 of 6 players left");
  assert.deepEqual(prizeRows(panel()), [
    { place: "1st", prize: "3,900", username: null },
    { place: "2nd", prize: "2,100", username: null },
  ]);
  const over = panel({ status: "finished", players_left: 1, finished: [{ username: "ann", place: 1, prize: 3900 }, { username: "bob", place: 2, prize: 2100 }] });
  assert.deepEqual(prizeRows(over).map((row) => row.username), ["ann", "bob"]);
  // Over, the winner has a place too: nobody is "left".
  assert.equal(playersLeftText({ ...over, players_left: 0 }), "6 entrants");
});

test("RULES.md 8: a player out sees their place, and their prize when there is one", () => {
  assert.deepEqual(finishOf(panel(), "dave"), { place: 5, prize: 0, won: false });
  assert.equal(finishWords(finishOf(panel(), "dave")), "You finished 5th");
  assert.equal(finishWords({ place: 2, prize: 2100, won: false }), "You finished 2nd and won 2,100 chips");
  assert.equal(finishWords({ place: 1, prize: 3900, won: true }), "You won the tournament and 3,900 chips");
  assert.equal(finishTitle({ place: 1, prize: 3900, won: true }), "You won the tournament");
  assert.equal(finishTitle({ place: 2, prize: 2100, won: false }), "You finished 2nd");
  // Still in, or only watching: no finish.
  assert.equal(finishOf(panel(), "ann"), null);
  assert.equal(finishOf(panel(), ""), null);
  assert.equal(finishOf(null, "ann"), null);
  assert.equal(finishWords(null), "");
});

test("the winner is named once the tournament is over", () => {
  assert.equal(winnerOf(panel()), null);
  const over = panel({ status: "finished", finished: [{ username: "ann", place: 1, prize: 3900 }] });
  assert.equal(winnerOf(over), "ann");
  assert.equal(overText(over), "ann wins the tournament.");
  assert.equal(overText(panel({ status: "finished", finished: [] })), "The tournament is over.");
});

test("a tournament table's facts name the level, the entry and the pool, not cash stakes", () => {
  const facts = tournamentFacts(panel(), { hand_id: 31, spectators: 2 }).map((fact) => fact.text);
  assert.deepEqual(facts, ["Sit & Go", "Level 7 · 100/200 ante 25", "Buy-in 1,000 + 100", "Prize pool 6,000", "Hand #31", "2 watching"]);
});
