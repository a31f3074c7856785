"""docs/architecture.md draws the layers tests/test_architecture.py enforces, and cannot drift from it.

The diagram is the first fenced block of the page. A line that starts with a layer's name opens
that layer; the lines below it, up to the next layer's name, belong to it. Each layer names its
modules exactly (`holdem.realtime.consumers`) or by package (`holdem.services.*`: the package and
everything in it). Words in parentheses are comments. The most exact name that covers a module
decides where the diagram puts it, as the longest prefix does in LAYERS: `holdem.realtime.*`
under one layer and `holdem.realtime.delta` under another would put `delta` under the second.
"""

import re

from tests.test_architecture import LAYERS, MAY_IMPORT, ROOT, first_party_modules, layer_of

DOC = ROOT / "docs" / "architecture.md"
NAME = re.compile(r"\b(?:casino|holdem|lobby)(?:\.\w+)*(?:\.\*)?")


def diagram(markdown: str) -> str:
    """The text of the first ``` block."""
    match = re.search(r"^```[^\n]*\n(.*?)^```", markdown, re.MULTILINE | re.DOTALL)
    assert match, f"{DOC.name} has no diagram (a ``` block)"
    return match.group(1)


def layers_named(text: str) -> dict[str, list[str]]:
    """{name as written: [the layers it is listed under]}."""
    layers = set(LAYERS.values()) | set(MAY_IMPORT)
    text = re.sub(r"\([^()]*\)", " ", text)  # comments, which may run over several lines
    named: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        first = line.split(maxsplit=1)[0] if line.strip() else ""
        if first in layers:
            current = first
            line = line.replace(first, " ", 1)
        for name in NAME.findall(line):
            assert current, f"{name} is named above the first layer of the diagram"
            named.setdefault(name, []).append(current)
    return named


def covers(name: str, module: str) -> bool:
    if name.endswith(".*"):
        package = name[:-2]
        return module == package or module.startswith(package + ".")
    return module == name


def placement(module: str, named: dict[str, list[str]]) -> tuple[str, str] | None:
    """(the name that places `module` in the diagram, its layer), the most exact name winning."""
    candidates = [name for name in named if covers(name, module)]
    if not candidates:
        return None
    # An exact name beats any wildcard; among wildcards, the longest package wins.
    best = max(candidates, key=lambda name: (not name.endswith(".*"), len(name)))
    return best, named[best][0]


def test_every_module_is_drawn_under_its_layer():
    named = layers_named(diagram(DOC.read_text()))
    wrong = []
    for module in sorted(first_party_modules()):
        expected = layer_of(module)
        found = placement(module, named)
        if found is None:
            wrong.append(f"{module} is not in the diagram: list it under {expected}")
        elif found[1] != expected:
            wrong.append(
                f"{module} is drawn under {found[1]} (as {found[0]}) but belongs to {expected}:"
                f" list it under {expected}"
            )
    assert wrong == [], "\n".join(wrong)


def test_the_diagram_names_only_modules_that_exist_once():
    named = layers_named(diagram(DOC.read_text()))
    modules = first_party_modules()
    wrong = []
    for name, layers in sorted(named.items()):
        if len(layers) > 1:
            wrong.append(f"{name} is listed {len(layers)} times (under {', '.join(layers)})")
        if name.endswith(".*"):
            package = name[:-2]
            if package not in modules or modules[package].name != "__init__.py":
                wrong.append(f"{name}: there is no package {package}")
        elif name not in modules:
            wrong.append(f"{name}: there is no module {name}")
    assert wrong == [], "\n".join(wrong)


def test_the_reader_finds_what_the_diagram_means():
    text = """
```
 site     casino.urls, lobby.*, holdem.realtime.delta  (casino.pages is
          mentioned in a comment)
   |
 infra    casino.errors,
          holdem.realtime.*
```
"""
    named = layers_named(diagram(text))
    assert named == {
        "casino.urls": ["site"],
        "lobby.*": ["site"],
        "holdem.realtime.delta": ["site"],
        "casino.errors": ["infra"],
        "holdem.realtime.*": ["infra"],
    }
    assert placement("lobby", named) == ("lobby.*", "site")
    assert placement("holdem.realtime.consumers", named) == ("holdem.realtime.*", "infra")
    assert placement("holdem.realtime.delta", named) == ("holdem.realtime.delta", "site")
    assert placement("casino.pages", named) is None
