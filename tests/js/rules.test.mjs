import assert from "node:assert/strict";
import { test } from "node:test";

import { roomRules } from "../../static/js/rules.js";

const byKey = (rows) => Object.fromEntries(rows.map((row) => [row.key, row]));

test("a no-limit room's rules, every option in words", () => {
  const rules = byKey(roomRules({
    structure: "no_limit", seats: 9, blinds: "fixed", small_blind: 50, big_blind: 100, raise_cap: null, min_raise: "full",
    min_buy_in: 2000, max_buy_in: 20000, entry: "wait_or_post", disconnect: "all_in_protection", disconnect_grace_seconds: 20,
    turn_seconds: 60, countdown_seconds: 30, countdown_full_seconds: 10, rake_percent: 5, rake_cap: 300, auto_muck: true,
    time_bank_seconds: 30,
  }));
  assert.deepEqual(Object.keys(rules), [
    "game", "stakes", "raise_cap", "min_raise", "buy_in", "entry", "disconnect", "turn", "time_bank", "countdown", "rake",
    "auto_muck",
  ]);
  assert.match(rules.time_bank.text, /^30 s of extra time each, used when your turn clock runs out/);
  assert.equal(rules.game.text, "No Limit Texas Hold'em, 9 seats.");
  assert.equal(rules.stakes.term, "Stakes and blinds");
  assert.equal(rules.stakes.text, "Bet or raise up to your whole stack. Blinds 50/100.");
  assert.equal(rules.raise_cap.text, "No cap on the number of raises.");
  assert.match(rules.min_raise.text, /^At least the largest bet or raise of the round so far/);
  assert.match(rules.buy_in.text, /^2,000 to 20,000 chips\. Leaving and coming back within 30 minutes/);
  assert.match(rules.disconnect.text, /^A dropped connection has 20 s to come back/);
  assert.match(rules.disconnect.text, /treated as all in for what you have already put in/);
  assert.equal(rules.countdown.text, "The next game starts 30 s after the last one (10 s when every seat is taken); you may get up meanwhile.");
  assert.equal(rules.rake.text, "5% of each pot that saw a flop, at most 300 chips a pot.");
  assert.match(rules.auto_muck.text, /^Auto muck is on unless you change it/);
});

test("a fixed-limit room: exact bets, a raise cap, no minimum-raise line, no rake", () => {
  const rules = byKey(roomRules({
    structure: "fixed_limit", small_bet: 20, big_bet: 40, small_blind: 10, big_blind: 20, raise_cap: 3, min_raise: "full",
    min_buy_in: 1, max_buy_in: null, rake_percent: 0,
  }));
  assert.equal(rules.game.text, "Fixed Limit Texas Hold'em.");
  assert.equal(rules.stakes.text, "Bets and raises of exactly 20 in the first two rounds and 40 in the last two. Blinds 10/20.");
  assert.equal(rules.raise_cap.text, "3 raises after the opening bet of a round; then players may only call or fold.");
  assert.equal(rules.min_raise, undefined);
  assert.match(rules.buy_in.text, /^Your whole balance \(you may bring less\)\./);
  assert.equal(rules.rake.text, "No rake.");
  assert.equal(rules.entry, undefined);
});

test("pot limit with dynamic blinds", () => {
  const rules = byKey(roomRules({ structure: "pot_limit", blinds: "dynamic", dynamic_blind_percent: 10, min_raise: "any", min_buy_in: 500, max_buy_in: null }));
  assert.match(rules.stakes.text, /^Bet or raise up to the size of the pot \(after calling\)\. Blinds are dynamic: the big blind is 10%/);
  assert.equal(rules.min_raise.text, "Any raise of 1 chip or more.");
  assert.match(rules.buy_in.text, /^At least 500 chips, up to your whole wallet\./);
});
