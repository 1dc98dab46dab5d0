"""An instruction that names points of a clause but quotes the whole clause ("Sửa đổi, bổ sung
các điểm a, b và c khoản 3 Điều 2 như sau: “3. …⏎a) …⏎b) …⏎c) …”", as 291/2025/NĐ-CP does to
103/2024/NĐ-CP): the quote is the clause's new wording, its opening words and its points (two
of them new). Before, no quote matched a point, so nothing was worded: the clause was served in
its enacted wording with a note. Short texts written for this test."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.retrieval import ConsolidatedUnit, LegalRetriever, consolidate
from tests.retrieval_fixtures import HashEmbedder, load_texts

pytestmark = pytest.mark.integration

BASE = """CHÍNH PHỦ
Số: 10/2024/NĐ-CP
Hà Nội, ngày 01 tháng 7 năm 2024
NGHỊ ĐỊNH
QUY ĐỊNH VỀ TIỀN SỬ DỤNG ĐẤT THỬ NGHIỆM
Điều 1. Phạm vi
Nghị định này quy định về tiền sử dụng đất.
Điều 2. Tính tiền sử dụng đất
1. Tiền sử dụng đất được tính theo giá đất.
2. Hộ gia đình được cấp Giấy chứng nhận theo điểm a khoản 3 Điều 140 thì tiền sử dụng đất được tính như sau:
a) Không có giấy tờ thì nộp 50%.
3. Giá đất là giá trong bảng giá.
Điều 3. Hiệu lực
Nghị định này có hiệu lực thi hành từ ngày 01 tháng 8 năm 2024.
"""

AMENDER = """CHÍNH PHỦ
Số: 20/2025/NĐ-CP
Hà Nội, ngày 01 tháng 10 năm 2025
NGHỊ ĐỊNH
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA NGHỊ ĐỊNH SỐ 10/2024/NĐ-CP
Điều 1. Sửa đổi, bổ sung một số điều của Nghị định số 10/2024/NĐ-CP
1. Sửa đổi, bổ sung các điểm a, b và c khoản 2 Điều 2 như sau:
“2. Hộ gia đình được cấp Giấy chứng nhận theo điểm a, điểm b khoản 3 Điều 140 thì tiền sử dụng đất được tính như sau:
a) Không có giấy tờ thì nộp 40%.
b) Có giấy tờ thì không nộp.
c) Có giấy tờ nhưng nộp thiếu thì nộp phần còn thiếu.”
Điều 2. Hiệu lực
Nghị định này có hiệu lực thi hành từ ngày 15 tháng 11 năm 2025.
"""


def _units_at(runner: Neo4jRunner, day: date) -> dict[str, ConsolidatedUnit]:
    """10/2024/NĐ-CP consolidated at ``day``: its units by path."""
    return {u.id.split(":")[1]: u for u in consolidate(runner, "10/2024/NĐ-CP", day).units}


def test_a_quoted_clause_is_the_new_wording_of_the_points_it_holds(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    load_texts(runner, tmp_path, {"base.txt": BASE, "amender.txt": AMENDER})
    units = _units_at(runner, date(2026, 1, 1))
    k2 = units["D2.K2"]
    assert k2.text.startswith("2. Hộ gia đình được cấp Giấy chứng nhận theo điểm a, điểm b")
    assert "20/2025/NĐ-CP" in k2.mark()
    # its points in the new wording, the two new ones with them
    assert [units[f"D2.K2.{p}"].text for p in "abc"] == [
        "a) Không có giấy tờ thì nộp 40%.", "b) Có giấy tờ thì không nộp.",
        "c) Có giấy tờ nhưng nộp thiếu thì nộp phần còn thiếu."]
    assert all(units[f"D2.K2.{p}"].shown for p in "abc")
    assert units["D2.K3"].text == "3. Giá đất là giá trong bảng giá."  # untouched
    before = _units_at(runner, date(2025, 1, 1))
    assert before["D2.K2.a"].text == "a) Không có giấy tờ thì nộp 50%."
    assert "D2.K2.b" not in before or not before["D2.K2.b"].shown
    # trace: the clause and its point a are served in their new wordings after the date
    ctx = LegalRetriever(runner, HashEmbedder()).trace(
        ["10/2024/NĐ-CP:D2.K2", "10/2024/NĐ-CP:D2.K2.a"], as_of="2026-01-01")
    shown = {i.node_id: i for i in ctx.items if i.applicable}
    assert "10/2024/NĐ-CP:D2.K2@20/2025/NĐ-CP" in shown
    assert shown["10/2024/NĐ-CP:D2.K2.a@20/2025/NĐ-CP"].text == "a) Không có giấy tờ thì nộp 40%."


BODY_AMENDER = """CHÍNH PHỦ
Số: 30/2025/NĐ-CP
Hà Nội, ngày 01 tháng 10 năm 2025
NGHỊ ĐỊNH
SỬA ĐỔI NGHỊ ĐỊNH SỐ 10/2024/NĐ-CP
Điều 1. Sửa đổi, bổ sung một số điều của Nghị định số 10/2024/NĐ-CP
1. Điều 2 được sửa đổi, bổ sung như sau:
“1. Tiền sử dụng đất được tính theo giá đất cụ thể.
2. Giá đất cụ thể do Ủy ban nhân dân cấp tỉnh quyết định.”
Điều 2. Hiệu lực
Nghị định này có hiệu lực thi hành từ ngày 15 tháng 11 năm 2025.
"""


def test_an_article_quoted_without_its_name_keeps_the_name(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    # "Điều 2 được sửa đổi, bổ sung như sau: “1. …⏎2. …”" (59/2018/NĐ-CP on Điều 49 of
    # 08/2015/NĐ-CP): the article's whole new wording, written without its name; before, no
    # quote matched the article and nothing was worded
    load_texts(runner, tmp_path, {"base.txt": BASE, "amender.txt": BODY_AMENDER})
    units = _units_at(runner, date(2026, 1, 1))
    assert units["D2.K1"].text == "1. Tiền sử dụng đất được tính theo giá đất cụ thể."
    assert units["D2.K2"].text == "2. Giá đất cụ thể do Ủy ban nhân dân cấp tỉnh quyết định."
    # the old clause 3 is not in the new wording: it is no longer shown as in force
    assert "D2.K3" not in units or not units["D2.K3"].shown or units["D2.K3"].state != "in_force"
    ctx = LegalRetriever(runner, HashEmbedder()).trace(["10/2024/NĐ-CP:D2"], as_of="2026-01-01")
    now = next(i for i in ctx.items if i.applicable)
    assert now.node_id == "10/2024/NĐ-CP:D2@30/2025/NĐ-CP"
    assert now.text.startswith("Điều 2. Tính tiền sử dụng đất\n1. Tiền sử dụng đất được tính "
                               "theo giá đất cụ thể.")
