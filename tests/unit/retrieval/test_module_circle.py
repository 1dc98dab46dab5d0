"""The retrieval area's modules import each other without a circle (issue 28).

``_legal`` → ``_legal_context`` → ``_legal_consolidate`` → ``_legal`` was one: ``Candidate`` and
``to_native`` now live in ``_legal_types``, below all three. ``_legal_consolidate`` imports
``to_native`` from ``_legal_types`` too, so no edge is allowed.
"""

from __future__ import annotations

import ast
from pathlib import Path

AREA = Path(__file__).resolve().parents[3] / "retrieval"
PACKAGE = "hopgraph.retrieval"
ALLOWED: set[tuple[str, str]] = set()


def _edges() -> set[tuple[str, str]]:
    """(importer, imported) for every import of a sibling module, at any depth of the file."""
    edges = set()
    for path in AREA.glob("_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                target = node.module
                if target.startswith(PACKAGE + ".") and target.count(".") == 2:
                    edges.add((path.stem, target.rsplit(".", 1)[1]))
    return edges


def _cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    found: list[list[str]] = []

    def walk(node: str, path: list[str]) -> None:
        for nxt in sorted(graph.get(node, ())):
            if nxt == path[0]:
                found.append([*path, nxt])
            elif nxt not in path and nxt > path[0]:  # each circle once, from its smallest name
                walk(nxt, [*path, nxt])

    for start in sorted(graph):
        walk(start, [start])
    return found


def test_the_retrieval_modules_import_each_other_without_a_circle() -> None:
    edges = _edges()
    assert ("_legal", "_legal_context") in edges  # the reader sees the area's real imports
    assert _cycles(edges - ALLOWED) == []


def test_the_allowed_edge_is_still_there() -> None:
    # when its owner moves the import, this fails: empty ALLOWED then
    assert _edges() >= ALLOWED
