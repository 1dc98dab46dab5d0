"""Word (.docx) and PDF files with a text layer: their lines, for the plain-text parser.

python-docx reads the body in document order (paragraphs, and each table row's cells, as the
official header's two-column table is usually laid out); pypdf reads each page's text layer. The
document's number, type, issuer and dates then come from its own header, as for plain text. Both
libraries are imported when a file of theirs is read. A file they cannot read, an encrypted PDF
or a PDF without a text layer (a scan) is one problem naming the file; the other inputs load.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

from hopgraph.core.errors import IngestError
from hopgraph.loaders.legal._model import DocumentMeta

# fewer characters than this in the whole text layer: a scanned PDF
MIN_PDF_TEXT_CHARS = 20
# lines that are only a page number: "3", "- 3 -", "Trang 3", "3/12"
_PAGE_NUMBER = re.compile(r"^\s*(?:[-–]\s*)?(?:trang\s+)?\d{1,4}(?:\s*/\s*\d{1,4})?(?:\s*[-–])?\s*$",
                          re.IGNORECASE)


def _nfc_lines(text: str) -> list[str]:
    return [unicodedata.normalize("NFC", line).replace("\u00a0", " ").rstrip()
            for line in text.splitlines()]


def read_docx(path: Path) -> tuple[list[str], DocumentMeta]:
    """The lines of a Word .docx file (paragraphs and table rows in body order).

    Raises:
        IngestError: python-docx is missing, or the file is not a readable .docx.
    """
    try:
        import docx
        from docx.table import Table
        from docx.text.paragraph import Paragraph
    except ImportError as e:
        raise IngestError(f"{path}: reading Word files needs python-docx "
                          "(pip install python-docx)") from e
    try:
        document: Any = docx.Document(str(path))
        lines: list[str] = []
        for child in document.element.body.iterchildren():
            tag = child.tag.rsplit("}", 1)[-1]
            if tag == "p":
                lines.extend(_nfc_lines(Paragraph(child, document).text))
            elif tag == "tbl":
                for row in Table(child, document).rows:
                    cells: list[str] = []
                    for cell in row.cells:  # a merged cell repeats: keep it once
                        text = cell.text.strip()
                        if text and (not cells or cells[-1] != text):
                            cells.append(text)
                    for text in cells:
                        lines.extend(_nfc_lines(text))
    except IngestError:
        raise
    except Exception as e:  # the library's own errors on a damaged or foreign file
        raise IngestError(f"{path}: not a readable Word .docx file "
                          f"({type(e).__name__}: {e})") from e
    if not any(line.strip() for line in lines):
        raise IngestError(f"{path}: the Word file holds no text")
    return lines, DocumentMeta(doc_id="", source_file=str(path), source_format="docx")


def read_pdf(path: Path) -> tuple[list[str], DocumentMeta]:
    """The lines of a PDF's text layer, page after page, without page-number lines.

    Raises:
        IngestError: pypdf is missing, the file is not a readable PDF, it is encrypted, or it has
            no text layer (a scanned image: OCR it first).
    """
    try:
        from pypdf import PdfReader
    except ImportError as e:
        raise IngestError(f"{path}: reading PDF files needs pypdf (pip install pypdf)") from e
    try:
        reader = PdfReader(str(path))
        if reader.is_encrypted and not reader.decrypt(""):
            raise IngestError(f"{path}: the PDF is encrypted (password-protected); save an "
                              "unprotected copy first")
        pages = [page.extract_text() or "" for page in reader.pages]
    except IngestError:
        raise
    except Exception as e:  # the library's own errors on a damaged or foreign file
        raise IngestError(f"{path}: not a readable PDF ({type(e).__name__}: {e})") from e
    text = "\n".join(pages)
    if len(re.sub(r"\s", "", text)) < MIN_PDF_TEXT_CHARS:
        raise IngestError(f"{path}: the PDF has no text layer ({len(pages)} page(s) of images, "
                          "a scan?); run OCR on it first (e.g. ocrmypdf) and load the result")
    lines = [line for line in _nfc_lines(text) if not _PAGE_NUMBER.match(line)]
    return lines, DocumentMeta(doc_id="", source_file=str(path), source_format="pdf")
