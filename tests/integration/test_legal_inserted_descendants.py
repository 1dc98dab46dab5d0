"""The clauses and points of an inserted article ("Bổ sung Điều 2a vào sau Điều 2"): in force
from the inserting law's date, each with its own wording — not "không còn áp dụng" beside the
article's inserted wording, and not in force before the insertion. Three shapes: the amended
text as loaded already holds Điều 2a (a copy downloaded after the change), on its lines or run
together on one line, or only the amending law writes it. Short texts written for this test (not real laws)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.retrieval import LegalRetriever
from tests.retrieval_fixtures import HashEmbedder, load_texts

pytestmark = pytest.mark.integration

HEAD = """BỘ TÀI CHÍNH
Số: 38/2018/TT-BTC
Hà Nội, ngày 20 tháng 4 năm 2018
THÔNG TƯ
QUY ĐỊNH VỀ XÁC ĐỊNH XUẤT XỨ THỬ NGHIỆM
Điều 1. Phạm vi điều chỉnh
Thông tư này quy định về xuất xứ hàng hóa thử nghiệm.
Điều 2. Nộp chứng từ
Người khai hải quan nộp chứng từ chứng nhận xuất xứ.
"""
ARTICLE_2A = """Điều 2a. Chứng từ theo Hiệp định thử nghiệm
1. Người khai hải quan nộp một trong các chứng từ sau:
a) Chứng từ tự chứng nhận xuất xứ;
b) Giấy chứng nhận xuất xứ do cơ quan có thẩm quyền cấp.
2. Cơ quan hải quan kiểm tra chứng từ."""
TAIL = """Điều 3. Hiệu lực thi hành
Thông tư này có hiệu lực thi hành kể từ ngày 05 tháng 6 năm 2018.
"""
AMENDING = f"""BỘ TÀI CHÍNH
Số: 62/2019/TT-BTC
Hà Nội, ngày 05 tháng 9 năm 2019
THÔNG TƯ
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA THÔNG TƯ SỐ 38/2018/TT-BTC
Điều 1. Sửa đổi, bổ sung một số điều của Thông tư số 38/2018/TT-BTC
1. Bổ sung Điều 2a vào sau Điều 2 như sau:
“{ARTICLE_2A}”
Điều 2. Hiệu lực thi hành
Thông tư này có hiệu lực thi hành kể từ ngày 22 tháng 10 năm 2019.
"""


@pytest.mark.parametrize("held", ["lines", "one-line", "none"],
                         ids=["base-holds-it", "base-holds-it-on-one-line", "inserted-only"])
def test_the_points_of_an_inserted_article_are_in_force_from_its_insertion(
        runner: Neo4jRunner, tmp_path: Path, held: str) -> None:
    """One line: the copy of the amended text writes the whole article on its heading's line
    (as the portal's copy of 38/2018/TT-BTC writes Điều 7a), so it holds the article and its
    first clause, and the inserting law's text makes the rest."""
    article = {"lines": ARTICLE_2A + "\n", "one-line": ARTICLE_2A.replace("\n", " ") + "\n",
               "none": ""}[held]
    base = HEAD + article + TAIL
    load_texts(runner, tmp_path, {"base.txt": base, "amending.txt": AMENDING})
    retriever = LegalRetriever(runner, HashEmbedder())
    for unit, words in (("D2a.K1.a", "a) Chứng từ tự chứng nhận xuất xứ;"),
                        ("D2a.K2", "2. Cơ quan hải quan kiểm tra chứng từ.")):
        after = retriever.trace([f"38/2018/TT-BTC:{unit}"], as_of=date(2020, 1, 1)).items
        served = [it for it in after if it.applicable and it.role != "provenance"]
        assert [it.text.strip() for it in served] == [words], (unit, [
            (it.node_id, it.role, it.applicable, it.validity_note) for it in after])
        assert "không còn áp dụng" not in served[0].validity_note
        before = retriever.trace([f"38/2018/TT-BTC:{unit}"], as_of=date(2019, 6, 1)).items
        assert not any(it.applicable for it in before if it.role != "provenance"), (unit, [
            (it.node_id, it.role, it.applicable, it.validity_note) for it in before])
