"""Issue 16 items 4, 5, 7 against a real Neo4j, on short hand-written (fictional) texts: a
version with an unknown start date is never served before its amending document was issued and
is flagged after; an article with an amended clause is never returned stale and applicable; the
consolidated wording at a date and the changes between two dates; the CLI on a bad document id.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import load_legal
from hopgraph.retrieval import (
    LegalRetriever,
    RetrievalConfig,
    consolidate,
    diff_consolidated,
    render_diff,
)
from tests.integration.conftest import Server

pytestmark = pytest.mark.integration

BASE = """CHÍNH PHỦ
Số: 7/2015/NĐ-THU
Hà Nội, ngày 02 tháng 02 năm 2015
NGHỊ ĐỊNH
VỀ PHÍ TRÔNG GIỮ XE ĐẠP (VĂN BẢN THỬ)
Điều 1. Mức phí trông giữ
1. Mức phí ban ngày là 2.000 đồng một lượt.
2. Mức phí ban đêm là 3.000 đồng một lượt.
3. Miễn phí cho học sinh tiểu học.
Điều 2. Nơi trông giữ
Xe được trông giữ tại bãi của phường.
Điều 3. Hiệu lực thi hành
Nghị định này có hiệu lực thi hành từ ngày 01 tháng 3 năm 2015.
"""

# Dated amendment: khoản 1 Điều 1 from 01/07/2018, khoản 3 repealed.
DATED = """CHÍNH PHỦ
Số: 8/2018/NĐ-THU
Hà Nội, ngày 05 tháng 5 năm 2018
NGHỊ ĐỊNH
SỬA ĐỔI NGHỊ ĐỊNH SỐ 7/2015/NĐ-THU (VĂN BẢN THỬ)
Điều 1. Sửa đổi, bổ sung một số điều của Nghị định số 7/2015/NĐ-THU
1. Sửa đổi, bổ sung khoản 1 Điều 1 như sau:
“1. Mức phí ban ngày là 5.000 đồng một lượt.”
2. Bãi bỏ khoản 3 Điều 1.
Điều 2. Hiệu lực thi hành
Nghị định này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2018.
"""

# No effect article: the start date of its new wording is unknown (not before 10/10/2020).
UNDATED = """CHÍNH PHỦ
Số: 9/2020/NĐ-THU
Hà Nội, ngày 10 tháng 10 năm 2020
NGHỊ ĐỊNH
SỬA ĐỔI NGHỊ ĐỊNH SỐ 7/2015/NĐ-THU (VĂN BẢN THỬ)
Điều 1. Sửa đổi, bổ sung một số điều của Nghị định số 7/2015/NĐ-THU
1. Sửa đổi, bổ sung khoản 2 Điều 1 như sau:
“2. Mức phí ban đêm là 9.000 đồng một lượt.”
"""

DOC = "7/2015/NĐ-THU"


def _load(runner: Neo4jRunner, tmp_path: Path, *texts: str) -> None:
    for i, text in enumerate(texts):
        (tmp_path / f"{i}.txt").write_text(text, encoding="utf-8")
    report = load_legal(runner, None, [tmp_path], batch_size=50, segmenter=lambda t: t)
    assert not report.skipped, report.skipped


def _at(runner: Neo4jRunner, unit: str, day: str) -> dict[str, Any]:
    rows = runner.read("legal/get_text_as_of", ids=[unit], as_of=dt.date.fromisoformat(day))
    return rows[0]


def test_an_undated_version_is_not_served_before_issue_and_is_flagged_after(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    _load(runner, tmp_path, BASE, DATED, UNDATED)
    version = runner.read("legal/dump_graph")[0]["nodes"]
    v = next(n for n in version if n["id"] == f"{DOC}:D1.K2@9/2020/NĐ-THU")
    assert v["props"].get("valid_from_unknown") is True, v
    before = _at(runner, f"{DOC}:D1.K2", "2019-01-01")
    assert "3.000" in before["text"] and before["version_id"] == f"{DOC}:D1.K2"  # the original
    assert before["date_unknown"] is False
    after = _at(runner, f"{DOC}:D1.K2", "2021-01-01")
    assert "9.000" in after["text"] and after["date_unknown"] is True
    assert str(after["not_before"]) == "2020-10-10"
    # The original is not plainly in force after the issue date: it ends there, flagged.
    orig = next(n for n in runner.read("legal/dump_graph")[0]["nodes"]
                if n["id"] == f"{DOC}:D1.K2")
    assert str(orig["props"]["valid_to"]) == "2020-10-10"
    assert orig["props"]["valid_to_unknown"] is True
    # The consolidation says so too.
    at_2021 = consolidate(runner, DOC, "2021-01-01")
    k2 = next(u for u in at_2021.units if u.id == f"{DOC}:D1.K2")
    assert k2.state == "amended" and k2.date_unknown and "9.000" in k2.text
    assert "chưa xác định (không trước 10/10/2020)" in at_2021.render()
    k2_2019 = next(u for u in consolidate(runner, DOC, "2019-01-01").units
                   if u.id == f"{DOC}:D1.K2")
    assert k2_2019.state == "original" and "3.000" in k2_2019.text


def test_trace_flags_an_undated_successor_and_never_serves_it_early(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    _load(runner, tmp_path, BASE, DATED, UNDATED)
    retriever = LegalRetriever(runner, _NoEmbedder(), config=RetrievalConfig())
    early = retriever.trace([f"{DOC}:D1.K2"], as_of="2019-01-01")
    seed = early.items[0]
    assert seed.applicable and not seed.date_unknown
    assert all("9.000" not in it.text for it in early.applicable_items())
    late = retriever.trace([f"{DOC}:D1.K2"], as_of="2021-01-01")
    by_id = {it.node_id: it for it in late.items}
    orig = by_id[f"{DOC}:D1.K2"]
    assert not orig.applicable and orig.date_unknown  # possibly superseded, not plainly in force
    succ = by_id[f"{DOC}:D1.K2@9/2020/NĐ-THU"]
    assert succ.applicable and succ.date_unknown
    assert succ.uncertainty_note == "ngày có hiệu lực chưa xác định (không trước 10/10/2020)"
    assert "chưa xác định" in succ.validity_note


def test_an_article_with_an_amended_clause_is_not_stale_and_applicable(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    _load(runner, tmp_path, BASE, DATED)
    retriever = LegalRetriever(runner, _NoEmbedder())
    ctx = retriever.trace([f"{DOC}:D1"], as_of="2019-01-01")
    article = next(it for it in ctx.items if it.node_id == f"{DOC}:D1")
    assert article.applicable and article.consolidated
    assert "5.000" in article.text and "2.000" not in article.text
    assert "Miễn phí" not in article.text and "3. (bãi bỏ)" in article.text
    for it in ctx.applicable_items():
        assert "2.000 đồng" not in it.text, it
    # Before the amendment the article as enacted is the wording in force.
    old = next(it for it in retriever.trace([f"{DOC}:D1"], as_of="2016-01-01").items
               if it.node_id == f"{DOC}:D1")
    assert old.applicable and "2.000" in old.text and not old.consolidated


def test_consolidated_wording_and_diff(runner: Neo4jRunner, tmp_path: Path) -> None:
    _load(runner, tmp_path, BASE, DATED)
    before = consolidate(runner, DOC, "2016-01-01")
    after = consolidate(runner, DOC, dt.date(2019, 1, 1))
    assert [u.id for u in after.units][:4] == [f"{DOC}:D1", f"{DOC}:D1.K1", f"{DOC}:D1.K2",
                                               f"{DOC}:D1.K3"]
    assert not before.changed_units()
    k1 = next(u for u in after.units if u.id == f"{DOC}:D1.K1")
    assert k1.state == "amended" and "5.000" in k1.text
    assert k1.change is not None and k1.change.source_id == "8/2018/NĐ-THU:D1.K1"
    assert k1.change.effective_date == dt.date(2018, 7, 1)
    k3 = next(u for u in after.units if u.id == f"{DOC}:D1.K3")
    assert k3.state == "repealed" and k3.text == "3. (bãi bỏ)"
    text = after.render()
    assert "Điều 1. Mức phí trông giữ" in text and "hiệu lực từ 01/07/2018" in text
    assert "2.000" not in text and "Miễn phí" not in text
    diffs = {d.id: d for d in diff_consolidated(before, after)}
    assert set(diffs) == {f"{DOC}:D1.K1", f"{DOC}:D1.K3"}
    assert diffs[f"{DOC}:D1.K1"].kind == "changed" and diffs[f"{DOC}:D1.K3"].kind == "removed"
    shown = render_diff(before, after)
    assert "trước: 1. Mức phí ban ngày là 2.000" in shown and "sau:   1. Mức phí ban ngày là 5.000" in shown


def test_cli_consolidate(runner: Neo4jRunner, tmp_path: Path, schema_installed: Server) -> None:
    _load(runner, tmp_path, BASE, DATED)
    base = ["--uri", schema_installed.uri, "--user", schema_installed.user,
            "--password", schema_installed.password, "consolidate"]
    ok = CliRunner().invoke(cli, [*base, DOC, "--as-of", "2019-01-01"])
    assert ok.exit_code == 0, ok.output
    assert "5.000 đồng" in ok.output and "[sửa đổi, bổ sung bởi" in ok.output
    diff = CliRunner().invoke(cli, [*base, DOC, "--diff", "2016-01-01", "2019-01-01"])
    assert diff.exit_code == 0 and "~ Khoản 1" in diff.output, diff.output
    bad = CliRunner().invoke(cli, [*base, "99/2099/NĐ-KHONG", "--as-of", "2019-01-01"])
    assert bad.exit_code == 1
    assert bad.output.strip().count("\n") == 0
    assert "Error: DOC_ID: không có văn bản '99/2099/NĐ-KHONG' trong đồ thị" in bad.output
    assert "Traceback" not in bad.output
    bad_date = CliRunner().invoke(cli, [*base, DOC, "--as-of", "2019-02-30"])
    assert bad_date.exit_code == 1 and bad_date.output.strip().splitlines() == [
        "Error: --as-of: '2019-02-30' không phải là ngày hợp lệ (dạng YYYY-MM-DD hoặc "
        "dd/mm/yyyy)"]


class _NoEmbedder:
    """``trace`` embeds nothing; retrieval by question is covered elsewhere."""

    def embed_query(self, text: str) -> list[float]:
        raise AssertionError("trace must not embed")

    def embed_documents(self, texts: Any) -> list[list[float]]:
        raise AssertionError("trace must not embed")
