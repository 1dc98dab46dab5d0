"""Word, PDF and saved portal pages read into the same parser as plain text (issue 26 item 5).

The .docx and .pdf inputs are written here from text (python-docx; fpdf2 with a Unicode font);
the HTML pages in ``portal_pages/`` are small fictional documents in the markup of vbpl.vn and
thuvienphapluat.vn.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from hopgraph.loaders.legal._formats import expand_paths, read_file
from hopgraph.loaders.legal._model import ParsedDocument, Problem

PAGES = Path(__file__).parent / "portal_pages"
SAMPLE = (Path(__file__).resolve().parents[3] / "loaders" / "legal" / "samples"
          / "12-2016-ND-MAU-nghi-dinh-huong-dan.txt")
FONTS = (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
         Path("/usr/share/fonts/dejavu/DejaVuSans.ttf"),
         Path("/usr/share/fonts/TTF/DejaVuSans.ttf"))


def _one(path: Path) -> ParsedDocument | Problem:
    docs = list(read_file(path))
    assert len(docs) == 1
    return docs[0]


def _sample_lines() -> list[str]:
    return SAMPLE.read_text(encoding="utf-8").splitlines()


def _write_docx(path: Path, lines: list[str]) -> None:
    import docx

    document = docx.Document()
    # the official header as Word files lay it out: a two-column table
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = lines[0], "\n".join(lines[1:3])
    table.cell(1, 0).text, table.cell(1, 1).text = lines[3], lines[4]
    for line in lines[5:]:
        document.add_paragraph(line)
    document.save(str(path))


def _write_pdf(path: Path, lines: list[str]) -> None:
    fpdf = pytest.importorskip("fpdf")
    font = next((f for f in FONTS if f.exists()), None)
    if font is None:
        pytest.skip("no DejaVuSans.ttf on this machine for Vietnamese text in a PDF")
    pdf = fpdf.FPDF()
    pdf.add_font("dejavu", fname=str(font))
    pdf.set_font("dejavu", size=10)
    pdf.add_page()
    for line in lines:
        pdf.multi_cell(0, 5, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))


def test_a_docx_reads_like_its_text(tmp_path: Path) -> None:
    path = tmp_path / "nghi-dinh.docx"
    _write_docx(path, _sample_lines())
    from_word = _one(path)
    from_text = _one(SAMPLE)
    assert isinstance(from_word, ParsedDocument) and isinstance(from_text, ParsedDocument)
    assert from_word.meta.doc_id == "12/2016/NĐ-MAU"
    assert from_word.meta.source_format == "docx"
    assert (from_word.meta.issuer, from_word.meta.issue_date) == ("CHÍNH PHỦ", date(2016, 1, 15))
    assert [u.path for u in from_word.units] == [u.path for u in from_text.units]
    assert [u.text for u in from_word.units] == [u.text for u in from_text.units]


def test_a_pdf_text_layer_reads_like_its_text(tmp_path: Path) -> None:
    path = tmp_path / "nghi-dinh.pdf"
    _write_pdf(path, _sample_lines())
    from_pdf = _one(path)
    from_text = _one(SAMPLE)
    assert isinstance(from_pdf, ParsedDocument) and isinstance(from_text, ParsedDocument)
    assert from_pdf.meta.doc_id == "12/2016/NĐ-MAU" and from_pdf.meta.source_format == "pdf"
    assert [u.path for u in from_pdf.units] == [u.path for u in from_text.units]
    assert from_pdf.units[-1].text == from_text.units[-1].text


def test_the_vbpl_page_gives_its_text_and_the_metadata_the_portal_states() -> None:
    doc = _one(PAGES / "vbpl-toanvan-21-2016-ND-MAU.html")
    assert isinstance(doc, ParsedDocument), doc
    meta = doc.meta
    assert (meta.doc_id, meta.doc_type, meta.issuer) == ("21/2016/NĐ-MAU", "Nghị định", "Chính phủ")
    assert (meta.issue_date, meta.effective_date) == (date(2016, 1, 15), date(2016, 3, 1))
    assert meta.status_external == "Còn hiệu lực" and meta.source_format == "vbpl-html"
    assert [u.path for u in doc.units] == ["D1", "D2", "D2.K1", "D2.K2", "D3"]
    text = " ".join(u.text for u in doc.units)
    # the page's menu, scripts and footer stay out of the text; &nbsp; is a space
    assert "Trang chủ" not in text and "getElementById" not in text and "Bộ Tư pháp" not in text
    assert "sức khỏe và việc cấp thẻ" in text


def test_the_tvpl_page_ignores_masked_values() -> None:
    doc = _one(PAGES / "tvpl-30-2017-TT-MAU.html")
    assert isinstance(doc, ParsedDocument), doc
    meta = doc.meta
    assert (meta.doc_id, meta.doc_type, meta.issuer) == ("30/2017/TT-MAU", "Thông tư", "Bộ Y tế")
    assert meta.issue_date == date(2017, 6, 20)
    assert meta.effective_date is None  # 'Đã biết': shown to subscribers only
    assert meta.status_external == "Hết hiệu lực một phần" and meta.source_format == "tvpl-html"
    assert [u.path for u in doc.units] == ["D1", "D2", "D2.K1", "D2.K2"]
    assert any(r.target.startswith("21/2016/NĐ-MAU") for r in doc.relations)


@pytest.mark.parametrize(("name", "data", "expected"), [
    ("scan.pdf", b"%PDF-1.7\n%binary", "not a readable PDF"),
    ("renamed.docx", b"plain text, not a Word file", "not a readable Word .docx file"),
    ("empty.html", b"<html><body><script>x()</script></body></html>", "the page holds no text"),
])
def test_an_unreadable_file_is_one_problem_naming_it(tmp_path: Path, name: str, data: bytes,
                                                      expected: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    problem = _one(path)
    assert isinstance(problem, Problem)
    assert problem.file == str(path) and expected in problem.message
    assert "\n" not in str(problem) and "Traceback" not in str(problem)


def test_a_pdf_without_text_layer_says_to_ocr_it(tmp_path: Path) -> None:
    fpdf = pytest.importorskip("fpdf")
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.rect(10, 10, 50, 50)  # drawing only, as a scan has an image and no text
    path = tmp_path / "scan.pdf"
    pdf.output(str(path))
    problem = _one(path)
    assert isinstance(problem, Problem) and "no text layer" in problem.message
    assert "OCR" in problem.message


def test_a_folder_reads_the_new_formats_and_still_refuses_old_word(tmp_path: Path) -> None:
    for name in ("a.docx", "b.pdf", "c.html", "d.htm", "e.doc"):
        (tmp_path / name).write_bytes(b"x")
    files, problems = expand_paths([tmp_path])
    assert [f.name for f in files] == ["a.docx", "b.pdf", "c.html", "d.htm"]
    assert [Path(p.file).name for p in problems] == ["e.doc"]
    assert "Word (.doc) is not a supported format" in problems[0].message
    assert "Word (.docx)" in problems[0].message  # the accepted list names the new formats
