"""An article re-worded as a whole by one law, then one of its clauses re-worded by a later law
(Điều 14 of 04/2007/QH12: by 71/2014/QH13, then khoản 1 by 31/2024/QH15). At a date after both,
retrieval serves the article's later wording with the newer clause in it, applicable — not the
article as first enacted, labelled "nội dung ban hành ban đầu". Short texts written for this
test (not real laws)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.retrieval import LegalRetriever, consolidate
from tests.retrieval_fixtures import HashEmbedder, load_texts

pytestmark = pytest.mark.integration

BASE = """QUỐC HỘI
Luật số: 11/2010/QH12
Hà Nội, ngày 01 tháng 6 năm 2010
LUẬT
THUẾ THỬ NGHIỆM
Điều 1. Phạm vi
Luật này quy định về thuế thử nghiệm.
Điều 2. Thu nhập chịu thuế từ chuyển nhượng nhà
1. Thu nhập chịu thuế được xác định bằng giá bán trừ giá mua và chi phí, gồm:
a) Giá bán theo hợp đồng;
b) Giá mua theo hợp đồng.
2. Bộ Tài chính hướng dẫn cách tính.
3. Thời điểm tính thuế là ngày ký hợp đồng.
Điều 3. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2011.
"""

WHOLE = """QUỐC HỘI
Luật số: 21/2014/QH13
Hà Nội, ngày 01 tháng 6 năm 2014
LUẬT
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT THUẾ THỬ NGHIỆM
Điều 1. Sửa đổi, bổ sung một số điều của Luật Thuế thử nghiệm số 11/2010/QH12
1. Điều 2 được sửa đổi, bổ sung như sau:
“Điều 2. Thu nhập chịu thuế từ chuyển nhượng nhà
1. Thu nhập chịu thuế được xác định là giá chuyển nhượng từng lần.
2. Chính phủ quy định phương pháp xác định giá chuyển nhượng.
3. Thời điểm tính thuế là ngày hợp đồng có hiệu lực.”
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2015.
"""

CLAUSE = """QUỐC HỘI
Luật số: 31/2024/QH15
Hà Nội, ngày 01 tháng 3 năm 2024
LUẬT
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT THUẾ THỬ NGHIỆM
Điều 1. Sửa đổi, bổ sung một số điều của Luật Thuế thử nghiệm số 11/2010/QH12
1. Sửa đổi, bổ sung khoản 1 Điều 2 như sau:
“1. Thu nhập chịu thuế được xác định là giá chuyển nhượng từng lần; đất tính theo bảng giá đất.”
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 8 năm 2024.
"""


def test_a_re_worded_article_is_served_with_its_later_clause(runner: Neo4jRunner,
                                                             tmp_path: Path) -> None:
    load_texts(runner, tmp_path, {"base.txt": BASE, "whole.txt": WHOLE, "clause.txt": CLAUSE})
    retriever = LegalRetriever(runner, HashEmbedder())
    day = date(2024, 9, 1)
    ctx = retriever.trace(["11/2010/QH12:D2@21/2014/QH13"], as_of=day)
    item = ctx.items[0]
    assert item.node_id == "11/2010/QH12:D2@21/2014/QH13"
    assert item.applicable and item.consolidated
    assert item.text.split("\n") == [
        "Điều 2. Thu nhập chịu thuế từ chuyển nhượng nhà",
        "1. Thu nhập chịu thuế được xác định là giá chuyển nhượng từng lần; đất tính theo "
        "bảng giá đất.",
        "2. Chính phủ quy định phương pháp xác định giá chuyển nhượng.",
        "3. Thời điểm tính thuế là ngày hợp đồng có hiệu lực."]
    assert "nội dung hợp nhất" in item.validity_note
    assert "ban hành ban đầu" not in item.validity_note
    # the same wording as the document consolidated at that date
    doc = {u.id.split(":")[1]: u for u in consolidate(runner, "11/2010/QH12", day).units}
    assert doc["D2.K1"].text == item.text.split("\n")[1]
    # before the clause's change the article's 2014 wording stands as it was written
    before = retriever.trace(["11/2010/QH12:D2@21/2014/QH13"], as_of=date(2024, 7, 31)).items[0]
    assert before.applicable and before.text.split("\n")[1] == (
        "1. Thu nhập chịu thuế được xác định là giá chuyển nhượng từng lần.")


TITLE = """QUỐC HỘI
Luật số: 41/2024/QH15
Hà Nội, ngày 01 tháng 3 năm 2024
LUẬT
SỬA ĐỔI TÊN ĐIỀU CỦA LUẬT THUẾ THỬ NGHIỆM
Điều 1. Sửa đổi, bổ sung một số điều của Luật Thuế thử nghiệm số 11/2010/QH12
1. Sửa đổi, bổ sung tên Điều 2 như sau:
“Điều 2. Thu nhập chịu thuế từ chuyển nhượng
nhà ở và đất”
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 8 năm 2024.
"""


def test_a_new_article_name_leaves_its_points_in_force(runner: Neo4jRunner,
                                                       tmp_path: Path) -> None:
    """"Sửa đổi tên Điều 2" gives the article a new name and keeps its clauses and points: a
    point under it stays in force, not "không còn áp dụng … được sửa đổi bởi" the name change,
    and the article it stands in is shown by its name at the date (a name that runs over two
    lines joined)."""
    load_texts(runner, tmp_path, {"base.txt": BASE, "title.txt": TITLE})
    retriever = LegalRetriever(runner, HashEmbedder())
    after = retriever.trace(["11/2010/QH12:D2.K1.a"], as_of=date(2024, 9, 1)).items
    point = after[0]
    assert point.node_id == "11/2010/QH12:D2.K1.a" and point.applicable
    assert "được sửa đổi" not in point.validity_note
    article = next(it for it in after if it.role == "provenance")
    assert article.text == "Điều 2. Thu nhập chịu thuế từ chuyển nhượng nhà ở và đất"
    before = retriever.trace(["11/2010/QH12:D2.K1.a"], as_of=date(2024, 7, 31)).items
    assert before[0].applicable
    assert next(it for it in before if it.role == "provenance").text == (
        "Điều 2. Thu nhập chịu thuế từ chuyển nhượng nhà")
