"""Deterministic parsers: document numbers, unit references, dates, citations."""

from __future__ import annotations

from datetime import date

import pytest

from hopgraph.agents.legal import (
    format_citation,
    parse_dates,
    parse_document_numbers,
    parse_unit_references,
)


@pytest.mark.parametrize(("text", "number", "doc_type"), [
    ("theo Nghị định số 96/2023/NĐ-CP", "96/2023/NĐ-CP", "Nghị định"),
    ("Luật Khám bệnh, chữa bệnh số 15/2023/QH15", "15/2023/QH15", "Luật"),
    ("Thông tư 32/2023/TT-BYT", "32/2023/TT-BYT", "Thông tư"),
    ("Quyết định số 1234/QĐ-BYT", "1234/QĐ-BYT", "Quyết định"),
    ("văn bản hợp nhất 01/VBHN-BYT", "01/VBHN-BYT", "Văn bản hợp nhất"),
    ("Luật số 35-L/CTN ngày 14 tháng 7 năm 1993", "35-L/CTN", "Luật"),
    ("nghị định 146/2018/nd-cp", "146/2018/NĐ-CP", "Nghị định"),
])
def test_document_numbers_with_types_and_old_forms(text: str, number: str, doc_type: str) -> None:
    refs = parse_document_numbers(text)
    assert [(r.number, r.doc_type) for r in refs] == [(number, doc_type)]


def test_unit_reference_with_point_clause_article_and_document() -> None:
    [ref] = parse_unit_references("Theo điểm a khoản 2 Điều 5 Nghị định 96/2023/NĐ-CP thì …")
    assert (ref.point, ref.clause, ref.article, ref.doc_type, ref.doc_number) == (
        "a", "2", "5", "Nghị định", "96/2023/NĐ-CP")
    assert ref.path == "D5.K2.a"


def test_relative_inserted_and_bare_references() -> None:
    refs = parse_unit_references(
        "quy định tại khoản 1a Điều 12a của Luật này và Điều 7; điểm đ khoản 3 Điều 9 Luật số 35-L/CTN"
    )
    assert [(r.path, r.doc_number) for r in refs] == [
        ("D12a.K1a", "này"), ("D7", None), ("D9.K3.đ", "35-L/CTN")]


def test_dates_in_words_slashes_iso_and_years_never_from_document_numbers() -> None:
    dates, years = parse_dates(
        "Nghị định 96/2023/NĐ-CP có hiệu lực từ ngày 01 tháng 7 năm 2025, tính đến 01/01/2027 "
        "hoặc 2026-03-15; năm 2019"
    )
    assert dates == [date(2025, 7, 1), date(2027, 1, 1), date(2026, 3, 15)]
    assert years == [2019]


def test_invalid_dates_are_skipped() -> None:
    assert parse_dates("ngày 31 tháng 2 năm 2024") == ([], [])


def test_vietnamese_citation_format() -> None:
    assert format_citation("96/2023/NĐ-CP:D5.K2.a", doc_type="Nghị định") == (
        "Điểm a khoản 2 Điều 5 Nghị định số 96/2023/NĐ-CP")
    assert format_citation("12/2016/NĐ-MAU:C2.D3.K2@40/2023/NĐ-MAU", doc_type="Nghị định") == (
        "Khoản 2 Điều 3 Nghị định số 12/2016/NĐ-MAU "
        "(được sửa đổi, bổ sung bởi Nghị định số 40/2023/NĐ-MAU)")
