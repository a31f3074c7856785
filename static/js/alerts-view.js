// The turn alert of a player who looks away from the felt: a short beep (Web Audio, no file), the
// tab title flashing, the live region #table-announcer for screen readers (opponents' actions too),
// a notification when the tab is hidden, and the warning before leaving a hand in play. The words
// and the decisions are alerts.js's; the Sound and Notify me controls live in #alert-tools.
// The same live region reads the table on demand (Alt+1..Alt+5: shortcuts.js, read-aloud.js).

import { flashingTitle, keepsFlashing, leavingGivesUpAHand, opponentActionLines, turnToAlert, turnWords } from "./alerts.js";
import { turnLegal } from "./console-state.js";
import { el } from "./dom.js";
import { readAloud } from "./read-aloud.js";
import { readAloudFor } from "./shortcuts.js";

const SOUND_KEY = "holdem.sound";
const NOTIFY_KEY = "holdem.notify";
const FLASH_MS = 900;
const ANNOUNCED_LINES = 6; // older lines leave the live region (they were read when they came)
// An answer asked for goes in this long after the region was emptied: a screen reader then hears
// a change even when the same words are asked for twice running.
const SAY_AFTER_MS = 80;
// Inputs that take no typed text: on them, Alt+digit still reads the table.
const NOT_TYPED = new Set(["checkbox", "radio", "range", "button", "submit"]);

function remembered(key, fallback) {
  try {
    const value = localStorage.getItem(key);
    return value === null ? fallback : value === "on";
  } catch {
    return fallback; // storage blocked (private mode, policy): the default for this page
  }
}

function remember(key, on) {
  try {
    localStorage.setItem(key, on ? "on" : "off");
  } catch {
    // Not remembered across pages; this page still follows the choice.
  }
}

const notificationsExist = () => typeof Notification === "function";

export class TableAlerts {
  constructor(app, root) {
    this.app = app;
    this.announcer = root.querySelector("#table-announcer");
    this.toolsBox = root.querySelector("#alert-tools");
    this.ownTitle = document.title;
    this.alertedToken = null;
    this.flashTimer = null;
    this.flashStep = 0;
    this.audio = null;
    this.beeps = 0; // beeps played on this page (the browser tests read it)
    this.sayTimer = null;
    this.sound = remembered(SOUND_KEY, true);
    this.notify = remembered(NOTIFY_KEY, false) && notificationsExist() && Notification.permission === "granted";
    this.drawTools();

    // Browsers keep a page's audio silent until the player has touched it: the first gesture opens it.
    const unlock = () => {
      this.unlockAudio();
      document.removeEventListener("pointerdown", unlock, true);
      document.removeEventListener("keydown", unlock, true);
    };
    document.addEventListener("pointerdown", unlock, true);
    document.addEventListener("keydown", unlock, true);
    document.addEventListener("visibilitychange", () => this.update());
    window.addEventListener("focus", () => this.update());
    window.addEventListener("beforeunload", (event) => this.warnBeforeLeaving(event));
    document.addEventListener("keydown", (event) => this.onReadAloudKey(event));
  }

  /** Alt+1..Alt+5: the table read aloud where the player is; the focus does not move. */
  onReadAloudKey(event) {
    if (event.defaultPrevented) return;
    const target = event.target;
    const typing = Boolean(target && ((target.tagName === "INPUT" && !NOT_TYPED.has(target.type)) || target.tagName === "TEXTAREA" || target.isContentEditable));
    const what = readAloudFor(event, { typing });
    if (!what) return;
    event.preventDefault(); // Alt+digit also switches tabs in some browsers on Linux
    const app = this.app;
    this.say(app.table ? readAloud(what, app.table, app.you, app.serverNow()) : "The table has not loaded yet.");
  }

  /** An answer the player asked for, alone in the live region: emptied, then filled a moment later,
   * so the same words asked for twice are read twice. */
  say(line) {
    const box = this.announcer;
    if (!box || !line) return;
    box.replaceChildren();
    clearTimeout(this.sayTimer);
    this.sayTimer = setTimeout(() => box.append(el("p", { class: "read-aloud" }, line)), SAY_AFTER_MS);
  }

  drawTools() {
    const box = this.toolsBox;
    if (!box) return;
    const sound = el("input", { type: "checkbox", id: "sound-toggle", checked: this.sound,
      onchange: (event) => this.setSound(event.target.checked) });
    const nodes = [el("label", { class: "toggle", for: "sound-toggle", title: "A short beep when it is your turn" }, sound, " Sound")];
    if (notificationsExist()) {
      const denied = Notification.permission === "denied";
      nodes.push(el("button", {
        type: "button", class: "tool", id: "notify-toggle", "aria-pressed": String(this.notify), disabled: denied,
        title: denied ? "Notifications are blocked for this site in your browser settings" : "A notification when it is your turn and this tab is hidden",
        onclick: () => this.toggleNotify(),
      }, denied ? "Notifications blocked" : this.notify ? "Notify me: on" : "Notify me"));
    }
    box.replaceChildren(...nodes);
  }

  setSound(on) {
    this.sound = on;
    remember(SOUND_KEY, on);
    if (on) this.unlockAudio(); // the click is a gesture: audio may start now
  }

  /** Asks the browser's permission only here, from the player's own click, never by itself. */
  async toggleNotify() {
    if (!notificationsExist()) return;
    if (this.notify) {
      this.notify = false;
    } else {
      const permission = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
      this.notify = permission === "granted";
    }
    remember(NOTIFY_KEY, this.notify);
    this.drawTools();
  }

  unlockAudio() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      if (!this.audio) this.audio = new Context();
      if (this.audio.state === "suspended") this.audio.resume();
    } catch {
      this.audio = null; // no audio on this device: the other alerts still work
    }
  }

  /** Two short rising tones, quiet, shaped so they do not click. */
  beep() {
    const audio = this.audio;
    if (!this.sound || !audio || audio.state !== "running") return;
    const start = audio.currentTime + 0.01;
    for (const [offset, pitch] of [[0, 660], [0.14, 880]]) {
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = pitch;
      volume.gain.setValueAtTime(0.0001, start + offset);
      volume.gain.exponentialRampToValueAtTime(0.18, start + offset + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.12);
      tone.connect(volume).connect(audio.destination);
      tone.start(start + offset);
      tone.stop(start + offset + 0.13);
    }
    this.beeps += 1;
  }

  /** Put lines in the live region, for screen readers to say (politely: after what they are reading). */
  announce(lines) {
    const box = this.announcer;
    if (!box || !lines.length) return;
    for (const line of lines) box.append(el("p", {}, line));
    while (box.children.length > ANNOUNCED_LINES) box.firstElementChild.remove();
  }

  /** An event's actions by the other players. */
  announceEvent(event) {
    const you = this.app.you;
    const mySeat = you && Number.isInteger(you.seat) ? you.seat : null;
    this.announce(opponentActionLines(event.engine, mySeat, this.app.nameOf));
  }

  looking() {
    return document.visibilityState === "visible" && document.hasFocus();
  }

  /** After every render of the table client: a new turn of ours is alerted once; the title
   * flashes until the turn is over and the player looks at the page. */
  update() {
    const app = this.app;
    const token = turnToAlert(app.table, app.you);
    if (token && token !== this.alertedToken) {
      this.alertedToken = token;
      this.alertTurn(turnLegal(app.you));
    }
    const flashing = this.flashTimer !== null;
    if (keepsFlashing({ myTurn: Boolean(token), flashing, looking: this.looking() })) {
      if (!flashing) this.startFlashing();
    } else if (flashing) {
      this.stopFlashing();
    }
  }

  alertTurn(legal) {
    const words = turnWords(legal);
    this.announce([words]);
    this.beep();
    if (this.notify && document.visibilityState === "hidden") this.showNotification(words);
  }

  showNotification(words) {
    if (!notificationsExist() || Notification.permission !== "granted") return;
    try {
      const icon = document.querySelector("link[rel=icon]");
      const note = new Notification(this.app.table ? this.app.table.name : "Hold'em", {
        body: words, tag: `holdem-turn-${this.app.tableId}`, icon: icon ? icon.href : undefined,
      });
      note.onclick = () => {
        window.focus();
        note.close();
      };
    } catch {
      // Some browsers only allow notifications from a service worker: the other alerts remain.
    }
  }

  startFlashing() {
    this.flashStep = 0;
    document.title = flashingTitle(this.flashStep, this.ownTitle);
    this.flashTimer = setInterval(() => {
      this.flashStep += 1;
      document.title = flashingTitle(this.flashStep, this.ownTitle);
    }, FLASH_MS);
  }

  stopFlashing() {
    clearInterval(this.flashTimer);
    this.flashTimer = null;
    document.title = this.ownTitle;
  }

  /** A reload or a closed tab in the middle of a hand: the browser asks first. */
  warnBeforeLeaving(event) {
    if (!leavingGivesUpAHand(this.app.table, this.app.you)) return;
    event.preventDefault();
    event.returnValue = ""; // older browsers need it set to show their question
  }
}
