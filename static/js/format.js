// Small formatting helpers shared by the lobby and the table.

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

/** Build an element: el("div", {class: "x", text: "hi"}, child, ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    // The site's Content Security Policy forbids style="" attributes; CSSOM properties are fine.
    else if (key === "style") for (const [prop, v] of Object.entries(value)) node.style.setProperty(prop, v);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
