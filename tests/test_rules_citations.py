"""Citations of the rules resolve inside the repository (plain pytest, no database).

Code, tests and docs cite the game rules as `RULES.md n` or `rules.md n`, meaning section n, the
`## n.` heading of docs/rules.md. That file is the repository's copy of the customer's
../shared/RULES.md, in our own words; these tests make sure every cited section exists there and
that the copy keeps the customer's sections, headings, options and source references.
"""

import os
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
RULES_DOC = REPO / "docs" / "rules.md"
CUSTOMER_RULES = REPO.parent / "shared" / "RULES.md"
SCANNED_SUFFIXES = {".py", ".js", ".html", ".md"}

HEADING = re.compile(r"^## (\d+)\.[ \t]+(.+?)[ \t]*$", re.MULTILINE)
# "RULES.md 4", "rules.md 4 [003]", "RULES.md 1/3/4/5", "RULES.md 1, 3 and 7", "RULES.md section 1".
# A number is not taken when a digit follows "," or "." (a thousands separator or a decimal), so
# "RULES.md 4, 2,000 chips" cites 4 only.
_NUMBER = r"\d+\b(?![.,]\d)"
CITATION = re.compile(
    r"\brules\.md[ \t]+(?:section[ \t]+|§[ \t]*)?"
    rf"(?P<numbers>{_NUMBER}(?:[ \t]*(?:/|,|\band\b)[ \t]*(?:section[ \t]+)?{_NUMBER})*)",
    re.IGNORECASE,
)
SEED_REFERENCE = re.compile(r"\[(\d{3})\]")


def cited_sections(text):
    """(line number, section number) for every rules citation in `text`."""
    found = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        for match in CITATION.finditer(line):
            found.extend((lineno, int(n)) for n in re.findall(r"\d+", match.group("numbers")))
    return found


def sections(markdown):
    """{section number: heading text} of the `## n. heading` lines."""
    return {int(number): title for number, title in HEADING.findall(markdown)}


def section_bodies(markdown):
    """{section number: text of the section}, the text before section 1 under 0."""
    parts = HEADING.split(markdown)
    bodies = {0: parts[0]}
    for i in range(1, len(parts), 3):
        bodies[int(parts[i])] = parts[i + 2]
    return bodies


def option_names(markdown):
    """The backticked names in the first column of section 1's table."""
    names = set()
    for line in section_bodies(markdown).get(1, "").splitlines():
        cells = line.strip().split("|")
        if line.strip().startswith("|") and len(cells) > 2:
            names.update(re.findall(r"`([^`]+)`", cells[1]))
    return names


def tracked_source_files():
    listing = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout.decode("utf-8", "surrogateescape")
    for name in listing.split("\0"):
        path = REPO / name
        if name and path.suffix.lower() in SCANNED_SUFFIXES and path.is_file():
            yield path


def unresolved_citations(files, headings, root=REPO):
    """'file:line: RULES.md n' for every citation of a section that `headings` lacks."""
    problems, total = [], 0
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        name = path.relative_to(root) if path.is_relative_to(root) else path
        for lineno, number in cited_sections(text):
            total += 1
            if number not in headings:
                problems.append(f"{name}:{lineno}: RULES.md {number}")
    return problems, total


def customer_rules():
    """The text of ../shared/RULES.md; skipped without it (a failure on CI, where it must exist)."""
    if not CUSTOMER_RULES.is_file():
        reason = f"{CUSTOMER_RULES} is missing: nothing to compare docs/rules.md with"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason + " (CI=true: it must be there)")
        pytest.skip(reason)
    return CUSTOMER_RULES.read_text(encoding="utf-8")


def test_every_cited_section_has_a_heading_in_docs_rules():
    headings = sections(RULES_DOC.read_text(encoding="utf-8"))
    assert headings, "docs/rules.md has no '## n.' section headings"
    problems, total = unresolved_citations(tracked_source_files(), headings)
    assert total, "no rules citations found at all: is the scan (git ls-files) broken?"
    assert not problems, (
        f"citations of sections that docs/rules.md does not have (it has {sorted(headings)}):\n"
        + "\n".join(problems)
    )


def test_docs_rules_has_the_sections_and_options_of_the_customers_rules():
    theirs, ours = customer_rules(), RULES_DOC.read_text(encoding="utf-8")
    theirs_sections, ours_sections = sections(theirs), sections(ours)
    differences = [
        f"## {n}. RULES.md: {theirs_sections.get(n, '(none)')!r}, "
        f"docs/rules.md: {ours_sections.get(n, '(none)')!r}"
        for n in sorted(set(theirs_sections) | set(ours_sections))
        if theirs_sections.get(n) != ours_sections.get(n)
    ]
    assert not differences, (
        "docs/rules.md must have the section numbers and headings of ../shared/RULES.md:\n"
        + "\n".join(differences)
    )
    theirs_options = option_names(theirs)
    assert theirs_options, "no backticked option names found in section 1 of ../shared/RULES.md"
    missing = sorted(theirs_options - option_names(ours))
    assert not missing, (
        f"options of RULES.md section 1 missing from docs/rules.md's table: {missing}"
    )
    missing = sorted(name for name in theirs_options if f"`{name}`" not in ours)
    assert not missing, f"options of RULES.md section 1 not named in docs/rules.md: {missing}"


def test_docs_rules_cites_the_same_sources_section_by_section():
    theirs = section_bodies(customer_rules())
    ours = section_bodies(RULES_DOC.read_text(encoding="utf-8"))
    differences = [
        f"section {n}: RULES.md cites {sorted(set(SEED_REFERENCE.findall(body)))}, "
        f"docs/rules.md {sorted(set(SEED_REFERENCE.findall(ours.get(n, ''))))}"
        for n, body in sorted(theirs.items())
        if set(SEED_REFERENCE.findall(body)) != set(SEED_REFERENCE.findall(ours.get(n, "")))
    ]
    assert not differences, "\n".join(differences)


# The checks themselves, on made-up text (so that they cannot pass by finding nothing).


def test_citation_forms():
    text = (
        "# RULES.md 4 [003]: show or muck\n"
        "see RULES.md 1/3/4/5 and rules.md 1 and 7, RULES.md 2, 4 and 5 say\n"
        "RULES.md section 6; RULES.md 3 / STYLE.md 1; RULES.md 5, 2,000 chips; RULES.md`.\n"
    )
    assert cited_sections(text) == [
        (1, 4),
        (2, 1),
        (2, 3),
        (2, 4),
        (2, 5),
        (2, 1),
        (2, 7),
        (2, 2),
        (2, 4),
        (2, 5),
        (3, 6),
        (3, 3),
        (3, 5),
    ]


def test_a_citation_of_a_missing_section_is_reported(tmp_path):
    source = tmp_path / "holdem" / "example.py"
    source.parent.mkdir()
    source.write_text('"""Fine: RULES.md 4."""\n# Broken: RULES.md 2 and ' + "9" + "\n")
    problems, total = unresolved_citations([source], {1: "a", 2: "b", 4: "c"}, root=tmp_path)
    assert total == 3
    assert problems == ["holdem/example.py:2: RULES.md " + "9"]  # split: this file is scanned too


def test_section_and_option_parsing():
    text = (
        "# Title [000]\n\n## 1. Options\n| option | values |\n|---|---|\n"
        "| `seats` | 2..10 |\n| `small_bet`/`big_bet` (fixed) | `no_limit` |\n"
        "## 2. Seating [003]\ntext\n"
    )
    assert sections(text) == {1: "Options", 2: "Seating [003]"}
    assert option_names(text) == {"seats", "small_bet", "big_bet"}
    assert SEED_REFERENCE.findall(section_bodies(text)[0]) == ["000"]
