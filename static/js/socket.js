// A websocket that reconnects by itself with exponential backoff and says what it is doing.
// Used by the lobby (ws/lobby/) and the table (ws/table/<id>/).

import { CLOSE_SIGNED_OUT, CLOSE_TOO_MANY_SOCKETS } from "./close-codes.js";

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 15000;
const PING_EVERY_MS = 10000;
// No frame at all (not even a pong) for this long: the connection is dead even if the browser
// has not noticed (a half-open TCP connection after a network change); reconnect.
const SILENCE_LIMIT_MS = 2 * PING_EVERY_MS + 5000;
const FINAL_CLOSES = new Set([CLOSE_SIGNED_OUT, CLOSE_TOO_MANY_SOCKETS]);

/** The socket URL on this page's own origin: wss on https pages, ws otherwise. */
export function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}${path}`;
}

export class LiveSocket {
  /**
   * onFrame(frame) gets every JSON frame; onStatus(status, detail) gets "connecting", "open",
   * "reconnecting" (detail: {inMs, attempt, code}) and "stopped" (detail: {code} when the
   * server ended the connection for good: signed out, or too many tabs).
   */
  constructor(url, { onFrame, onStatus, onOpen } = {}) {
    this.url = url;
    this.onFrame = onFrame || (() => {});
    this.onStatus = onStatus || (() => {});
    this.onOpen = onOpen || (() => {});
    this.attempt = 0;
    this.ws = null;
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.everOpened = false;
    this.lastFrameAt = 0;
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && !this.isOpen()) this.reconnectNow();
    });
  }

  isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.onStatus(this.everOpened ? "reconnecting" : "connecting", { attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (error) {
      this.scheduleRetry(0);
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      this.attempt = 0;
      this.everOpened = true;
      this.onStatus("open", {});
      this.lastFrameAt = Date.now();
      this.onOpen();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.keepAlive(ws), PING_EVERY_MS);
    });
    ws.addEventListener("message", (message) => {
      if (this.ws !== ws) return;
      this.lastFrameAt = Date.now();
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch (error) {
        return; // the server only sends JSON; anything else is ignored
      }
      if (frame && typeof frame === "object") this.onFrame(frame);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      clearInterval(this.pingTimer);
      this.ws = null;
      if (FINAL_CLOSES.has(event.code)) {
        this.stopped = true;
        this.onStatus("stopped", { code: event.code });
      } else if (!this.stopped) this.scheduleRetry(event.code);
    });
  }

  /** Ping, and give up on a connection that has said nothing for too long. */
  keepAlive(ws) {
    if (this.ws !== ws) return;
    if (Date.now() - this.lastFrameAt > SILENCE_LIMIT_MS) {
      clearInterval(this.pingTimer);
      this.ws = null;
      ws.close();
      this.scheduleRetry(0);
      return;
    }
    this.send({ type: "ping" });
  }

  scheduleRetry(code) {
    this.attempt += 1;
    // Exponential backoff with jitter so a restarted server is not hit by every client at once.
    const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (this.attempt - 1));
    const inMs = Math.round(base * (0.75 + Math.random() * 0.5));
    this.onStatus("reconnecting", { inMs, attempt: this.attempt, code });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), inMs);
  }

  reconnectNow() {
    if (this.stopped || this.isOpen()) return;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    this.connect();
  }

  /** Send a frame if connected; returns false (and sends nothing) otherwise. */
  send(frame) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close(1000);
    this.onStatus("stopped", {});
  }
}
