"""ALQAC laws known only by their number get the name their own text gives them (issue 26).

Questions name a law by its name ("theo Bộ luật Lao động …"), so a document stored with its
number alone never matched the retrieval's document- and article-mention signals. Records are
our own, written in the ALQAC shape ``[{"id": number, "articles": [{"id", "text"}]}]``.
"""

from __future__ import annotations

import json
from pathlib import Path

from hopgraph.loaders.legal import ParsedDocument, read_file
from hopgraph.loaders.legal._formats import alqac_title


def _law(tmp_path: Path, lid: str, *articles: str) -> ParsedDocument:
    path = tmp_path / "law.json"
    record = {"id": lid, "articles": [{"id": str(i + 1), "text": text}
                                      for i, text in enumerate(articles)]}
    path.write_text(json.dumps([record], ensure_ascii=False), encoding="utf-8")
    (doc,) = list(read_file(path))
    assert isinstance(doc, ParsedDocument), doc
    return doc


def test_the_law_it_replaces_names_a_number_only_law(tmp_path: Path) -> None:
    doc = _law(tmp_path, "12/2031/QH16",
               "Phạm vi điều chỉnh\n\nLuật này quy định về nuôi ong mật.",
               "Nuôi ong\n\n1. Người nuôi ong theo quy định của Luật Thủy sản số 18/2017/QH14.",
               "Hiệu lực thi hành\n\n1. Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2032."
               "\n\n2. Luật Nuôi ong và mật ong số 40/2010/QH12 hết hiệu lực kể từ ngày Luật này "
               "có hiệu lực.")
    # the law cited in the body (another type's name with a number) is not taken
    assert doc.meta.title == "Luật Nuôi ong và mật ong"
    assert doc.meta.number == "12/2031/QH16" and doc.meta.doc_type == "Luật"


def test_a_replaced_law_named_with_its_date_and_the_first_article_naming_the_law(
        tmp_path: Path) -> None:
    by_date = _law(tmp_path, "7/2030/QH15", "Phạm vi\n\nLuật này quy định về đá quý.",
                   "Hiệu lực\n\nLuật Đá quý ngày 06 tháng 7 năm 1993 đã được sửa đổi hết hiệu "
                   "lực kể từ ngày Luật này có hiệu lực.")
    assert by_date.meta.title == "Luật Đá quý"
    opening = _law(tmp_path, "9/2030/QH15",
                   "Phạm vi điều chỉnh\n\nBộ luật Hàng hải nội địa quy định về tàu thuyền; "
                   "Bộ luật này áp dụng cho mọi cảng.")
    assert opening.meta.title == "Bộ luật Hàng hải nội địa" and opening.meta.doc_type == "Bộ luật"


def test_a_code_naming_itself_often_and_a_law_that_never_names_itself(tmp_path: Path) -> None:
    texts = ["Nhiệm vụ của Bộ luật thủy văn\n\nBộ luật thủy văn có nhiệm vụ bảo vệ sông.",
             "Áp dụng\n\nBộ luật này áp dụng theo Bộ luật thủy văn và Bộ luật dân sự số "
             "91/2015/QH13.",
             "Giải thích\n\nTheo Bộ luật thủy văn, sông là dòng chảy."]
    assert alqac_title("3/2030/QH15", texts) == "Bộ luật thủy văn"
    # twice is not enough: a code may cite another code that often
    assert alqac_title("3/2030/QH15", texts[:2]) is None
    silent = _law(tmp_path, "24/2030/QH15",
                  "Phạm vi điều chỉnh\n\nLuật này quy định về không gian mạng.",
                  "Áp dụng\n\nTheo Luật Viễn thông và Luật Báo chí, Luật này áp dụng chung.")
    # no guess from the laws it cites: the number stays the only name
    assert silent.meta.title is None and silent.meta.number == "24/2030/QH15"


def test_names_given_by_other_inputs_come_first_and_a_titled_record_keeps_its_id() -> None:
    texts = ["Hiệu lực\n\nLuật Cũ số 1/2001/QH10 hết hiệu lực khi Luật này có hiệu lực."]
    assert alqac_title("5/2030/QH15", texts, {"5/2030/QH15": "Luật Mới"}) == "Luật Mới"
    assert alqac_title("5/2030/QH15", texts) == "Luật Cũ"
    assert alqac_title("5/2030/QH15", ["Điều khoản\n\nKhông nói gì về mình."]) is None


def test_a_titled_alqac_record_is_unchanged(tmp_path: Path) -> None:
    doc = _law(tmp_path, "Luật Nuôi ong", "Phạm vi\n\nLuật này quy định về nuôi ong.")
    assert doc.meta.title == "Luật Nuôi ong" and doc.meta.number is None
