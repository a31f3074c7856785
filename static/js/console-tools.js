// The row of tools under the console: auto muck, show a won hand, post, sit out or in, the
// previous hand, switch room and leave. At a Sit & Go's table there is no switching or leaving with
// the chips (RULES.md 8); sitting out stays.

import { WAITING_STATES, dealtInHand, showsSatOutNotice } from "./console-state.js";
import { el } from "./dom.js";

/** The tool nodes for `state`; `con` is the BettingConsole. */
export function toolNodes(con, state) {
  const app = con.app;
  const you = app.you || {};
  const nodes = [];
  const seated = Number.isInteger(you.seat);
  const disabled = !app.connected;
  const tournament = Boolean(app.table && app.table.tournament);
  const tool = (name, onclick, kind = "") => el("button", { type: "button", class: `tool ${kind}`, disabled, onclick }, name);
  if (seated) {
    const box = el("input", { type: "checkbox", id: "auto-muck", checked: you.auto_muck !== false, disabled,
      onchange: (event) => app.send({ type: "auto_muck", value: event.target.checked }, { optimistic: () => { app.you.auto_muck = event.target.checked; } }) });
    nodes.push(el("label", { class: "toggle", for: "auto-muck" }, box, " Auto muck losing hand"));
  }
  // RULES.md 2: the sit-out boxes (cash games only). "Sit out next hand" shows ticked while the
  // player sits out: unticking either box brings them back.
  if (seated && !tournament) {
    const sitOutBox = (id, type, checked, words) => {
      const input = el("input", { type: "checkbox", id, checked, disabled,
        onchange: (event) => app.send({ type, value: event.target.checked }) });
      return el("label", { class: "toggle", for: id }, input, ` ${words}`);
    };
    nodes.push(sitOutBox("sit-out-next-hand", "sit_out_next_hand", Boolean(you.sit_out_next_hand || you.sitting_out), "Sit out next hand"));
    nodes.push(sitOutBox("sit-out-next-big-blind", "sit_out_next_big_blind", Boolean(you.sit_out_next_big_blind), "Sit out at next big blind"));
  }
  // RULES.md 4: the winner of an uncontested hand may show it (Show or Muck has its own screen).
  if (you.can_show && !you.can_muck && app.wonLastHand()) nodes.push(tool("Show hand", () => app.send({ type: "show" }), "accent"));
  if (seated && you.waiting_for_big_blind && !you.wants_to_post && !you.sitting_out && app.entry() === "wait_or_post") {
    nodes.push(tool("Post blind", () => app.send({ type: "post" }), "accent"));
  }
  if (seated && !you.sitting_out) nodes.push(tool("Sit out", () => app.send({ type: "sit_out" })));
  // A player sat out for being idle has "I'm back" in the console itself.
  if (seated && you.sitting_out && !showsSatOutNotice(app.you, state)) {
    nodes.push(tool("Sit in", () => app.send({ type: "sit_in" }), "accent"));
  }
  if (app.hasPreviousHand()) nodes.push(tool("Show previous hand", () => app.showPreviousHand()));
  if (seated && !tournament && WAITING_STATES.includes(state)) {
    const toggle = tool("Switch room", () => { con.roomsOpen = !con.roomsOpen; con.render(); });
    toggle.setAttribute("aria-expanded", String(con.roomsOpen));
    toggle.setAttribute("aria-controls", "rooms-drawer");
    toggle.disabled = false;
    nodes.push(toggle);
    // RULES.md 2: a player dealt in may not switch before the hand ends; say so, rather than
    // offer a switch the server refuses.
    if (dealtInHand(you, app.hand)) {
      const why = "You can switch after this hand";
      toggle.disabled = true;
      toggle.title = why;
      toggle.setAttribute("aria-expanded", "false");
      toggle.setAttribute("aria-describedby", "switch-why");
      nodes.push(el("span", { class: "tool-hint", id: "switch-why" }, why));
    }
  }
  if (seated && !tournament && !you.in_hand) nodes.push(tool("Leave table", () => app.send({ type: "leave" }), "danger"));
  return nodes;
}
