"""One vocabulary on a real Neo4j (issue 17): a question scoped to a loaded ``…/QĐ-TTg``
decision is retrieved through its document filter, with no silent unfiltered retry."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from hopgraph.agents.legal import Interpreter, Pathfinder
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import load_legal
from hopgraph.retrieval import LegalRetriever
from tests.retrieval_fixtures import HashEmbedder

pytestmark = pytest.mark.integration

DECISION = """THỦ TƯỚNG CHÍNH PHỦ
Số: 1234/QĐ-TTg
Hà Nội, ngày 01 tháng 3 năm 2024

QUYẾT ĐỊNH
Về hỗ trợ chi phí khám bệnh cho người cao tuổi

Điều 1. Đối tượng hỗ trợ
Người cao tuổi từ đủ 80 tuổi được hỗ trợ chi phí khám bệnh tại trạm y tế xã.

Điều 2. Hiệu lực thi hành
Quyết định này có hiệu lực từ ngày ký ban hành.
"""
OTHER = """QUỐC HỘI
Luật số: 5/2020/QH14

LUẬT
Khám bệnh

Điều 1. Chi phí khám bệnh
Người bệnh trả chi phí khám bệnh, được hỗ trợ chi phí khám bệnh theo quy định.
"""


def test_a_ttg_scoped_question_is_answered_from_its_decision(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    (tmp_path / "qd.txt").write_text(DECISION, encoding="utf-8")
    (tmp_path / "luat.txt").write_text(OTHER, encoding="utf-8")
    report = load_legal(runner, HashEmbedder(), [tmp_path], segmenter=lambda t: t)
    assert "1234/QĐ-TTg" in report.documents, report
    question = "Theo Quyết định 1234/QĐ-TTg, ai được hỗ trợ chi phí khám bệnh?"
    reading, _ = Interpreter(today=date(2025, 1, 1)).interpret(question, use_llm=False)
    assert reading.filters.doc_ids == ("1234/QĐ-TTg",)
    evidence = Pathfinder(LegalRetriever(runner, HashEmbedder())).search(  # type: ignore[arg-type]
        question, None, reading.filters)
    assert evidence.notes == []  # no "document filter matched nothing; retried without it"
    seeds = [i.node_id for i in evidence.context.items if i.role == "seed"]
    assert seeds and all(s.startswith("1234/QĐ-TTg:") for s in seeds), evidence.context.items
