// The room's rules in plain words (RULES.md 1): one line per table option, read from
// table.options of the snapshot. An option the server does not send is left out.

import { STRUCTURE_NAMES, chips } from "./format.js";

const has = (value) => value !== null && value !== undefined;

function stakesLine(o) {
  if (o.structure === "fixed_limit") {
    return `Bets and raises of exactly ${chips(o.small_bet)} in the first two rounds and ${chips(o.big_bet)} in the last two. `
      + `Blinds ${chips(o.small_blind)}/${chips(o.big_blind)}.`;
  }
  const limit = o.structure === "pot_limit" ? "Bet or raise up to the size of the pot (after calling)." : "Bet or raise up to your whole stack.";
  if (o.blinds === "dynamic") {
    return `${limit} Blinds are dynamic: the big blind is ${o.dynamic_blind_percent}% of the smallest stack dealt in `
      + "(rounded down to an even number, at least 2), set when each game starts; the small blind is half of it.";
  }
  return `${limit} Blinds ${chips(o.small_blind)}/${chips(o.big_blind)}.`;
}

function buyInLine(o) {
  const min = Math.max(o.min_buy_in || 0, 1);
  const range = has(o.max_buy_in)
    ? `${chips(min)} to ${chips(o.max_buy_in)} chips.`
    : min > 1 ? `At least ${chips(min)} chips, up to your whole wallet.` : "Your whole balance (you may bring less).";
  return `${range} Leaving and coming back within 30 minutes, you buy in for at least the chips you left with and still owe the blinds you missed.`;
}

function entryLine(o) {
  if (o.entry === "wait_or_post") {
    return "Sitting down during a game, you wait for the big blind, or post a big blind to be dealt in at the next game. "
      + "Coming back from sitting out costs a live big blind, plus a dead small blind if you missed the big blind.";
  }
  return "Sitting down during a game, you are dealt in at the next game.";
}

function disconnectLine(o) {
  const grace = has(o.disconnect_grace_seconds)
    ? `A dropped connection has ${o.disconnect_grace_seconds} s to come back before it counts as a disconnection (a reload changes nothing). `
    : "";
  if (o.disconnect === "all_in_protection") {
    return `${grace}Disconnected during a hand, you are treated as all in for what you have already put in (side pots apply), `
      + "at most twice in 24 hours; after that you are folded.";
  }
  return `${grace}Disconnected during a hand, you stay in it: your turn runs its full time, then you check, or fold if you owe chips. `
    + "Still disconnected when the game ends, you lose the seat (the chips go back to your wallet).";
}

function rakeLine(o) {
  if (!o.rake_percent) return "No rake.";
  return `${o.rake_percent}% of each pot that saw a flop${has(o.rake_cap) ? `, at most ${chips(o.rake_cap)} chips a pot` : ""}.`;
}

function mucksLine(o) {
  const start = o.auto_muck ? "Auto muck is on unless you change it" : "Auto muck is off unless you change it";
  return `${start} ("Auto muck losing hand" in the console; your own choice wins). With it, a losing hand beaten by one already `
    + "shown is not revealed; without it you choose to show or muck it, and it is mucked when the time runs out. "
    + "When every remaining player is all in, all hands are turned face up.";
}

/** [{term, text, key}, ...] for the rules dialog. */
export function roomRules(o) {
  const rows = [];
  const add = (key, term, text) => rows.push({ key, term, text });
  add("game", "Game", `${STRUCTURE_NAMES[o.structure] || o.structure} Texas Hold'em${has(o.seats) ? `, ${o.seats} seats` : ""}.`);
  add("stakes", "Stakes and blinds", stakesLine(o));
  add("raise_cap", "Raise cap", has(o.raise_cap)
    ? `${o.raise_cap} raises after the opening bet of a round; then players may only call or fold.`
    : "No cap on the number of raises.");
  if (o.structure !== "fixed_limit" && has(o.min_raise)) {
    add("min_raise", "Minimum raise", o.min_raise === "any"
      ? "Any raise of 1 chip or more."
      : "At least the largest bet or raise of the round so far (the smallest bet is the big blind). A short all-in does not reopen raising.");
  }
  add("buy_in", "Buy-in", buyInLine(o));
  if (has(o.entry)) add("entry", "Joining a game", entryLine(o));
  if (has(o.disconnect)) add("disconnect", "Disconnection", disconnectLine(o));
  if (has(o.turn_seconds)) {
    add("turn", "Turn time", `${o.turn_seconds} s to act; when it runs out you check, or fold if you owe chips. `
      + "Two turns in a row running out sit you out.");
  }
  if (has(o.time_bank_seconds)) {
    add("time_bank", "Time bank", o.time_bank_seconds > 0
      ? `${o.time_bank_seconds} s of extra time each, used when your turn clock runs out; it refills by 5 s every 10 hands.`
      : "No time bank: when the turn clock runs out, the timeout acts.");
  }
  if (has(o.countdown_seconds)) {
    add("countdown", "Between games", `The next game starts ${o.countdown_seconds} s after the last one`
      + `${has(o.countdown_full_seconds) ? ` (${o.countdown_full_seconds} s when every seat is taken)` : ""}; you may get up meanwhile.`);
  }
  add("rake", "Rake", rakeLine(o));
  if (o.chat === "players") add("chat", "Chat", "Only the seated players may write in the chat; everyone may read it.");
  if (has(o.auto_muck)) add("auto_muck", "Showing hands", mucksLine(o));
  return rows;
}
