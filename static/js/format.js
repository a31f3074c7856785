// Numbers and names as players read them: chips, signed results, structures, streets and hand
// categories. No DOM here, so tests/js runs it under Node.

const chipsFormat = new Intl.NumberFormat("en-US");

/** Whole chips with thousands separators: 12500 -> "12,500". */
export function chips(amount) {
  if (amount === null || amount === undefined) return "";
  return chipsFormat.format(amount);
}

/** A signed amount: +1,200 / -300 / 0. */
export function signedChips(amount) {
  if (!amount) return "0";
  return (amount > 0 ? "+" : "\u2212") + chips(Math.abs(amount));
}

export const STRUCTURE_NAMES = {
  no_limit: "No Limit",
  pot_limit: "Pot Limit",
  fixed_limit: "Fixed Limit",
};

export const STREET_NAMES = { preflop: "Pre-flop", flop: "Flop", turn: "Turn", river: "River" };

const CATEGORY_NAMES = {
  "one pair": "Pair",
  "royal flush": "Royal flush",
};

/** The engine's category ("two pair", "one pair") as shown to players ("Two pair", "Pair"). */
export function categoryName(category) {
  if (!category) return "";
  const plain = String(category).replace(/_/g, " ").toLowerCase();
  return CATEGORY_NAMES[plain] || plain.replace(/^./, (c) => c.toUpperCase());
}

/** The server's messages start in lower case; shown alone they start with a capital. */
export function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}
