// The lobby's Sit & Go list (static/js/sit-and-go.js): which tournaments are listed and in what
// order, each row's words, and which buttons a player is offered.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  applySitAndGo,
  entryText,
  isEntered,
  orderedSitAndGos,
  ownRegistration,
  placesPaidText,
  prizesText,
  rowControls,
  sitAndGosFrom,
  speedText,
  stateText,
} from "../../static/js/sit-and-go.js";

const sng = (id, fields = {}) => ({
  id,
  name: `Sit & Go 6 #${id}`,
  status: "registering",
  seats: 6,
  registered: 0,
  players: [],
  buy_in: 1000,
  fee: 100,
  starting_stack: 1500,
  level_minutes: 10,
  level_seconds: 600,
  prize_pool: 6000,
  places_paid: 2,
  prizes: [3900, 2100],
  table_id: null,
  table_url: null,
  results_url: `/tournaments/${id}/`,
  ...fields,
});

test("RULES.md 8: the lobby lists the open Sit & Gos first, then the running ones, then those over", () => {
  const held = sitAndGosFrom([
    sng(1, { status: "running", table_id: 9, table_url: "/tables/9/" }),
    sng(2, { registered: 2, players: ["ann", "bob"] }),
    sng(3, { status: "finished" }),
    sng(4, { registered: 5, players: ["a", "b", "c", "d", "e"] }),
    sng(5, { status: "cancelled" }),
    sng(6, { status: "finished" }),
    sng(7, { status: "postponed" }),
    null,
  ]);
  assert.deepEqual([...held.keys()].sort(), [1, 2, 3, 4, 5, 6]);
  // The one closest to starting leads; the latest to end comes first among those over.
  assert.deepEqual(orderedSitAndGos(held).map((s) => s.id), [4, 2, 1, 6, 3, 5]);
});

test("a sit_and_go frame replaces the tournament held, and a finished one stays with its results", () => {
  let held = sitAndGosFrom([sng(1)]);
  held = applySitAndGo(held, sng(1, { registered: 1, players: ["ann"] }));
  assert.equal(held.get(1).registered, 1);
  held = applySitAndGo(held, sng(2));
  assert.equal(held.size, 2);
  const before = held;
  held = applySitAndGo(held, sng(1, { status: "finished" }));
  assert.equal(held.get(1).status, "finished");
  assert.equal(before.get(1).status, "registering", "the Map given is left as it was");
  assert.deepEqual(rowControls(held.get(1), "ann"), { register: false, unregister: false, table: null, results: "/tournaments/1/" });
  assert.equal(applySitAndGo(held, { status: "running" }).size, 2, "a frame without an id changes nothing");
});

test("a row's words: entry, speed, places paid, prizes and how far registration is", () => {
  assert.equal(entryText(sng(1)), "1,000 + 100");
  assert.equal(entryText(sng(1, { fee: 0 })), "1,000");
  assert.equal(speedText(sng(1)), "10 min");
  assert.equal(speedText(sng(1, { level_minutes: 1.5 })), "1.5 min");
  assert.equal(speedText(sng(1, { level_minutes: 0.5 })), "30 s");
  assert.equal(placesPaidText(sng(1)), "2 places paid");
  assert.equal(placesPaidText(sng(1, { places_paid: 1 })), "1 place paid");
  assert.equal(prizesText([3900, 2100]), "1st 3,900 · 2nd 2,100");
  assert.equal(prizesText(undefined), "");
  assert.equal(stateText(sng(1, { registered: 4 })), "2 more to start");
  assert.equal(stateText(sng(1, { registered: 6 })), "Starting…");
  assert.equal(stateText(sng(1, { status: "running" })), "Running");
});

test("Register for others, Unregister only for one's own entry, and a running one links to its table", () => {
  const open = sng(1, { registered: 2, players: ["ann", "bob"] });
  assert.deepEqual(rowControls(open, "carol"), { register: true, unregister: false, table: null, results: null });
  assert.deepEqual(rowControls(open, "ann"), { register: false, unregister: true, table: null, results: null });
  // A full one (about to start) offers nothing more to register for.
  const full = sng(2, { seats: 2, registered: 2, players: ["ann", "bob"] });
  assert.equal(rowControls(full, "carol").register, false);
  // Without a name (never the case signed in) nobody is taken for an entrant.
  assert.equal(isEntered(open, ""), false);
  assert.equal(rowControls(open, "").unregister, false);
  const running = sng(3, { status: "running", registered: 6, players: ["ann", "bob"], table_id: 9, table_url: "/tables/9/" });
  assert.deepEqual(rowControls(running, "ann"), { register: false, unregister: false, table: { url: "/tables/9/", text: "Take your seat" }, results: "/tournaments/3/" });
  assert.deepEqual(rowControls(running, "carol").table, { url: "/tables/9/", text: "Watch" });
  assert.equal(rowControls(running, "carol").register, false);
});

test("a player's own registration is the open one that lists them", () => {
  const list = [sng(1, { players: ["bob"] }), sng(2, { status: "running", players: ["ann"] }), sng(3, { players: ["ann"] })];
  assert.equal(ownRegistration(list, "ann").id, 3);
  assert.equal(ownRegistration(sitAndGosFrom(list), "bob").id, 1);
  assert.equal(ownRegistration(list, "carol"), null);
});
