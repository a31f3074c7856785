// Building page elements: el() for any element, described() for the visually hidden text a
// button's aria-describedby points at, rowButton() for a list row's small action button.

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

let describedCounter = 0;

/** A visually hidden description with a page-unique id, for aria-describedby. */
export function described(text) {
  describedCounter += 1;
  return el("span", { class: "visually-hidden", id: `desc-${describedCounter}` }, text);
}

/**
 * A list row's small action button (the lobby's tournament rows): `data-action` names it, it is
 * disabled and marked busy while the row's request is out, and described by the row's problem
 * (the element of id `problemId`) when there is one.
 */
export function rowButton({ action, text, kind, busy, problemId, onClick }) {
  return el(
    "button",
    {
      type: "button",
      class: `button small ${kind}`.trim(),
      dataset: { action },
      disabled: busy,
      "aria-busy": busy ? "true" : null,
      "aria-describedby": problemId,
      onclick: onClick,
    },
    text,
  );
}
