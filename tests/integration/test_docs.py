"""The user guide and API reference build without a warning (issue 28): ``mkdocs build --strict``
over ``mkdocs.yml``, with mkdocstrings reading the package's docstrings. The guide's code
examples run against a real Neo4j in ``test_readme_python.py``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def test_the_docs_build_strictly_with_every_reference_page(tmp_path: Path) -> None:
    pytest.importorskip("mkdocstrings_handlers.python", reason="mkdocs comes with the dev extra")
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                           "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(site)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    models = (site / "reference" / "models" / "index.html").read_text(encoding="utf-8")
    for name in ("build_embedder", "OpenAIChatModel", "LocalLLMServer", "ask_schema"):
        assert name in models, f"the API reference lost {name}"
    front = (site / "reference" / "front" / "index.html").read_text(encoding="utf-8")
    assert "from_env" in front and "consolidate" in front
    guide = (site / "guide" / "legal" / "index.html").read_text(encoding="utf-8")
    assert "hg.legal.retrieve" in guide
