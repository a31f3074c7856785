import assert from "node:assert/strict";
import { test } from "node:test";

import { centerMessage, connectionText, statusLine, tableFacts } from "../../static/js/messages.js";
import { emptySeat, seatRow, viewOf } from "./view.mjs";

const NOW = 1_796_043_188_342;
const OPTIONS = { structure: "no_limit", blinds: "fixed", min_buy_in: 2000, max_buy_in: 20000, raise_cap: null };

test("the room's facts under its name", () => {
  const table = { options: OPTIONS, stakes: "50/100", hand_number: 3, hand_id: 12, spectators: 2 };
  assert.deepEqual(tableFacts(table, { balance: 5100 }), [
    { text: "No Limit", kind: "badge" }, { text: "Stakes 50/100" }, { text: "Buy-in 2,000–20,000" }, { text: "Hand #12" },
    { text: "2 watching" }, { text: "Wallet 5,100", kind: "wallet" },
  ]);
  const dynamic = { options: { structure: "fixed_limit", blinds: "dynamic", dynamic_blind_percent: 10, min_buy_in: 1, max_buy_in: null, raise_cap: 3 } };
  assert.deepEqual(tableFacts(dynamic, null).map((fact) => fact.text), [
    "Fixed Limit", "Blinds 10% of the short stack", "Buy-in whole balance", "Cap 3 raises", "0 watching",
  ]);
});

test("the connection badge", () => {
  assert.equal(connectionText("open", {}), "Live");
  assert.equal(connectionText("connecting", {}), "Connecting…");
  assert.equal(connectionText("reconnecting", { inMs: 3600 }), "Connection lost · reconnecting in 4s");
  assert.equal(connectionText("reconnecting", { inMs: 200 }), "Connection lost · reconnecting in 1s");
  assert.equal(connectionText("reconnecting", { attempt: 1 }), "Reconnecting…");
  assert.equal(connectionText("stopped", { code: 4401 }), "Signed out · sign in again to play");
  assert.equal(connectionText("stopped", { code: 4008 }), "Open in too many tabs · reload to play here");
  assert.equal(connectionText("stopped", {}), "Offline");
});

const table = (fields = {}) => ({
  status: "open", seats: [seatRow(0, "alice"), seatRow(1, "bob"), emptySeat(2)], hand: null, last_hand: null, countdown: null, ...fields,
});

test("the middle of the felt during a hand: street and blinds", () => {
  const view = viewOf({ table: table({ hand: { street: "turn", small_blind: 50, big_blind: 100 } }) });
  assert.equal(centerMessage(view, NOW), "Turn · Blinds 50/100");
  assert.equal(centerMessage(viewOf({ table: table({ status: "closing", hand: { street: "flop" } }) }), NOW), "This room closes after this hand.");
  assert.equal(centerMessage(viewOf({ table: table({ status: "closed" }) }), NOW), "This room is closed.");
});

test("the middle of the felt after a hand: who won with what, and the countdown", () => {
  const last = { winners: [0, 1], best: { 0: { category: "full_house" } }, uncontested: false };
  const view = viewOf({ table: table({ last_hand: last, countdown: { starts_at: NOW + 11_200 } }) });
  assert.equal(centerMessage(view, NOW), "alice wins with full house, bob wins. Next game in 12s");
  const uncontested = viewOf({ table: table({ last_hand: { ...last, winners: [1], uncontested: true }, countdown: { starts_at: NOW - 1 } }) });
  assert.equal(centerMessage(uncontested, NOW), "bob wins. Dealing…");
});

test("the middle of the felt with too few players", () => {
  const alone = table({ seats: [seatRow(0, "alice"), seatRow(1, "bob", { sitting_out: true }), emptySeat(2)] });
  assert.equal(centerMessage(viewOf({ table: alone }), NOW), "Waiting for players");
  assert.equal(centerMessage(viewOf({ table: table() }), NOW), "");
});

test("the console's status line", () => {
  const line = (you, fields = {}) => statusLine(viewOf({ table: table(fields), you }), NOW);
  assert.equal(statusLine(viewOf({ you: { seat: 0 } }), NOW), "Connecting…");
  const hand = { street: "flop" };
  const turn = { seat: 1, deadline: NOW + 7_500, seconds: 60 };
  assert.equal(line({ seat: 0, in_hand: true }, { hand, turn }), "bob is thinking… 8s");
  assert.equal(line({ seat: 1, in_hand: true }, { hand, turn }), "Waiting for the dealer…");
  assert.equal(line({ seat: 0, in_hand: false }, { hand }), "You join at the next game.");
  assert.equal(line({ seat: 0, in_hand: false, sitting_out: true }, { hand }), "You are sitting out.");
  assert.equal(line({ seat: 0, in_hand: false, waiting_for_big_blind: true }, { hand }), "You are waiting for the big blind, or post one to play the next game.");
  assert.equal(line({ seat: 0, in_hand: false, waiting_for_big_blind: true, wants_to_post: true }, { hand }), "You post a big blind and play the next game.");
  assert.equal(line({ seat: 0, sitting_out: true }), "You are sitting out. Sit in to play the next game.");
  assert.equal(line({ seat: 0, sitting_out: true, sit_out_reason: "idle" }), "You are sitting out.");
  assert.equal(line({ seat: 0 }, { countdown: { starts_at: NOW + 30_000 } }), "Next game in 30s. You can still get up.");
  assert.equal(line({ seat: 0 }, { countdown: { starts_at: NOW } }), "Dealing…");
  assert.equal(line({ seat: 0 }), "Waiting for more players to sit down.");
});

const TOURNAMENT = {
  id: 7, name: "Sit & Go 6", status: "running", results_url: "/tournaments/7/", level: 3, small_blind: 25, big_blind: 50, ante: 0,
  next_level: { level: 4, small_blind: 50, big_blind: 100, ante: 0 }, level_ends_at: NOW + 60_000, players_left: 3, entrants: 6,
  buy_in: 1000, fee: 100, starting_stack: 1500, prize_pool: 6000, prizes: [{ place: 1, prize: 3900 }, { place: 2, prize: 2100 }], finished: [],
};

test("RULES.md 8: a Sit & Go's table says its level and entry, and nobody gets up with its chips", () => {
  const facts = tableFacts({ options: OPTIONS, stakes: "25/50", hand_id: 40, spectators: 1, tournament: TOURNAMENT }, { balance: 900 });
  assert.deepEqual(facts.map((fact) => fact.text), ["Sit & Go", "Level 3 · 25/50", "Buy-in 1,000 + 100", "Prize pool 6,000", "Hand #40", "1 watching", "Wallet 900"]);
  const countdown = { starts_at: NOW + 4_000 };
  assert.equal(statusLine(viewOf({ table: table({ countdown, tournament: TOURNAMENT }), you: { seat: 0 } }), NOW), "Next game in 4s.");
  assert.equal(statusLine(viewOf({ table: table({ countdown }), you: { seat: 0 } }), NOW), "Next game in 4s. You can still get up.");
  const over = { ...TOURNAMENT, status: "finished", level_ends_at: null, players_left: 1, finished: [{ username: "alice", place: 1, prize: 3900 }] };
  assert.equal(centerMessage(viewOf({ table: table({ seats: [seatRow(0, "alice")], tournament: over }) }), NOW), "alice wins the tournament.");
});
