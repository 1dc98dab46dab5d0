"""Issue 27 (c): a wording served as applicable never holds a part's outdated text, on short
texts written for this test (not real laws). An article whose phrase edit and whose point's new
wording come from one amending law gets a phrase version built from the article's old text (it
still holds the old point): from the day the point changed that version, the article as enacted
and its chapter are stale inside (``parts_changed_from``), and retrieval presents the parts'
wordings in force instead. An amendment whose new wording was not extracted leaves the old text
served, never as applicable."""

from __future__ import annotations

from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.retrieval import LegalRetriever, RetrievalConfig
from tests.retrieval_fixtures import load_texts

pytestmark = pytest.mark.integration

DOC = "11/2015/QH13"
BY = "12/2018/QH14"

BASE = """QUỐC HỘI
Luật số: 11/2015/QH13
Hà Nội, ngày 01 tháng 6 năm 2015
LUẬT
THUẾ THỬ NGHIỆM
Chương I
NỘP VÀ HOÀN THUẾ
Điều 1. Nộp thuế
1. Người nộp thuế phải nộp đủ:
a) Tiền thuế theo thông báo của cơ quan quản lý;
b) Tiền phạt theo quyết định xử phạt.
2. Thời hạn nộp là ba mươi ngày kể từ ngày nhận thông báo.
Điều 2. Hoàn thuế
1. Hồ sơ hoàn thuế gồm đơn đề nghị hoàn thuế.
2. Cơ quan thuế giải quyết hồ sơ trong mười lăm ngày làm việc.
Chương II
ĐIỀU KHOẢN THI HÀNH
Điều 3. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2016.
"""

AMENDING = """QUỐC HỘI
Luật số: 12/2018/QH14
Hà Nội, ngày 01 tháng 6 năm 2018
LUẬT
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT THUẾ THỬ NGHIỆM
Điều 1. Sửa đổi, bổ sung một số điều của Luật Thuế thử nghiệm số 11/2015/QH13
1. Thay thế cụm từ “ba mươi ngày” bằng cụm từ “hai mươi ngày” tại Điều 1.
2. Sửa đổi, bổ sung điểm a khoản 1 Điều 1 như sau:
“a) Tiền thuế và tiền chậm nộp theo thông báo của cơ quan quản lý;”
3. Sửa đổi, bổ sung khoản 2 Điều 2.
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2019.
"""

OLD_POINT = "Tiền thuế theo thông báo"


def _load(runner: Neo4jRunner, tmp_path: Path) -> None:
    load_texts(runner, tmp_path, {"base.txt": BASE, "amending.txt": AMENDING})


class _NoEmbedder:
    name = "none"
    dimension = 384

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[0.0] * 384 for _ in texts]

    def embed_query(self, text: str) -> list[float]:
        return [0.0] * 384


def _changed_from(runner: Neo4jRunner) -> dict[str, str | None]:
    with runner.driver.session() as session:
        rows = session.run("MATCH (u:LegalUnit) WHERE u.doc_id = $doc "
                           "RETURN u.id AS id, toString(u.parts_changed_from) AS d",
                           doc=DOC).data()
    return {r["id"].split(":", 1)[1]: r["d"] for r in rows}


def test_a_container_holding_a_changed_part_is_never_served_as_applicable(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    _load(runner, tmp_path)
    changed = _changed_from(runner)
    # the phrase version of Điều 1 was built on the article's own text: it holds the old point a
    assert changed[f"D1@{BY}"] == "2019-07-01"
    # the clause that holds point a, and the chapter: from the day their parts changed (the
    # article as enacted ends that day: its phrase version follows it)
    assert changed["D1.K1"] == "2019-07-01" and changed["D1"] is None
    chapter = next(k for k in changed if k.startswith("C") and "." not in k and "@" not in k
                   and changed[k] is not None)
    assert changed[chapter] == "2019-07-01"
    # the new wordings themselves hold their parts as they are
    assert changed[f"D1.K1.a@{BY}"] is None and changed[f"D1.K2@{BY}"] is None
    assert changed["D2"] is None  # an amendment without a wording changes no text

    retriever = LegalRetriever(runner, _NoEmbedder(), config=RetrievalConfig())  # type: ignore[arg-type]
    ctx = retriever.trace([f"{DOC}:D1"], as_of="2020-01-01")
    by_id = {it.node_id: it for it in ctx.items}
    stale = by_id[f"{DOC}:D1@{BY}"]
    assert not stale.applicable and "chưa phản ánh" in stale.validity_note
    applicable = ctx.applicable_items()
    assert applicable and all(OLD_POINT not in it.text for it in applicable)
    assert any("tiền chậm nộp" in it.text for it in applicable)
    assert any("hai mươi ngày" in it.text for it in applicable)
    # before the amending law, the article as enacted is the wording in force
    early = retriever.trace([f"{DOC}:D1"], as_of="2018-01-01")
    seed = next(it for it in early.items if it.node_id == f"{DOC}:D1")
    assert seed.applicable and OLD_POINT in seed.text

    # a chapter cannot be rebuilt from its parts here: not applicable once a part changed
    whole = retriever.trace([f"{DOC}:{chapter}"], as_of="2020-01-01")
    item = next(it for it in whole.items if it.node_id == f"{DOC}:{chapter}")
    assert not item.applicable and OLD_POINT in item.text
    assert all(OLD_POINT not in it.text for it in whole.applicable_items())
    before = retriever.trace([f"{DOC}:{chapter}"], as_of="2018-01-01")
    assert next(it for it in before.items if it.node_id == f"{DOC}:{chapter}").applicable


def test_an_amendment_without_its_wording_leaves_the_old_text_not_applicable(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    _load(runner, tmp_path)
    retriever = LegalRetriever(runner, _NoEmbedder(), config=RetrievalConfig())  # type: ignore[arg-type]
    late = retriever.trace([f"{DOC}:D2.K2"], as_of="2020-01-01")
    seed = next(it for it in late.items if it.node_id == f"{DOC}:D2.K2")
    assert not seed.applicable
    assert "chưa trích xuất được nội dung mới" in seed.validity_note
    assert "01/07/2019" in seed.validity_note
    early = retriever.trace([f"{DOC}:D2.K2"], as_of="2019-06-30")
    assert next(it for it in early.items if it.node_id == f"{DOC}:D2.K2").applicable
