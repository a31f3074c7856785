// Where the keyboard is, kept through the table's redraws and its dialogs: a redraw that removes
// the focused control puts the focus on its successor (same id, else the same words in the same
// part of the page, else that part's first control, else the fallback's), instead of dropping it
// on the page, where the next Tab would start again from the top; a modal dialog keeps Tab and
// Shift+Tab inside it and gives the focus back to the control that opened it.

const FOCUSABLE = "button, [href], input:not([type=hidden]), select, textarea, [tabindex]:not([tabindex='-1'])";

/** The controls in `root` the keyboard can reach now, in order. */
export function focusables(root) {
  if (!root) return [];
  return [...root.querySelectorAll(FOCUSABLE)].filter(
    (node) => !node.disabled && !node.closest("[hidden], [inert]") && node.getClientRects().length > 0,
  );
}

/** The focused element and how to find its successor, or null when the focus is not in `root`. */
export function focusMark(root = document.body) {
  const active = document.activeElement;
  if (!active || active === document.body || !root.contains(active)) return null;
  const region = active.parentElement && active.parentElement.closest("[id]");
  return { element: active, id: active.id || null, regionId: region ? region.id : null, tag: active.tagName, text: active.textContent.trim() };
}

function lost() {
  const active = document.activeElement;
  return !active || active === document.body || active === document.documentElement;
}

/** After a redraw or a dialog's close: if the marked element is gone and the focus with it,
 * focus its successor (see above); `fallback` is where to look last. */
export function focusRestore(mark, fallback = null) {
  if (!mark || !lost()) return;
  let target = mark.element.isConnected ? mark.element : null;
  if (!target && mark.id) target = document.getElementById(mark.id);
  const region = mark.regionId ? document.getElementById(mark.regionId) : null;
  const inRegion = focusables(region);
  if (!target) target = inRegion.find((node) => node.tagName === mark.tag && node.textContent.trim() === mark.text) || inRegion[0];
  if (!target) target = focusables(fallback)[0];
  if (target) target.focus({ preventScroll: true });
}

/** Tab past the last control of a modal dialog comes back to its first, Shift+Tab the other way
 * (the browser would otherwise take the focus out of the page). */
export function trapTab(dialog) {
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "Tab" || event.altKey || event.ctrlKey || event.metaKey) return;
    const items = focusables(dialog);
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    const at = document.activeElement;
    if (event.shiftKey && (at === first || !dialog.contains(at))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (at === last || !dialog.contains(at))) {
      event.preventDefault();
      first.focus();
    }
  });
}

/** Open `dialog` as a modal, its Tab kept inside; when it closes the focus goes back to the
 * control that opened it, or to its successor if a redraw replaced it (`fallback`: see above). */
export function showModal(dialog, fallback = null) {
  if (dialog.open) return;
  const mark = focusMark();
  if (!dialog.dataset.trapped) {
    trapTab(dialog);
    dialog.dataset.trapped = "true";
  }
  dialog.addEventListener("close", () => {
    // The browser gives the focus back to the opener if it is still there; then the page's own
    // redraws may still remove it, hence the next tick too.
    focusRestore(mark, fallback);
    setTimeout(() => focusRestore(mark, fallback), 0);
  }, { once: true });
  dialog.showModal();
}
