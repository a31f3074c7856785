// The table chat on the page: a one-line form under the table log, chat lines in the log among
// the dealer's lines (which a player may hide), and a Mute button on other players' lines (the
// table settings dialog lists them to unmute). The decisions are chat.js's; every text goes into
// a text node, never into HTML.

import { chatLineParts, chatProblem, chatShows, newChatLines } from "./chat.js";
import { el } from "./dom.js";
import { CHAT_MUTED_EVENT } from "./user-socket.js";

const DEALER_KEY = "holdem.dealer_lines";

export class TableChat {
  constructor(app, root) {
    this.app = app;
    this.log = root.querySelector("#action-log");
    this.form = root.querySelector("#chat-form");
    this.input = root.querySelector("#chat-text");
    this.problem = root.querySelector("#chat-problem");
    this.dealer = root.querySelector("#dealer-lines");
    this.muted = [];
    this.mutedPlayers = []; // {user_id, username}: the settings dialog's list, to unmute from
    this.shown = new Set();
    // Muted or unmuted on another page of the player's: hidden or shown here too.
    document.addEventListener(CHAT_MUTED_EVENT, (event) => this.setMuted(event.detail.user_ids, event.detail.players));
    if (this.form) this.form.addEventListener("submit", (event) => this.submit(event));
    if (this.dealer) {
      this.dealer.checked = localStorage.getItem(DEALER_KEY) !== "off";
      this.dealer.addEventListener("change", () => this.showDealerLines(this.dealer.checked));
      this.showDealerLines(this.dealer.checked);
    }
  }

  showDealerLines(on) {
    this.log.classList.toggle("chat-only", !on);
    try {
      localStorage.setItem(DEALER_KEY, on ? "on" : "off");
    } catch {
      // Not remembered; this page still follows the choice.
    }
  }

  submit(event) {
    event.preventDefault();
    const problem = chatProblem(this.input.value);
    this.say(problem);
    if (problem) return;
    if (this.app.send({ type: "chat", text: this.input.value.trim() })) this.input.value = "";
  }

  /** A refusal next to the chat box (the server's code `chat_*`, or ours before sending). */
  say(message) {
    this.problem.textContent = message || "";
    this.problem.hidden = !message;
  }

  fromSnapshot(frame) {
    this.muted = frame.chat_muted || [];
    this.mutedPlayers = frame.chat_muted_players || [];
    for (const line of newChatLines(frame.chat, this.shown)) this.add(line);
    this.refresh();
  }

  setMuted(ids, players) {
    this.muted = ids || [];
    if (Array.isArray(players)) this.mutedPlayers = players;
    this.refresh();
    if (this.app.settings && this.app.settings.dialog.open) this.app.settings.showMuted();
  }

  add(line) {
    if (this.shown.has(line.id)) return;
    this.shown.add(line.id);
    const me = this.app.you ? this.app.you.user_id : null;
    const parts = chatLineParts(line, me);
    const item = el("li", { class: `log-chat${parts.mine ? " mine" : ""}`, dataset: { userId: String(line.user_id) } },
      parts.time ? el("time", { class: "chat-time", datetime: new Date(line.at).toISOString() }, `${parts.time} `) : null,
      el("strong", { class: "chat-name" }, `${parts.name}: `),
      el("span", { class: "chat-text" }, parts.text));
    if (parts.canMute) {
      item.append(el("button", { type: "button", class: "chat-mute", title: `Hide ${parts.name}'s lines`,
        onclick: () => this.app.send({ type: "chat_mute", user_id: line.user_id, value: true }) }, "Mute"));
    }
    item.hidden = !chatShows(line, this.muted, me);
    const stick = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 8;
    this.log.append(item);
    if (stick) this.log.scrollTop = this.log.scrollHeight;
  }

  refresh() {
    const me = this.app.you ? this.app.you.user_id : null;
    for (const item of this.log.querySelectorAll("li.log-chat")) {
      item.hidden = !chatShows({ user_id: Number(item.dataset.userId) }, this.muted, me);
    }
  }
}
