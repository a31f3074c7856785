// The admin's room form (holdem/admin/rooms.py TableAdmin): only the stakes of the chosen betting
// structure are on the form. A fieldset with a `structure-<name>` class belongs to those
// structures only; the others are hidden and disabled, so their fields are not sent and the
// server gives the room its structure's own values. Without this script every field is sent and
// the server checks them all, each error under its field.

const PREFIX = "structure-";

/** Whether a fieldset with these classes belongs on the form of a room of `structure`. */
export function fieldsetShown(classNames, structure) {
  const own = [...classNames].filter((name) => name.startsWith(PREFIX));
  return own.length === 0 || own.includes(PREFIX + structure);
}

/** Show the fieldsets of the structure chosen in `select`; hide and disable the others. */
export function showStructure(form, select) {
  for (const fieldset of form.querySelectorAll("fieldset")) {
    const shown = fieldsetShown(fieldset.classList, select.value);
    fieldset.hidden = !shown;
    fieldset.disabled = !shown; // a disabled fieldset's fields are not sent
  }
}

if (typeof document !== "undefined") {
  const select = document.getElementById("id_structure");
  const form = select && select.form;
  if (form) {
    showStructure(form, select);
    select.addEventListener("change", () => showStructure(form, select));
  }
}
