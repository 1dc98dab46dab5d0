"""Layers between the package's areas (issue 17), read from the source with ``ast`` (no import).

An *area* is a top-level folder of the repository mapped into the package by pyproject's
``package-dir`` (issue 28: a folder stands on one floor): ``core`` (``hopgraph.core``: errors,
settings, ports, results, vocabulary, questions, samples, segmenting), the bottom layer;
``models``, ``docker``, ``cypher``, ``graph_models``, ``db``, ``loaders``, ``retrieval``,
``agents``, ``eval``; ``front`` (the folder mapped to the package root ``hopgraph``: the lazy
``__init__``, the front door ``_front``, the serving layer, ``integrations``) and ``cli`` on top.

Two rules, each with an allow-list that issue 17 item 2 emptied (ports in ``hopgraph.core.ports``,
click commands in the CLI package, areas exporting what others use); keep them empty:

1. No area imports another area's private module (a name with a ``_`` component below the
   area: ``hopgraph.db._runtime``, ``hopgraph.agents.legal._parsing``, ``hopgraph._front``).
   Use what the area exports, or move the shared thing down (as ``hopgraph.core.vocabulary``).
2. Areas import only downwards in :data:`LAYERS`, so there is no import cycle between areas.
   Every import counts, also one inside a function or under ``TYPE_CHECKING``: a lazy import
   hides a cycle from the interpreter, not from the design. Any import cycle between areas
   fails, whatever the allow-lists say; ``python tests/unit/core/test_layering.py`` prints the
   imports, the area graph and its cycles.
"""

from __future__ import annotations

import ast
import tomllib
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
# The folder mapped to the package root holds the front door and the serving layer: the area
# ``front``, above the agents and the eval harnesses and below the CLI.
ROOT_AREA = "front"

# Imports of another area's private module allowed (importing module, imported module): none since
# issue 17 item 2 (each area exports what the others use). Keep it empty: export the name instead.
PRIVATE_IMPORTS_ALLOWED: set[tuple[str, str]] = set()

# The intended layers, bottom first (issue 17 item 2): an area imports only areas below it.
# ``models`` (the adapters: embedders, chat models, the local LLM server, the ONNX export) stands
# right above the core package: it implements the ports and imports nothing else of hopgraph.
# ``eval`` (the harnesses that run the agents over question sets) stands above the agents.
LAYERS = ("core", "models", "docker", "cypher", "graph_models", "db", "loaders", "retrieval",
          "agents", "eval", "front", "cli")

# Area imports that point upwards (importing area, imported area): none since issue 17 item 2 (the
# ports in the core package, hopgraph.core.ports; the click commands in the CLI package; the stored
# form of triplet vectors in graph_models). Keep it empty: move the shared thing down instead.
UPWARD_EDGES_ALLOWED: set[tuple[str, str]] = set()


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name, from pyproject's package-dir mapping."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    out: dict[str, Path] = {}
    for package, folder in config["tool"]["setuptools"]["package-dir"].items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join([package, *parts])] = path
    return out


MODULES = _modules()


def _folders() -> dict[str, str]:
    """Package name -> top-level folder, from pyproject's package-dir mapping."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return dict(config["tool"]["setuptools"]["package-dir"])


FOLDERS = _folders()
AREAS = {name.split(".")[1] for name in FOLDERS if name != "hopgraph"} | {ROOT_AREA}


def area_of(module: str) -> str:
    """``hopgraph.<area>…`` -> area; a module of the package root's folder -> ``front``."""
    parts = module.split(".")
    return parts[1] if len(parts) >= 2 and parts[1] in AREAS - {ROOT_AREA} else ROOT_AREA


def folder_of(module: str) -> str:
    """The top-level folder that holds ``module``'s file."""
    return MODULES[module].relative_to(ROOT).parts[0]


def is_private(module: str) -> bool:
    """A ``_`` component below the area (``hopgraph._front`` is private to front)."""
    parts = module.split(".")
    below = parts[1:] if area_of(module) == ROOT_AREA else parts[2:]
    return any(p.startswith("_") and not p.startswith("__") for p in below)


def _imports(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """The hopgraph modules ``module`` imports (with the line), wherever the import stands."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "hopgraph":
                    yield _known(alias.name), node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            if target.split(".")[0] != "hopgraph":
                continue
            for alias in node.names:  # ``from hopgraph.agents.legal import _parsing``
                sub = f"{target}.{alias.name}"
                yield (sub if sub in MODULES else _known(target)), node.lineno


def _known(name: str) -> str:
    """The longest prefix of ``name`` that is a module of the package."""
    parts = name.split(".")
    while parts and ".".join(parts) not in MODULES:
        parts.pop()
    return ".".join(parts) or name


def _import_table() -> list[tuple[str, str, int]]:
    return [(module, imported, line) for module, path in MODULES.items()
            for imported, line in _imports(module, path)]


def private_imports() -> dict[tuple[str, str], list[str]]:
    """(importing area, private module of another area) -> where (``module:line``)."""
    out: dict[tuple[str, str], list[str]] = defaultdict(list)
    for module, imported, line in _import_table():
        if area_of(module) != area_of(imported) and is_private(imported):
            out[(area_of(module), imported)].append(f"{module}:{line}")
    return dict(out)


def area_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for module, imported, _ in _import_table():
        if area_of(module) != area_of(imported):
            graph[area_of(module)].add(area_of(imported))
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one area (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(set(graph) | {w for ws in graph.values() for w in ws}):
        if v not in index:
            visit(v)
    return sorted(out)


def test_the_table_reads_every_module() -> None:
    assert "hopgraph.core.vocabulary" in MODULES and "hopgraph.agents.legal._parsing" in MODULES
    assert area_of("hopgraph.agents.legal._parsing") == "agents"
    assert area_of("hopgraph.db._runtime") == "db" and area_of("hopgraph._front") == "front"
    assert area_of("hopgraph.core.vocabulary") == "core"
    assert area_of("hopgraph.models._llm") == "models" and is_private("hopgraph.models._onnx")
    assert is_private("hopgraph.agents.legal._parsing") and is_private("hopgraph._front")
    assert not is_private("hopgraph.retrieval") and not is_private("hopgraph.core.vocabulary")


def test_no_new_import_of_another_areas_private_module() -> None:
    found: dict[tuple[str, str], list[str]] = defaultdict(list)
    for module, imported, line in _import_table():
        if area_of(module) != area_of(imported) and is_private(imported) and (
                module, imported) not in PRIVATE_IMPORTS_ALLOWED:
            found[(module, imported)].append(str(line))
    assert not found, "private module of another area imported (use its public API): " + "; ".join(
        f"{module} imports {imported} (line {', '.join(lines)})"
        for (module, imported), lines in sorted(found.items()))


def test_areas_import_only_downwards() -> None:
    assert set(LAYERS) == AREAS
    upward = {(a, b) for a, bs in area_graph().items() for b in bs
              if LAYERS.index(b) > LAYERS.index(a)} - UPWARD_EDGES_ALLOWED
    assert not upward, f"new upward imports between areas (importing, imported): {sorted(upward)}"


def test_the_model_adapters_stand_on_the_core_alone() -> None:
    """The adapters implement the ports; the agents are left with the reasoning (issue 28)."""
    assert area_graph().get("models", set()) <= {"core"}
    assert not [m for m in MODULES if m.startswith("hopgraph.agents._")], \
        "a module directly in agents/ (model adapters live in models/)"


def test_the_eval_harnesses_live_in_eval() -> None:
    """Harnesses that score the agents over question sets are not agents (issue 28)."""
    harness = ("_eval", "eval", "_temporal_eval", "_temporal_gold", "_dataset", "_qa_articles")
    misplaced = [m for m in MODULES if m.startswith("hopgraph.agents.")
                 and m.rsplit(".", 1)[-1] in harness]
    assert not misplaced, f"evaluation harnesses under agents/ (move them to eval/): {misplaced}"
    assert {"hopgraph.eval.biomed", "hopgraph.eval.sentences", "hopgraph.eval.temporal",
            "hopgraph.eval.dataset"} <= set(MODULES)


def test_no_import_cycle_between_areas() -> None:
    assert cycles(area_graph()) == [], f"import cycle between areas: {cycles(area_graph())}"


if __name__ == "__main__":  # the report the allow-lists were written from
    for module, imported, line in _import_table():
        if area_of(module) != area_of(imported) and is_private(imported):
            print(f"{module}:{line} imports {imported}")
    print({a: sorted(bs) for a, bs in sorted(area_graph().items())})
    print("cycles:", cycles(area_graph()))
