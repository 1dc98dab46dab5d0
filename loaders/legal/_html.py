"""Saved pages of the legal portals (vbpl.vn, thuvienphapluat.vn) and other HTML: the document's
lines and the metadata the portal states beside it.

The text is the portal's full-text container when the page has one (vbpl.vn
``div#toanvancontent`` / ``div.toanvancontent``; thuvienphapluat.vn ``div.content1`` or the
``…ThongTinVB_pnlDocContent`` panel), else the page's body; each paragraph, list item and table
cell is one line, as the plain-text parser expects. The metadata are read outside that container
from label/value pairs, in a table row (``<td>Số ký hiệu</td><td>96/2023/NĐ-CP</td>``, the
attributes page of vbpl.vn and the attributes tab of thuvienphapluat.vn) or in one element
(``<li><label>Hiệu lực:</label> Còn hiệu lực</li>``, the status box of vbpl.vn): number, type,
issuer, issue / effective / expiry dates and the status the portal states. Values the portal masks
for visitors (``Đã biết``) are ignored. Only the standard library's HTML parser is used.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from hopgraph.core.errors import IngestError
from hopgraph.loaders.legal._dates import parse_date
from hopgraph.loaders.legal._ids import DOC_NUMBER, OLD_DOC_NUMBER
from hopgraph.loaders.legal._model import DocumentMeta

# id or class of the element that holds a portal's full text
CONTENT_MARKERS = ("toanvancontent", "content1", "ctl00_content_thongtinvb_pnldoccontent",
                   "divcontentdoc", "fulltext")
_SKIP = {"script", "style", "noscript", "template", "head", "iframe", "svg"}
_VOID = {"br", "img", "meta", "input", "hr", "link", "area", "base", "col", "embed", "param",
         "source", "track", "wbr"}
_BLOCK = {"p", "div", "br", "tr", "td", "th", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table",
          "ul", "ol", "section", "article", "blockquote", "pre", "dt", "dd", "hr", "tbody"}
# label -> field, longest first (``Ngày có hiệu lực`` before ``Hiệu lực``)
LABELS: tuple[tuple[str, str], ...] = (
    ("tình trạng hiệu lực", "status"), ("ngày có hiệu lực", "effective"),
    ("ngày hết hiệu lực", "expiry"), ("ngày hiệu lực", "effective"),
    ("cơ quan ban hành", "issuer"), ("ngày ban hành", "issued"), ("loại văn bản", "doc_type"),
    ("nơi ban hành", "issuer"), ("số ký hiệu", "number"), ("tình trạng", "status"),
    ("trạng thái", "status"), ("hiệu lực", "status"), ("số hiệu", "number"),
)
# what thuvienphapluat.vn shows visitors instead of a value
MASKED = {"đã biết", "đang cập nhật", "chưa xác định", "không xác định", "-", "—", ""}
_NUMBER = re.compile(rf"^({DOC_NUMBER}|{OLD_DOC_NUMBER})$")
_SPACES = re.compile(r"[ \t\u00a0\u200b\ufeff]+")
MAX_VALUE_CHARS = 200


@dataclass
class _Segments:
    content: list[str] = field(default_factory=list)  # lines inside the full-text container
    other: list[str] = field(default_factory=list)  # lines of the whole body (fallback)
    cells: list[str] = field(default_factory=list)  # text pieces outside it, split at every tag
    title: str = ""


class _PageParser(HTMLParser):
    """Splits a page into full-text lines and the small text pieces around it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out = _Segments()
        self._stack: list[str] = []
        self._skip_depth: int | None = None
        self._content_depth: int | None = None
        self._in_title = False
        self._line: list[str] = []
        self._body_line: list[str] = []
        self._cell: list[str] = []

    # -- helpers --
    def _flush_line(self) -> None:
        if self._line:
            self.out.content.append("".join(self._line))
            self._line = []

    def _flush_body(self) -> None:
        if self._body_line:
            self.out.other.append("".join(self._body_line))
            self._body_line = []

    def _flush_cell(self) -> None:
        if self._cell:
            self.out.cells.append("".join(self._cell))
            self._cell = []

    def _boundary(self, tag: str) -> None:
        if tag in _BLOCK:
            self._flush_line()
            self._flush_body()
        if self._content_depth is None:
            self._flush_cell()

    # -- HTMLParser --
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._boundary(tag)
        if tag == "title":
            self._in_title = True
        if tag in _VOID:
            return
        self._stack.append(tag)
        if self._skip_depth is None and tag in _SKIP:
            self._skip_depth = len(self._stack)
        if self._content_depth is None:
            marks = " ".join((v or "") for k, v in attrs if k in ("id", "class")).lower()
            if any(m in marks.split() for m in CONTENT_MARKERS):
                self._content_depth = len(self._stack)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._boundary(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag in _VOID or tag not in self._stack:
            return
        self._boundary(tag)
        # sloppy markup: close everything opened inside the element that ends here
        while self._stack:
            depth = len(self._stack)
            if self._skip_depth is not None and depth <= self._skip_depth:
                self._skip_depth = None
            if self._content_depth is not None and depth <= self._content_depth:
                self._flush_line()
                self._content_depth = None
            if self._stack.pop() == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.out.title += data
            return
        if self._skip_depth is not None:
            return
        if self._content_depth is not None:
            self._line.append(data)
        else:
            self._cell.append(data)
        self._body_line.append(data)

    def close(self) -> None:
        super().close()
        self._flush_line()
        self._flush_body()
        self._flush_cell()


def _clean(text: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFC", html.unescape(text))).strip()


def _label_of(piece: str) -> tuple[str, str] | None:
    """(field, value after the label) when ``piece`` starts with a known label."""
    low = piece.lower()
    for label, name in LABELS:
        if low.startswith(label):
            rest = piece[len(label):]
            if rest.lstrip().startswith("/"):
                return name, ""  # "Cơ quan ban hành/ Chức danh / Người ký": values follow
            if rest and not rest.startswith((":", " ", "\u00a0")):
                return None  # a longer word, not this label
            return name, rest.lstrip(" :").strip()
    return None


def portal_metadata(cells: list[str]) -> dict[str, str]:
    """Label/value pairs among the pieces of text outside the full text (first value wins)."""
    pieces = [c for c in (_clean(x) for x in cells) if c]
    found: dict[str, str] = {}
    for i, piece in enumerate(pieces):
        hit = _label_of(piece) if len(piece) <= MAX_VALUE_CHARS else None
        if hit is None:
            continue
        name, value = hit
        if not value:  # the value is the next piece (the next cell, the text after </label>)
            value = pieces[i + 1] if i + 1 < len(pieces) else ""
            if _label_of(value) is not None:
                continue
        if value.lower() in MASKED or len(value) > MAX_VALUE_CHARS:
            continue
        if name == "status" and parse_date(value) is not None and not re.search(
                r"hiệu\s+lực", value, re.IGNORECASE):
            name = "effective"  # vbpl.vn's listing writes ``Hiệu lực: 01/07/2016``
        found.setdefault(name, value)
    return found


def _source_format(raw: str) -> str:
    low = raw.lower()
    if "toanvancontent" in low or "vbpl.vn" in low or "vbproperties" in low:
        return "vbpl-html"
    if "thuvienphapluat" in low or "content1" in low:
        return "tvpl-html"
    return "html"


def read_html(path: Path) -> tuple[list[str], DocumentMeta]:
    """The document lines and portal metadata of a saved HTML page.

    Raises:
        IngestError: the file cannot be read, is not text, or holds no text at all.
    """
    try:
        data = path.read_bytes()
    except OSError as e:
        raise IngestError(f"{path}: cannot be read: {e.strerror or e}") from e
    charset = re.search(rb"charset=[\"']?([A-Za-z0-9_-]+)", data[:4096])
    encoding = charset.group(1).decode("ascii").lower() if charset else "utf-8"
    try:
        raw = data.decode("utf-8-sig" if encoding in ("utf-8", "utf8") else encoding)
    except (UnicodeDecodeError, LookupError) as e:
        raise IngestError(f"{path}: not text in the page's encoding ({encoding}): {e}") from e
    parser = _PageParser()
    try:
        parser.feed(raw)
        parser.close()
    except (AssertionError, ValueError) as e:  # the stdlib parser gives up on broken markup
        raise IngestError(f"{path}: unreadable HTML: {e}") from e
    seg = parser.out
    lines = [c for c in (_clean(x) for x in seg.content) if c]
    if not lines:
        lines = [c for c in (_clean(x) for x in seg.other) if c]
    if not lines:
        raise IngestError(f"{path}: the page holds no text")
    found = portal_metadata(seg.cells)
    number = found.get("number")
    meta = DocumentMeta(doc_id="", source_file=str(path), source_format=_source_format(raw))
    if number and _NUMBER.match(number):
        meta.number = number
    meta.doc_type = found.get("doc_type")
    meta.issuer = found.get("issuer")
    meta.status_external = found.get("status")
    for key, attr in (("issued", "issue_date"), ("effective", "effective_date"),
                      ("expiry", "expiry_stated")):
        if key in found:
            setattr(meta, attr, parse_date(found[key]))
    return lines, meta
