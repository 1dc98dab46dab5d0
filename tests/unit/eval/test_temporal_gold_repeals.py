"""Issue 27 (a): a gold repeal edge is a question about the unit only when it takes the unit
away. vn-amend-dev labels 'bãi bỏ' also the repeal of words ('Cụm từ này', 'Bỏ từ “phạt” trong
cụm từ …') and of content a law describes without quoting it ('Quy định về … tại Khoản này'):
the unit stays. Texts and gold lines are written for these tests."""

from __future__ import annotations

import json
from pathlib import Path

from hopgraph.eval.temporal_gold import read_pairs, repeal_scope, without_words

BASE = """Nghị định 5/2020/NĐ-THU
Điều 1. Phí
1. Người nộp tiền phạt chậm nộp theo thông báo.
2. Ủy ban nhân dân cấp huyện thu phí tại địa bàn cấp huyện.
3. Doanh nghiệp quốc phòng an ninh và doanh nghiệp khác được giảm phí.
4. Phí nộp vào ngân sách.
"""

AMENDING = """Nghị định 6/2022/NĐ-THU
Điều 1. Sửa đổi Nghị định 5/2020/NĐ-THU
1. Bỏ từ “phạt” trong cụm từ “tiền phạt chậm nộp” tại khoản 1 Điều 1.
2. Bỏ cụm từ “tại địa bàn cấp huyện” và cụm từ “cấp huyện”, thay thế từ “Ủy ban” thành “Cơ quan” tại khoản 2 Điều 1.
3. Bãi bỏ các quy định về doanh nghiệp quốc phòng an ninh tại khoản 3 Điều 1.
4. Bãi bỏ khoản 4 Điều 1.
Điều 2. Hiệu lực thi hành
Nghị định này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2022.
"""


def _edge(unit: str, by: str, subject: str) -> str:
    return json.dumps({"target_unit": unit, "kind": "bãi bỏ", "by_unit": by,
                       "effective_from": "2022-07-01", "subject": subject}, ensure_ascii=False)


def _folder(tmp_path: Path) -> Path:
    (tmp_path / "clean").mkdir()
    (tmp_path / "gold").mkdir()
    (tmp_path / "clean" / "base.txt").write_text(BASE, encoding="utf-8")
    (tmp_path / "clean" / "amending.txt").write_text(AMENDING, encoding="utf-8")
    (tmp_path / "gold" / "g.jsonl").write_text("\n".join([
        _edge("khoản 1 Điều 1", "Khoản 1 Điều 1",
              "Bỏ từ “phạt” trong cụm từ “tiền phạt chậm nộp” tại Khoản này"),
        _edge("khoản 2 Điều 1", "Khoản 2 Điều 1", "Cụm từ này"),
        _edge("khoản 3 Điều 1", "Khoản 3 Điều 1",
              "Quy định về doanh nghiệp quốc phòng an ninh tại Khoản này"),
        _edge("khoản 4 Điều 1", "Khoản 4 Điều 1", "Khoản này"),
    ]), encoding="utf-8")
    (tmp_path / "pairs.json").write_text(json.dumps({"pairs": [{
        "tier": "core", "amended_doc": "Nghị định 5/2020/NĐ-THU", "amended_number": "5/2020/NĐ-THU",
        "amended_file": "clean/base.txt", "amending_file": "clean/amending.txt",
        "gold_file": "gold/g.jsonl"}]}, ensure_ascii=False), encoding="utf-8")
    return tmp_path


def test_the_subject_says_what_a_repeal_takes_away() -> None:
    assert repeal_scope("Khoản này") == "unit"
    assert repeal_scope(None) == "unit"
    assert repeal_scope(" Điều  này. ") == "unit"
    assert repeal_scope("Cụm từ này") == "words"
    assert repeal_scope('Cụm từ "khoản 1" tại Khoản này') == "words"
    assert repeal_scope("Bỏ từ “phạt” trong cụm từ “tiền phạt chậm nộp” tại Khoản này") == "words"
    assert repeal_scope("Quy định về doanh nghiệp quốc phòng an ninh tại Điều này") == "content"


def test_words_taken_out_leave_the_rest_of_the_wording() -> None:
    text, how = without_words("Bỏ từ “phạt” trong cụm từ “tiền phạt chậm nộp”.", None,
                              "1. Người nộp tiền phạt chậm nộp theo thông báo.")
    assert (text, how) == ("1. Người nộp tiền chậm nộp theo thông báo.", "words")
    text, _ = without_words(
        "Bỏ cụm từ “tại địa bàn cấp huyện” và cụm từ “cấp huyện”, thay thế từ “Ủy ban” thành "
        "“Cơ quan”.", "Cụm từ này", "2. Ủy ban nhân dân cấp huyện thu phí tại địa bàn cấp huyện.")
    assert text == "2. Cơ quan nhân dân thu phí."
    assert without_words("Bỏ cụm từ “không có”.", None, "3. Một câu.") == (
        None, "removed phrase not in the previous wording")


def test_only_a_repeal_of_the_unit_ends_it(tmp_path: Path) -> None:
    gold = read_pairs(_folder(tmp_path), tier="core")
    by_clause = {t.address[1]: t for t in gold.timelines}
    assert set(by_clause) == {"1", "2", "4"}
    assert by_clause["1"].kinds == ["words removed"]
    assert by_clause["1"].wordings[1].text == "1. Người nộp tiền chậm nộp theo thông báo."
    assert by_clause["2"].wordings[1].text == "2. Cơ quan nhân dân thu phí."
    assert by_clause["4"].kinds == ["repealed"] and by_clause["4"].wordings[1].text is None
    assert gold.skipped["partial repeal described by content (the unit stays; the words taken "
                        "out are not quoted)"] == 1
