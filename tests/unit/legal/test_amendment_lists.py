"""Lists in amending instructions (issue 27: the wording served as in force where amendments
are), on short hand-written texts, not copied from shared data.

- a phrase item of a repeal list takes the list's verb (``Bãi bỏ Điều 1; cụm từ “X” tại …``);
- ``Bãi bỏ cụm từ “X” tại A, B, C``: each place is marked a listed phrase removal (the derive
  step repeals a place that nowhere holds the phrase);
- a series of phrase pairs whose places come after its last pair serves every pair, and two
  items that read alike once their quotations are masked keep their own quotations;
- ``Sửa đổi, bổ sung khoản 2 Điều 3 như sau:`` followed by unquoted instructions
  (``Bãi bỏ điểm b và sửa đổi điểm c thành điểm b.``, ``Bỏ cụm từ “A”, thay thế từ “B” thành
  “C”.``) is read inside that clause.
"""

from __future__ import annotations

from pathlib import Path

from hopgraph.loaders.legal import ParsedDocument
from tests.unit.legal._texts import parse_texts
from tests.unit.legal.test_amendment_grammar import AMENDED, _amending, _edges

EFFECT = "Điều 2. Hiệu lực\nLuật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n"


def _apply(edits: list[str], text: str) -> str:
    for old, new in zip(edits[::2], edits[1::2], strict=True):
        text = text.replace(old, new)
    return text


def _doc(tmp_path: Path, body: str) -> ParsedDocument:
    return parse_texts(tmp_path, a=AMENDED, b=_amending(
        "Điều 1. Sửa đổi Luật Thủy lợi mẫu số 10/2010/QH12\n" + body + EFFECT))["30/2015/QH13"]


def _amends(doc: ParsedDocument) -> dict[str, tuple[str, list[str] | None]]:
    return {r.target.split(":")[1]: (r.method, r.edits) for r in doc.relations
            if r.type == "AMENDS" and r.target.startswith("10/2010/QH12:")}


def test_a_phrase_item_of_a_repeal_list_takes_the_lists_verb(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "1. Bãi bỏ Điều 1; cụm từ “an toàn” tại khoản 1 Điều 3; Điều 4.\n")
    assert _edges(doc) == {("REPEALS", "D1"), ("AMENDS", "D3.K1"), ("REPEALS", "D4")}
    method, edits = _amends(doc)["D3.K1"]
    assert method == "phrase_removal"
    assert edits is not None and _apply(edits, "1. Bảo đảm an toàn.") == "1. Bảo đảm."


def test_places_of_a_listed_phrase_repeal_are_marked_for_the_derive(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "1. Bãi bỏ cụm từ “hợp lý” tại điểm a khoản 2 Điều 3, khoản 2 Điều 5, "
                         "Điều 4.\n2. Bỏ cụm từ “an toàn” tại khoản 1 Điều 3, Điều 5.\n")
    amends = _amends(doc)
    assert {k: m for k, (m, _) in amends.items()} == {
        "D3.K2.a": "listed_phrase_removal", "D5.K2": "listed_phrase_removal",
        "D4": "listed_phrase_removal",
        # "bỏ" takes words out only: never read as a repeal of the places
        "D3.K1": "phrase_removal", "D5": "phrase_removal"}
    assert all(e and _apply(e, "Sử dụng hợp lý;") == "Sử dụng;"
               for k, (_, e) in amends.items() if k in ("D3.K2.a", "D4"))
    assert not any(t == "REPEALS" for t, _ in _edges(doc))


def test_a_series_of_phrase_pairs_takes_the_places_after_its_last_pair(tmp_path: Path) -> None:
    # the second and third items read alike once masked: each keeps its own quotations
    doc = _doc(tmp_path, "1. Thay thế cụm từ “Nhà nước” bằng cụm từ “Chính phủ”; cụm từ “tư nhân” "
                         "bằng cụm từ “doanh nghiệp”; cụm từ “đầu tư” bằng cụm từ “cấp vốn” "
                         "tại khoản 1, khoản 2 Điều 4.\n")
    amends = _amends(doc)
    assert set(amends) == {"D4.K1", "D4.K2"}
    for method, edits in amends.values():
        assert method == "textual_substitution" and edits is not None
        assert _apply(edits, "Nhà nước đầu tư; khuyến khích tư nhân.") == (
            "Chính phủ cấp vốn; khuyến khích doanh nghiệp.")


def test_unquoted_instructions_under_an_amended_clause(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "1. Sửa đổi, bổ sung khoản 2 Điều 3 như sau:\n"
                         "Bãi bỏ điểm a và sửa đổi điểm b thành điểm a.\n"
                         "2. Sửa đổi, bổ sung khoản 1 Điều 5 như sau:\n"
                         "Bỏ cụm từ “thủy lợi” và cụm từ “Quy hoạch thủy lợi”, thay thế từ "
                         "“Quy” thành “Kế”.\n")
    assert _edges(doc) == {("REPEALS", "D3.K2.a"), ("AMENDS", "D3.K2.b"), ("AMENDS", "D5.K1")}
    amends = _amends(doc)
    assert amends["D3.K2.b"] == ("renumbering", None)
    method, edits = amends["D5.K1"]
    assert method == "textual_substitution" and edits is not None
    # the longer phrase goes first, and the edits act at once
    assert _apply(edits, "1. Quy hoạch thủy lợi; Quy trình.") == "1.; Kế trình."
    # no amendment of the clauses without their new wording beside these
    assert not any(r.method == "amend_instruction" for r in doc.relations)


def test_places_before_the_new_phrase_take_the_pair(tmp_path: Path) -> None:
    """``Thay thế cụm từ “A” tại khoản 1 Điều 3; khoản 1 Điều 4; … bằng cụm từ “B”``: the
    places run over several ``;`` items and the new phrase comes after the last one; every
    place gets A→B (the first ones got no edit and kept the old phrase in force)."""
    doc = _doc(tmp_path, "1. Thay thế cụm từ “an toàn” tại khoản 1 Điều 3; khoản 1 Điều 4; "
                         "khoản 1, khoản 2 Điều 5 bằng cụm từ “an ninh”;\n"
                         "2. Thay thế cụm từ “hợp lý” tại điểm a khoản 2 Điều 3; cụm từ "
                         "“lãng phí” tại điểm b khoản 2 Điều 3 bằng cụm từ “tiết kiệm”.\n")
    amends = _amends(doc)
    for path in ("D3.K1", "D4.K1", "D5.K1", "D5.K2"):
        assert amends[path] == ("textual_substitution", ["an toàn", "an ninh"]), path
    # an item that quotes its own phrase is another substitution, not places of the first:
    # it is left as it was read (no pair for "hợp lý", which says nothing replaces it)
    assert amends["D3.K2.b"][1] == ["lãng phí", "tiết kiệm"]
    assert amends["D3.K2.a"][1] is None


def test_a_part_numbered_with_decimals_marks_its_clause_and_a_list_keeps_whole_repeals(
        tmp_path: Path) -> None:
    # "Điểm 2.1 Khoản 2 Điều 3" (the numbering of BHXH procedures) is text of khoản 2: the
    # clause is marked changed, the quote never becomes its wording, and in a repeal list the
    # decimal item flags its clause while "Khoản 1 Điều 4" is still repealed whole
    doc = _doc(tmp_path, "1. Sửa đổi, bổ sung Điểm 2.1 Khoản 2 Điều 3 như sau:\n"
                         "“2.1. Tiết kiệm nước sạch.”\n"
                         "2. Bổ sung Tiết đ Điểm 1.2 Khoản 1 Điều 5 như sau:\n“đ) Quy hoạch vùng.”\n"
                         "3. Bãi bỏ: Điểm 2.3 Khoản 2 Điều 2; Khoản 1 Điều 4.\n")
    assert _edges(doc) == {("AMENDS", "D3.K2"), ("AMENDS", "D5.K1"), ("AMENDS", "D2.K2"),
                           ("REPEALS", "D4.K1")}
    methods = {k: m for k, (m, _) in _amends(doc).items()}
    assert methods == {"D3.K2": "sub_unit_instruction", "D5.K1": "sub_unit_instruction",
                       "D2.K2": "partial_repeal"}
    assert not doc.new_units
    said = [w.message for w in doc.warnings if "numbered with decimals" in w.message]
    assert len(said) == 3 and "Tiết đ Điểm 1.2 of 10/2010/QH12:D5.K1" in said[1]


def test_an_instruction_under_an_article_heading_keeps_its_quote(tmp_path: Path) -> None:
    # an omnibus law's article: heading, then the instruction on its own line, then the quote
    # ("Điều 140. Sửa đổi, bổ sung Điều 4 của Luật …⏎Sửa đổi, bổ sung Điều 4 của Luật … như
    # sau:⏎“Điều 4. …”"); the instruction line was read as a body line under itself, and the
    # article amended without a wording
    doc = parse_texts(tmp_path, a=AMENDED, b=_amending(
        "Điều 1. Sửa đổi, bổ sung Điều 4 của Luật Thủy lợi mẫu\n"
        "Sửa đổi, bổ sung Điều 4 của Luật Thủy lợi mẫu số 10/2010/QH12 như sau:\n"
        "“Điều 4. Chính sách mới\n1. Nhà nước đầu tư công.\n2. Khuyến khích mọi thành phần.”\n"
        + EFFECT))["30/2015/QH13"]
    assert _edges(doc) == {("AMENDS", "D4")}
    worded = {n.id.split(":")[1]: n.text for n in doc.new_units}
    assert worded["D4@30/2015/QH13"].startswith("Điều 4. Chính sách mới")
    assert worded["D4.K1@30/2015/QH13"] == "1. Nhà nước đầu tư công."


def test_an_article_quoted_from_its_first_clause_is_its_whole_body(tmp_path: Path) -> None:
    # "Điều 3 được sửa đổi, bổ sung như sau: “1. …⏎2. …”": the article's new body, its name kept
    # (derive_phrase_versions); a quote from a later clause ("“2. …”") is not known to be the
    # whole article and words nothing; an article amended without any quote parses too
    doc = _doc(tmp_path, "1. Điều 3 được sửa đổi, bổ sung như sau:\n"
                         "“1. Bảo đảm an toàn tuyệt đối.\n2. Tiết kiệm nước.”\n"
                         "2. Sửa đổi, bổ sung Điều 5 như sau:\n“2. Thời kỳ quy hoạch là 5 năm.”\n"
                         "3. Sửa đổi, bổ sung Điều 4.\n")
    assert _edges(doc) == {("AMENDS", "D3"), ("AMENDS", "D5"), ("AMENDS", "D4")}
    new = {n.id.split(":")[1].split("@")[0]: n for n in doc.new_units}
    assert sorted(new) == ["D3", "D3.K1", "D3.K2"]
    assert new["D3"].name_from_base and not new["D3.K1"].name_from_base
    assert new["D3"].text == "1. Bảo đảm an toàn tuyệt đối.\n2. Tiết kiệm nước."
