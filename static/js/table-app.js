// The table client: one websocket to ws/table/<id>/ (docs/protocol.md). A snapshot sets the whole
// view; each event brings what changed in the public table (table-delta.js) and, when ours
// changed, our private part. A gap in
// `seq` asks for a new snapshot; a lost connection reconnects by itself and says so. It is also
// the `view` the felt, the console and the pure modules read (seats.js, console-state.js). A
// player a multi-table tournament moves to another table (RULES.md 9) is taken there: this page
// goes to the new table's by itself, which says where they were moved.

import { TableAlerts } from "./alerts-view.js";
import { topUpRange } from "./buy-in.js";
import { newChatLines, restoredLog } from "./chat.js";
import { TableChat } from "./chat-view.js";
import { cardBackDesign } from "./cards.js";
import { inTimeBank, turnFractionLeft, turnSecondsLeft } from "./clock.js";
import { BettingConsole } from "./console.js";
import { TableDialogs } from "./dialogs.js";
import { el } from "./dom.js";
import { renderBoard, renderPots, renderSeats } from "./felt.js";
import { focusMark, focusRestore } from "./focus.js";
import { capitalise } from "./format.js";
import { closingLines, engineLines, lastActionText, tableLines } from "./log.js";
import { centerMessage, connectionText, tableFacts } from "./messages.js";
import { SessionReminder } from "./session-reminder-view.js";
import { LiveSocket, socketUrl } from "./socket.js";
import { TableSettings } from "./settings-dialog.js";
import { TableNotes } from "./notes-view.js";
import { applyChanges, applyYou } from "./table-delta.js";
import { heldAfter, movedText } from "./tournament.js";
import { TournamentPanel } from "./tournament-panel.js";
import { TOURNAMENT_MOVED_EVENT, WALLET_EVENT } from "./user-socket.js";
import { WaitingNotices } from "./waiting-notice.js";
import { offerSecondsLeft } from "./waiting.js";

const LOG_LIMIT = 80;
const PENDING_TIMEOUT_MS = 6000;
const SWITCH_TIMEOUT_MS = 10000;
const ROOMS_REFRESH_MS = 15000; // the room switcher's seat counts, while it is on screen
// What the page of the table a player was moved from leaves for the page of the one they were
// moved to (sessionStorage: this tab only), and how long it stays good for.
const MOVED_KEY = "casino:moved-to";
const MOVED_NOTICE_MS = 12000;

export class TableApp {
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
    this.seatsKey = null;
    this.snapshotAsked = false;
    this.lastActions = {}; // seat -> what they did last in this betting round ("Call 100")
    this.foldedHandNumber = null; // the hand in which this player folded (their cards leave the table)
    this.autoTopUp = null; // RULES.md 2: the player's auto top-up setting (snapshot.auto_top_up)
    this.held = null; // RULES.md 9: why this tournament table waits between hands (a `held` reason)
    this.seatedHere = false; // this page has shown the player seated here
    this.following = false; // on the way to the table the player was moved to
    this.movedHere = arrivedByMove(this.tableId); // this tab was brought here by a move

    this.dom = {
      name: root.querySelector("#table-name"),
      meta: root.querySelector("#table-meta"),
      status: root.querySelector("#conn-status"),
      stage: root.querySelector("#stage"),
      seatTools: root.querySelector("#seat-tools"),
      seats: root.querySelector("#seats"),
      board: root.querySelector("#board"),
      pots: root.querySelector("#pots"),
      center: root.querySelector("#center-message"),
      log: root.querySelector("#action-log"),
      enterForm: root.querySelector("#enter-form"),
      moved: root.querySelector("#moved-notice"),
    };
    this.console = new BettingConsole(this, root.querySelector("#console"));
    this.dialogs = new TableDialogs(this, root);
    this.alerts = new TableAlerts(this, root);
    this.chat = new TableChat(this, root);
    this.settings = new TableSettings(this, root); // the player's table settings, and their dialog
    this.tournamentPanel = new TournamentPanel(this, root);
    this.sessionReminder = new SessionReminder(this, root); // docs/rules.md 11
    this.notes = new TableNotes(this, root); // the viewer's notes on the players (rules.md 6)
    // Seats offered from a waiting list, here or in another room (`waiting` frames, docs/protocol.md).
    this.waiting = new WaitingNotices({
      tableId: this.tableId,
      takeHere: (seat) => {
        if (!this.canSit) return false;
        this.dialogs.openSit(seat);
        return true;
      },
    });
    this.dom.seats.addEventListener("click", (event) => {
      const button = event.target.closest("[data-sit]");
      if (button) this.dialogs.openSit(Number(button.dataset.sit));
    });

    // The header's socket hears of every change of the wallet (an admin's, another table's):
    // the buy-in and Top up limits follow it at once.
    document.addEventListener(WALLET_EVENT, (event) => this.applyWallet(event.detail));
    // RULES.md 9: the player was moved to another table of their tournament (ws/me/).
    document.addEventListener(TOURNAMENT_MOVED_EVENT, (event) => {
      if (this.followMove(event.detail.table_id, event.detail.table_url)) event.preventDefault();
    });

    this.socket = new LiveSocket(socketUrl(`/ws/table/${this.tableId}/`), {
      onFrame: (frame) => this.receive(frame),
      onStatus: (status, detail) => this.connectionStatus(status, detail),
    });
    this.socket.connect();
    setInterval(() => this.tick(), 250);
    setInterval(() => this.refreshRooms(), ROOMS_REFRESH_MS);
    this.render();
  }

  /** Fresh seat counts for the room switcher, when it is on screen (not while playing a hand,
   * and never from a hidden tab): one small GET, no lobby socket. */
  async refreshRooms() {
    if (document.hidden || (this.you && this.you.in_hand && !this.console.roomsOpen)) return;
    try {
      const response = await fetch("/lobby/rooms/", { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const body = await response.json();
      if (Array.isArray(body.rooms)) {
        this.rooms = body.rooms;
        this.render();
      }
    } catch {
      // Offline for a moment: the counts stay as they were; the socket says what is wrong.
    }
  }

  // ----- what the renderers ask -----

  get hand() {
    return this.table ? this.table.hand : null;
  }

  get lastHand() {
    return this.table && !this.table.hand ? this.table.last_hand : null;
  }

  get cardBack() {
    return cardBackDesign(this.you);
  }

  /** The seat held here for this player from the waiting list, if any. */
  get heldSeat() {
    const line = this.waiting ? this.waiting.lineAt(this.tableId) : null;
    return line && line.offer ? line.offer.seat : null;
  }

  /** A tournament's table (RULES.md 8 and 9): table.tournament, else null (a cash room). */
  get tournament() {
    return (this.table && this.table.tournament) || null;
  }

  get canSit() {
    const you = this.you;
    if (!this.table || this.table.status !== "open" || !you) return false;
    // RULES.md 8: only the tournament's own players sit at its table, seated by the draw.
    if (this.tournament) return false;
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

  serverNow() {
    return Date.now() + this.clockOffset;
  }

  turnFractionLeft() {
    return turnFractionLeft(this.table && this.table.turn, this.serverNow());
  }

  turnSecondsLeft() {
    return turnSecondsLeft(this.table && this.table.turn, this.serverNow());
  }

  /** The turn clock ran out and the player to act is on their time bank. */
  inTimeBank() {
    return inTimeBank(this.table && this.table.turn);
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
        this.applyYou(frame);
        break;
      case "chat":
        if (frame.line) this.chat.add(frame.line);
        return;
      case "room":
        // An admin made, changed or closed a room: the room switcher follows at once.
        if (frame.room && Array.isArray(this.rooms)) {
          const others = this.rooms.filter((room) => room.id !== frame.room.id);
          this.rooms = frame.room.status === "closed" ? others : [...others, { ...this.rooms.find((room) => room.id === frame.room.id), ...frame.room }].sort((a, b) => a.id - b.id);
        }
        break;
      case "chat_muted":
        this.chat.setMuted(frame.user_ids, frame.players);
        return;
      case "preferences":
        this.settings.apply(frame.preferences);
        break;
      case "auto_top_up":
        // RULES.md 2: the player's auto top-up, saved here or on another device.
        this.autoTopUp = frame.settings;
        this.dialogs.autoTopUpSaved();
        return;
      case "notice":
        // Only this player hears it (an auto top-up the wallet could not make).
        this.console.showError(frame.message);
        this.logLines([{ text: frame.message, kind: "warn" }]);
        return;
      case "note":
        this.notes.receive(frame); // it draws the seats again itself
        return;
      case "spectators":
        if (this.table && Number.isInteger(frame.count)) this.table = { ...this.table, spectators: frame.count };
        break;
      case "ok":
        // Accepted; the new private part is on its way (a repeated action_id brings none).
        if (frame.for === "act" && this.pending) this.pendingFor(frame.repeated ? 0 : 1500);
        if (frame.for === "sit") this.dialogs.closeSit();
        if (frame.for === "chat") this.chat.say("");
        if (frame.for === "top_up") this.dialogs.closeTopUp();
        if (frame.for === "leave_after_hand" && frame.later) {
          this.logLines([{ text: "You leave the table when this hand ends.", kind: "warn" }]);
        }
        this.console.clearError();
        break;
      case "error":
        this.showServerError(frame);
        break;
      case "switched":
        location.assign(frame.url || `/tables/${frame.table_id}/`);
        return;
      case "previous_hand":
        this.dialogs.showPreviousHandBody(frame.hand);
        return;
      case "waiting":
        this.waiting.receive(frame);
        break; // a seat held for this player here is theirs to take (seatStateOf)
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
    const before = this.tournament;
    this.seq = frame.seq;
    this.youSeq = frame.seq;
    this.table = frame.table;
    this.tournamentPanel.update(before);
    this.you = frame.you || null;
    if (frame.auto_top_up) this.autoTopUp = frame.auto_top_up;
    this.noteSeat();
    // RULES.md 9: a table waiting between hands says why in its view (a reloaded page shows it).
    this.held = (frame.table && frame.table.held) || null;
    this.snapshotAsked = false;
    this.lastActions = {};
    this.noteClock(frame.table);
    this.clearPending();
    // A page opened (or reloaded) mid-hand writes the hand's log so far; a running page that
    // asked for a snapshot keeps the lines it has.
    if (Array.isArray(frame.log)) {
      if (!this.dom.log.querySelector("li:not(.log-chat)")) {
        // The chat lines said meanwhile go where they were said, not all under the hand.
        for (const item of restoredLog(frame.log, newChatLines(frame.chat, this.chat.shown))) {
          if (item.event) this.logEvent({ kind: "hand", engine: [item.event] });
          else this.chat.add(item.line);
        }
      } else this.noteLastActions(frame.log);
    }
    this.chat.fromSnapshot(frame);
    this.settings.fromSnapshot(frame);
    this.notes.fromSnapshot(frame);
    if (this.movedHere) this.showMovedHere();
  }

  /** Remember that this page has shown the player seated here: a move takes this page along. */
  noteSeat() {
    if (this.you && Number.isInteger(this.you.seat)) this.seatedHere = true;
  }

  /** RULES.md 9: the player was moved from this table to `tableId`: the page goes there (once),
   * leaving the new page the word to say so. True if it goes; a page where the player did not
   * play stays (ws/me/'s notice links the table). */
  followMove(tableId, url) {
    if (!this.seatedHere || !Number.isInteger(tableId) || tableId === this.tableId) return false;
    if (this.following) return true;
    this.following = true;
    try {
      sessionStorage.setItem(MOVED_KEY, JSON.stringify({ table_id: tableId, at: Date.now() }));
    } catch {
      // No session storage (a private window's limits): the new page just says nothing.
    }
    location.assign(url || `/tables/${tableId}/`);
    return true;
  }

  /** On the table the player was moved to: "You were moved to table 2", for a few seconds and in
   * the table log. */
  showMovedHere() {
    this.movedHere = false;
    const text = movedText(this.table && this.table.name);
    this.logLines([{ text: `${text}.`, kind: "warn" }]);
    const box = this.dom.moved;
    if (!box) return;
    box.textContent = `${text}.`;
    box.hidden = false;
    clearTimeout(this.movedTimer);
    this.movedTimer = setTimeout(() => {
      box.hidden = true;
    }, MOVED_NOTICE_MS);
  }

  applyEvent(frame) {
    if (this.seq === null) return; // the snapshot that starts the stream has not come yet
    if (frame.seq <= this.seq) return; // already seen (or older than our snapshot)
    if (frame.seq !== this.seq + 1) this.askSnapshot();
    this.seq = frame.seq;
    const before = this.you;
    const tournamentBefore = this.tournament;
    const event = frame.event || {};
    const heldBefore = this.held;
    this.held = heldAfter(this.held, event);
    if (frame.changes) {
      this.table = applyChanges(this.table, frame.changes);
      this.noteClock(frame.changes);
      this.tournamentPanel.update(tournamentBefore);
    }
    if (frame.you) this.applyYou(frame);
    // A held table looks again every second: its log says why once, not every second.
    if (!(event.kind === "held" && event.reason === heldBefore)) this.logEvent(event);
    // RULES.md 9: this player's own move out of this table (ws/me/ says it too; whichever
    // comes first takes the page to the new table).
    if (event.kind === "moved_out" && event.username === this.client.username) this.followMove(event.to_table);
    this.alerts.announceEvent(frame.event || {});
    this.dialogs.offerRebuy(before, frame.event || {});
    clearTimeout(this.consistencyTimer);
    this.consistencyTimer = setTimeout(() => this.checkOwnSeat(), 400);
  }

  /** Our private part, from an event (only when it changed) or a `you` frame. Mid-hand the
   * balance is left out (no wallet changes then): we keep the one we have. */
  applyYou(frame) {
    if (typeof frame.seq !== "number" || frame.seq < this.youSeq || !frame.you) return;
    this.you = applyYou(this.you, frame.you);
    this.youSeq = frame.seq;
    this.noteSeat();
    if (this.pending && frame.seq > this.pendingAfterSeq) this.clearPending();
  }

  /** A new balance from ws/me/ (static/js/user-socket.js): the open buy-in or Top up dialog is
   * drawn again with it, keeping an amount typed in unless it is now over the limit. */
  applyWallet(wallet) {
    if (!this.you || !wallet || !Number.isInteger(wallet.balance) || wallet.balance === this.you.balance) return;
    this.you = { ...this.you, balance: wallet.balance };
    const dialogs = this.dialogs;
    for (const [dialog, input, redraw] of [
      [dialogs.topUp, "#topup-amount", () => dialogs.openTopUp()],
      [dialogs.sit, "#sit-amount", () => dialogs.openSit(dialogs.sitSeat, { rebuy: !dialogs.rebuyLine.hidden })],
    ]) {
      if (!dialog.open) continue;
      const box = dialog.querySelector(input);
      const typed = box.value;
      redraw();
      if (Number(typed) <= Number(box.max)) box.value = typed;
      if (dialog === dialogs.topUp) dialogs.checkTopUp();
      else dialogs.checkBuyIn();
    }
    this.render();
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
    if (typeof frame.code === "string" && frame.code.startsWith("chat")) {
      this.chat.say(capitalise(message)); // next to the chat box that caused it
      return;
    }
    if (this.settings.showProblem(frame)) return; // the settings dialog's, in the dialog
    this.clearPending();
    if (this.switching) {
      this.switching = false;
      clearTimeout(this.switchTimer);
    }
    if (this.dialogs.showSitProblem(capitalise(message))) return;
    if (this.dialogs.showTopUpProblem(capitalise(message))) return;
    this.console.showError(capitalise(message));
  }

  connectionStatus(status, detail) {
    const box = this.dom.status;
    const wasConnected = this.connected;
    this.connected = status === "open";
    box.dataset.state = status;
    box.querySelector(".text").textContent = connectionText(status, detail);
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
    const mark = focusMark(this.root);
    this.draw();
    // The seats and the console are drawn anew: a focused control they removed (the seat just
    // taken, say) hands the focus on rather than dropping it on the page.
    focusRestore(mark, this.root.querySelector("#console"));
  }

  draw() {
    const table = this.table;
    this.root.dataset.cardBack = this.cardBack;
    this.root.dataset.pending = String(this.pending);
    this.sessionReminder.follow(this.you);
    if (table) {
      this.noteOwnFold();
      this.dom.name.textContent = table.name;
      this.tournamentPanel.render();
      this.dom.meta.replaceChildren(...tableFacts(table, this.you).map((fact) => el("span", { class: fact.kind || null }, fact.text)));
      const seatsKey = JSON.stringify([table.seats, table.button, table.hand && [table.hand.button, table.hand.small_blind_seat, table.hand.big_blind_seat, table.hand.board],
        table.turn && table.turn.seat, table.last_hand, this.you && [this.you.seat, this.you.hole], this.canSit, this.cardBack, this.lastActions,
        this.foldedHandNumber, this.heldSeat]);
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
    this.renderSeatTools();
    this.alerts.update();
    this.tick();
  }

  /** Draw the seats again though the table did not change (a note or a tag of the viewer's did). */
  redrawSeats() {
    this.seatsKey = null;
    this.render();
  }

  tick() {
    if (!this.table) return;
    const fraction = this.turnFractionLeft();
    const bank = this.inTimeBank();
    for (const bar of this.dom.seats.querySelectorAll(".turn-clock")) {
      bar.firstElementChild.style.width = `${(fraction * 100).toFixed(1)}%`;
      bar.classList.toggle("hurry", fraction < 0.25);
      bar.classList.toggle("bank", bank);
      bar.setAttribute("aria-valuenow", String(Math.round(fraction * 100)));
      bar.setAttribute("aria-label", bank ? "Time bank" : "Time to act");
      // The time bank, in words on the seat in place of "To act" (the turn's end redraws it).
      const status = bank ? bar.parentElement.querySelector(".seat-status") : null;
      if (status) {
        const text = `Time bank ${this.turnSecondsLeft()} s`;
        const line = status.querySelector(".time-bank");
        if (!line) status.replaceChildren(el("span", { class: "time-bank" }, text));
        else if (line.textContent !== text) line.textContent = text;
      }
    }
    const message = centerMessage(this, this.serverNow());
    if (this.dom.center.textContent !== message) this.dom.center.textContent = message;
    for (const left of this.dom.seats.querySelectorAll(".seat-reserved-time")) {
      const text = `${offerSecondsLeft({ expires_at: Number(left.dataset.until) }, this.serverNow())} s left`;
      if (left.textContent !== text) left.textContent = text;
    }
    this.console.tick();
    this.tournamentPanel.tick(this.serverNow());
  }

  noteLastActions(engineEvents) {
    for (const e of engineEvents) {
      if (e.kind === "hand_started" || e.kind === "street") this.lastActions = {};
      else if (e.kind === "action") this.lastActions = { ...this.lastActions, [e.seat]: lastActionText(e) };
    }
  }

  logEvent(event) {
    this.noteLastActions(event.engine || []);
    const lines = [...tableLines(event, this.nameOf)];
    const best = this.lastHand ? this.lastHand.best : null;
    for (const engineEvent of event.engine || []) lines.push(...engineLines(engineEvent, this.nameOf, this.table && this.table.hand_id, best));
    lines.push(...closingLines(event));
    this.logLines(lines);
  }

  logLines(lines) {
    if (!lines.length) return;
    const log = this.dom.log;
    const stick = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
    for (const line of lines) log.append(el("li", { class: line.kind ? `log-${line.kind}` : "" }, line.text));
    while (log.children.length > LOG_LIMIT) log.firstElementChild.remove();
    if (stick) log.scrollTop = log.scrollHeight;
  }

  /** "Top up" under the console while the player sits between hands with room to add chips, else
   * "Auto top-up" (its setting alone) while seated; never at a tournament's table (RULES.md 8:
   * tournament chips are no wallet chips). */
  renderSeatTools() {
    const box = this.dom.seatTools;
    if (!box) return;
    const seated = !this.tournament && this.you && Number.isInteger(this.you.seat);
    const range = seated ? topUpRange(this.you) : null;
    const key = range ? `${range.max}` : seated ? "auto" : "";
    if (key === this.seatToolsKey) return;
    this.seatToolsKey = key;
    const label = range ? "Top up" : "Auto top-up";
    box.replaceChildren(...(seated
      ? [el("button", { type: "button", class: "tool", id: "top-up-open", onclick: () => this.dialogs.openTopUp() }, label)]
      : []));
  }

  // ----- dialogs (dialogs.js) -----

  showPreviousHand() {
    this.dialogs.showPreviousHand();
  }
}

/** Whether this tab was brought to table `tableId` by a move a moment ago (followMove): read
 * once, then forgotten. */
function arrivedByMove(tableId) {
  try {
    const left = JSON.parse(sessionStorage.getItem(MOVED_KEY) || "null");
    sessionStorage.removeItem(MOVED_KEY);
    return Boolean(left && left.table_id === tableId && Date.now() - left.at < 120000);
  } catch {
    return false;
  }
}
