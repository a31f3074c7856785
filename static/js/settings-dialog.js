// The table's settings dialog (the gear in the table's header) and the settings in force on this
// page: the bet-size buttons, fold confirmation, the deck's colours, and whom the player muted in
// the chat. The settings are the player's, kept on the server: Save sends a `preferences` frame,
// and every page of theirs applies the answer (this one from the table socket, the others from
// ws/me/, static/js/user-socket.js). table-settings.js has the decisions.

import { cardFace } from "./card-view.js";
import { el } from "./dom.js";
import { showModal } from "./focus.js";
import { DEFAULT_BET_SIZES } from "./raise-sizes.js";
import { parseSizes, sizeButtonsText, sizesText } from "./table-settings.js";
import { PREFERENCES_EVENT } from "./user-socket.js";

const DECKS = [
  ["four_colour", "Four colours", "Spades black, hearts red, diamonds blue, clubs green."],
  ["two_colour", "Two colours", "Spades and clubs black, hearts and diamonds red."],
];
const SAMPLE_CARDS = ["As", "Kh", "Qd", "Jc"];

export class TableSettings {
  constructor(app, root) {
    this.app = app;
    this.root = root;
    // Until the snapshot brings the player's own: the site's defaults.
    this.current = { ...DEFAULT_BET_SIZES, fold_confirm: true, deck: "four_colour", defaults: DEFAULT_BET_SIZES };
    this.saving = false;
    this.dialog = this.build();
    root.append(this.dialog);
    this.opener = root.querySelector("#settings-open");
    if (this.opener) this.opener.addEventListener("click", () => this.open());
    // Closed by Save, Cancel, the cross or Escape: the keyboard goes back to the gear.
    this.dialog.addEventListener("close", () => {
      if (this.opener && !this.dialog.contains(document.activeElement) && document.activeElement !== this.opener) {
        if (!document.activeElement || document.activeElement === document.body) this.opener.focus();
      }
    });
    // Changed on another page of the player's (another table, a phone): applied here at once.
    document.addEventListener(PREFERENCES_EVENT, (event) => {
      this.apply(event.detail);
      this.app.render();
    });
  }

  build() {
    const field = (id, label, help) => [
      el("label", { for: id }, label),
      el("input", { type: "text", id, inputmode: "decimal", autocomplete: "off", spellcheck: "false", "aria-describedby": `${id}-help`,
        oninput: () => this.preview() }),
      el("p", { class: "hint", id: `${id}-help` }, help, " ", el("span", { dataset: { buttons: "" } })),
    ];
    const deckChoice = ([value, name, words]) => el("label", { class: "deck-choice" },
      el("input", { type: "radio", name: "deck", value }),
      el("span", { class: "deck-words" }, el("strong", {}, name), el("span", { class: "hint" }, words)),
      el("span", { class: "deck-sample", dataset: { deck: value }, "aria-hidden": "true" }, ...SAMPLE_CARDS.map((code) => cardFace(code, { size: "sm" }))));
    this.form = el("form", { id: "settings-form", novalidate: true, onsubmit: (event) => this.submit(event) },
      el("div", { class: "dialog-head" },
        el("h2", { id: "settings-title" }, "Table settings"),
        el("button", { type: "button", class: "icon-button", id: "settings-close", "aria-label": "Close", onclick: () => this.close() }, "\u00D7")),
      el("p", { class: "muted" }, "Kept with your account: every table and device you play on uses them."),
      el("fieldset", { class: "settings-group" },
        el("legend", {}, "Bet-size buttons on the raise screen"),
        ...field("settings-postflop", "After the flop: percent of the pot", "Up to 6 sizes from 10 to 500, with commas between them (33 and 67 are a third and two thirds)."),
        ...field("settings-preflop", "Before the flop: times the big blind, or the bet after a raise", "Up to 6 sizes from 1.5 to 20."),
        el("div", { class: "settings-row" },
          el("button", { type: "button", class: "tool", id: "settings-default-sizes", onclick: () => this.fillSizes(this.current.defaults || DEFAULT_BET_SIZES) }, "Use the default sizes")),
        el("p", { class: "hint" }, "A size the rules do not allow is moved to the nearest amount they do: the minimum raise, your stack, the pot in pot-limit rooms. Fixed-limit rooms have no sizes: the bet is set.")),
      el("fieldset", { class: "settings-group" },
        el("legend", {}, "Folding"),
        el("label", { class: "check" }, el("input", { type: "checkbox", id: "settings-fold-confirm", "aria-describedby": "settings-fold-help" }), " Ask before I fold"),
        el("p", { class: "hint", id: "settings-fold-help" }, "When you could check for free, Fold always asks first.")),
      el("fieldset", { class: "settings-group" },
        el("legend", {}, "Card faces"),
        ...DECKS.map(deckChoice)),
      el("section", { class: "settings-group", "aria-labelledby": "settings-muted-title" },
        el("h3", { id: "settings-muted-title" }, "Muted in the chat"),
        el("p", { class: "hint" }, "Their lines are hidden on every table. Unmuting shows them again at once."),
        el("ul", { class: "muted-list", id: "settings-muted" })),
      el("p", { class: "field-errors", id: "settings-problem", role: "alert", hidden: true }),
      el("div", { class: "dialog-actions" },
        el("button", { type: "button", class: "button ghost", id: "settings-cancel", onclick: () => this.close() }, "Cancel"),
        el("button", { type: "submit", class: "button", id: "settings-save" }, "Save")));
    return el("dialog", { class: "panel-dialog settings-dialog", id: "settings-dialog", "aria-labelledby": "settings-title" }, this.form);
  }

  /** The settings of a snapshot (every device draws the table the same way). */
  fromSnapshot(frame) {
    if (frame.preferences) this.apply(frame.preferences);
  }

  /** New settings in force: the deck at once, the raise screen and the fold button at their next
   * drawing (the console draws again now). An open dialog that was saving closes. */
  apply(preferences) {
    if (!preferences || typeof preferences !== "object") return;
    this.current = preferences;
    this.root.dataset.deck = preferences.deck === "two_colour" ? "two_colour" : "four_colour";
    this.app.console.mainKey = null; // an open raise screen shows the new sizes
    if (this.saving) {
      this.saving = false;
      this.close();
    }
  }

  open() {
    this.fillSizes(this.current);
    this.form.querySelector("#settings-fold-confirm").checked = this.current.fold_confirm !== false;
    for (const radio of this.form.querySelectorAll("input[name=deck]")) radio.checked = radio.value === this.current.deck;
    this.showMuted();
    this.say("");
    this.saving = false;
    this.setBusy(false);
    showModal(this.dialog); // Tab kept inside; closed, the focus goes back to the gear
    this.form.querySelector("#settings-postflop").focus();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  fillSizes(sizes) {
    this.form.querySelector("#settings-postflop").value = sizesText(sizes.bet_sizes_postflop);
    this.form.querySelector("#settings-preflop").value = sizesText(sizes.bet_sizes_preflop);
    this.preview();
  }

  /** Under each box, the buttons it makes. */
  preview() {
    const defaults = this.current.defaults || DEFAULT_BET_SIZES;
    for (const [id, street, key] of [["#settings-postflop", "flop", "bet_sizes_postflop"], ["#settings-preflop", "preflop", "bet_sizes_preflop"]]) {
      const box = this.form.querySelector(id);
      const { sizes, problem } = parseSizes(box.value);
      // An empty box is the defaults.
      const buttons = sizeButtonsText(sizes.length ? sizes : defaults[key], street);
      this.form.querySelector(`${id}-help [data-buttons]`).textContent = problem || `Buttons: ${buttons}.`;
      box.setAttribute("aria-invalid", problem ? "true" : "false");
    }
  }

  /** The list of muted players, each with Unmute (the chat's list: chat-view.js). */
  showMuted() {
    const list = this.form.querySelector("#settings-muted");
    const players = this.app.chat.mutedPlayers || [];
    list.replaceChildren(...(players.length
      ? players.map((player) => el("li", {},
        el("span", { class: "muted-name" }, player.username),
        el("button", { type: "button", class: "tool", "aria-label": `Unmute ${player.username}`,
          onclick: () => this.app.send({ type: "chat_mute", user_id: player.user_id, value: false }) }, "Unmute")))
      : [el("li", { class: "hint" }, "You have muted nobody.")]));
  }

  submit(event) {
    event.preventDefault();
    const post = parseSizes(this.form.querySelector("#settings-postflop").value);
    const pre = parseSizes(this.form.querySelector("#settings-preflop").value);
    if (post.problem || pre.problem) {
      this.say(`${post.problem ? `After the flop: ${post.problem}` : ""} ${pre.problem ? `Before the flop: ${pre.problem}` : ""}`.trim());
      return;
    }
    const deck = this.form.querySelector("input[name=deck]:checked");
    const frame = {
      type: "preferences",
      bet_sizes_postflop: post.sizes,
      bet_sizes_preflop: pre.sizes,
      fold_confirm: this.form.querySelector("#settings-fold-confirm").checked,
      deck: deck ? deck.value : this.current.deck,
    };
    this.say("");
    if (!this.app.socket.send(frame)) {
      this.say("Not connected: nothing was saved. Try again in a moment.");
      return;
    }
    this.saving = true;
    this.setBusy(true);
  }

  /** The server refused the settings: its words, in the dialog. True if it was the dialog's. */
  showProblem(frame) {
    if (!this.saving || !["bad_preferences", "bad_frame"].includes(frame.code)) return false;
    this.saving = false;
    this.setBusy(false);
    this.say(frame.message || "Those settings were refused.");
    return true;
  }

  setBusy(busy) {
    const save = this.form.querySelector("#settings-save");
    save.disabled = busy;
    save.setAttribute("aria-busy", busy ? "true" : "false");
  }

  say(message) {
    const box = this.form.querySelector("#settings-problem");
    box.textContent = message ? message.charAt(0).toUpperCase() + message.slice(1) : "";
    box.hidden = !message;
  }
}
