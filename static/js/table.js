// The table page: one websocket to ws/table/<id>/ (docs/protocol.md). A snapshot sets the whole
// view; each event replaces the public table and each `you` frame the private part. A gap in
// `seq` asks for a new snapshot; a lost connection reconnects by itself and says so.

import { BettingConsole } from "./console.js";
import { cardFace, cardsInWords } from "./cards.js";
import { centerMessage, renderBoard, renderPots, renderSeats } from "./felt.js";
import { STRUCTURE_NAMES, categoryName, chips, el, signedChips } from "./format.js";
import { engineLines, tableLines } from "./log.js";
import { roomRules } from "./rules.js";
import { CLOSE_SIGNED_OUT, CLOSE_TOO_MANY_SOCKETS, LiveSocket, socketUrl } from "./socket.js";

const LOG_LIMIT = 80;
const PENDING_TIMEOUT_MS = 6000;
const SWITCH_TIMEOUT_MS = 10000;

class TableApp {
  constructor(root, client) {
    this.root = root;
    this.client = client;
    this.tableId = client.table_id;
    this.rooms = client.rooms || [];
    this.seq = null;
    this.youSeq = -1;
    this.table = null;
    this.you = null;
    this.clockOffset = 0; // server clock minus local clock, from table.now
    this.connected = false;
    this.pending = false;
    this.pendingTimer = null;
    this.switching = false;
    this.switchTimer = null;
    this.sitSeat = null;
    this.seatsKey = null;
    this.snapshotAsked = false;
    this.lastActions = {}; // seat -> what they did last in this betting round ("Call 100")
    this.foldedHandNumber = null; // the hand in which this player folded (their cards leave the table)
    this.handPlayers = null; // {number, seats: {seat: {user_id, username}}}: who played the hand on the table

    this.dom = {
      name: root.querySelector("#table-name"),
      meta: root.querySelector("#table-meta"),
      status: root.querySelector("#conn-status"),
      stage: root.querySelector("#stage"),
      seats: root.querySelector("#seats"),
      board: root.querySelector("#board"),
      pots: root.querySelector("#pots"),
      center: root.querySelector("#center-message"),
      log: root.querySelector("#action-log"),
      sitDialog: root.querySelector("#sit-dialog"),
      previousDialog: root.querySelector("#previous-dialog"),
      rulesDialog: root.querySelector("#rules-dialog"),
      enterForm: root.querySelector("#enter-form"),
    };
    this.console = new BettingConsole(this, root.querySelector("#console"));
    this.bindDialogs();
    this.dom.seats.addEventListener("click", (event) => {
      const button = event.target.closest("[data-sit]");
      if (button) this.openSitDialog(Number(button.dataset.sit));
    });

    this.socket = new LiveSocket(socketUrl(`/ws/table/${this.tableId}/`), {
      onFrame: (frame) => this.receive(frame),
      onStatus: (status, detail) => this.connectionStatus(status, detail),
    });
    this.socket.connect();
    setInterval(() => this.tick(), 250);
    this.render();
  }

  // ----- what the renderers ask -----

  get hand() {
    return this.table ? this.table.hand : null;
  }

  get lastHand() {
    return this.table && !this.table.hand ? this.table.last_hand : null;
  }

  get cardBack() {
    return (this.you && this.you.card_back) || "classic";
  }

  get canSit() {
    const you = this.you;
    if (!this.table || this.table.status !== "open" || !you) return false;
    return !Number.isInteger(you.seat) && !you.seated_elsewhere;
  }

  nameOf = (seat) => {
    const row = this.table && this.table.seats ? this.table.seats.find((s) => s.number === seat) : null;
    return row && row.occupied ? row.username : `Seat ${Number(seat) + 1}`;
  };

  handSeat(number) {
    if (!this.table) return null;
    return (this.table.seats || []).find((s) => s.number === number && s.occupied) || null;
  }

  mySeatBet() {
    const row = this.you ? this.handSeat(this.you.seat) : null;
    return row ? row.bet || 0 : 0;
  }

  structure() {
    return this.table && this.table.options ? this.table.options.structure : null;
  }

  entry() {
    return this.table && this.table.options ? this.table.options.entry : null;
  }

  hasPreviousHand() {
    return Boolean(this.table && (this.table.last_hand || this.table.hand_number > (this.table.hand ? 1 : 0)));
  }

  /** The "Show hand" tool is for the winner of an uncontested hand; a player offered Show or
   * Muck (you.can_muck) chooses in the console instead. */
  wonLastHand() {
    const last = this.lastHand;
    return Boolean(last && this.you && (last.winners || []).includes(this.you.seat));
  }

  /** RULES.md 4 [002]: this player folded in the hand now over; their cards stay off the table. */
  foldedLastHand() {
    const last = this.lastHand;
    return Boolean(last && this.foldedHandNumber !== null && last.number === this.foldedHandNumber);
  }

  /** Remember a fold of our own while the hand is on: after it, last_hand does not say who folded. */
  noteOwnFold() {
    const table = this.table;
    if (!table || !table.hand || !this.you) return;
    const mine = this.handSeat(this.you.seat);
    if (mine && mine.folded && mine.user_id === this.you.user_id) this.foldedHandNumber = table.hand_number;
  }

  /** Who plays each seat of the hand in progress, kept after it ends: a seat emptied at its end
   * (busted, or removed after a disconnect) still shows the hand it showed, and a newcomer in
   * that seat never shows someone else's cards. */
  noteHandPlayers() {
    const table = this.table;
    if (!table || !table.hand) return;
    const seats = {};
    for (const row of table.seats || []) {
      if (row.occupied && row.in_hand) seats[row.number] = { user_id: row.user_id, username: row.username };
    }
    this.handPlayers = { number: table.hand_number, seats };
  }

  /** The player who sat in `seat` for the last hand, if this page saw that hand being played. */
  lastHandPlayer(seat) {
    const last = this.lastHand;
    if (!last || !this.handPlayers || this.handPlayers.number !== last.number) return null;
    return this.handPlayers.seats[seat] || null;
  }

  serverNow() {
    return Date.now() + this.clockOffset;
  }

  turnFractionLeft() {
    const turn = this.table && this.table.turn;
    if (!turn || !turn.deadline || !turn.seconds) return 0;
    return Math.max(0, Math.min(1, (turn.deadline - this.serverNow()) / (turn.seconds * 1000)));
  }

  turnSecondsLeft() {
    const turn = this.table && this.table.turn;
    if (!turn || !turn.deadline) return 0;
    return Math.max(0, Math.ceil((turn.deadline - this.serverNow()) / 1000));
  }

  // ----- talking to the server -----

  /** Send a frame; `pending` locks the console until the answer; `optimistic` applies at once. */
  send(frame, { pending = false, optimistic = null } = {}) {
    if (!this.socket.send(frame)) {
      this.console.showError("Not connected: the action was not sent. Reconnecting…");
      return false;
    }
    if (optimistic) optimistic();
    if (pending) {
      // The console stays locked until our private part after this action arrives (a `you`
      // frame newer than what we have), so stale legal actions are never clickable.
      this.pending = true;
      this.pendingAfterSeq = this.youSeq;
      this.pendingFor(PENDING_TIMEOUT_MS);
    }
    return true;
  }

  pendingFor(ms) {
    clearTimeout(this.pendingTimer);
    this.pendingTimer = setTimeout(() => {
      this.pending = false;
      this.render();
    }, ms);
  }

  clearPending() {
    this.pending = false;
    clearTimeout(this.pendingTimer);
  }

  askSnapshot() {
    if (this.snapshotAsked) return;
    this.snapshotAsked = true;
    this.socket.send({ type: "snapshot" });
  }

  receive(frame) {
    switch (frame.type) {
      case "snapshot":
        this.applySnapshot(frame);
        break;
      case "event":
        this.applyEvent(frame);
        break;
      case "heartbeat":
      case "pong":
        // The table's seq as the server knew it a second ago: behind it, we missed an event
        // (a lost broadcast, a Redis restart) and the whole view is fetched again.
        if (this.seq !== null && typeof frame.seq === "number" && frame.seq > this.seq) this.askSnapshotNow();
        return;
      case "you":
        if (typeof frame.seq === "number" && frame.seq >= this.youSeq && frame.you) {
          this.you = frame.you;
          this.youSeq = frame.seq;
          if (this.pending && frame.seq > this.pendingAfterSeq) this.clearPending();
        }
        break;
      case "ok":
        // Accepted; the new private part is on its way (a repeated action_id brings none).
        if (frame.for === "act" && this.pending) this.pendingFor(frame.repeated ? 0 : 1500);
        if (frame.for === "sit") this.closeSitDialog();
        this.console.clearError();
        break;
      case "error":
        this.showServerError(frame);
        break;
      case "switched":
        location.assign(frame.url || `/tables/${frame.table_id}/`);
        return;
      case "previous_hand":
        this.showPreviousHandBody(frame.hand);
        return;
      default:
        return;
    }
    this.render();
  }

  askSnapshotNow() {
    this.snapshotAsked = false;
    this.askSnapshot();
  }

  applySnapshot(frame) {
    this.seq = frame.seq;
    this.youSeq = frame.seq;
    this.table = frame.table;
    this.you = frame.you || null;
    this.snapshotAsked = false;
    this.lastActions = {};
    this.noteClock(frame.table);
    this.clearPending();
  }

  applyEvent(frame) {
    if (this.seq === null) return; // the snapshot that starts the stream has not come yet
    if (frame.seq <= this.seq) return; // already seen (or older than our snapshot)
    if (frame.seq !== this.seq + 1) this.askSnapshot();
    this.seq = frame.seq;
    if (frame.table) {
      this.table = frame.table;
      this.noteClock(frame.table);
    }
    this.logEvent(frame.event || {});
    clearTimeout(this.consistencyTimer);
    this.consistencyTimer = setTimeout(() => this.checkOwnSeat(), 400);
  }

  /** The seat we think is ours is gone or someone else's (we left, busted, were removed), or the
   * table shows us seated while our private part does not: a `you` frame did not come (none is
   * sent to a player who just lost their seat), so ask for the whole view again. */
  checkOwnSeat() {
    const you = this.you;
    if (!you || !this.table || !this.connected) return;
    const rows = this.table.seats || [];
    const mine = Number.isInteger(you.seat) ? this.handSeat(you.seat) : null;
    const stale = Number.isInteger(you.seat)
      ? !mine || mine.user_id !== you.user_id
      : rows.some((s) => s.occupied && s.user_id === you.user_id);
    if (stale) this.askSnapshotNow();
  }

  noteClock(table) {
    if (table && typeof table.now === "number") this.clockOffset = table.now - Date.now();
  }

  showServerError(frame) {
    const message = frame.message || frame.code || "the server refused that";
    this.clearPending();
    if (this.switching) {
      this.switching = false;
      clearTimeout(this.switchTimer);
    }
    if (this.dom.sitDialog.open) {
      this.dom.sitDialog.querySelector("#sit-problem").textContent = capitalise(message);
      return;
    }
    this.console.showError(capitalise(message));
  }

  connectionStatus(status, detail) {
    const box = this.dom.status;
    const text = box.querySelector(".text");
    const wasConnected = this.connected;
    this.connected = status === "open";
    box.dataset.state = status;
    if (status === "open") text.textContent = "Live";
    else if (status === "connecting") text.textContent = "Connecting…";
    else if (status === "reconnecting") {
      const seconds = detail && detail.inMs ? Math.max(1, Math.round(detail.inMs / 1000)) : 0;
      text.textContent = seconds ? `Connection lost · reconnecting in ${seconds}s` : "Reconnecting…";
    } else if (status === "stopped" && detail && detail.code === CLOSE_SIGNED_OUT) {
      text.textContent = "Signed out · sign in again to play";
    } else if (status === "stopped" && detail && detail.code === CLOSE_TOO_MANY_SOCKETS) {
      text.textContent = "Open in too many tabs · reload to play here";
    } else text.textContent = "Offline";
    if (wasConnected !== this.connected) {
      if (!this.connected) this.clearPending();
      this.render();
    }
  }

  switchTo(tableId) {
    if (tableId === this.tableId) return;
    this.console.clearError();
    if (this.socket.isOpen()) {
      this.switching = true;
      this.send({ type: "switch", table_id: tableId });
      clearTimeout(this.switchTimer);
      this.switchTimer = setTimeout(() => {
        // [000]: no switch within about 10 seconds means a connection problem; try the plain way.
        this.submitEnter(tableId);
      }, SWITCH_TIMEOUT_MS);
    } else {
      this.switching = true;
      this.submitEnter(tableId);
    }
    this.render();
  }

  submitEnter(tableId) {
    const form = this.dom.enterForm;
    form.action = `/tables/${tableId}/enter/`;
    form.submit();
  }

  // ----- rendering -----

  render() {
    const table = this.table;
    this.root.dataset.cardBack = this.cardBack;
    this.root.dataset.pending = String(this.pending);
    if (table) {
      this.noteOwnFold();
      this.noteHandPlayers();
      this.dom.name.textContent = table.name;
      this.dom.meta.replaceChildren(...this.metaParts(table));
      const seatsKey = JSON.stringify([table.seats, table.button, table.hand && [table.hand.button, table.hand.small_blind_seat, table.hand.big_blind_seat, table.hand.board],
        table.turn && table.turn.seat, table.last_hand, this.you && [this.you.seat, this.you.hole], this.canSit, this.cardBack, this.lastActions,
        this.foldedHandNumber, this.handPlayers]);
      if (seatsKey !== this.seatsKey) {
        this.seatsKey = seatsKey;
        renderSeats(this.dom.seats, this);
        renderBoard(this.dom.board, this);
      }
      renderPots(this.dom.pots, this);
      this.dom.stage.classList.toggle("in-hand", Boolean(table.hand));
      this.dom.stage.classList.toggle("showdown", Boolean(!table.hand && table.last_hand));
    }
    this.console.render();
    this.tick();
  }

  metaParts(table) {
    const o = table.options || {};
    const parts = [el("span", { class: "badge" }, STRUCTURE_NAMES[o.structure] || o.structure || "")];
    parts.push(el("span", {}, o.blinds === "dynamic" ? `Blinds ${o.dynamic_blind_percent}% of the short stack` : `Stakes ${table.stakes}`));
    const noMax = o.max_buy_in === null || o.max_buy_in === undefined;
    const buyIn = noMax
      ? (o.min_buy_in > 1 ? `${chips(o.min_buy_in)} – wallet` : "whole balance")
      : `${chips(Math.max(o.min_buy_in, 1))}–${chips(o.max_buy_in)}`;
    parts.push(el("span", {}, `Buy-in ${buyIn}`));
    if (o.raise_cap !== null && o.raise_cap !== undefined) parts.push(el("span", {}, `Cap ${o.raise_cap} raises`));
    if (table.hand_number) parts.push(el("span", {}, `Hand #${table.hand_number}`));
    parts.push(el("span", {}, `${table.spectators || 0} watching`));
    if (this.you && Number.isInteger(this.you.balance)) parts.push(el("span", { class: "wallet" }, `Wallet ${chips(this.you.balance)}`));
    return parts;
  }

  tick() {
    if (!this.table) return;
    const fraction = this.turnFractionLeft();
    for (const bar of this.dom.seats.querySelectorAll(".turn-clock")) {
      bar.firstElementChild.style.width = `${(fraction * 100).toFixed(1)}%`;
      bar.classList.toggle("hurry", fraction < 0.25);
      bar.setAttribute("aria-valuenow", String(Math.round(fraction * 100)));
    }
    const message = centerMessage(this, this.serverNow());
    if (this.dom.center.textContent !== message) this.dom.center.textContent = message;
    this.console.tick();
  }

  noteLastActions(engineEvents) {
    for (const e of engineEvents) {
      if (e.kind === "hand_started" || e.kind === "street") this.lastActions = {};
      else if (e.kind === "action") {
        const words = { fold: "Fold", check: "Check", call: `Call ${chips(e.amount)}`, bet: `Bet ${chips(e.to)}`,
          raise: `Raise to ${chips(e.to)}`, all_in: `All in ${chips(e.to)}` };
        this.lastActions = { ...this.lastActions, [e.seat]: words[e.action] || e.action };
      }
    }
  }

  logEvent(event) {
    this.noteLastActions(event.engine || []);
    const lines = [...tableLines(event, this.nameOf)];
    const best = this.lastHand ? this.lastHand.best : null;
    for (const engineEvent of event.engine || []) lines.push(...engineLines(engineEvent, this.nameOf, this.table && this.table.hand_number, best));
    if (!lines.length) return;
    const log = this.dom.log;
    const stick = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
    for (const line of lines) log.append(el("li", { class: line.kind ? `log-${line.kind}` : "" }, line.text));
    while (log.children.length > LOG_LIMIT) log.firstElementChild.remove();
    if (stick) log.scrollTop = log.scrollHeight;
  }

  // ----- dialogs: buy-in, previous hand, room rules -----

  bindDialogs() {
    const dialog = this.dom.sitDialog;
    dialog.querySelector("#sit-cancel").addEventListener("click", () => this.closeSitDialog());
    dialog.querySelector("#sit-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.submitSit();
    });
    dialog.querySelector("#sit-amount").addEventListener("input", () => this.checkBuyIn());
    const previous = this.dom.previousDialog;
    previous.querySelector("#previous-close").addEventListener("click", () => previous.close());
    previous.addEventListener("click", (event) => {
      if (event.target === previous) previous.close(); // a click on the backdrop closes it
    });
    const rules = this.dom.rulesDialog;
    this.root.querySelector("#rules-open").addEventListener("click", () => this.showRules());
    rules.querySelector("#rules-close").addEventListener("click", () => rules.close());
    rules.addEventListener("click", (event) => {
      if (event.target === rules) rules.close();
    });
  }

  /** RULES.md 1: the room's options in plain words, read from table.options. */
  showRules() {
    const body = this.dom.rulesDialog.querySelector("#rules-body");
    const options = this.table && this.table.options;
    if (!options) {
      body.replaceChildren(el("p", { class: "muted" }, "Connecting… the rules appear once the table has loaded."));
    } else {
      const list = el("dl", { class: "rules-list" });
      for (const { term, text, key } of roomRules(options)) list.append(el("dt", {}, term), el("dd", { dataset: { rule: key } }, text));
      body.replaceChildren(list);
    }
    if (!this.dom.rulesDialog.open) this.dom.rulesDialog.showModal();
  }

  /** The buy-in window: the server's own for this player (you.buy_in: a rathole minimum or blind
   * debts, RULES.md 2) when it sends one, else the room's. */
  buyInRange() {
    const o = (this.table && this.table.options) || {};
    const limits = this.you && this.you.buy_in && typeof this.you.buy_in === "object" ? this.you.buy_in : null;
    const balance = (this.you && this.you.balance) || 0;
    const roomMax = limits ? limits.max : o.max_buy_in;
    const wholeBalance = roomMax === null || roomMax === undefined;
    const min = Math.max((limits ? limits.min : o.min_buy_in) || 0, 1);
    const max = wholeBalance ? balance : Math.min(roomMax, balance);
    return { min, max, balance, wholeBalance, roomMax, reason: (limits && limits.reason) || null };
  }

  openSitDialog(seat) {
    if (!this.canSit) return;
    this.sitSeat = seat;
    const dialog = this.dom.sitDialog;
    const range = this.buyInRange();
    dialog.querySelector("#sit-seat-number").textContent = String(seat + 1);
    dialog.querySelector("#sit-balance").textContent = chips(range.balance);
    let words;
    if (!range.wholeBalance) words = `Buy-in between ${chips(range.min)} and ${chips(range.roomMax)} chips.`;
    else if (range.min > 1) words = `Buy-in at least ${chips(range.min)} chips, up to your whole balance.`;
    else words = "This room plays your whole balance (you may bring less).";
    dialog.querySelector("#sit-range").textContent = words;
    const reason = dialog.querySelector("#sit-reason");
    reason.textContent = range.reason || "";
    reason.hidden = !range.reason;
    const input = dialog.querySelector("#sit-amount");
    input.min = String(range.min);
    input.max = String(Math.max(range.min, range.max));
    input.value = String(Math.max(range.min, range.max));
    dialog.querySelector("#sit-problem").textContent = "";
    dialog.showModal();
    this.checkBuyIn();
    input.focus();
    input.select();
  }

  checkBuyIn() {
    const dialog = this.dom.sitDialog;
    const range = this.buyInRange();
    const value = Number(dialog.querySelector("#sit-amount").value);
    let problem = "";
    if (range.balance < range.min) problem = `You need at least ${chips(range.min)} chips; your wallet has ${chips(range.balance)}.`;
    else if (!Number.isInteger(value)) problem = "Enter a whole number of chips.";
    else if (value < range.min) problem = `The minimum buy-in is ${chips(range.min)}.`;
    else if (value > range.balance) problem = `Your wallet has ${chips(range.balance)} chips.`;
    else if (!range.wholeBalance && value > range.roomMax) problem = `The maximum buy-in is ${chips(range.roomMax)}.`;
    dialog.querySelector("#sit-problem").textContent = problem;
    dialog.querySelector("#sit-confirm").disabled = Boolean(problem);
    return !problem;
  }

  submitSit() {
    if (!this.checkBuyIn() || this.sitSeat === null) return;
    const range = this.buyInRange();
    const value = Number(this.dom.sitDialog.querySelector("#sit-amount").value);
    const buyIn = range.wholeBalance && value === range.balance ? null : value;
    if (!this.send({ type: "sit", seat: this.sitSeat, buy_in: buyIn })) {
      this.dom.sitDialog.querySelector("#sit-problem").textContent = "Not connected; try again in a moment.";
    }
  }

  closeSitDialog() {
    if (this.dom.sitDialog.open) this.dom.sitDialog.close();
    this.sitSeat = null;
  }

  showPreviousHand() {
    const dialog = this.dom.previousDialog;
    dialog.querySelector("#previous-body").replaceChildren(el("p", { class: "muted" }, "Loading…"));
    if (!dialog.open) dialog.showModal();
    if (!this.send({ type: "previous_hand" })) {
      dialog.querySelector("#previous-body").replaceChildren(el("p", {}, "Not connected; try again in a moment."));
    }
  }

  showPreviousHandBody(hand) {
    const body = this.dom.previousDialog.querySelector("#previous-body");
    if (!hand) {
      body.replaceChildren(el("p", {}, "No hand has been played at this table yet."));
      return;
    }
    body.replaceChildren(...previousHandView(hand));
  }
}

function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** The last hand (RULES.md 4): board, actions, every hand shown, and your own cards. */
export function previousHandView(hand) {
  const seatName = {};
  for (const p of hand.players || []) seatName[p.seat] = p.username;
  const name = (seat) => seatName[seat] || `Seat ${seat + 1}`;
  const parts = [];
  parts.push(el("p", { class: "muted" }, `${hand.table} · hand #${hand.number}${Number.isInteger(hand.button) ? ` · button ${name(hand.button)}` : ""}`));
  const board = el("div", { class: "mini-board", "aria-label": hand.board && hand.board.length ? `Board: ${cardsInWords(hand.board)}` : "No board" });
  if (hand.board && hand.board.length) hand.board.forEach((c) => board.append(cardFace(c, { size: "sm" })));
  else board.append(el("span", { class: "muted" }, "No flop: the hand ended before it."));
  parts.push(el("h3", {}, "Board"), board);
  if (hand.your_cards && hand.your_cards.length) {
    const mine = el("div", { class: "mini-board", "aria-label": `Your cards: ${cardsInWords(hand.your_cards)}` });
    hand.your_cards.forEach((c) => mine.append(cardFace(c, { size: "sm" })));
    parts.push(el("h3", {}, "Your cards"), mine);
  }
  const shown = hand.shown || {};
  const best = hand.best || {};
  // RULES.md 4 [002]: every hand still in at the showdown may be seen afterwards, mucked or not.
  const showdown = hand.showdown && typeof hand.showdown === "object" ? hand.showdown : null;
  const mucked = new Set((hand.mucked || []).map(Number));
  const rows = (hand.players || []).map((p) => {
    const cards = (showdown && showdown[String(p.seat)]) || shown[String(p.seat)];
    const cell = el("td", { class: "cards-cell" });
    if (cards) {
      cards.forEach((c) => cell.append(cardFace(c, { size: "xs" })));
      if (mucked.has(p.seat)) cell.append(el("span", { class: "mucked-tag" }, "mucked"));
    } else {
      const folded = (hand.actions || []).some((a) => a.seat === p.seat && a.action === "fold");
      cell.append(el("span", { class: "muted" }, folded ? "folded" : "not shown"));
    }
    const category = best[String(p.seat)] ? categoryName(best[String(p.seat)].category) : "";
    return el("tr", {},
      el("td", {}, p.username),
      cell,
      el("td", {}, category),
      el("td", { class: `num ${p.net > 0 ? "pos" : p.net < 0 ? "neg" : ""}` }, signedChips(p.net || 0)));
  });
  parts.push(el("h3", {}, "Players"),
    el("table", { class: "ledger compact" },
      el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", {}, showdown ? "Cards at showdown" : "Shown"), el("th", {}, "Hand"), el("th", { class: "num" }, "Net"))),
      el("tbody", {}, rows)));
  const actions = el("ul", { class: "action-log compact" });
  let street = null;
  for (const a of hand.actions || []) {
    if (a.street !== street) {
      street = a.street;
      actions.append(el("li", { class: "log-street" }, { preflop: "Pre-flop", flop: "Flop", turn: "Turn", river: "River" }[street] || street));
    }
    const verb = { fold: "folds", check: "checks", call: "calls", bet: "bets", raise: "raises to", all_in: "goes all in", protected: "is all-in protected" }[a.action]
      || String(a.action).replace(/_/g, " ");
    const amount = a.amount ? ` ${chips(a.amount)}` : "";
    const source = a.source && a.source !== "player" ? ` (${a.source === "timeout" ? "time ran out" : a.source})` : "";
    actions.append(el("li", {}, `${name(a.seat)} ${verb}${amount}${source}`));
  }
  parts.push(el("h3", {}, "Actions"), actions.children.length ? actions : el("p", { class: "muted" }, "Only blinds were posted."));
  if (hand.your_seat !== null && hand.your_seat !== undefined) {
    // The history pages show a player their own hands only.
    parts.push(el("p", { class: "dialog-links" }, el("a", { href: `/hands/${hand.hand_id}/` }, "Full hand"), " · ",
      el("a", { href: `/hands/${hand.hand_id}/pokerstars.txt` }, "Download (PokerStars text)")));
  }
  return parts;
}

const root = document.getElementById("table-app");
const client = JSON.parse(document.getElementById("table-client").textContent);
export const app = new TableApp(root, client);
