import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { roomRules } from "../../static/js/rules.js";

test("the rules dialog shows the server's lines as they come, in their order", () => {
  const table = {
    options: { structure: "no_limit", time_bank_seconds: 30 },
    rules: [
      { key: "game", term: "Game", text: "No Limit Texas Hold'em, 9 seats." },
      { key: "time_bank", term: "Time bank", text: "30 s of extra time each." },
    ],
  };
  assert.deepEqual(roomRules(table), table.rules);
});

test("nothing to show before the table has loaded, or without the server's lines", () => {
  assert.equal(roomRules(null), null);
  assert.equal(roomRules({ options: { structure: "no_limit" } }), null);
});

test("a line that is not well formed is left out, the others stay", () => {
  const rules = roomRules({
    rules: [
      { key: "game", term: "Game", text: "Fixed Limit Texas Hold'em, 10 seats." },
      { key: "rake", term: "Rake" },
      null,
      { key: "chat", term: "Chat", text: 3 },
      { key: "raise_cap", term: "Raise cap", text: "No cap on the number of raises.", extra: true },
    ],
  });
  assert.deepEqual(rules.map((row) => row.key), ["game", "raise_cap"]);
  assert.deepEqual(Object.keys(rules[1]), ["key", "term", "text"]);
});

test("the client words no rule itself: no option name, no figure", () => {
  const source = readFileSync(new URL("../../static/js/rules.js", import.meta.url), "utf8");
  const code = source.replace(/^\/\/.*$/gm, "");
  assert.doesNotMatch(code, /\d/);
  assert.doesNotMatch(code, /time_bank|turn_seconds|structure|small_blind/);
});
