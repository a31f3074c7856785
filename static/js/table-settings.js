// The table settings dialog's decisions, without the page: the size lists as the player types
// them ("33, 50, 75") and reads them back, and the buttons they make. The server checks every
// value again (casino/accounts/table_settings.py) and its refusal is what the dialog shows. No DOM
// here, so tests/js runs it under Node.

import { potSizeWords } from "./raise-sizes.js";

/** "33, 50, 75" (commas, spaces or semicolons between sizes; "2,5" is not 2.5, write "2.5"):
 * {sizes: [33, 50, 75], problem: ""}, or the first word that is not a number in `problem`. An
 * empty box is an empty list: the defaults. */
export function parseSizes(text) {
  const words = String(text || "").split(/[\s,;]+/).filter(Boolean);
  const sizes = [];
  for (const word of words) {
    const cleaned = word.replace(/[%x\u00D7]$/i, "");
    const value = Number(cleaned);
    if (cleaned === "" || !Number.isFinite(value)) return { sizes: [], problem: `"${word.slice(0, 12)}" is not a number.` };
    sizes.push(value);
  }
  return { sizes, problem: "" };
}

/** A list of sizes as the box shows it: "2, 2.5, 3". */
export function sizesText(sizes) {
  return (sizes || []).join(", ");
}

/** The raise screen's buttons these sizes make, in words: "\u2153 Pot, \u00BD Pot, Pot" or "2x, 2.5x, 3x". */
export function sizeButtonsText(sizes, street) {
  const labels = (sizes || []).map((size) => (street === "preflop" ? `${size}x` : potSizeWords(size)[0]));
  return labels.length ? labels.join(", ") : "none";
}
