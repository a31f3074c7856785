import assert from "node:assert/strict";
import { test } from "node:test";

import { closingLines, engineLines, lastActionText, pastActionLine, tableLines } from "../../static/js/log.js";

const NAMES = { 0: "alice", 1: "bob", 2: "carol" };
const name = (seat) => NAMES[seat] || `Seat ${seat + 1}`;
const texts = (lines) => lines.map((line) => line.text);

test("a new hand names its number, blinds and button", () => {
  assert.deepEqual(engineLines({ kind: "hand_started", small_blind: 50, big_blind: 100, button: 2 }, name, 12), [
    { text: "Hand #12 · blinds 50/100 · carol has the button", kind: "start" },
  ]);
  assert.equal(engineLines({ kind: "hand_started", small_blind: 1000, big_blind: 2000, button: 0 }, name, null)[0].text,
    "New hand · blinds 1,000/2,000 · alice has the button");
});

test("blinds posted say which blind and whether all in", () => {
  const post = (blind, extra = {}) => texts(engineLines({ kind: "blind_posted", seat: 1, blind, amount: 100, ...extra }, name, 3));
  assert.deepEqual(post("small"), ["bob posts small blind 100"]);
  assert.deepEqual(post("big", { all_in: true }), ["bob posts big blind 100 (all in)"]);
  assert.deepEqual(post("post"), ["bob posts a big blind 100"]);
  assert.deepEqual(post("dead"), ["bob posts a dead small blind 100"]);
  assert.deepEqual(post("straddle"), ["bob posts a blind 100"]);
});

test("actions read as sentences, with why a fold or check was automatic", () => {
  const act = (fields) => engineLines({ kind: "action", seat: 0, ...fields }, name, 1)[0];
  assert.deepEqual(act({ action: "fold" }), { text: "alice folds", kind: "fold" });
  assert.equal(act({ action: "fold", reason: "timeout" }).text, "alice folds (time ran out)");
  assert.equal(act({ action: "check", reason: "disconnect" }).text, "alice checks (disconnected)");
  assert.equal(act({ action: "call", amount: 1500 }).text, "alice calls 1,500");
  assert.equal(act({ action: "call", amount: 80, all_in: true }).text, "alice calls 80 and is all in");
  assert.equal(act({ action: "bet", to: 200 }).text, "alice bets 200");
  assert.equal(act({ action: "raise", to: 600, all_in: true }).text, "alice raises to 600 (all in)");
  assert.equal(act({ action: "all_in", to: 4900 }).text, "alice goes all in 4,900");
  assert.equal(act({ action: "all_in", amount: 300 }).text, "alice goes all in 300");
  assert.equal(act({ action: "sit_out_fold" }).text, "alice sit out fold");
});

test("streets, shows, mucks, returns and pots", () => {
  assert.deepEqual(engineLines({ kind: "street", street: "flop", cards: ["As", "Td", "7c"] }, name, 1), [
    { text: "Flop: A\u2660 10\u2666 7\u2663", kind: "street" },
  ]);
  assert.equal(engineLines({ kind: "street", street: "river", cards: ["2h"] }, name, 1)[0].text, "River: 2\u2665");
  assert.deepEqual(engineLines({ kind: "showdown", seat: 1, hole: ["Kh", "Kd"], category: "three_of_a_kind" }, name, 1), [
    { text: "bob shows K\u2665 K\u2666 · Three of a kind", kind: "show" },
  ]);
  assert.deepEqual(texts(engineLines({ kind: "mucked", seat: 2 }, name, 1)), ["carol mucks"]);
  assert.deepEqual(texts(engineLines({ kind: "uncalled_returned", seat: 0, amount: 400 }, name, 1)), ["400 returned to alice"]);
  assert.deepEqual(engineLines({ kind: "pot_awarded", winners: [0], amount: 2300, index: 0 }, name, 1), [
    { text: "alice wins the pot (2,300)", kind: "win" },
  ]);
  assert.equal(engineLines({ kind: "pot_awarded", winners: [0, 2], amount: 800, index: 1, rake: 40 }, name, 1)[0].text,
    "alice & carol wins side pot 1 (800), rake 40");
});

test("a hand shown after the showdown is named from the last hand's best hands", () => {
  const best = { 1: { category: "flush" } };
  assert.equal(engineLines({ kind: "hand_shown", seat: 1, hole: ["Ah", "2h"] }, name, 1, best)[0].text, "bob shows A\u2665 2\u2665 · Flush");
  assert.equal(engineLines({ kind: "hand_shown", seat: 0, hole: ["Ah", "2h"] }, name, 1, best)[0].text, "alice shows A\u2665 2\u2665");
  assert.equal(engineLines({ kind: "hand_shown", seat: 0, hole: ["Ah", "2h"] }, name, 1)[0].text, "alice shows A\u2665 2\u2665");
});

test("tabled hands put every all-in hand face up, one line each", () => {
  const lines = engineLines({ kind: "hands_tabled", hands: { 0: ["As", "Ad"], 2: ["Kc", "Qc"] } }, name, 1);
  assert.deepEqual(lines, [
    { text: "All in: hands turned face up", kind: "show" },
    { text: "alice: A\u2660 A\u2666", kind: "show" },
    { text: "carol: K\u2663 Q\u2663", kind: "show" },
  ]);
});

test("all-in protection and unknown engine events", () => {
  assert.deepEqual(texts(engineLines({ kind: "all_in_protected", seat: 2, committed: 600 }, name, 1)),
    ["carol is disconnected: all-in protection for 600"]);
  assert.deepEqual(engineLines({ kind: "something_new" }, name, 1), []);
});

test("table events: sitting down, leaving, connections and the room's state", () => {
  const line = (event) => tableLines(event, name);
  assert.deepEqual(line({ kind: "seated", username: "dave", seat: 3, stack: 5000 }), [{ text: "dave sits down at seat 4 with 5,000" }]);
  assert.deepEqual(line({ kind: "left", seat: 1, returned: 7250 }), [{ text: "bob leaves the table with 7,250" }]);
  assert.deepEqual(line({ kind: "left", username: "erin" }), [{ text: "erin leaves the table" }]);
  assert.deepEqual(line({ kind: "sitting_out", seat: 0 }), [{ text: "alice sits out" }]);
  assert.deepEqual(line({ kind: "sitting_in", seat: 0 }), [{ text: "alice is back" }]);
  assert.deepEqual(line({ kind: "will_post", seat: 2 }), [{ text: "carol will post a big blind" }]);
  assert.deepEqual(line({ kind: "disconnected", seat: 2 }), [{ text: "carol disconnected", kind: "warn" }]);
  assert.deepEqual(line({ kind: "reconnected", seat: 2 }), [{ text: "carol is back online" }]);
  assert.deepEqual(line({ kind: "countdown", seconds: 30 }), [{ text: "Next game in 30s" }]);
  assert.deepEqual(line({ kind: "waiting_for_players" }), [{ text: "Waiting for players" }]);
  assert.deepEqual(line({ kind: "closing" }), [{ text: "The room closes after this hand", kind: "warn" }]);
  assert.deepEqual(line({ kind: "closed" }), [{ text: "The room is closed", kind: "warn" }]);
  assert.deepEqual(line({ kind: "opened" }), [{ text: "The room is open again" }]);
  assert.deepEqual(line({ kind: "hand" }), []);
});

test("a hand's end says when the next game starts, after its own lines", () => {
  assert.deepEqual(closingLines({ kind: "hand_ended", hand_id: 7, countdown: 10 }), [{ text: "Next game in 10s" }]);
  assert.deepEqual(closingLines({ kind: "hand_ended", hand_id: 7 }), []);
  assert.deepEqual(tableLines({ kind: "hand_ended", hand_id: 7, countdown: 10 }, name), []);
  assert.deepEqual(closingLines({ kind: "countdown", seconds: 30 }), []);
});

test("the last action on a seat", () => {
  assert.equal(lastActionText({ action: "fold" }), "Fold");
  assert.equal(lastActionText({ action: "check" }), "Check");
  assert.equal(lastActionText({ action: "call", amount: 1250 }), "Call 1,250");
  assert.equal(lastActionText({ action: "bet", to: 200 }), "Bet 200");
  assert.equal(lastActionText({ action: "raise", to: 600 }), "Raise to 600");
  assert.equal(lastActionText({ action: "all_in", to: 4900 }), "All in 4,900");
  assert.equal(lastActionText({ action: "post" }), "post");
});

test("a past hand's actions, with who acted for a player", () => {
  assert.equal(pastActionLine({ seat: 1, action: "raise", amount: 300 }, name), "bob raises to 300");
  assert.equal(pastActionLine({ seat: 2, action: "fold", source: "timeout" }, name), "carol folds (time ran out)");
  assert.equal(pastActionLine({ seat: 0, action: "check", source: "player" }, name), "alice checks");
  assert.equal(pastActionLine({ seat: 0, action: "call", amount: 0, source: "disconnect" }, name), "alice calls (disconnect)");
  assert.equal(pastActionLine({ seat: 5, action: "protected" }, name), "Seat 6 is all-in protected");
  assert.equal(pastActionLine({ seat: 1, action: "dead_blind", amount: 50 }, name), "bob dead blind 50");
});

test("top-ups and the time bank have their lines", () => {
  const name = (seat) => `seat${seat}`;
  assert.deepEqual(tableLines({ kind: "topped_up", seat: 1, username: "bob", amount: 1500 }, name), [{ text: "bob adds 1,500 chips" }]);
  assert.deepEqual(tableLines({ kind: "time_bank", seat: 2, seconds: 30 }, name), [{ text: "seat2 is using the time bank (30s)", kind: "warn" }]);
  assert.equal(pastActionLine({ seat: 1, action: "call", amount: 100, source: "pre_action" }, name), "seat1 calls 100 (pre-action)");
});

test("a tournament hand's opening line names the ante, and each ante is posted (RULES.md 8)", () => {
  const name = (seat) => `p${seat}`;
  assert.equal(
    engineLines({ kind: "hand_started", small_blind: 100, big_blind: 200, ante: 25, button: 1 }, name, 7)[0].text,
    "Hand #7 · blinds 100/200 ante 25 · p1 has the button",
  );
  assert.equal(
    engineLines({ kind: "blind_posted", seat: 2, blind: "ante", amount: 25, all_in: false }, name, 7)[0].text,
    "p2 posts the ante 25",
  );
  assert.equal(
    engineLines({ kind: "blind_posted", seat: 3, blind: "ante", amount: 10, all_in: true }, name, 7)[0].text,
    "p3 posts the ante 10 (all in)",
  );
});

test("a deal names its deck commitment, and a failed shuffle says the table waits", () => {
  const commitment = "6134b452e95c3f4215ed7399660a590a7926e8f723ffb4641b7d5db37803ee08";
  assert.deepEqual(texts(closingLines({ kind: "hand", commitment, engine: [] })), ["Deck sealed before the deal: 6134b452e95c3f42…"]);
  assert.deepEqual(closingLines({ kind: "hand", engine: [] }), []);
  const [line] = tableLines({ kind: "shuffle_unavailable", retry_in: 10 }, name);
  assert.equal(line.kind, "warn");
  assert.match(line.text, /cannot shuffle: no hand starts until the random source answers \(next try in 10s\)/);
});
