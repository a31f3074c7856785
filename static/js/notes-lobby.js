// The lobby's player lists with the viewer's colour tags (rules.md 6). The lobby's stream is the
// same for every viewer (lobby/relay.py), so it never carries anyone's tags: this page asks for
// its viewer's own once (/accounts/notes/tags/, no note text), hears of changes on ws/me/, and
// names the tagged players in each list as the rows are drawn (lobby.js and the Sit & Go rows
// redraw them as the stream goes).

import { el } from "./dom.js";
import { callJson } from "./http.js";
import { tagPill } from "./notes-marks.js";
import { listedNames, tagNames, tagsAfter, tagsByName } from "./notes.js";
import { NOTE_EVENT, TAG_NAMES_EVENT } from "./user-socket.js";

// The lists of players' names ("alice, bob"); a tournament row's start time shares the class.
const LISTS = ".room-players, .sng-players:not(.mtt-start)";

let tags = new Map(); // username -> colour
let names = tagNames(null);
let version = 0;

/** One list drawn with its tags: each name in a span (data-player), a tag after a tagged one. */
function decorate(list) {
  if (list.querySelector(".muted")) return; // "No one seated yet"
  const drawn = list.querySelector(".player-name");
  const players = drawn && list.dataset.players !== undefined ? listedNames(list.dataset.players) : listedNames(list.textContent);
  const key = `${version}:${players.join(",")}`;
  if (drawn && list.dataset.notesKey === key) return;
  list.dataset.players = players.join(", ");
  list.dataset.notesKey = key;
  const nodes = [];
  players.forEach((player, index) => {
    if (index) nodes.push(", ");
    const colour = tags.get(player);
    nodes.push(el(
      "span",
      { class: colour ? "player-name tagged-player" : "player-name", dataset: { player } },
      player,
      colour ? tagPill({ colour, name: names[colour] }) : null,
    ));
  });
  list.replaceChildren(...nodes);
}

function decorateAll(root = document) {
  for (const list of root.querySelectorAll(LISTS)) decorate(list);
}

function changed() {
  version += 1;
  decorateAll();
}

async function load() {
  try {
    const answer = await callJson("/accounts/notes/tags/", "GET");
    tags = tagsByName(answer.tags);
    names = tagNames(answer.tag_names);
    changed();
  } catch {
    // No tags this time: the lists stay as the stream draws them.
  }
}

const main = document.querySelector("main") || document.body;
// A row drawn again by the lobby's scripts is a new list, or the same one with new text.
new MutationObserver(() => decorateAll()).observe(main, { childList: true, subtree: true, characterData: true });
document.addEventListener(NOTE_EVENT, (event) => {
  tags = tagsAfter(tags, event.detail);
  changed();
});
document.addEventListener(TAG_NAMES_EVENT, (event) => {
  names = tagNames(event.detail);
  changed();
});
load();
