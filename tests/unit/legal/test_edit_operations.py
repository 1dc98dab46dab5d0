"""Edit operations read from amending instructions (issue 24): phrase edits as substitution
pairs, a title or opening words amended alone, a moved start date, and a title that never
resolves to a law enacted after the citing one."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from hopgraph.loaders.legal import parse_inputs
from hopgraph.loaders.legal._citations import NameIndex
from hopgraph.loaders.legal._relations import mask_quotes, phrase_edits


def _edits(text: str) -> list[str] | None:
    quotes = [q[1:-1] for q in __import__("re").findall(r"“[^”]*”", text)]
    return phrase_edits(mask_quotes(text), quotes)


def test_phrase_edits_as_pairs() -> None:
    assert _edits("Thay thế cụm từ “tuyến huyện” bằng cụm từ “cấp cơ bản” tại khoản 3 Điều 6") \
        == ["tuyến huyện", "cấp cơ bản"]
    assert _edits("thay thế các cụm từ “A”, “B” bằng cụm từ “C” tại Điều 2") == \
        ["A", "C", "B", "C"]
    assert _edits("Bỏ cụm từ “và thị trấn” tại khoản 2 Điều 2") == \
        [" và thị trấn", "", "và thị trấn", ""]
    assert _edits("Bổ sung cụm từ “, cấp xã” vào sau cụm từ “cấp huyện” tại khoản 1 Điều 3") == \
        ["cấp huyện", "cấp huyện , cấp xã"]
    assert _edits("Cụm từ “hồ” tại khoản 3 Điều 2 được thay thế bằng cụm từ “hồ chứa”") == \
        ["hồ", "hồ chứa"]
    # quotations and masks that disagree, or no verb that says what to do: nothing applied
    assert phrase_edits("Thay thế cụm từ “…” tại khoản 1", []) is None
    assert _edits("Sửa đổi cụm từ “A” tại khoản 1") is None


def test_a_title_never_names_a_later_law() -> None:
    index = NameIndex()
    index.add("Luật Đất đai", "31/2024/QH15", date(2024, 1, 18))
    assert index.scoped(date(2018, 11, 24)).resolve("luật đất đai") is None
    assert index.scoped(date(2024, 6, 29)).resolve("luật đất đai") == "31/2024/QH15"
    # the citing text states the number beside the title: that number, though not loaded
    scoped = index.scoped(date(2018, 11, 24), {"luật đất đai": "45/2013/QH13"})
    assert scoped.resolve("luật đất đai") == "45/2013/QH13"


AMENDING = """QUỐC HỘI
Luật số: 20/2019/QH14
Hà Nội, ngày 01 tháng 6 năm 2019
LUẬT
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT THỬ NGHIỆM
Điều 1. Sửa đổi, bổ sung một số điều của Luật thử nghiệm số 10/2015/QH13
1. Sửa đổi, bổ sung tên Điều 2 như sau:
“Điều 2. Phí và giá dịch vụ”
2. Sửa đổi, bổ sung khổ đầu khoản 4 Điều 3 như sau:
“4. Các hoạt động sau đây phải có giấy phép:”
3. Sửa đổi, bổ sung khoản 1 Điều 9 như sau:
“1. Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2016, trừ khoản 2 Điều này.”
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2020.
"""


def test_scopes_and_a_moved_start(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text(AMENDING, encoding="utf-8")
    docs, problems, _ = parse_inputs([path])
    assert not problems
    new = {n.path: n for n in docs[0].new_units}
    assert new["D2"].scope == "title"
    assert new["D3.K4"].scope == "lead"
    assert new["D9.K1"].scope is None
    assert new["D9.K1"].doc_start == date(2016, 7, 1)
    assert new["D2"].doc_start is None
    # every date here is the amending law's own start: a change of that start moves them
    assert {n.date_from_doc for n in new.values()} == {"20/2019/QH14"}
    assert {r.date_from_doc for r in docs[0].relations if r.type == "AMENDS"} == \
        {"20/2019/QH14"}


def test_an_amendment_of_a_later_document_is_dropped(tmp_path: Path) -> None:
    later = tmp_path / "later.txt"
    later.write_text("QUỐC HỘI\nLuật số: 10/2025/QH15\nHà Nội, ngày 01 tháng 6 năm 2025\nLUẬT\n"
                     "THỬ NGHIỆM\nĐiều 1. Phạm vi\n1. Nội dung.\n", encoding="utf-8")
    early = tmp_path / "early.txt"
    early.write_text(AMENDING.replace("Luật thử nghiệm số 10/2015/QH13",
                                      "Luật thử nghiệm số 10/2025/QH15"), encoding="utf-8")
    docs, _, _ = parse_inputs([later, early])
    amending = next(d for d in docs if d.meta.doc_id == "20/2019/QH14")
    assert not [r for r in amending.relations if r.target.startswith("10/2025/QH15")]
    assert not amending.new_units
    assert any("cannot change 10/2025/QH15" in str(w) for w in amending.warnings)


def test_an_impossible_start_date_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "bad-date.txt"
    path.write_text("QUỐC HỘI\nLuật số: 11/2015/QH13\nHà Nội, ngày 01 tháng 6 năm 2015\nLUẬT\n"
                    "THỬ NGHIỆM\nĐiều 1. Phạm vi\n1. Nội dung.\nĐiều 2. Hiệu lực thi hành\n"
                    "Luật này có hiệu lực thi hành từ ngày 01 tháng 13 năm 2016.\n",
                    encoding="utf-8")
    docs, problems, _ = parse_inputs([path])
    assert not problems and docs[0].meta.effective_date is None
    warned = [str(w) for w in docs[0].warnings if "impossible start date" in str(w)]
    assert len(warned) == 1 and "bad-date.txt:8" in warned[0] and "01 tháng 13" in warned[0]


def test_phrase_edits_in_series_apply_at_once() -> None:
    from hopgraph.loaders.legal._relations import simultaneous

    edits = _edits("Thay thế cụm từ “Tổng cục Thuế” bằng cụm từ “Cục Thuế”; cụm từ “Cục Thuế” "
                   "bằng cụm từ “cơ quan Thuế tỉnh”; cụm từ “Chi cục Thuế” và cụm từ “Chi cục "
                   "Thuế khu vực” bằng cụm từ “cơ quan Thuế cơ sở” tại khoản 2 Điều 16")
    assert edits == ["Tổng cục Thuế", "Cục Thuế", "Cục Thuế", "cơ quan Thuế tỉnh",
                     "Chi cục Thuế", "cơ quan Thuế cơ sở",
                     "Chi cục Thuế khu vực", "cơ quan Thuế cơ sở"]
    text = "Tổng cục Thuế, Cục Thuế và Chi cục Thuế khu vực"
    steps = simultaneous(edits)
    assert steps is not None
    for old, new in zip(steps[::2], steps[1::2], strict=True):
        text = text.replace(old, new)
    # one pass: no phrase is rewritten twice, the longer phrase wins over its prefix
    assert text == "Cục Thuế, cơ quan Thuế tỉnh và cơ quan Thuế cơ sở"
    assert _edits("Thay thế cụm từ “hộ gia đình, cá nhân” thành “người sử dụng đất” tại "
                  "Điều 5") == ["hộ gia đình, cá nhân", "người sử dụng đất"]
    assert _edits("bỏ từ “phạt” trong cụm từ “tiền phạt chậm nộp” tại khoản 3 Điều 56") == \
        ["tiền phạt chậm nộp", "tiền chậm nộp"]


def test_an_instruction_glued_after_a_quote_is_read() -> None:
    from hopgraph.loaders.legal._parser import split_glued

    lines = [(1, "1. Giá dịch vụ theo quy định của pháp luật về giá.”; b) Thay thế cụm từ "
                 "“thù lao” bằng cụm từ “giá” tại Điều 1;"),
             (2, "tiền phạt.\"Điều 2. Sửa đổi, bổ sung một số điều"),
             (3, "vi phạm hành chính đó.” 2."), (4, "Sửa đổi, bổ sung Điều 4 như sau:"),
             (5, "“a) xem “điểm b” 2. Các nội dung khác”")]
    assert split_glued(lines) == [
        (1, "1. Giá dịch vụ theo quy định của pháp luật về giá.”;"),
        (1, "b) Thay thế cụm từ “thù lao” bằng cụm từ “giá” tại Điều 1;"),
        (2, "tiền phạt.\""), (2, "Điều 2. Sửa đổi, bổ sung một số điều"),
        (3, "vi phạm hành chính đó.”"), (3, "2."), (4, "Sửa đổi, bổ sung Điều 4 như sau:"),
        # quoted wording that goes on after an inner quotation stays whole
        (5, "“a) xem “điểm b” 2. Các nội dung khác”")]


OLD_STYLE = """QUỐC HỘI
Luật số: 21/2012/QH13
Hà Nội, ngày 20 tháng 11 năm 2012
LUẬT
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT THỬ NGHIỆM
Điều 1
Sửa đổi, bổ sung một số điều của Luật thử nghiệm số 78/2006/QH11:
1. Điều 2 được sửa đổi, bổ sung như sau:
“Điều 2. Phạm vi
Luật này áp dụng cho mọi người.”; 2. Bãi bỏ điểm đ khoản 3 Điều 77 của Luật này.
3. Bổ sung cụm từ “tiền chậm nộp,” vào trước cụm từ “tiền phạt” tại khoản 2 Điều 1 của Luật này.
Điều 2
Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2013.
"""


def test_luat_nay_in_an_old_amending_law_names_the_amended_law(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(OLD_STYLE, encoding="utf-8")
    docs, problems, _ = parse_inputs([tmp_path / "a.txt"])
    assert not problems
    edges = {(r.type, r.target) for r in docs[0].relations}
    # Điều 77 is not an article of the amending law: "Luật này" is the law it amends
    assert ("REPEALS", "78/2006/QH11:D77.K3.đ") in edges
    # Điều 1 is: the amending law could mean itself, so nothing is guessed
    assert not any(t.startswith("78/2006/QH11:D1") for _, t in edges)


def test_a_wrapped_heading_keeps_the_first_clause_and_sau_without_vao() -> None:
    from hopgraph.loaders.legal._parser import split_glued

    lines = [(1, "Điều 16. Xử lý kinh phí theo quy định tại"),
             (2, "Điều 94 Luật Đất đai 1."), (3, "Trường hợp Quỹ ứng vốn"), (4, "2."),
             (5, "Việc khấu trừ theo khoản 1."), (6, "Trường hợp khác")]
    assert split_glued(lines)[1:3] == [(2, "Điều 94 Luật Đất đai"), (2, "1.")]
    # "khoản 1." ends a sentence: the number belongs to the reference
    assert split_glued(lines)[-2:] == [(5, "Việc khấu trừ theo khoản 1."), (6, "Trường hợp khác")]
    assert _edits("Bổ sung cụm từ “năm 2024” sau cụm từ “Luật Đất đai” tại khoản 1 Điều 2") == \
        ["Luật Đất đai", "Luật Đất đai năm 2024"]


def test_comma_separated_actions_keep_their_own_verb() -> None:
    from hopgraph.loaders.legal._relations import split_actions

    assert split_actions("Sửa đổi Khoản 1, bổ sung Khoản 1a và sửa đổi Khoản 2 Điều 20") == [
        "Sửa đổi Khoản 1", "bổ sung Khoản 1a", "sửa đổi Khoản 2 Điều 20"]
    # "Sửa đổi, bổ sung" is one verb
    assert split_actions("Sửa đổi, bổ sung Điều 5") == ["Sửa đổi, bổ sung Điều 5"]


def test_a_heading_glued_to_its_first_clause_is_split() -> None:
    from hopgraph.loaders.legal._parser import split_glued
    from hopgraph.retrieval._legal_compare import split_official

    assert split_glued([(1, "Điều 27. Yêu cầu về công nghiệp 1. Phù hợp với quy hoạch."),
                        (2, "2. Khác.")])[:2] == [(1, "Điều 27. Yêu cầu về công nghiệp"),
                                                  (1, "1. Phù hợp với quy hoạch.")]
    official = split_official("Điều 27. Yêu cầu về công nghiệp 1. Phù hợp với quy hoạch.\n"
                              "2. Khác.\n")
    assert official[("27", None, None)].text == "Điều 27. Yêu cầu về công nghiệp"
    assert official[("27", "1", None)].text == "1. Phù hợp với quy hoạch."
    # the heading split over two lines, a footnote marker after the clause number
    official = split_official("Điều\n27. Yêu cầu về công nghiệp 1.[6] Phù hợp.\n2. Khác.\n")
    assert official[("27", None, None)].text == "Điều 27. Yêu cầu về công nghiệp"
    assert official[("27", "1", None)].text == "1.[6] Phù hợp."


WRAPPED = """QUỐC HỘI
Luật số: 47/2024/QH15
Hà Nội, ngày 26 tháng 11 năm 2024
LUẬT
QUY HOẠCH THỬ NGHIỆM
Điều 1. Sửa đổi, bổ sung một số điều của Luật Nhà ở thử nghiệm số 27/2023/QH15
1. Thay thế cụm từ “quy hoạch xây dựng” bằng cụm từ “quy hoạch đô thị” tại khoản 3 Điều 3; \
khoản 2 Điều 5;
khoản 9 Điều 88;
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2025.
"""


def test_a_list_of_places_wrapped_over_lines_keeps_every_place(tmp_path: Path) -> None:
    (tmp_path / "w.txt").write_text(WRAPPED, encoding="utf-8")
    docs, _, _ = parse_inputs([tmp_path / "w.txt"])
    edges = {(r.target.split(":")[1], r.method) for r in docs[0].relations
             if r.target.startswith("27/2023/QH15:")}
    assert {("D3.K3", "textual_substitution"), ("D5.K2", "textual_substitution"),
            ("D88.K9", "textual_substitution")} <= edges


def test_a_tiet_is_named_by_its_own_marker() -> None:
    from hopgraph.loaders.legal._citations import find_citations

    (c,) = find_citations("Sửa đổi, bổ sung tiết c2 và tiết c3 điểm c khoản 3 Điều 34", None)
    # "c2)" is a unit beside "c)" in the id scheme (khoản 3 holds c, c1, c2 …)
    assert (c.points, c.clauses, c.articles) == (["c2", "c3"], ["3"], ["34"])


POINTS = """QUỐC HỘI
Luật số: 20/2019/QH14
Hà Nội, ngày 01 tháng 6 năm 2019
LUẬT
SỬA ĐỔI LUẬT THỬ
Điều 1. Sửa đổi, bổ sung một số điều của Luật thử số 10/2015/QH13
1. Sửa đổi, bổ sung điểm a và điểm b khoản 2 Điều 3 như sau:
“a) Một;
b) Hai;”
2. Bổ sung điểm đ vào khoản 1 Điều 4 như sau:
“đ) Năm.”
3. Bổ sung điểm c vào sau điểm b khoản 2 Điều 5 như sau:
“c) Ba.”
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2020.
"""


def test_points_land_in_their_clause_never_on_the_article(tmp_path: Path) -> None:
    # 7. "điểm a và điểm b khoản K" and "Bổ sung điểm đ vào khoản K Điều N": no phantom point
    (tmp_path / "p.txt").write_text(POINTS, encoding="utf-8")
    docs, _, _ = parse_inputs([tmp_path / "p.txt"])
    edges = {(r.type, r.target.split(":")[1]) for r in docs[0].relations
             if r.target.startswith("10/2015/QH13:")}
    assert edges == {("AMENDS", "D3.K2.a"), ("AMENDS", "D3.K2.b"),
                     ("SUPPLEMENTS", "D4.K1.đ"), ("SUPPLEMENTS", "D5.K2.c")}
    inserted = {n.id.split(":")[1]: n.inserted_after for n in docs[0].new_units
                if n.kind == "inserted"}
    assert inserted == {"D4.K1.đ": None, "D5.K2.c": "10/2015/QH13:D5.K2.b"}


def test_a_repeated_point_letter_is_reported() -> None:
    from hopgraph.loaders.legal._parser import parse_structure

    lines = list(enumerate(["Điều 1. Phạm vi", "1. Gồm:", "a) Một;", "b) Hai;", "b) Ba."], 1))
    structure = parse_structure(lines, "x.txt")
    assert [u.path for u in structure.units] == ["D1", "D1.K1", "D1.K1.a", "D1.K1.b"]
    assert any("repeated point letter: điểm b again in Khoản 1" in w.message
               for w in structure.warnings)


def test_a_clause_number_left_at_the_end_of_a_point_is_the_next_clause() -> None:
    from hopgraph.loaders.legal._parser import split_glued

    lines = [(1, "Điều 17. Đường ngang"), (2, "5. Bộ trưởng quy định:"),
             (3, "c) Kết nối tín hiệu giữa đường bộ và đường sắt. 6."),
             (4, "Chính phủ quy định việc xử lý.")]
    assert split_glued(lines)[2:4] == [
        (3, "c) Kết nối tín hiệu giữa đường bộ và đường sắt."), (3, "6.")]
