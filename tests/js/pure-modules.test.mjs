// The modules tests/js covers stay free of the page: they reach no DOM or browser global and
// import only each other, so Node runs them as they are served.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const JS = new URL("../../static/js/", import.meta.url);
const PURE = [
  "alerts.js", "buy-in.js", "cards.js", "chat.js", "clock.js", "close-codes.js", "console-state.js", "fairness.js", "format.js", "log.js",
  "messages.js", "notes.js", "pre-actions.js", "raise-sizes.js", "read-aloud.js", "rules.js", "scheduled.js", "seats.js", "session-reminder.js", "shortcuts.js",
  "sit-and-go.js", "table-delta.js", "table-settings.js",
  "tournament.js", "waiting.js",
];
const BROWSER_GLOBALS = /\b(document|window|location|navigator|localStorage|WebSocket|HTMLElement|Node|crypto)\b/;

function importsOf(name) {
  const source = readFileSync(new URL(name, JS), "utf8");
  return [...source.matchAll(/^(?:import|export)[^;]*?\sfrom\s+"\.\/([^"]+)";/gms)].map((match) => match[1]);
}

test("the pure modules import only pure modules", () => {
  assert.deepEqual(importsOf("log.js"), ["cards.js", "format.js"]);
  for (const name of PURE) {
    for (const imported of importsOf(name)) {
      assert.ok(PURE.includes(imported), `${name} imports ${imported}, which is not one of the pure modules`);
    }
  }
});

test("the pure modules use no browser global", () => {
  for (const name of PURE) {
    const code = readFileSync(new URL(name, JS), "utf8").replace(/\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "");
    const found = code.match(BROWSER_GLOBALS);
    assert.equal(found, null, `${name} uses ${found && found[0]}`);
  }
});

test("every pure module loads in Node", async () => {
  for (const name of PURE) await import(new URL(name, JS));
});
