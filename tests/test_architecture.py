"""The module layers of docs/architecture.md, held: imports run one way and no import circle exists.

Every import counts, at module level or inside a function: a function-level import still makes
one module depend on another (it only moves the failure from import time to run time). Importing
`a.b.c` also runs the package `a.b`, so it depends on `a/b/__init__.py` as well.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("casino", "holdem", "lobby")

# Which layer a module belongs to, by the longest matching prefix (docs/architecture.md).
# A module may import modules of its own layer (no circles) and of the layers listed for it.
LAYERS = {
    "holdem.engine": "engine",
    "casino.settings": "config",
    "casino.accounts": "accounts",
    "casino.append_only": "infra",
    "casino.chain": "infra",
    "casino.db_routing": "infra",
    "casino.logging": "infra",
    "casino.origin": "infra",
    "casino.handshake": "infra",
    "casino.layers": "infra",
    "casino.redis_shards": "infra",
    "casino.middleware": "infra",
    "casino.readonly_admin": "infra",
    "casino.serve": "infra",
    "casino.celery": "infra",
    "casino.beat": "infra",
    "casino.errors": "infra",
    "casino.metrics": "infra",  # casino.metrics_endpoint is the site's
    "holdem.models": "tables-data",
    "holdem.presets": "tables-data",
    "holdem.table_options": "tables-data",
    "holdem.rules_words": "tables-data",
    "holdem.db": "tables-data",
    "holdem.realtime.broadcast": "tables-data",
    "holdem.realtime.delta": "tables-data",
    "holdem.preactions": "tables-data",
    "holdem.hand_chain": "tables-data",
    "holdem.migrations": "tables-data",
    "holdem.selectors": "tables-read",  # every module of the package: the reads
    "holdem.history": "tables-read",
    "holdem.services": "tables-write",
    "holdem": "tables-edge",
    "lobby": "lobby",
    "casino": "site",
}
MAY_IMPORT = {
    "engine": set(),
    "config": set(),
    "infra": {"config"},
    "accounts": {"infra", "config"},
    "tables-data": {"engine", "accounts", "infra"},
    "tables-read": {"tables-data", "engine", "accounts", "infra"},
    "tables-write": {"tables-read", "tables-data", "engine", "accounts", "infra"},
    "tables-edge": {"tables-write", "tables-read", "tables-data", "engine", "accounts", "infra"},
    "lobby": {"tables-edge", "tables-write", "tables-read", "tables-data", "accounts", "infra"},
    "site": {"lobby", "tables-edge", "tables-read", "tables-data", "accounts", "infra", "config"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def first_party_modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            found[module_name(path)] = path
    return found


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """First-party modules `name` depends on (packages whose __init__ runs included)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            targets.add(source)
            targets.update(f"{source}.{alias.name}" for alias in node.names)
    depends = set()
    for target in targets:
        parts = target.split(".")
        for end in range(1, len(parts) + 1):
            candidate = ".".join(parts[:end])
            # A module's own ancestors are already running when it is imported.
            if candidate in known and candidate != name and not name.startswith(candidate + "."):
                depends.add(candidate)
    return depends


def import_graph() -> dict[str, set[str]]:
    known = first_party_modules()
    graph = {name: imports_of(name, path, known) for name, path in known.items()}
    # A package whose __init__ imports nothing adds no dependency by being run.
    empty = {
        name for name, depends in graph.items() if not depends and known[name].name == "__init__.py"
    }
    return {name: depends - empty for name, depends in graph.items()}


# Package __init__ modules that belong to a lower layer than their package's default.
PACKAGE_INITS = {"casino": "infra"}  # it only makes the Celery app


def layer_of(name: str) -> str:
    if name in PACKAGE_INITS:
        return PACKAGE_INITS[name]
    prefix = max((p for p in LAYERS if name == p or name.startswith(p + ".")), key=len)
    return LAYERS[prefix]


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle():
    assert circles(import_graph()) == []


def test_imports_run_down_the_layers():
    wrong = []
    for name, depends in sorted(import_graph().items()):
        mine = layer_of(name)
        for target in sorted(depends):
            theirs = layer_of(target)
            if theirs != mine and theirs not in MAY_IMPORT[mine]:
                wrong.append(f"{name} ({mine}) imports {target} ({theirs})")
    assert wrong == []


def test_the_engine_is_pure():
    """holdem.engine imports nothing from Django or the rest of the site."""
    for name, path in first_party_modules().items():
        if layer_of(name) != "engine":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom | ast.Import):
                modules = (
                    [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else [alias.name for alias in node.names]
                )
                for module in modules:
                    assert not module.startswith(("django", "channels", "celery")), (name, module)


@pytest.mark.parametrize(
    "graph, expected",
    [
        ({"a": {"b"}, "b": {"a"}, "c": set()}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ],
)
def test_the_circle_finder_finds_circles(graph, expected):
    assert circles(graph) == expected
