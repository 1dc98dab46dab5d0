"""Pure parts of the consolidated wording (issue 16): own lines, document order, one unit's text
with its changed parts, the unknown-date note, and assembly from query rows."""

from __future__ import annotations

from datetime import date

from hopgraph.retrieval import ChainStep
from hopgraph.retrieval._legal_consolidate import (
    PartChange,
    build_consolidated,
    consolidate_text,
    document_order,
    lead_text,
    unknown_date_note,
)

ARTICLE = "Điều 4. Lệ phí\nCác khoản lệ phí gồm:\n1. Lệ phí cấp mới là 10.000 đồng.\n2. Lệ phí cấp lại là 5.000 đồng."


def test_lead_text_stops_at_the_first_sub_unit() -> None:
    kids = [{"level": "Clause", "text": "1. Lệ phí cấp mới là 10.000 đồng."}]
    assert lead_text(ARTICLE, kids) == "Điều 4. Lệ phí\nCác khoản lệ phí gồm:"
    assert lead_text("2. Văn bản.", []) == "2. Văn bản."


def test_consolidate_text_replaces_inserts_and_repeals() -> None:
    text, complete = consolidate_text(ARTICLE, [
        PartChange("VERSION_OF", "1. Lệ phí cấp mới là 10.000 đồng.",
                   "1. Lệ phí cấp mới là 20.000 đồng.", "1."),
        PartChange("SUPPLEMENTS", "", "1a. Lệ phí gia hạn là 1.000 đồng.", "1a.",
                   anchor_text="1. Lệ phí cấp mới là 10.000 đồng."),
        PartChange("SUPPLEMENTS", "", "1b. Lệ phí đổi là 3.000 đồng.", "1b.",
                   anchor_text="1. Lệ phí cấp mới là 10.000 đồng."),
        PartChange("REPEALS", "2. Lệ phí cấp lại là 5.000 đồng.", None, "2."),
    ])
    assert complete
    assert text.splitlines() == ["Điều 4. Lệ phí", "Các khoản lệ phí gồm:",
                                 "1. Lệ phí cấp mới là 20.000 đồng.",
                                 "1a. Lệ phí gia hạn là 1.000 đồng.",
                                 "1b. Lệ phí đổi là 3.000 đồng.", "2. (bãi bỏ)"]


def test_consolidate_text_reports_a_part_it_cannot_place() -> None:
    text, complete = consolidate_text(ARTICLE, [
        PartChange("VERSION_OF", "3. Không có trong văn bản.", "3. Mới.", "3.")])
    assert not complete and text == ARTICLE


def test_consolidate_text_places_a_part_inserted_into_its_holder_by_number() -> None:
    # "Bổ sung khoản 1a vào Điều 4", "… khoản 3 vào Điều 4": no part named before it; the
    # trace gives such a part as its own wording (original = shown), which the text lacks
    text, complete = consolidate_text(ARTICLE, [
        PartChange("VERSION_OF", "1a. Lệ phí gia hạn.", "1a. Lệ phí gia hạn.", "1a."),
        PartChange("SUPPLEMENTS", "", "3. Lệ phí đổi.", "3.")])
    assert complete
    assert text.splitlines()[2:] == ["1. Lệ phí cấp mới là 10.000 đồng.", "1a. Lệ phí gia hạn.",
                                     "2. Lệ phí cấp lại là 5.000 đồng.", "3. Lệ phí đổi."]
    # an anchor named but not in the text: still not placed
    _, complete = consolidate_text(ARTICLE, [
        PartChange("SUPPLEMENTS", "", "3. Lệ phí đổi.", "3.", anchor_text="9. Không có.")])
    assert not complete


def test_document_order_puts_inserted_units_after_their_anchor() -> None:
    rows = [{"id": "d:D2", "ordinal": 2, "number": "2"}, {"id": "d:D1", "ordinal": 1, "number": "1"},
            {"id": "d:D1b", "ordinal": None, "number": "1b", "inserted_after": "d:D1a"},
            {"id": "d:D1a", "ordinal": None, "number": "1a", "inserted_after": "d:D1"}]
    assert [r["id"] for r in document_order(rows)] == ["d:D1", "d:D1a", "d:D1b", "d:D2"]


def test_unknown_dates_are_stated() -> None:
    assert unknown_date_note(date(2020, 10, 10)) == \
        "ngày có hiệu lực chưa xác định (không trước 10/10/2020)"
    step = ChainStep("AMENDS", "b:D1.K1", "a:D1", date_unknown=True, not_before=date(2020, 1, 2))
    assert step.describe().endswith("ngày có hiệu lực chưa xác định (không trước 02/01/2020)")


def test_assembly_marks_changes_and_leaves_out_what_a_new_wording_drops() -> None:
    doc = {"id": "a", "number": "a", "doc_type": "Nghị định", "title": "T", "replaced_by": []}
    version = {"id": "a:D1@b", "text": "Điều 1. Mới\n1. Một mới.", "start": date(2020, 1, 1),
               "valid_from": date(2020, 1, 1), "date_unknown": False, "not_before": None,
               "amended_by": "b"}
    k1v = {**version, "id": "a:D1.K1@b", "text": "1. Một mới."}
    rows = [
        {"id": "a:D1", "parent_id": None, "level": "Article", "number": "1", "label": "Điều 1",
         "text": "Điều 1. Cũ\n1. Một.\n2. Hai.", "ordinal": 1, "started": True, "chosen": version,
         "version_docs": ["b"], "changes": [{"kind": "AMENDS", "source_id": "b:D1.K1",
                                             "source_citation": "khoản 1 Điều 1 Nghị định b",
                                             "method": "amend_instruction",
                                             "effective_date": date(2020, 1, 1),
                                             "date_unknown": False, "not_before": None}]},
        {"id": "a:D1.K1", "parent_id": "a:D1", "level": "Clause", "number": "1",
         "label": "Khoản 1", "text": "1. Một.", "ordinal": 2, "started": True, "chosen": k1v,
         "version_docs": ["b"], "changes": []},
        {"id": "a:D1.K2", "parent_id": "a:D1", "level": "Clause", "number": "2",
         "label": "Khoản 2", "text": "2. Hai.", "ordinal": 3, "started": True, "chosen": None,
         "version_docs": [], "changes": []},
    ]
    out = build_consolidated(doc, rows, date(2021, 1, 1))
    states = {u.id: u.state for u in out.units}
    assert states == {"a:D1": "amended", "a:D1.K1": "amended", "a:D1.K2": "removed"}
    assert out.units[0].text == "Điều 1. Mới"
    assert out.units[1].change is not None and out.units[1].change.source_id == "b:D1.K1"
    assert "Hai" not in out.render() and "hiệu lực từ 01/01/2020" in out.render()


def _row(uid: str, parent: str | None, level: str, text: str, ordinal: int,
         changes: list[dict[str, object]] | None = None, **more: object) -> dict[str, object]:
    return {"id": uid, "parent_id": parent, "level": level, "number": uid.rsplit(".", 1)[-1],
            "label": level, "text": text, "ordinal": ordinal, "started": True, "chosen": None,
            "version_docs": [], "changes": changes or [], **more}


def _change(kind: str, method: str, **more: object) -> dict[str, object]:
    return {"kind": kind, "source_id": "b:D1.K6", "source_citation": "Khoản 6 Điều 1 Nghị định b",
            "method": method, "effective_date": date(2020, 1, 1), "date_unknown": False,
            "not_before": None, **more}


def test_replaced_annex_repealed_clause_phrase_edit_not_applied_and_new_title() -> None:
    """Issue 24 items 4-6: a replaced annex shows the new one; a repealed clause takes its points;
    a phrase edit that found nothing and an instruction without its wording are said; a new
    title keeps the clauses."""
    doc = {"id": "a", "number": "a", "doc_type": "Nghị định", "title": "T", "replaced_by": [],
           "not_loaded": ["c"]}
    title = {"id": "a:D1@b", "text": "Điều 1. Tên mới", "start": date(2020, 1, 1),
             "valid_from": date(2020, 1, 1), "date_unknown": False, "not_before": None,
             "amended_by": "b", "scope": "title"}
    rows = [
        _row("a:D1", None, "Article", "Điều 1. Tên cũ\n1. Một.\na) A.\n2. Hai.", 1,
             chosen=title, version_docs=["b"], whole=None),
        _row("a:D1.K1", "a:D1", "Clause", "1. Một.\na) A.", 2,
             [_change("REPEALS", "repeal_instruction")],
             repeal=_change("REPEALS", "repeal_instruction")),
        _row("a:D1.K1.a", "a:D1.K1", "Point", "a) A.", 3),
        _row("a:D1.K2", "a:D1", "Clause", "2. Hai.", 4,
             [_change("AMENDS", "textual_substitution", edits=["Ba", "Bốn"], applied=0),
              _change("AMENDS", "amend_instruction")]),
        _row("a:PL1", None, "Annex", "PHỤ LỤC I\nMẪU CŨ\n1. Họ tên.", 5,
             [_change("REPLACES", "annex_replacement", new_text="PHỤ LỤC I\nMẪU MỚI")]),
        _row("a:PL1.K1", "a:PL1", "Clause", "1. Họ tên.", 6),
    ]
    out = build_consolidated(doc, rows, date(2021, 1, 1))
    units = {u.id: u for u in out.units}
    assert units["a:D1"].state == "amended" and units["a:D1"].text == "Điều 1. Tên mới"
    assert units["a:D1.K2"].shown
    assert units["a:D1.K1"].state == "repealed" and not units["a:D1.K1.a"].shown
    mark = units["a:D1.K2"].mark()
    assert "không tìm thấy cụm từ" in mark and "chưa trích xuất được nội dung mới" in mark
    assert units["a:PL1"].text == "PHỤ LỤC I\nMẪU MỚI" and not units["a:PL1.K1"].shown
    assert "thay thế bởi Khoản 6 Điều 1 Nghị định b" in units["a:PL1"].mark()
    assert "chưa cập nhật các văn bản: c" in out.render()
    assert "amend_instruction" not in out.render()


VERSION_TEXT = ("Điều 14. Thu nhập chịu thuế từ chuyển nhượng bất động sản\n"
                "1. Thu nhập chịu thuế được xác định là giá chuyển nhượng từng lần.\n"
                "a) giá theo hợp đồng;\n"
                "b) giá do cơ quan thuế ấn định.\n"
                "2. Chính phủ quy định nguyên tắc, phương pháp xác định giá.\n"
                "3. Thời điểm xác định thu nhập chịu thuế là thời điểm hợp đồng có hiệu lực.")


def test_a_version_s_clause_is_replaced_by_its_number() -> None:
    """An article re-worded by one law (a version) whose clause 1 a later law re-words: the
    clause's original text (of the article as first enacted) is not in the version, so the
    clause numbered 1 there, with its points, is what the new wording replaces."""
    new = "1. Thu nhập chịu thuế được xác định là giá chuyển nhượng từng lần; trường hợp khác …"
    enacted_k1 = "1. Thu nhập chịu thuế được xác định bằng giá bán trừ giá mua."
    text, complete = consolidate_text(VERSION_TEXT, [
        PartChange("VERSION_OF", enacted_k1, new, "1.", by_number=True)])
    assert complete
    assert text.split("\n") == [VERSION_TEXT.split("\n")[0], new, *VERSION_TEXT.split("\n")[4:]]
    # without by_number (the seed is not a version) the part is not placed: not complete
    assert consolidate_text(VERSION_TEXT, [PartChange("VERSION_OF", enacted_k1, new, "1.")]) \
        == (VERSION_TEXT, False)


def test_a_version_s_point_and_repeal_by_number() -> None:
    text, complete = consolidate_text(VERSION_TEXT, [
        PartChange("VERSION_OF", "a) giá cũ;", "a) giá mới;", "a)", by_number=True),
        PartChange("REPEALS", "3. cũ", None, "3.", by_number=True)])
    assert complete
    assert "a) giá mới;\nb) giá do cơ quan thuế ấn định." in text
    assert text.endswith("2. Chính phủ quy định nguyên tắc, phương pháp xác định giá.\n3. (bãi bỏ)")


def test_a_number_the_version_lacks_or_repeats_is_not_guessed() -> None:
    for text in (VERSION_TEXT, VERSION_TEXT + "\n2. Lặp lại số 2."):
        marker = "4." if text == VERSION_TEXT else "2."
        assert consolidate_text(text, [PartChange("VERSION_OF", "(không có)", f"{marker} mới", marker,
                                                  by_number=True)]) == (text, False)
