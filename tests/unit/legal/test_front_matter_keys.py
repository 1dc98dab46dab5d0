"""Front matter of a single-document Markdown file: ``so_hieu`` and ``sohieu`` are one key
(issue 24 item 9: 46/2026/NĐ-CP was stored under the number of a law it cites)."""

from __future__ import annotations

from pathlib import Path

from hopgraph.loaders.legal import ParsedDocument, read_file

_BODY = """
# Nghị định số 46/2026/NĐ-CP

## VĂN BẢN

Căn cứ Luật Tổ chức Chính phủ số 63/2025/QH15;

Điều 1. Phạm vi điều chỉnh

Nghị định này quy định chi tiết Luật số 63/2025/QH15.

Điều 2. Hiệu lực thi hành

Nghị định này có hiệu lực từ ngày 16 tháng 4 năm 2026.
"""


def _doc(tmp_path: Path, front: str) -> ParsedDocument:
    path = tmp_path / "nghi-dinh-46.md"
    path.write_text(f"---\n{front}\n---\n{_BODY}", encoding="utf-8")
    docs = [d for d in read_file(path) if isinstance(d, ParsedDocument)]
    assert len(docs) == 1
    return docs[0]


def test_underscored_keys_name_the_document(tmp_path: Path) -> None:
    doc = _doc(tmp_path, 'so_hieu: "46/2026/NĐ-CP"\nloai_van_ban: "Nghị định"\n'
                         'ngay_ban_hanh: "2026-01-26"\nngay_hieu_luc: "2026-04-16"\n'
                         'trang_thai: "Còn hiệu lực"')
    assert doc.meta.doc_id == "46/2026/NĐ-CP"
    assert doc.meta.doc_type == "Nghị định"
    assert str(doc.meta.issue_date) == "2026-01-26"
    assert str(doc.meta.effective_date) == "2026-04-16"
    assert doc.meta.status_external == "Còn hiệu lực"


def test_plain_keys_still_read(tmp_path: Path) -> None:
    doc = _doc(tmp_path, "sohieu: 46/2026/NĐ-CP\nngaybanhanh: 2026-01-26")
    assert doc.meta.doc_id == "46/2026/NĐ-CP"
    assert str(doc.meta.issue_date) == "2026-01-26"
