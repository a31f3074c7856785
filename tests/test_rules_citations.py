"""Citations of the rule book and the style guide resolve inside the repository (plain pytest).

Code, tests and docs cite the game rules as `RULES.md n` or `rules.md n`, meaning section n, the
`## n.` heading of docs/rules.md, and the style guide as `style.md n` (docs/style.md). Both files
are the repository's own: changes of the customer's rules arrive as issues, and nothing here reads
a file outside the repository. These tests check that every citation resolves, that the sections
are numbered in order, and that the rules name their options and cite only sources they introduce.
"""

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
RULES_DOC = REPO / "docs" / "rules.md"
STYLE_DOC = REPO / "docs" / "style.md"
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
STYLE_CITATION = re.compile(
    r"\bstyle\.md[ \t]+(?P<numbers>"
    + _NUMBER
    + r"(?:[ \t]*(?:/|,|\band\b)[ \t]*"
    + _NUMBER
    + r")*)",
    re.IGNORECASE,
)
SEED_REFERENCE = re.compile(r"\[(\d{3})\]")


def cited_sections(text, pattern=CITATION):
    """(line number, section number) for every citation (of the rules, by default) in `text`."""
    found = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        for match in pattern.finditer(line):
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


def unresolved_citations(files, headings, root=REPO, pattern=CITATION):
    """'file:line: RULES.md n' for every citation of a section that `headings` lacks."""
    problems, total = [], 0
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        name = path.relative_to(root) if path.is_relative_to(root) else path
        for lineno, number in cited_sections(text, pattern):
            total += 1
            if number not in headings:
                problems.append(f"{name}:{lineno}: RULES.md {number}")
    return problems, total


def test_every_cited_style_section_has_a_heading_in_docs_style():
    headings = sections(STYLE_DOC.read_text(encoding="utf-8"))
    assert headings, "docs/style.md has no '## n.' section headings"
    problems, total = unresolved_citations(tracked_source_files(), headings, pattern=STYLE_CITATION)
    assert total, "no style citations found at all: is the scan (git ls-files) broken?"
    assert not problems, (
        f"citations of sections that docs/style.md does not have (it has {sorted(headings)}):\n"
        + "\n".join(problems)
    )


@pytest.mark.parametrize("doc", [RULES_DOC, STYLE_DOC], ids=lambda path: path.name)
def test_the_sections_are_numbered_one_after_another(doc):
    numbers = [int(n) for n, _ in HEADING.findall(doc.read_text(encoding="utf-8"))]
    assert numbers == list(range(1, len(numbers) + 1))


def test_every_option_of_the_table_is_named_in_the_rules():
    rules = RULES_DOC.read_text(encoding="utf-8")
    options = option_names(rules)
    assert {"seats", "structure", "entry", "disconnect", "turn_seconds"} <= options
    # Sections 8 and 9 (tournaments) name options of their own, each backticked.
    tournaments = section_bodies(rules)[8] + section_bodies(rules)[9]
    for name in (
        "buy_in",
        "fee",
        "starting_stack",
        "level_minutes",
        "blind_schedule",
        "payouts",
        "starts_at",
        "late_registration_levels",
        "re_entry",
        "table_seats",
    ):
        assert f"`{name}`" in tournaments, name


def test_every_source_cited_is_one_the_rules_introduce():
    rules = RULES_DOC.read_text(encoding="utf-8")
    introduced = set(SEED_REFERENCE.findall(section_bodies(rules)[0]))
    assert introduced == {"000", "002", "003", "004"}
    cited = {n: set(SEED_REFERENCE.findall(body)) for n, body in section_bodies(rules).items()}
    assert all(refs <= introduced for refs in cited.values()), cited
    # The game rules cite their sources; the tournament sections are ours (no source has them).
    assert all(cited[n] for n in range(1, 8)), cited
    assert not cited[8] and not cited[9]


def test_nothing_in_the_repository_reads_a_file_outside_it():
    outside = re.compile(r"\.\./shared|parent / \"shared\"")
    found = [
        f"{path.relative_to(REPO)}:{lineno}"
        for path in tracked_source_files()
        if path != Path(__file__)
        for lineno, line in enumerate(
            path.read_text(encoding="utf-8", errors="replace").splitlines(), 1
        )
        if outside.search(line)
    ]
    assert not found, found


# The checks themselves, on made-up text (so that they cannot pass by finding nothing).


def test_citation_forms():
    text = (
        "# RULES.md 4 [003]: show or muck\n"
        "see RULES.md 1/3/4/5 and rules.md 1 and 7, RULES.md 2, 4 and 5 say\n"
        "RULES.md section 6; RULES.md 3 / style.md 1; RULES.md 5, 2,000 chips; RULES.md`.\n"
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
