// Pieces of the betting console used by more than one of its screens: the action buttons, the
// room list, the card-back choice, the sat-out notice and the pre-action boxes.

import { cardBackChoices } from "./cards.js";
import { described, el } from "./dom.js";
import { chips } from "./format.js";
import { checkedPreAction, preActionFrame, preActionOptions } from "./pre-actions.js";

/** A console button with an exact accessible name and optional visible amount / shortcut key;
 * with `describe`, also the hidden description it points at. Returns [button] or [button, description].
 * The name comes from the button's own words (the amount and key are aria-hidden), not from an
 * aria-label: a label that left out the visible amount and key would fail label-in-name (WCAG 2.5.3). */
export function actionButton(name, { kind = "", amount = null, key = null, onclick, disabled = false, describe = null } = {}) {
  const extra = describe ? described(describe) : null;
  const button = el(
    "button",
    {
      type: "button",
      class: `act ${kind}`,
      "aria-describedby": extra ? extra.id : null,
      "aria-keyshortcuts": key || null,
      disabled,
      onclick,
    },
    el("span", { class: "act-name" }, name),
    amount !== null ? el("span", { class: "act-amount", "aria-hidden": "true" }, chips(amount)) : null,
    key ? el("kbd", { "aria-hidden": "true" }, key) : null,
  );
  return extra ? [button, extra] : [button];
}

/** The rooms to switch to (RULES.md 2), this one marked. */
export function roomList(app) {
  const list = el("ul", { class: "room-nav", "aria-label": "Rooms" });
  for (const room of app.rooms || []) {
    const here = room.id === app.tableId;
    const details = `${room.stakes}, ${room.taken}/${room.seats} seated${room.playing ? ", playing" : ""}`;
    const desc = described(details);
    list.append(
      el("li", { class: here ? "here" : "" },
        here
          ? el("span", { class: "room-here" }, el("b", {}, room.name), el("small", {}, "you are here"))
          : el("button", { type: "button", class: "room-go", "aria-describedby": desc.id, dataset: { roomId: String(room.id) }, onclick: () => app.switchTo(room.id) },
            el("b", {}, room.name), el("small", { "aria-hidden": "true" }, details)),
        desc),
    );
  }
  return list;
}

/** The card-back designs the server offers (you.card_backs), the player's own checked. */
export function cardBackChooser(app) {
  const current = (app.you && app.you.card_back) || "classic";
  const box = el("fieldset", { class: "card-backs" }, el("legend", {}, "Card back"));
  for (const { value: design, label } of cardBackChoices(app.you)) {
    const id = `back-${design}`;
    const input = el("input", { type: "radio", name: "card-back", id, value: design, checked: design === current,
      onchange: () => app.send({ type: "card_back", value: design }, { optimistic: () => { app.you.card_back = design; } }) });
    box.append(el("label", { for: id, class: "back-choice" }, input, el("span", { class: `pcard pcard-sm back back-${design}`, "aria-hidden": "true" }), el("span", { class: "visually-hidden" }, label)));
  }
  return box;
}

/** RULES.md 2: the table sat this player out after two turns in a row ran out of time. */
export function satOutNotice(app, disabled, compact = false) {
  const back = () => app.send({ type: "sit_in" });
  if (compact) {
    return el("div", { class: "sat-out-notice compact", role: "status" },
      el("p", {}, el("strong", {}, "You were sat out: your time ran out twice in a row.")),
      el("button", { type: "button", class: "tool accent", disabled, onclick: back }, "I'm back"));
  }
  return el("div", { class: "sat-out-notice", role: "status" },
    el("p", {}, el("strong", {}, "You were sat out: your time ran out twice in a row."),
      " You are skipped until you come back."),
    el("div", { class: "actions" }, ...actionButton("I'm back", { kind: "call", disabled, onclick: back })));
}

/** The pre-action boxes while the player waits for their turn (pre-actions.js), or null. The box
 * drawn checked is the server's you.pre_action: a click only sends the frame, and the answer (a
 * new `you`) redraws the boxes, so a reload or a second tab shows the same choice. */
export function preActionBoxes(app) {
  const options = preActionOptions(app.table, app.you);
  if (!options) return null;
  const checked = checkedPreAction(options, app.you.pre_action);
  const box = el("fieldset", { class: "pre-actions" }, el("legend", { class: "visually-hidden" }, "Before your turn"));
  for (const option of options) {
    const id = `pre-action-${option.value}`;
    const input = el("input", { type: "checkbox", id, checked: option.value === checked, disabled: !app.connected,
      onclick: (event) => {
        event.preventDefault(); // the box follows the server's answer, not the click
        app.send(preActionFrame(option, checked));
      } });
    box.append(el("label", { for: id, class: "pre-action", dataset: { preAction: option.value } }, input, el("span", {}, option.label)));
  }
  return box;
}
