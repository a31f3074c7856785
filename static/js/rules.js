// The room's rules in plain words (RULES.md 1), as the server words them: table.rules of the
// snapshot, one {key, term, text} per line (holdem/table_options.py, rules_dialog). Nothing here
// knows an option or a figure; a line that is not well formed is left out.

const isLine = (row) => row !== null && typeof row === "object"
  && typeof row.key === "string" && typeof row.term === "string" && typeof row.text === "string";

/** [{term, text, key}, ...] for the rules dialog, or null before the table has loaded. */
export function roomRules(table) {
  if (!table || !Array.isArray(table.rules)) return null;
  return table.rules.filter(isLine).map(({ key, term, text }) => ({ key, term, text }));
}
