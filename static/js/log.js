// The small action log: one line per public thing that happened at the table, in words.

import { parseCard } from "./cards.js";
import { categoryName, chips } from "./format.js";

function cardsText(codes) {
  return (codes || []).map((c) => {
    const card = parseCard(c);
    return card ? `${card.rank}${card.symbol}` : c;
  }).join(" ");
}

const STREETS = { flop: "Flop", turn: "Turn", river: "River" };

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
      return [{ text: `${hand ? `Hand #${hand}` : "New hand"} · blinds ${chips(e.small_blind)}/${chips(e.big_blind)} · ${name(e.button)} has the button`, kind: "start" }];
    case "blind_posted": {
      const which = { small: "small blind", big: "big blind", post: "a big blind", dead: "a dead small blind" }[e.blind] || "a blind";
      return [{ text: `${name(e.seat)} posts ${which} ${chips(e.amount)}${e.all_in ? " (all in)" : ""}` }];
    }
    case "action":
      return [{ text: actionText(e, name(e.seat)), kind: e.action }];
    case "street":
      return [{ text: `${STREETS[e.street] || e.street}: ${cardsText(e.cards)}`, kind: "street" }];
    case "uncalled_returned":
      return [{ text: `${chips(e.amount)} returned to ${name(e.seat)}` }];
    case "showdown":
      return [{ text: `${name(e.seat)} shows ${cardsText(e.hole)} · ${categoryName(e.category)}`, kind: "show" }];
    case "mucked":
      return [{ text: `${name(e.seat)} mucks` }];
    case "pot_awarded": {
      const winners = (e.winners || []).map(name).join(" & ");
      const label = e.index ? `side pot ${e.index}` : "the pot";
      return [{ text: `${winners} wins ${label} (${chips(e.amount)})${e.rake ? `, rake ${chips(e.rake)}` : ""}`, kind: "win" }];
    }
    case "hand_shown": {
      const shown = best && best[String(e.seat)];
      return [{ text: `${name(e.seat)} shows ${cardsText(e.hole)}${shown ? ` · ${categoryName(shown.category)}` : ""}`, kind: "show" }];
    }
    case "hands_tabled":
      // RULES.md 4: every remaining player is all in, no betting is left: hands face up, then the run-out.
      return [
        { text: "All in: hands turned face up", kind: "show" },
        ...Object.entries(e.hands || {}).map(([seat, hole]) => ({ text: `${name(Number(seat))}: ${cardsText(hole)}`, kind: "show" })),
      ];
    case "all_in_protected":
      return [{ text: `${name(e.seat)} is disconnected: all-in protection for ${chips(e.committed)}` }];
    default:
      return [];
  }
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
    case "closing": return [{ text: "The room closes after this hand", kind: "warn" }];
    case "closed": return [{ text: "The room is closed", kind: "warn" }];
    case "opened": return [{ text: "The room is open again" }];
    default: return [];
  }
}
