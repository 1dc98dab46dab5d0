"""`hopgraph unit` names the unit with its article and document, not a bare "Khoản 2"."""

from __future__ import annotations

from datetime import date

from hopgraph.cli._legal_units import render_unit

VIEW = {"label": "Khoản 2", "citation": "Khoản 2 Điều 3 Nghị định số 12/2016/NĐ-MAU",
        "document": "Nghị định số 12/2016/NĐ-MAU", "as_of": date(2024, 6, 1),
        "badge": "đã được sửa đổi", "text": "2. Bảy mươi phần trăm.", "timeline": [
            {"valid_from": "2016-03-01", "valid_to": None, "date_unknown": False,
             "made_by": "văn bản gốc", "current": True}]}


def test_the_heading_line_is_the_units_citation() -> None:
    lines = render_unit(VIEW).splitlines()
    assert lines[0] == "Khoản 2 Điều 3 Nghị định số 12/2016/NĐ-MAU (mẫu hư cấu)"
    assert lines[1] == "Tại ngày 01/06/2024: đã được sửa đổi"
    # without a citation: the label and the document, as before
    assert render_unit({**VIEW, "citation": None}).splitlines()[0] == (
        "Khoản 2 — Nghị định số 12/2016/NĐ-MAU (mẫu hư cấu)")
