"""The ELI-style citation id (hopgraph.core.citations): built from the graph's id scheme with a
date, read back to the same document, unit and date; carried by every legal evidence item."""

from __future__ import annotations

from datetime import date

import pytest

from hopgraph.core.citations import citation_id, document_name, parse_citation_id
from hopgraph.core.questions import InputError, resolve_document_id
from hopgraph.core.results import Evidence, Validity

DAY = date(2024, 6, 1)
CASES = {
    "12/2016/NĐ-CP:D3.K2": "vn/nd/2016/12/cp/dieu_3/khoan_2@2024-06-01",
    "25/2008/QH12:D5.K2.a": "vn/qh12/2008/25/dieu_5/khoan_2/diem_a@2024-06-01",
    "25/2008/QH12:D5.K2.đ": "vn/qh12/2008/25/dieu_5/khoan_2/diem_dd@2024-06-01",
    "1234/QĐ-TTg:D1": "vn/qd/1234/ttg/dieu_1@2024-06-01",
    "146/2018/NĐ-CP:D12a.K1a": "vn/nd/2018/146/cp/dieu_12a/khoan_1a@2024-06-01",
    "01/2015/QH-MAU:C2.M1.TM1": "vn/qh/2015/01/mau/chuong_2/muc_1/tieu_muc_1@2024-06-01",
    "05/2019/TTLT-BYT-BTC:PL1.MS2": "vn/ttlt/2019/05/byt-btc/phu_luc_1/mau_so_2@2024-06-01",
    "PD-1.2/x:D4": "vn/id/PD-1.2%2Fx/dieu_4@2024-06-01",
    "D:A3.K1": "vn/id/D/x_A3/khoan_1@2024-06-01",
}


def test_citation_ids_round_trip_to_the_same_document_unit_and_date() -> None:
    loaded = [uid.split(":")[0] for uid in CASES]
    for uid, cid in CASES.items():
        assert citation_id(uid, DAY) == cid
        ref = parse_citation_id(cid)
        assert ref.day == DAY
        assert ref.unit_id(resolve_document_id(ref.document, loaded)) == uid, cid
    # a wording's graph id cites its unit: the date says which wording
    assert citation_id("12/2016/NĐ-CP:D3.K2@40/2023/NĐ-CP", DAY) == CASES["12/2016/NĐ-CP:D3.K2"]
    # ELI's own prefix and upper case are read too; no date is allowed (today is used)
    ref = parse_citation_id("/eli/VN/ND/2016/12/CP/Dieu_3")
    assert (ref.document, ref.path, ref.day) == ("12/2016/NĐ-CP", "D3", None)


@pytest.mark.parametrize(("bad", "problem"), [
    ("", "để trống"),
    ("12/2016/NĐ-CP:D3.K2", "không phải là mã trích dẫn"),
    ("vn/nd/2016/12/cp/dieu_3@2024-13-01", "'2024-13-01' sau '@' không phải là ngày hợp lệ"),
    ("vn/nd/2016/12/cp/article_3@2024-06-01", "'article_3' trong .* không phải là một cấp"),
    ("vn/nd/cp/dieu_3", "không chỉ ra văn bản nào"),
    ("vn/nd/2016/12/cp/dieu_3/khoan_2/y_1", "'y_1' trong"),
])
def test_a_bad_citation_id_is_refused_in_one_line(bad: str, problem: str) -> None:
    with pytest.raises(InputError, match=problem) as caught:
        parse_citation_id(bad)
    assert caught.value.field == "citation" and "\n" not in str(caught.value)
    assert str(caught.value).startswith("citation: ")


def test_evidence_carries_the_citation_id_through_json() -> None:
    ev = Evidence(domain="legal", id="12/2016/NĐ-CP:D3.K2", text="2. …", role="seed",
                  validity=Validity.IN_FORCE, citation_id=CASES["12/2016/NĐ-CP:D3.K2"])
    assert ev.to_dict()["citation_id"] == CASES["12/2016/NĐ-CP:D3.K2"]
    assert Evidence.from_dict(ev.to_dict()) == ev
    assert ev.metadata()["citation_id"] == CASES["12/2016/NĐ-CP:D3.K2"]


def test_a_superseded_wording_cites_the_date_its_own_wording_starts() -> None:
    from dataclasses import replace

    from tests.unit.agents.fakes import NEW, OLD

    old = replace(OLD, valid_from=date(2016, 3, 1), valid_to=date(2023, 1, 1))
    assert old.to_evidence(DAY).citation_id == "vn/nd/2016/12/mau/dieu_3/khoan_2@2016-03-01"
    assert NEW.to_evidence(DAY).citation_id == "vn/nd/2016/12/mau/dieu_3/khoan_2@2024-06-01"
    assert NEW.to_evidence().citation_id is None  # no date, no citation id


def test_documents_are_named_by_their_type() -> None:
    assert document_name("40/2023/NĐ-CP") == "Nghị định số 40/2023/NĐ-CP"
    assert document_name("25/2008/QH12") == "Luật số 25/2008/QH12"
    assert document_name("1234/QĐ-TTg") == "Quyết định số 1234/QĐ-TTg"
    assert document_name("7/2024/TT-BYT", "Thông tư") == "Thông tư số 7/2024/TT-BYT"
    assert document_name("ABC") == "văn bản số ABC"
