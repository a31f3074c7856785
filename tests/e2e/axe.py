"""axe-core in the browser tests: `assert_accessible(page, "lobby-1280")` checks the page as it is
now against WCAG 2.2 A and AA and fails on every serious or critical violation, naming the rule,
its impact, the elements (CSS selectors) and axe's help. The whole answer is written to
artifacts/axe-<name>.json for whoever reads a failure (minor and moderate findings included).

axe-core is pinned in tests/e2e/axe/package-lock.json and installed by `make test` (npm ci). When
it is missing the check is skipped, and on CI (CI=true) it fails, as a missing service does."""

import json
from pathlib import Path

from tests.conftest import service_missing

AXE_DIR = Path(__file__).resolve().parent / "axe"
AXE_SCRIPT = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
FAILING_IMPACTS = {"serious", "critical"}

RUN = """async ({ tags, exclude, rules }) => {
    const context = exclude.length ? { include: [document], exclude: exclude.map((s) => [s]) } : document;
    return await axe.run(context, { runOnly: { type: "tag", values: tags }, rules, resultTypes: ["violations"] });
}"""


def axe_ready() -> Path:
    """The axe-core script, or a skip (a failure on CI) saying how to install it."""
    if not AXE_SCRIPT.exists():
        service_missing(
            f"needs axe-core at {AXE_SCRIPT.relative_to(AXE_DIR.parents[2])}: "
            "run `npm ci --prefix tests/e2e/axe` (make test does)"
        )
    return AXE_SCRIPT


def axe_violations(page, name, *, exclude=(), disabled_rules=()):
    """Run axe on `page` and write artifacts/axe-<name>.json; the violations found, all impacts.
    `exclude`: selectors left out of the check; `disabled_rules`: rule ids turned off. Both are
    for false positives only, each with its reason in docs/decisions.md (## Front end)."""
    script = axe_ready()
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated, not added as a <script> (page.add_script_tag): the site's Content Security
        # Policy (script-src 'self') refuses inline scripts, and must stay as it is under test.
        page.evaluate(script.read_text() + "\n;undefined")
    result = page.evaluate(
        RUN,
        {
            "tags": WCAG_TAGS,
            "exclude": list(exclude),
            "rules": {rule: {"enabled": False} for rule in disabled_rules},
        },
    )
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"axe-{name}.json").write_text(json.dumps(result, indent=1))
    return result["violations"]


def describe(violations) -> str:
    lines = []
    for violation in violations:
        lines.append(
            f"- {violation['id']} ({violation['impact']}): {violation['help']} [{violation['helpUrl']}]"
        )
        for node in violation["nodes"][:10]:
            target = " >> ".join(
                " ".join(part) if isinstance(part, list) else part for part in node["target"]
            )
            summary = (node.get("failureSummary") or "").replace("\n", " ")
            lines.append(f"    {target}: {summary[:300]}")
        if len(violation["nodes"]) > 10:
            lines.append(f"    ... and {len(violation['nodes']) - 10} more")
    return "\n".join(lines)


def assert_accessible(page, name, *, exclude=(), disabled_rules=()):
    """Fail listing each serious or critical WCAG 2.2 A/AA violation axe finds on `page` now."""
    violations = axe_violations(page, name, exclude=exclude, disabled_rules=disabled_rules)
    serious = [v for v in violations if v.get("impact") in FAILING_IMPACTS]
    assert not serious, (
        f"axe found {len(serious)} serious or critical WCAG 2.2 A/AA violation(s) on {name} "
        f"({page.url}; the whole answer is in artifacts/axe-{name}.json):\n{describe(serious)}"
    )
