"""Parser, citations, instructions and rows of the legal loader, without a database."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from hopgraph.loaders.legal import (
    SAMPLES_DIR,
    ParsedDocument,
    build_document,
    find_citations,
    normalise_doc_number,
    parse_structure,
    plan_document,
    read_file,
)
from hopgraph.loaders.legal._citations import Context, resolve


def _lines(text: str) -> list[tuple[int, str]]:
    return list(enumerate(text.splitlines(), start=1))


def _doc(path: Path) -> ParsedDocument:
    (doc,) = list(read_file(path))
    assert isinstance(doc, ParsedDocument), doc
    return doc


def test_every_marker_level_and_inserted_units() -> None:
    text = """Phần thứ nhất
QUY ĐỊNH CHUNG
Chương II
PHẠM VI
Mục 1
ĐỐI TƯỢNG
Tiểu mục 2
MỨC ĐÓNG
Điều 12. Đối tượng
1. Người lao động:
a) Làm việc theo hợp đồng;
đ) Người quản lý.
1a. Học sinh.
Điều 12a. Mới
Nội dung.
PHỤ LỤC I
DANH MỤC
1. Một."""
    s = parse_structure(_lines(text), "t.txt")
    paths = [(u.level, u.path) for u in s.units]
    assert paths == [("Part", "P1"), ("Chapter", "C2"), ("Section", "C2.M1"),
                     ("Subsection", "C2.M1.TM2"), ("Article", "D12"), ("Clause", "D12.K1"),
                     ("Point", "D12.K1.a"), ("Point", "D12.K1.đ"), ("Clause", "D12.K1a"),
                     ("Article", "D12a"), ("Annex", "PL1")]
    chapter = s.units[1]
    assert chapter.heading == "PHẠM VI"
    assert s.units[4].parent is s.units[3]  # Điều 12 inside Tiểu mục 2


def test_body_text_does_not_become_units() -> None:
    text = "Điều 1. Mức phạt\n1. Phạt tiền 1.000.000 đồng.\nChương trình này gồm:\n1. Nội dung."
    s = parse_structure(_lines(text), "t.txt")
    assert [u.path for u in s.units] == ["D1", "D1.K1"]


def test_quoted_new_wording_stays_out_of_the_amending_structure() -> None:
    text = """Điều 1. Sửa đổi, bổ sung một số điều của Nghị định số 12/2016/NĐ-CP
1. Sửa đổi, bổ sung khoản 2 Điều 3 như sau:
“2. Tỷ lệ mới.
a) Điểm mới.”
2. Bãi bỏ Điều 9.
Điều 2. Hiệu lực thi hành
Nghị định này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2020."""
    doc = build_document(_lines(text), file="a.txt", source_format="text", number="20/2018/NĐ-CP")
    assert [u.path for u in doc.units] == ["D1", "D1.K1", "D1.K2", "D2"]
    assert doc.meta.effective_date == date(2020, 7, 1)
    rels = {(r.type, r.source, r.target) for r in doc.relations}
    assert ("AMENDS", "20/2018/NĐ-CP:D1.K1", "12/2016/NĐ-CP:D3.K2") in rels
    assert ("REPEALS", "20/2018/NĐ-CP:D1.K2", "12/2016/NĐ-CP:D9") in rels
    versions = {n.id: n for n in doc.new_units}
    assert "12/2016/NĐ-CP:D3.K2@20/2018/NĐ-CP" in versions
    assert versions["12/2016/NĐ-CP:D3.K2.a@20/2018/NĐ-CP"].parent_id == \
        "12/2016/NĐ-CP:D3.K2@20/2018/NĐ-CP"


def test_multi_action_sentence_and_inherited_article() -> None:
    text = """Điều 1. Sửa đổi, bổ sung một số điều của Luật số 25/2008/QH12:
1. Bãi bỏ điểm b khoản 1 Điều 21; sửa đổi, bổ sung điểm c khoản 1 và khoản 2 Điều 21 như sau:
“c) Mới c.”
“2. Mới 2.”
2. Sửa đổi, bổ sung khoản 18 và bổ sung khoản 18a vào sau khoản 18 Điều 9 như sau:
“18. Mới 18.
18a. Mới 18a.”"""
    doc = build_document(_lines(text), file="b.txt", source_format="text",
                         number="46/2014/QH13")
    rels = {(r.type, r.target) for r in doc.relations}
    assert {("REPEALS", "25/2008/QH12:D21.K1.b"), ("AMENDS", "25/2008/QH12:D21.K1.c"),
            ("AMENDS", "25/2008/QH12:D21.K2"), ("AMENDS", "25/2008/QH12:D9.K18"),
            ("SUPPLEMENTS", "25/2008/QH12:D9.K18a")} <= rels
    inserted = [n for n in doc.new_units if n.kind == "inserted"]
    assert inserted[0].id == "25/2008/QH12:D9.K18a"
    assert inserted[0].inserted_after == "25/2008/QH12:D9.K18"
    assert inserted[0].text.startswith("18a.")


def test_citations_lists_ranges_relative_and_external() -> None:
    text = ("theo quy định tại các điểm a, b và c khoản 2 Điều 4 của Luật này, từ Điều 5 đến "
            "Điều 7, khoản 1 Điều này và Điều 3 của Luật Dược số 105/2016/QH13")
    cites = find_citations(text)
    ctx = Context("X", "D9.K2")
    got = [resolve(c, ctx, None if c.doc.kind != "number" else c.doc.number) for c in cites]
    assert got[0] == ["D4.K2.a", "D4.K2.b", "D4.K2.c"]
    assert got[1] == ["D5", "D6", "D7"]
    assert got[2] == ["D9.K1"]
    assert cites[3].doc.number == "105/2016/QH13" and got[3] == ["D3"]


def test_vague_reference_is_unresolved_never_guessed() -> None:
    text = "Điều 1. Phạm vi\nViệc thanh toán thực hiện theo quy định của pháp luật về dược."
    doc = build_document(_lines(text), file="c.txt", source_format="text", number="1/2020/QH14")
    assert [u.method for u in doc.unresolved] == ["vague_law_reference"]
    assert not [r for r in doc.relations if r.type == "REFERS_TO"]


def test_document_numbers_normalise() -> None:
    assert normalise_doc_number("146/2018/ND-CP") == "146/2018/NĐ-CP"
    assert normalise_doc_number(" 59/2015/tt-bldtbxh ") == "59/2015/TT-BLĐTBXH"
    assert normalise_doc_number("28/2021/QĐ-TTg") == "28/2021/QĐ-TTg"


def test_duplicate_article_is_text_with_a_warning_naming_file_and_line() -> None:
    out = parse_structure(_lines("Điều 1. A\nx\nĐiều 1. B\nĐiều 2. C"), "d.txt")
    assert [u.path for u in out.units] == ["D1", "D2"]
    assert "Điều 1. B" in out.units[0].text
    assert any(str(w).startswith("d.txt:3: Điều 1 repeats") for w in out.warnings)


def test_sample_formats_read(tmp_path: Path) -> None:
    alqac = _doc(SAMPLES_DIR / "15-2017-TT-MAU-thong-tu-alqac.json")
    assert alqac.meta.doc_id == "15/2017/TT-MAU" and alqac.meta.source_format == "alqac"
    crawl = _doc(SAMPLES_DIR / "1234-QD-MAU-quyet-dinh-crawl.json")
    assert crawl.meta.doc_id == "1234/QĐ-MAU" and crawl.meta.effective_date == date(2017, 10, 2)
    keyed = _doc(SAMPLES_DIR / "05-2019-QH-MAU-luat-sua-doi.json")
    assert keyed.unit_dates == {"D1.K3": date(2020, 7, 1)}
    bad = tmp_path / "x.json"
    bad.write_text(json.dumps({"a": 1}), encoding="utf-8")
    (problem,) = list(read_file(bad))
    assert not isinstance(problem, ParsedDocument) and "unknown JSON shape" in problem.message


def test_plan_rows_cover_nodes_and_edges() -> None:
    doc = _doc(SAMPLES_DIR / "20-2018-ND-MAU-sua-doi-lan-1.txt")
    plan = plan_document(doc, lambda t: t.lower())
    keys = [k for k, _ in plan.steps(3)]
    assert keys[0] == "legal/upsert_documents" and "legal/merge_amends" in keys and "legal/merge_repeals" in keys
    assert all(len(p["rows"]) <= 3 for _, p in plan.steps(3))
    version = next(r for r in plan.units if r["version"])
    assert version["props"]["amended_by"] == "20/2018/NĐ-MAU"
    assert version["props"]["valid_from"] == date(2018, 2, 15)
    clause = next(r for r in plan.units if r["id"] == "20/2018/NĐ-MAU:D1.K1")
    assert clause["props"]["citation"] == "Khoản 1 Điều 1 Nghị định số 20/2018/NĐ-MAU"


def test_questions_reference_sample_ids() -> None:
    data = json.loads((SAMPLES_DIR / "questions.json").read_text(encoding="utf-8"))
    assert len(data["questions"]) >= 10
    for q in data["questions"]:
        assert q["gold_unit_ids"] and q["answer"] and date.fromisoformat(q["as_of"])


def test_transitional_dates_are_not_the_document_expiry() -> None:
    text = """Điều 1. Chuyển tiếp
1. Thẻ đã cấp có giá trị sử dụng đến hết ngày 31 tháng 12 năm 2009.
2. Phạm vi quyền lợi trước khi Luật này có hiệu lực được thực hiện cho đến hết ngày 31 tháng 12 năm 2009.
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2009."""
    doc = build_document(_lines(text), file="e.txt", source_format="text", number="25/2008/QH12")
    assert doc.meta.expiry_stated is None and doc.meta.effective_date == date(2009, 7, 1)
    ending = "Điều 1. Hiệu lực\nNghị quyết này có hiệu lực từ ngày ký đến hết ngày 31/12/2028."
    doc = build_document(_lines(ending), file="f.txt", source_format="text", number="3/2026/NQ-CP")
    assert doc.meta.expiry_stated == date(2028, 12, 31)


def test_repeated_structural_heading_gets_a_distinct_id() -> None:
    text = "Phần thứ nhất\nA\nTiểu mục 1\nB\nĐiều 1. X\nNội dung.\nTiểu mục 1\nC\nĐiều 2. Y\nNội dung."
    s = parse_structure(_lines(text), "g.txt")
    assert [u.path for u in s.units] == ["P1", "P1.TM1", "D1", "P1.TM1-2", "D2"]
    assert any("repeats P1.TM1" in str(w) for w in s.warnings)


def test_codification_keeps_form_articles_as_text() -> None:
    text = ("Điều 2.2.LQ.1. Phạm vi\n1. Nội dung.\nMẫu số 01\nQUYẾT ĐỊNH\n"
            "Điều 1. Cấp giấy phép\nĐiều 2.2.LQ.2. Đối tượng\nNội dung.")
    s = parse_structure(_lines(text), "h.md", codification=True)
    assert [u.path for u in s.units] == ["D2-2-LQ-1", "D2-2-LQ-1.K1", "MS01", "D2-2-LQ-2"]


def test_read_text_normalises_decomposed_vietnamese_to_nfc(tmp_path: Path) -> None:
    import unicodedata

    from hopgraph.loaders.legal._formats import read_text

    word = "Điều 5. Trách nhiệm của cơ quan đăng ký cư trú"
    nfd = unicodedata.normalize("NFD", word)
    assert nfd != word
    (tmp_path / "nfd.txt").write_text(nfd, encoding="utf-8")
    (tmp_path / "nfd16.txt").write_bytes(nfd.encode("utf-16"))
    assert read_text(tmp_path / "nfd.txt") == word
    assert read_text(tmp_path / "nfd16.txt") == word


def test_repeated_clause_number_is_a_warning_and_keeps_its_text() -> None:
    text = "Điều 5. Mức hưởng\n1. Một.\n2. Hai.\n2. Hai lần nữa.\n3. Ba."
    s = parse_structure(_lines(text), "r.txt")
    assert [u.path for u in s.units] == ["D5", "D5.K1", "D5.K2", "D5.K3"]
    clause_2 = s.units[2]
    assert clause_2.text == "2. Hai.\n2. Hai lần nữa."
    (warning,) = [w for w in s.warnings if "repeated clause number" in str(w)]
    assert warning.line == 4 and "khoản 2 again in Điều 5 (first at line 3)" in str(warning)
    # and it reaches the document's warnings (the load report lists them)
    doc = build_document(_lines(text), file="r.txt", source_format="text", number="5/2026/NĐ-CP")
    assert any("repeated clause number" in str(w) for w in doc.warnings)


def test_relations_are_a_parameter_of_the_reader() -> None:
    """The loader's first pass reads structure and header only (``relations=False``), as an
    argument and not a flag set from outside (issue 28); the default reads the relations."""
    path = SAMPLES_DIR / "20-2018-ND-MAU-sua-doi-lan-1.txt"
    (full,) = list(read_file(path))
    (bare,) = list(read_file(path, relations=False))
    assert isinstance(full, ParsedDocument) and isinstance(bare, ParsedDocument)
    assert {r.type for r in full.relations} >= {"AMENDS"}
    assert bare.relations == [] and bare.new_units == []
    assert [u.path for u in bare.units] == [u.path for u in full.units]
    assert bare.meta.doc_id == full.meta.doc_id


def test_an_older_laws_header_gives_its_name_not_the_issuers_formula() -> None:
    # Laws until about 2006 state the issuer and number inside the title line, and the
    # preamble may follow on the same line ("Để góp phần …", no "Căn cứ" to split it off).
    text = """QUỐC HỘI
CỘNG HOÀ XÃ HỘI CHỦ NGHĨA VIỆT NAM
Độc lập - Tự do - Hạnh phúc
Hà Nội, ngày 29 tháng 6 năm 2001
LUẬT
CỦA QUỐC HỘI NƯỚC CỘNG HOÀ XÃ HỘI CHỦ NGHĨA VIỆT NAM SỐ 29/2001/QH10 VỀ KIỂM TRA MẪU
Để góp phần bảo đảm thực hiện chính sách của Nhà nước;
Chương I
NHỮNG QUY ĐỊNH CHUNG
Điều 1. Phạm vi điều chỉnh
Luật này quy định việc kiểm tra mẫu."""
    doc = build_document(_lines(text), file="old.txt", source_format="text")
    assert doc.meta.title == "LUẬT KIỂM TRA MẪU" and doc.meta.number == "29/2001/QH10"
    amending = text.replace(
        "CỦA QUỐC HỘI NƯỚC CỘNG HOÀ XÃ HỘI CHỦ NGHĨA VIỆT NAM SỐ 29/2001/QH10 VỀ KIỂM TRA MẪU",
        "SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT KIỂM TRA MẪU CỦA QUỐC HỘI NƯỚC CỘNG HÒA XÃ HỘI "
        "CHỦ NGHĨA VIỆT NAM SỐ 42/2005/QH11")
    doc = build_document(_lines(amending), file="old2.txt", source_format="text")
    assert doc.meta.title == "LUẬT SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT KIỂM TRA MẪU"
    # a title that starts with "VỀ" keeps it where no issuer's formula stood before it
    plain = text.replace(
        "CỦA QUỐC HỘI NƯỚC CỘNG HOÀ XÃ HỘI CHỦ NGHĨA VIỆT NAM SỐ 29/2001/QH10 VỀ KIỂM TRA MẪU",
        "VỀ KIỂM TRA MẪU")
    assert build_document(_lines(plain), file="p.txt", source_format="text",
                          number="29/2001/QH10").meta.title == "LUẬT VỀ KIỂM TRA MẪU"
