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


AGAIN = f"""BỘ TÀI CHÍNH
Số: 70/2025/TT-BTC
Hà Nội, ngày 01 tháng 7 năm 2025
THÔNG TƯ
SỬA ĐỔI THÔNG TƯ SỐ 38/2018/TT-BTC
Điều 1. Sửa đổi, bổ sung một số điều của Thông tư số 38/2018/TT-BTC
1. Bổ sung Điều 2a như sau:
“{ARTICLE_2A.replace("kiểm tra chứng từ", "kiểm tra chứng từ điện tử")}”
Điều 2. Hiệu lực thi hành
Thông tư này có hiệu lực thi hành kể từ ngày 15 tháng 8 năm 2025.
"""


@pytest.mark.parametrize("order", ["later-first", "earlier-first"])
def test_an_article_inserted_twice_serves_the_later_insertion_from_its_date(
        runner: Neo4jRunner, tmp_path: Path, order: str) -> None:
    """Điều 104a of 08/2015/NĐ-CP is inserted by 59/2018/NĐ-CP and again, reworded, by
    167/2025/NĐ-CP. Loaded later-first, the later law wrote the clause and `trace` served the
    2018 article (valid to 2025-08-15) as the wording in force in 2025."""
    texts = {"base.txt": HEAD + ARTICLE_2A.replace("\n", " ") + "\n" + TAIL,
             "2019.txt": AMENDING, "2025.txt": AGAIN}
    if order == "later-first":
        texts = {k: texts[k] for k in ("base.txt", "2025.txt", "2019.txt")}
    load_texts(runner, tmp_path, texts)
    retriever = LegalRetriever(runner, HashEmbedder())

    def served(day: date) -> list[str]:
        items = retriever.trace(["38/2018/TT-BTC:D2a.K2"], as_of=day).items
        return [it.text.strip() for it in items if it.applicable and it.role != "provenance"]

    assert any("kiểm tra chứng từ điện tử." in t for t in served(date(2025, 9, 1)))
    assert not any("kiểm tra chứng từ." in t for t in served(date(2025, 9, 1)))
    assert any("kiểm tra chứng từ." in t for t in served(date(2020, 1, 1)))
