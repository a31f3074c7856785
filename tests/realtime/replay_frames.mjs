// Reads a socket's frames (a JSON list, starting with a snapshot) on stdin and prints the
// [table, you] the site's client module builds from them (tests/realtime/test_delta.py).
import { readFileSync } from "node:fs";

import { applyChanges, applyYou } from "../../static/js/table-delta.js";

let table = null;
let you = null;
for (const frame of JSON.parse(readFileSync(0, "utf8"))) {
  if (frame.type === "snapshot") {
    table = frame.table;
    you = frame.you;
  } else if (frame.type === "event") {
    table = applyChanges(table, frame.changes);
    if (frame.you) you = applyYou(you, frame.you);
  } else if (frame.type === "you") {
    you = applyYou(you, frame.you);
  } else if (frame.type === "spectators") {
    table = { ...table, spectators: frame.count };
  }
}
process.stdout.write(JSON.stringify([table, you]));
