"""Amending instructions as real texts write them (issue 16), on short hand-written texts.

Each test is one phenomenon of ``../shared/docs/vietnamese-legal.md`` ("Amending instructions as
real texts write them"); the texts are written here, not copied from shared data.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

from hopgraph.loaders.legal import ParsedDocument
from tests.unit.legal._texts import parse_texts

AMENDED = """LUẬT
CỘNG HÒA XÃ HỘI CHỦ NGHĨA VIỆT NAM
Luật số: 10/2010/QH12
Hà Nội, ngày 01 tháng 6 năm 2010
LUẬT THỦY LỢI MẪU
Căn cứ Hiến pháp;
Chương I QUY ĐỊNH CHUNG
Mục 1. PHẠM VI
Điều 1. Phạm vi
Luật này quy định về thủy lợi.
Điều 2. Giải thích từ ngữ
1. Công trình là công trình thủy lợi.
2. Kênh là kênh dẫn nước.
3. Hồ chứa là hồ.
Điều 3. Nguyên tắc
1. Bảo đảm an toàn.
2. Tiết kiệm nước.
a) Sử dụng hợp lý;
b) Không lãng phí.
Điều 4. Chính sách
1. Nhà nước đầu tư.
2. Khuyến khích tư nhân.
Điều 5. Quy hoạch
1. Quy hoạch thủy lợi.
2. Thời kỳ quy hoạch là 10 năm.
Điều 6. Hiệu lực
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2011.
"""

OTHER = """LUẬT
Luật số: 20/2012/QH13
Hà Nội, ngày 02 tháng 7 năm 2012
LUẬT ĐÊ ĐIỀU MẪU
Điều 1. Phạm vi
Luật này quy định về đê điều.
Điều 2. Phân loại
1. Đê cấp I.
2. Đê cấp II.
Điều 3. Bảo vệ
Bảo vệ đê.
Điều 4. Hiệu lực
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2013.
"""


def _edges(doc: ParsedDocument, prefix: str = "10/2010/QH12:") -> set[tuple[str, str]]:
    return {(r.type, r.target.removeprefix(prefix)) for r in doc.relations
            if r.type in ("AMENDS", "SUPPLEMENTS", "REPEALS", "REPLACES")
            and r.target.startswith(prefix)}


def _amending(body: str, number: str = "30/2015/QH13", title: str =
              "LUẬT SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT THỦY LỢI MẪU",
              preamble: str = "Căn cứ Hiến pháp;") -> str:
    return (f"LUẬT\nLuật số: {number}\nHà Nội, ngày 10 tháng 3 năm 2015\n{title}\n{preamble}\n"
            f"{body}")


def test_amended_law_named_by_title_only_is_found_among_the_documents_loaded(
        tmp_path: Path) -> None:
    body = ("Điều 1. Sửa đổi, bổ sung một số điều của Luật Thủy lợi mẫu\n"
            "1. Sửa đổi, bổ sung khoản 2 Điều 5 như sau:\n"
            "“2. Thời kỳ quy hoạch là 15 năm.”.\n"
            "2. Bãi bỏ khoản 3 Điều 2.\n"
            "Điều 2. Hiệu lực thi hành\n"
            "Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")
    docs = parse_texts(tmp_path, a=AMENDED, b=_amending(body))
    doc = docs["30/2015/QH13"]
    assert _edges(doc) == {("AMENDS", "D5.K2"), ("REPEALS", "D2.K3")}
    (version,) = [n for n in doc.new_units if n.kind == "version"]
    assert version.target_id == "10/2010/QH12:D5.K2" and version.valid_from == date(2015, 7, 1)
    assert not [u for u in doc.unresolved if u.method == "amendment_target_document_unknown"]


def test_title_with_year_and_number_stated_in_the_preamble(tmp_path: Path) -> None:
    # the heading names the law by title and year; the preamble states its number
    body = ("Điều 1. Sửa đổi, bổ sung một số điều của Luật thủy lợi mẫu năm 2010\n"
            "1. Sửa đổi khoản 1 Điều 4 như sau:\n“1. Nhà nước và xã hội đầu tư.”.\n"
            "Điều 2. Hiệu lực\nLuật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")
    preamble = ("Quốc hội ban hành Luật sửa đổi, bổ sung một số điều của Luật Thủy lợi mẫu số "
                "10/2010/QH12.")
    doc = parse_texts(tmp_path, a=AMENDED, b=_amending(body, preamble=preamble))["30/2015/QH13"]
    assert _edges(doc) == {("AMENDS", "D4.K1")}
    alone = parse_texts(tmp_path / "alone", b=_amending(body))  # amended law not loaded, no number
    assert not _edges(alone["30/2015/QH13"])


def test_omnibus_law_attributes_each_article_to_the_law_its_heading_names(
        tmp_path: Path) -> None:
    body = ("Điều 1. Sửa đổi, bổ sung một số điều của Luật Thủy lợi mẫu số 10/2010/QH12\n"
            "1. Bãi bỏ khoản 2 Điều 3.\n"
            "Điều 2. Sửa đổi, bổ sung một số điều của Luật Đê điều mẫu\n"
            "1. Bãi bỏ khoản 2 Điều 2.\n"
            "2. Sửa đổi Điều 3 như sau:\n“Điều 3. Bảo vệ đê điều\nBảo vệ và tu bổ đê.”.\n"
            "Điều 3. Hiệu lực\nLuật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")
    docs = parse_texts(tmp_path, a=AMENDED, o=OTHER, b=_amending(
        body, title="LUẬT SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT THỦY LỢI MẪU VÀ LUẬT ĐÊ ĐIỀU MẪU"))
    doc = docs["30/2015/QH13"]
    assert _edges(doc) == {("REPEALS", "D3.K2")}
    assert _edges(doc, "20/2012/QH13:") == {("REPEALS", "D2.K2"), ("AMENDS", "D3")}


def test_target_lists_keep_their_verb_and_phrase_items(tmp_path: Path) -> None:
    body = ("Điều 1. Sửa đổi Luật Thủy lợi mẫu số 10/2010/QH12\n"
            "1. Bãi bỏ Điều 1; khoản 3 Điều 2; cụm từ “an toàn” tại khoản 1 Điều 3; Điều 4.\n"
            "2. Thay thế cụm từ “Điều 5” bằng cụm từ “Điều 6” tại khoản 1 Điều 5.\n"
            "Điều 2. Hiệu lực\nLuật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")
    doc = parse_texts(tmp_path, a=AMENDED, b=_amending(body))["30/2015/QH13"]
    assert _edges(doc) == {("REPEALS", "D1"), ("REPEALS", "D2.K3"), ("AMENDS", "D3.K1"),
                           ("REPEALS", "D4"), ("AMENDS", "D5.K1")}
    methods = {r.target.split(":")[1]: r.method for r in doc.relations if r.type == "AMENDS"}
    assert methods == {"D3.K1": "phrase_removal", "D5.K1": "textual_substitution"}


def test_dash_bullets_and_text_added_at_the_end_of_a_unit(tmp_path: Path) -> None:
    body = ("Điều 1. Sửa đổi Luật Thủy lợi mẫu số 10/2010/QH12\n"
            "1. Thay thế một số cụm từ như sau:\n"
            "- Cụm từ “công trình” bằng cụm từ “công trình thủy lợi” tại khoản 1 Điều 2;\n"
            "- Cụm từ “hồ” bằng cụm từ “hồ chứa nước” tại khoản 3 Điều 2.\n"
            "2. Bổ sung vào cuối khoản 2 Điều 4 nội dung như sau:\n"
            "“và cộng đồng dân cư”.\n"
            "Điều 2. Hiệu lực\nLuật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")
    doc = parse_texts(tmp_path, a=AMENDED, b=_amending(body))["30/2015/QH13"]
    assert _edges(doc) == {("AMENDS", "D2.K1"), ("AMENDS", "D2.K3"), ("AMENDS", "D4.K2")}


def test_relative_sub_instructions_under_some_points_and_clauses_of_an_article(
        tmp_path: Path) -> None:
    body = ("Điều 1. Sửa đổi, bổ sung một số điều của Luật Thủy lợi mẫu số 10/2010/QH12\n"
            "1. Sửa đổi, bổ sung một số điểm, khoản của Điều 3 như sau:\n"
            "a) Sửa đổi điểm b khoản 2 như sau:\n“b) Không lãng phí nước.”;\n"
            "b) Bổ sung khoản 3 vào sau khoản 2 như sau:\n“3. Công khai.”.\n"
            "Điều 2. Hiệu lực\nLuật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")
    doc = parse_texts(tmp_path, a=AMENDED, b=_amending(body))["30/2015/QH13"]
    assert _edges(doc) == {("AMENDS", "D3.K2.b"), ("SUPPLEMENTS", "D3.K3")}
    inserted = [n for n in doc.new_units if n.kind == "inserted"]
    assert [n.id for n in inserted] == ["10/2010/QH12:D3.K3"]


def test_section_and_chapter_targets(tmp_path: Path) -> None:
    body = ("Điều 1. Sửa đổi Luật Thủy lợi mẫu số 10/2010/QH12\n"
            "1. Sửa đổi, bổ sung tên Mục 1 Chương I như sau:\n“Mục 1. PHẠM VI VÀ ĐỐI TƯỢNG”.\n"
            "Điều 2. Hiệu lực\nLuật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")
    doc = parse_texts(tmp_path, a=AMENDED, b=_amending(body))["30/2015/QH13"]
    assert _edges(doc) == {("AMENDS", "C1.M1")}


def test_quoted_wording_is_data_never_a_target(tmp_path: Path) -> None:
    body = ("Điều 1. Sửa đổi Luật Thủy lợi mẫu số 10/2010/QH12\n"
            "1. Sửa đổi khoản 1 Điều 5 như sau: “1. Quy hoạch theo Điều 2 và khoản 1 Điều 3.”\n"
            "2. Bổ sung cụm từ “theo Điều 4” vào sau cụm từ “thủy lợi” tại Điều 1.\n"
            "Điều 2. Hiệu lực\nLuật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")
    doc = parse_texts(tmp_path, a=AMENDED, b=_amending(body))["30/2015/QH13"]
    assert _edges(doc) == {("AMENDS", "D5.K1"), ("AMENDS", "D1")}
    (version,) = [n for n in doc.new_units if n.kind == "version"]
    assert version.text.startswith("1. Quy hoạch theo Điều 2")  # the quote opened on its line


def test_irregular_lines_cost_a_warning_not_the_rest_of_the_document(tmp_path: Path) -> None:
    body = ("Điều 1. Sửa đổi Luật Thủy lợi mẫu số 10/2010/QH12\n"
            "1. Bổ sung Điều 5a vào sau Điều 5 như sau:\n"
            "Điều 5a. Điều phối\n"            # new wording without quotes: a stray marker
            "Bộ điều phối.\n"
            "2. Sửa đổi khoản 1 Điều 4 như sau:\n"
            "“1. Nhà nước đầu tư có trọng điểm.\n"  # a quote that never closes
            "3. Bãi bỏ khoản 2 Điều 4.\n"
            "Điều 2 Hiệu lực thi hành\n"            # an article heading without its full stop
            "Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")
    doc = parse_texts(tmp_path, a=AMENDED, b=_amending(body))["30/2015/QH13"]
    assert [u.path for u in doc.units if u.level == "Article"] == ["D1", "D2"]
    assert ("REPEALS", "D4.K2") in _edges(doc) and ("AMENDS", "D4.K1") in _edges(doc)
    assert doc.meta.effective_date == date(2015, 7, 1)
    messages = [w.message for w in doc.warnings]
    assert any("Điều 5a stands between" in m for m in messages)
    assert any("not closed before the next instruction" in m for m in messages)


def test_portal_layout_with_a_name_prefix_reads_as_plain_text(tmp_path: Path) -> None:
    portal = AMENDED.replace("Điều 1. Phạm vi", "Luật Thủy lợi 2010. Điều 1. Phạm vi").replace(
        "Điều 2. Giải thích", "Luật Thủy lợi 2010. Điều 2. Giải thích").replace(
        "Chương I QUY", "Luật Thủy lợi 2010. Chương I QUY")
    body = ("Luật sửa đổi 2015. Điều 1. Sửa đổi Luật Thủy lợi mẫu. Khoản 1. Sửa đổi khoản 2 "
            "Điều 2 - Luật thủy lợi mẫu 2010 như sau:\n“2. Kênh là kênh dẫn nước thủy lợi.”.\n"
            "Luật sửa đổi 2015. Điều 2. Hiệu lực\n"
            "Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")
    docs = parse_texts(tmp_path, a=portal, b=_amending(body))
    assert [u.path for u in docs["10/2010/QH12"].units if u.level == "Article"] == [
        f"D{i}" for i in range(1, 7)]
    assert _edges(docs["30/2015/QH13"]) == {("AMENDS", "D2.K2")}


def test_effect_exceptions_and_unknown_dates(tmp_path: Path) -> None:
    body = ("Điều 1. Sửa đổi Luật Thủy lợi mẫu số 10/2010/QH12\n"
            "1. Sửa đổi khoản 1 Điều 4 như sau:\n“1. Nhà nước đầu tư.”.\n"
            "2. Sửa đổi khoản 2 Điều 4 như sau:\n“2. Khuyến khích mọi thành phần.”.\n"
            "Điều 2. Hiệu lực thi hành\n"
            "Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n"
            "Riêng khoản 2 Điều 1 Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2016.\n")
    doc = parse_texts(tmp_path, a=AMENDED, b=_amending(body))["30/2015/QH13"]
    dates = {n.target_id: n.valid_from for n in doc.new_units}
    assert dates == {"10/2010/QH12:D4.K1": date(2015, 7, 1),
                     "10/2010/QH12:D4.K2": date(2016, 1, 1)}
    undated = parse_texts(tmp_path / "u", a=AMENDED, b=_amending(body.split("Điều 2.")[0]))
    (first, _) = undated["30/2015/QH13"].new_units
    assert first.valid_from is None and first.not_before == date(2015, 3, 10)


def test_a_mistyped_number_yields_to_the_title_of_a_known_document(tmp_path: Path) -> None:
    body = ("Điều 1. Sửa đổi, bổ sung một số điều của Luật Thủy lợi mẫu số 10/2010/QH11\n"
            "1. Bãi bỏ khoản 2 Điều 4.\n"
            "Điều 2. Hiệu lực\nLuật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")
    doc = parse_texts(tmp_path, a=AMENDED, b=_amending(body))["30/2015/QH13"]
    assert _edges(doc) == {("REPEALS", "D4.K2")}


def test_an_annex_form_with_its_own_articles_stays_inside_the_annex(tmp_path: Path) -> None:
    body = ("Điều 1. Sửa đổi Luật Thủy lợi mẫu số 10/2010/QH12\n"
            "1. Bãi bỏ khoản 2 Điều 4.\n"
            "Điều 2. Hiệu lực\nLuật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n"
            "PHỤ LỤC I\nMẪU HỢP ĐỒNG\n"
            "Điều 1. Đối tượng của hợp đồng\nNội dung.\nĐiều 2. Giá\nNội dung.\n"
            "Điều 3. Điều khoản chung\nNội dung.\n")
    doc = parse_texts(tmp_path, a=AMENDED, b=_amending(body))["30/2015/QH13"]
    assert [u.path for u in doc.units if u.level == "Article"] == ["D1", "D2"]
    (annex,) = [u for u in doc.units if u.level == "Annex"]
    assert "Điều 3. Điều khoản chung" in annex.text
    assert _edges(doc) == {("REPEALS", "D4.K2")}


def test_two_instructions_giving_one_unit_new_wording_skip_the_second_only(
        tmp_path: Path) -> None:
    from hopgraph.loaders.legal import plan_document

    body = ("Điều 1. Sửa đổi Luật Thủy lợi mẫu số 10/2010/QH12\n"
            "1. Sửa đổi khoản 1 Điều 4 như sau:\n“1. Nhà nước đầu tư.”.\n"
            "2. Sửa đổi khoản 1 Điều 4 như sau:\n“1. Nhà nước đầu tư có trọng điểm.”.\n"
            "3. Bãi bỏ khoản 2 Điều 4.\n"
            "Điều 2. Hiệu lực\nLuật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")
    doc = parse_texts(tmp_path, a=AMENDED, b=_amending(body))["30/2015/QH13"]
    plan = plan_document(doc, lambda t: t)
    versions = [r for r in plan.units if r["version"]]
    assert [r["props"]["text"] for r in versions] == ["1. Nhà nước đầu tư."]
    assert any("a second new wording for 10/2010/QH12:D4.K1@30/2015/QH13" in w.message
               for w in doc.warnings)


def test_renumbering_is_an_amendment_of_the_renumbered_unit(tmp_path: Path) -> None:
    body = ("Điều 1. Sửa đổi Luật Thủy lợi mẫu số 10/2010/QH12\n"
            "1. Khoản 2 Điều 4 được đánh số thành khoản 3 Điều 4.\n"
            "2. Đánh số lại Điều 5 thành Điều 5a.\n"
            "Điều 2. Hiệu lực\nLuật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")
    doc = parse_texts(tmp_path, a=AMENDED, b=_amending(body))["30/2015/QH13"]
    assert _edges(doc) == {("AMENDS", "D4.K2"), ("AMENDS", "D5")}
    assert {r.method for r in doc.relations if r.type == "AMENDS"} == {"renumbering"}


def test_places_listed_under_a_phrase_edit_of_several_laws(tmp_path: Path) -> None:
    # the places of one phrase edit listed as points, each naming its law; a law's name with
    # "và" inside it; "đã được sửa đổi" describing a law's history is not an instruction
    other = OTHER.replace("LUẬT ĐÊ ĐIỀU MẪU", "LUẬT ĐÊ ĐIỀU VÀ THỦY LỢI MẪU")
    body = ("Điều 1. Sửa đổi, bổ sung một số luật có liên quan\n"
            "1.\nThay thế cụm từ “đê” bằng cụm từ “đê điều” tại các luật sau đây:\n"
            "a) Khoản 1 Điều 4 của Luật Thủy lợi mẫu số 10/2010/QH12 đã được sửa đổi, bổ sung "
            "theo Luật số 11/2011/QH12;\n"
            "b) Khoản\n2 Điều 2 của Luật Đê điều và thủy lợi mẫu số 20/2012/QH13.\n"
            "Điều 2. Hiệu lực\nLuật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")
    doc = parse_texts(tmp_path, a=AMENDED, o=other, b=_amending(body))["30/2015/QH13"]
    assert _edges(doc) == {("AMENDS", "D4.K1")}
    assert _edges(doc, "20/2012/QH13:") == {("AMENDS", "D2.K2")}
    assert {r.method for r in doc.relations
            if r.type == "AMENDS" and r.target_kind == "unit"} == {"textual_substitution"}
    assert {tuple(r.edits or []) for r in doc.relations
            if r.method == "textual_substitution"} == {("đê", "đê điều")}
    # the history is kept as what it is: 11/2011/QH12 amended 10/2010/QH12 (issue 24 item 3)
    assert {(r.source, r.target) for r in doc.relations if r.method == "stated_amendment"} == {
        ("11/2011/QH12", "10/2010/QH12")}


def test_a_phrase_edit_written_in_the_passive(tmp_path: Path) -> None:
    body = ("Điều 1. Sửa đổi Luật Thủy lợi mẫu số 10/2010/QH12\n"
            "1. Cụm từ “hồ” tại khoản 3 Điều 2 được thay thế bằng cụm từ “hồ chứa”.\n"
            "2. Cụm từ “tư nhân” tại khoản 2 Điều 4 và Điều 5 được bỏ.\n"
            "Điều 2. Hiệu lực\nLuật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")
    doc = parse_texts(tmp_path, a=AMENDED, b=_amending(body))["30/2015/QH13"]
    methods = {r.target.split(":")[1]: r.method for r in doc.relations if r.type == "AMENDS"}
    assert methods == {"D2.K3": "textual_substitution", "D4.K2": "phrase_removal",
                       "D5": "phrase_removal"}
