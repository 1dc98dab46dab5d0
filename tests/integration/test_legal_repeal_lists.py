"""Issue 27: the wording served as in force where amendments are, on short texts written for
this test (not real laws), loaded by the real loader into a real Neo4j.

- ``Bãi bỏ cụm từ “X” tại khoản 1 Điều 1, Điều 2``: the phrase leaves khoản 1 Điều 1; Điều 2,
  which nowhere holds it, is repealed whole (a derived REPEALS edge, listed_unit_repeal);
- a repeal of an article ends its clauses and the new wording one of them got before;
- a unit the amended text already holds although a later law inserts it (a portal copy updated
  after the insertion) is never in force by itself: the inserted wording holds from its date,
  and the article that holds the copy is stale inside from its start.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from tests.retrieval_fixtures import load_texts

pytestmark = pytest.mark.integration

DOC = "21/2015/QH13"

BASE = """QUỐC HỘI
Luật số: 21/2015/QH13
Hà Nội, ngày 01 tháng 6 năm 2015
LUẬT
KIỂM ĐỊNH THỬ NGHIỆM
Điều 1. Kiểm định
1. Việc kiểm định sau thông quan do cơ quan kiểm định thực hiện.
2. Kết quả kiểm định được công bố.
Điều 2. Miễn kiểm định
Hàng hóa của cơ quan ngoại giao được miễn kiểm định.
Điều 3. Phí kiểm định
1. Mức phí do Bộ Tài chính quy định.
2. Phí được nộp trong mười ngày.
Điều 4. Thiết bị
1. Cơ quan kiểm định được trang bị thiết bị.
Điều 4a. Thiết bị chuyên dùng
Cơ quan kiểm định được trang bị thiết bị chuyên dùng.
Điều 5. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2016.
"""

FIRST = """QUỐC HỘI
Luật số: 22/2018/QH14
Hà Nội, ngày 01 tháng 6 năm 2018
LUẬT
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT KIỂM ĐỊNH THỬ NGHIỆM
Điều 1. Sửa đổi, bổ sung một số điều của Luật Kiểm định thử nghiệm số 21/2015/QH13
1. Sửa đổi, bổ sung khoản 2 Điều 3 như sau:
“2. Phí được nộp trong năm ngày làm việc.”
2. Bổ sung Điều 4a vào sau Điều 4 như sau:
“Điều 4a. Thiết bị chuyên dùng
Cơ quan kiểm định được trang bị thiết bị chuyên dùng.”
Điều 2. Hiệu lực thi hành
1. Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2019.
2. Bãi bỏ cụm từ “sau thông quan” tại khoản 1 Điều 1, Điều 2 Luật Kiểm định thử nghiệm số 21/2015/QH13.
"""

SECOND = """QUỐC HỘI
Luật số: 23/2021/QH15
Hà Nội, ngày 01 tháng 6 năm 2021
LUẬT
SỬA ĐỔI LUẬT KIỂM ĐỊNH THỬ NGHIỆM
Điều 1. Bãi bỏ Điều 3 của Luật Kiểm định thử nghiệm số 21/2015/QH13.
Điều 2. Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2022.
"""


def _load(runner: Neo4jRunner, tmp_path: Path) -> None:
    load_texts(runner, tmp_path, {"base.txt": BASE, "first.txt": FIRST, "second.txt": SECOND})


def _unit(runner: Neo4jRunner, uid: str) -> dict[str, object]:
    with runner.driver.session(database=runner.database) as s:
        rec = s.run("MATCH (u:LegalNode {id: $id}) RETURN u.valid_from AS vf, u.valid_to AS vt, "
                    "u.status AS status, u.parts_changed_from AS pcf, u.text AS text",
                    id=uid).single()
    assert rec is not None, uid
    return {k: (v.to_native() if hasattr(v, "to_native") else v) for k, v in rec.items()}


def test_a_place_of_a_listed_phrase_repeal_without_the_phrase_is_repealed(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    _load(runner, tmp_path)
    with runner.driver.session(database=runner.database) as s:
        repealed = {r["t"] for r in s.run(
            "MATCH (:LegalNode)-[x:REPEALS {method: 'listed_unit_repeal'}]->(t) RETURN t.id AS t")}
        phrase = s.run("MATCH (v:UnitVersion {id: $id}) RETURN v.text AS text",
                       id=f"{DOC}:D1.K1@22/2018/QH14").single()
    assert repealed == {f"{DOC}:D2"}
    assert phrase is not None and "sau thông quan" not in phrase["text"]
    d2 = _unit(runner, f"{DOC}:D2")
    assert (d2["status"], d2["vt"]) == ("repealed", date(2019, 7, 1))


def test_a_repealed_article_ends_its_clauses_and_their_new_wordings(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    _load(runner, tmp_path)
    clause = _unit(runner, f"{DOC}:D3.K1")
    version = _unit(runner, f"{DOC}:D3.K2@22/2018/QH14")
    assert (clause["status"], clause["vt"]) == ("repealed", date(2022, 1, 1))
    assert (version["vf"], version["vt"], version["status"]) == (
        date(2019, 7, 1), date(2022, 1, 1), "repealed")


def test_a_copy_of_a_later_insertion_is_never_in_force_by_itself(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    _load(runner, tmp_path)
    copy = _unit(runner, f"{DOC}:D4a")
    inserted = _unit(runner, f"{DOC}:D4a@22/2018/QH14")
    assert copy["status"] == "supplemented" and copy["vt"] == copy["vf"]
    assert (inserted["vf"], inserted["vt"]) == (date(2019, 7, 1), None)


def test_trace_serves_the_inserted_wording_for_the_copy_from_its_date(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    """The copy of Điều 4a found as a seed: before the insertion nothing is in force; from its
    date the inserting law's wording is served as the one in force (it was found nowhere: the
    copy showed "not applicable" with no successor)."""
    from hopgraph.retrieval import LegalRetriever
    from tests.integration.test_legal_consolidate import _NoEmbedder

    _load(runner, tmp_path)
    retriever = LegalRetriever(runner, _NoEmbedder())
    early = retriever.trace([f"{DOC}:D4a"], as_of="2019-01-01")
    assert not early.applicable_items()
    late = retriever.trace([f"{DOC}:D4a"], as_of="2020-01-01")
    by_id = {it.node_id: it for it in late.items}
    assert not by_id[f"{DOC}:D4a"].applicable
    assert [it.node_id for it in late.applicable_items()] == [f"{DOC}:D4a@22/2018/QH14"]
