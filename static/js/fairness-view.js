// The hand page's Verify button (templates/holdem/_fairness.html): checks this hand's public cards
// against the deck commitment in the browser (fairness.js) and says what it found.

import { el } from "./dom.js";
import { verifyHand } from "./fairness.js";

const button = document.getElementById("verify-deck");
const data = document.getElementById("hand-fairness");
const out = document.getElementById("verify-result");

if (button && data && out) {
  const fairness = JSON.parse(data.textContent);
  button.addEventListener("click", () => {
    const verdict = verifyHand(fairness);
    const short = `${fairness.commitment.slice(0, 12)}…`;
    out.className = `verify-result ${verdict.ok ? "ok" : "failed"}`;
    if (verdict.ok) {
      const cards = verdict.revealed === 1 ? "card" : "cards";
      out.replaceChildren(el("p", {}, `Verified: the ${verdict.revealed} ${cards} you can see are the ones committed to before the deal (${short}), each at the place the deal gave it.`));
    } else {
      out.replaceChildren(
        el("p", {}, "Not verified: this hand does not match its commitment."),
        el("ul", {}, ...verdict.problems.map((problem) => el("li", {}, problem))),
      );
    }
  });
}
