"""Legal retrieval over the loader's shipped sample corpus (loaded with the real legal loader):
amendment chains of depth 1-4, a not-yet-effective amendment, repeals, a replaced decree."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import load_legal
from hopgraph.retrieval import LegalContext, LegalRetriever
from tests.integration.conftest import TEST_DATABASE, Server, clear_database
from tests.retrieval_fixtures import HashEmbedder

pytestmark = pytest.mark.integration

SAMPLES = Path(__file__).resolve().parents[2] / "loaders" / "legal" / "samples"
D3K2 = "12/2016/NĐ-MAU:D3.K2"

# Expected wording in force of khoản 2 Điều 3 Nghị định 12/2016/NĐ-MAU, from the samples' README
# and question answers: amended by 20/2018 (15/02/2018), 30/2020, 40/2023 (01/01/2023) and
# 55/2030 (in force only from 01/07/2031).
CHAIN = [
    (date(2017, 1, 1), D3K2),
    (date(2018, 2, 15), f"{D3K2}@20/2018/NĐ-MAU"),
    (date(2022, 12, 31), f"{D3K2}@30/2020/NĐ-MAU"),
    (date(2023, 1, 1), f"{D3K2}@40/2023/NĐ-MAU"),
    (date(2027, 1, 1), f"{D3K2}@40/2023/NĐ-MAU"),
    (date(2031, 7, 1), f"{D3K2}@55/2030/NĐ-MAU"),
]


@pytest.fixture(scope="module")
def samples(schema_installed: Server) -> LegalRetriever:
    # Loaded once for the module (read-only tests); the next test using ``runner`` clears it.
    clear_database(schema_installed.driver)
    runner = Neo4jRunner(schema_installed.driver, database=TEST_DATABASE, timeout_s=120.0)
    report = load_legal(runner, HashEmbedder(), [SAMPLES])
    assert not report.skipped
    return LegalRetriever(runner, HashEmbedder())


def _applicable(ctx: LegalContext, base: str) -> list[str]:
    return [i.node_id for i in ctx.items if i.applicable and i.node_id.split("@")[0] == base]


def test_depth_one_to_four_chain_from_every_wording(samples: LegalRetriever) -> None:
    wordings = [D3K2] + [f"{D3K2}@{d}" for d in
                         ("20/2018/NĐ-MAU", "30/2020/NĐ-MAU", "40/2023/NĐ-MAU", "55/2030/NĐ-MAU")]
    for as_of, expected in CHAIN:
        for start in wordings:
            ctx = samples.trace([start], as_of=as_of)
            assert _applicable(ctx, D3K2) == [expected], (start, as_of, ctx.items)


def test_sample_questions_return_the_applicable_wording(samples: LegalRetriever) -> None:
    questions = {q["id"]: q for q in
                 json.loads((SAMPLES / "questions.json").read_text(encoding="utf-8"))["questions"]}
    expected = {  # question -> (base unit, wording in force at the question's date)
        "q01": (D3K2, f"{D3K2}@40/2023/NĐ-MAU"),
        "q02": (D3K2, f"{D3K2}@20/2018/NĐ-MAU"),
        "q03": (D3K2, f"{D3K2}@40/2023/NĐ-MAU"),
        "q05": ("12/2016/NĐ-MAU:D4.K1a", "12/2016/NĐ-MAU:D4.K1a@40/2023/NĐ-MAU"),
        "q12": ("12/2016/NĐ-MAU:D7.K1", "12/2016/NĐ-MAU:D7.K1@20/2018/NĐ-MAU"),
    }
    for qid, (base, wording) in expected.items():
        q = questions[qid]
        ctx = samples.retrieve(q["question"], k=5, as_of=q["as_of"])
        assert ctx.round_trips == 1
        assert _applicable(ctx, base) == [wording], (qid, [(i.node_id, i.applicable)
                                                          for i in ctx.items])


def test_not_yet_effective_amendment_is_pending(samples: LegalRetriever) -> None:
    ctx = samples.trace([D3K2], as_of=date(2027, 1, 1))
    seed = ctx.items[0]
    assert not seed.applicable
    assert "sắp có thay đổi: được sửa đổi bởi" in seed.validity_note
    assert "55/2030/NĐ-MAU" in seed.validity_note and "01/07/2031" in seed.validity_note
    # the wording in force is named by the document that enacted it, never the seed itself
    assert "nội dung đang áp dụng:" in seed.validity_note
    assert "(nội dung sửa đổi theo Nghị định số 40/2023/NĐ-MAU)" in seed.validity_note
    assert "2027-01-01" not in seed.validity_note and "01/01/2027" in seed.validity_note
    assert f"{D3K2}@55/2030/NĐ-MAU" not in [i.node_id for i in ctx.applicable_items()]


def test_repealed_units_are_not_applicable(samples: LegalRetriever) -> None:
    repealed = samples.trace(["01/2015/QH-MAU:D9"], as_of=date(2024, 6, 1))
    assert _applicable(repealed, "01/2015/QH-MAU:D9") == []
    assert "đã bị bãi bỏ" in repealed.items[0].validity_note
    assert "bị bãi bỏ bởi" in repealed.items[0].validity_note
    before = samples.trace(["01/2015/QH-MAU:D9"], as_of=date(2019, 12, 31))
    assert _applicable(before, "01/2015/QH-MAU:D9") == ["01/2015/QH-MAU:D9"]


def test_replaced_decree_applies_only_before_replacement(samples: LegalRetriever) -> None:
    unit = "99/2010/NĐ-MAU:D2.K1"
    assert _applicable(samples.trace([unit], as_of=date(2015, 1, 1)), unit) == [unit]
    later = samples.trace([unit], as_of=date(2017, 1, 1))
    assert _applicable(later, unit) == []
    assert "văn bản bị thay thế bởi Nghị định số 12/2016/NĐ-MAU" in later.items[0].validity_note
