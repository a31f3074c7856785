// What happened at the table, in words: the lines of the action log, the last action shown on
// each seat, and the action list of a past hand. No DOM here, so tests/js runs it under Node.

import { cardsInSymbols } from "./cards.js";
import { STREET_NAMES, categoryName, chips } from "./format.js";

function actionText(e, name) {
  const why = e.reason === "timeout" ? " (time ran out)" : e.reason === "disconnect" ? " (disconnected)" : "";
  switch (e.action) {
    case "fold": return `${name} folds${why}`;
    case "check": return `${name} checks${why}`;
    case "call": return `${name} calls ${chips(e.amount)}${e.all_in ? " and is all in" : ""}`;
    case "bet": return `${name} bets ${chips(e.to)}${e.all_in ? " (all in)" : ""}`;
    case "raise": return `${name} raises to ${chips(e.to)}${e.all_in ? " (all in)" : ""}`;
    // The round total the player is all in for (the engine's `to`; the log's `amount` is that too).
    case "all_in": return `${name} goes all in ${chips(e.to ?? e.amount)}${why}`;
    default: return `${name} ${String(e.action).replace(/_/g, " ")}${why}`;
  }
}

/** Lines for one engine event; `name(seat)` gives the player's name, `best` the last hand's
 * best hands by seat (a hand shown after the showdown is named from it). */
export function engineLines(e, name, hand, best = null) {
  switch (e.kind) {
    case "hand_started":
      return [{ text: `${hand ? `Hand #${hand}` : "New hand"} · blinds ${chips(e.small_blind)}/${chips(e.big_blind)}${e.ante ? ` ante ${chips(e.ante)}` : ""} · ${name(e.button)} has the button`, kind: "start" }];
    case "blind_posted": {
      // RULES.md 8: the ante is posted by everyone dealt in, before the blinds.
      const which = { small: "small blind", big: "big blind", post: "a big blind", dead: "a dead small blind", ante: "the ante" }[e.blind] || "a blind";
      return [{ text: `${name(e.seat)} posts ${which} ${chips(e.amount)}${e.all_in ? " (all in)" : ""}` }];
    }
    case "action":
      return [{ text: actionText(e, name(e.seat)), kind: e.action }];
    case "street":
      return [{ text: `${STREET_NAMES[e.street] || e.street}: ${cardsInSymbols(e.cards)}`, kind: "street" }];
    case "uncalled_returned":
      return [{ text: `${chips(e.amount)} returned to ${name(e.seat)}` }];
    case "showdown":
      return [{ text: `${name(e.seat)} shows ${cardsInSymbols(e.hole)} · ${categoryName(e.category)}`, kind: "show" }];
    case "mucked":
      return [{ text: `${name(e.seat)} mucks` }];
    case "pot_awarded": {
      const winners = (e.winners || []).map(name).join(" & ");
      const label = e.index ? `side pot ${e.index}` : "the pot";
      return [{ text: `${winners} wins ${label} (${chips(e.amount)})${e.rake ? `, rake ${chips(e.rake)}` : ""}`, kind: "win" }];
    }
    case "hand_shown": {
      const shown = best && best[String(e.seat)];
      return [{ text: `${name(e.seat)} shows ${cardsInSymbols(e.hole)}${shown ? ` · ${categoryName(shown.category)}` : ""}`, kind: "show" }];
    }
    case "hands_tabled":
      // RULES.md 4: every remaining player is all in, no betting is left: hands face up, then the run-out.
      return [
        { text: "All in: hands turned face up", kind: "show" },
        ...Object.entries(e.hands || {}).map(([seat, hole]) => ({ text: `${name(Number(seat))}: ${cardsInSymbols(hole)}`, kind: "show" })),
      ];
    case "all_in_protected":
      return [{ text: `${name(e.seat)} is disconnected: all-in protection for ${chips(e.committed)}` }];
    default:
      return [];
  }
}

/** Lines after a table event's engine events: a deal names its deck commitment, a hand's end
 * says when the next one starts. */
export function closingLines(event) {
  if (event.kind === "hand" && typeof event.commitment === "string") {
    // docs/fairness.md: the deck was committed to before this deal; the hand's page proves it.
    return [{ text: `Deck sealed before the deal: ${event.commitment.slice(0, 16)}…` }];
  }
  return event.kind === "hand_ended" && Number.isInteger(event.countdown)
    ? [{ text: `Next game in ${event.countdown}s` }]
    : [];
}

/** Lines for a table event's own kind (sitting down, leaving, ...), before its engine events. */
export function tableLines(event, name) {
  const who = event.username || (Number.isInteger(event.seat) ? name(event.seat) : "");
  switch (event.kind) {
    case "seated": return [{ text: `${who} sits down at seat ${event.seat + 1} with ${chips(event.stack)}` }];
    case "left": return [{ text: `${who} leaves the table${event.returned ? ` with ${chips(event.returned)}` : ""}` }];
    case "sitting_out": return [{ text: `${who} sits out` }];
    case "sitting_in": return [{ text: `${who} is back` }];
    case "will_post": return [{ text: `${who} will post a big blind` }];
    case "disconnected": return [{ text: `${who} disconnected`, kind: "warn" }];
    case "reconnected": return [{ text: `${who} is back online` }];
    case "countdown": return [{ text: `Next game in ${event.seconds}s` }];
    case "waiting_for_players": return [{ text: "Waiting for players" }];
    case "shuffle_unavailable": return [{ text: `The dealer cannot shuffle: no hand starts until the random source answers (next try in ${event.retry_in}s)`, kind: "warn" }];
    case "closing": return [{ text: "The room closes after this hand", kind: "warn" }];
    case "closed": return [{ text: "The room is closed", kind: "warn" }];
    case "opened": return [{ text: "The room is open again" }];
    case "options_changed": return [{ text: "The staff changed this room's rules (see Room rules)", kind: "warn" }];
    case "topped_up": return [{ text: `${who} adds ${chips(event.amount)} chips` }];
    case "time_bank": return [{ text: `${who} is using the time bank (${event.seconds}s)`, kind: "warn" }];
    // RULES.md 9: players move between a tournament's tables between hands.
    case "moved_in": return [{ text: `${who} joins from another table at seat ${event.seat + 1} with ${chips(event.stack)}` }];
    case "moved_out": return [{ text: `${who} moves to another table` }];
    case "held": return event.reason === "hand_for_hand"
      ? [{ text: "Hand for hand: the next hand waits for the other tables", kind: "warn" }]
      : [{ text: "Balancing tables: the next hand waits for players to move", kind: "warn" }];
    default: return [];
  }
}

/** The last action of a seat in this betting round, as its seat shows it ("Call 100"). */
export function lastActionText(e) {
  const words = { fold: "Fold", check: "Check", call: `Call ${chips(e.amount)}`, bet: `Bet ${chips(e.to)}`,
    raise: `Raise to ${chips(e.to)}`, all_in: `All in ${chips(e.to)}` };
  return words[e.action] || e.action;
}

const PAST_VERBS = {
  fold: "folds", check: "checks", call: "calls", bet: "bets", raise: "raises to", all_in: "goes all in",
  protected: "is all-in protected",
};

/** One action of a past hand's record (the previous-hand dialog): "bob raises to 300 (time ran out)". */
export function pastActionLine(a, name) {
  const verb = PAST_VERBS[a.action] || String(a.action).replace(/_/g, " ");
  const amount = a.amount ? ` ${chips(a.amount)}` : "";
  const sources = { timeout: "time ran out", pre_action: "pre-action" };
  const source = a.source && a.source !== "player" ? ` (${sources[a.source] || a.source})` : "";
  return `${name(a.seat)} ${verb}${amount}${source}`;
}
