// The admin room form's structure switch (static/js/admin-room-structure.js): which fieldsets a
// structure keeps, and the switch applied to a stand-in for the form.

import assert from "node:assert/strict";
import { test } from "node:test";

import { fieldsetShown, showStructure } from "../../static/js/admin-room-structure.js";

const BLINDS = ["module", "aligned", "structure-no_limit", "structure-pot_limit"];
const LIMIT = ["module", "aligned", "structure-fixed_limit"];
const COMMON = ["module", "aligned"];

test("no-limit and pot-limit rooms keep the blinds, fixed-limit rooms the limit stakes", () => {
  for (const structure of ["no_limit", "pot_limit"]) {
    assert.equal(fieldsetShown(BLINDS, structure), true);
    assert.equal(fieldsetShown(LIMIT, structure), false);
  }
  assert.equal(fieldsetShown(BLINDS, "fixed_limit"), false);
  assert.equal(fieldsetShown(LIMIT, "fixed_limit"), true);
});

test("fieldsets of every structure always show, whatever is chosen (or nothing yet)", () => {
  for (const structure of ["no_limit", "pot_limit", "fixed_limit", ""]) {
    assert.equal(fieldsetShown(COMMON, structure), true);
  }
  assert.equal(fieldsetShown(BLINDS, ""), false);
});

test("switching the structure hides the other structure's fieldsets and keeps their fields unsent", () => {
  const fieldsets = [COMMON, BLINDS, LIMIT].map((classes) => ({ classList: classes, hidden: false, disabled: false }));
  const form = { querySelectorAll: (selector) => (selector === "fieldset" ? fieldsets : []) };
  const off = () => fieldsets.map((f) => [f.hidden, f.disabled]);
  showStructure(form, { value: "fixed_limit" });
  assert.deepEqual(off(), [[false, false], [true, true], [false, false]]);
  showStructure(form, { value: "pot_limit" });
  assert.deepEqual(off(), [[false, false], [false, false], [true, true]]);
});
