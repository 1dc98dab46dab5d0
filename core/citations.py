"""How a reader names a document, and the stable citation id every surface resolves back.

**Document names.** :func:`document_name` says ``Nghị định số 40/2023/NĐ-CP`` (the type from the
number's code when the graph gives none), never ``văn bản số …`` when the number names its type.

**Citation ids (ELI-style).** A legal evidence item carries ``citation_id``, a URI path in the
manner of the European Legislation Identifier, built from the graph's id scheme
(``<document number>:<unit path>``, docs ``vietnamese-legal.md``) and a date::

    vn/<type>/<year>/<number>[/<issuer>]/<unit path>@<YYYY-MM-DD>

    12/2016/NĐ-CP:D3.K2 at 01/06/2024   → vn/nd/2016/12/cp/dieu_3/khoan_2@2024-06-01
    25/2008/QH12:D5.K2.a                → vn/qh12/2008/25/dieu_5/khoan_2/diem_a@…
    1234/QĐ-TTg:D1 (no year)            → vn/qd/1234/ttg/dieu_1@…
    a document id of another form       → vn/id/<the id, percent-encoded>/…

- ``<type>`` is the number's first code without diacritics, lower case (``NĐ`` → ``nd``,
  ``QH12`` → ``qh12``); ``<issuer>`` the rest of the code (``CP``, ``TTg``, ``BYT-BTC``), lower
  case; a document without a year has no year segment.
- unit path segments: ``phan_N``, ``chuong_N``, ``muc_N``, ``tieu_muc_N``, ``dieu_N``,
  ``khoan_N``, ``diem_x`` (``đ`` as ``dd``), ``phu_luc_N``, ``mau_so_N``; a segment outside
  the scheme is ``x_<percent-encoded segment>``;
- ``@<date>`` picks the wording in force at that date. An evidence item's id carries the date
  its wording was judged at when it is in force then, else the date its own wording starts (a
  superseded or pending wording resolves to itself). A wording's graph id (``…@40/2023/NĐ-CP``)
  is not in the citation: the date says which wording.

Reading one back (:func:`parse_citation_id`) gives a candidate document id that
:func:`hopgraph.core.questions.resolve_document_id` matches against the loaded documents (case,
``Đ`` and separators do not matter), the unit path and the date. ``eli/`` or ``/eli/`` before
``vn/`` is accepted.

This module sits in the core package and imports no area.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from urllib.parse import quote, unquote

from hopgraph.core.questions import InputError, validate_text
from hopgraph.core.vocabulary import fold, normalise_doc_number

__all__ = ["CitationRef", "citation_id", "document_name", "document_type_of",
           "parse_citation_id"]

# The document type a number's code names (``40/2023/NĐ-CP`` is a Nghị định).
_TYPE_CODES = {
    "NĐ": "Nghị định", "TT": "Thông tư", "TTLT": "Thông tư liên tịch", "QĐ": "Quyết định",
    "NQ": "Nghị quyết", "VBHN": "Văn bản hợp nhất", "PL": "Pháp lệnh", "CT": "Chỉ thị",
}


def document_type_of(number: str) -> str | None:
    """The document type a number's code names (``25/2008/QH12`` → ``Luật``, ``40/2023/NĐ-CP``
    → ``Nghị định``), or None when the code names none."""
    codes = normalise_doc_number(number).split("/")[-1].split("-")
    if codes[0].startswith("QH"):
        return "Luật"
    return next((_TYPE_CODES[c] for c in codes if c in _TYPE_CODES), None)


def document_name(number: str, doc_type: str | None = None) -> str:
    """How a reader names a document: ``Nghị định số 40/2023/NĐ-CP`` (the type given, else the
    one its number names, else ``văn bản số …``)."""
    kind = doc_type or document_type_of(number)
    return f"{kind} số {number}" if kind else f"văn bản số {number}"


# --- citation ids --------------------------------------------------------------------------------

JURISDICTION = "vn"
_NUMBER = re.compile(r"^(\d{1,5}[a-z]?)(?:/(\d{4}))?/([A-ZĐ][A-Za-zĐ0-9]*)(?:-([A-Za-zĐ0-9-]+))?$")
# longest prefix first: TM before M, PL before P, MS before M
_LEVELS = (("TM", "tieu_muc"), ("PL", "phu_luc"), ("MS", "mau_so"), ("P", "phan"),
           ("C", "chuong"), ("M", "muc"), ("D", "dieu"), ("K", "khoan"))
_WORDS = {word: prefix for prefix, word in _LEVELS}
_SEGMENT = re.compile(r"^(tieu_muc|phu_luc|mau_so|phan|chuong|muc|dieu|khoan|diem)_([0-9a-z-]+)$")
_POINT = re.compile(r"^[a-zđ][0-9a-zđ]*$")


def _ascii(text: str) -> str:
    return fold(text).lower()


def _document_part(doc_id: str) -> str:
    m = _NUMBER.match(doc_id)
    if m is None:
        return f"id/{quote(doc_id, safe='')}"
    number, year, code, issuer = m.groups()
    parts = [_ascii(code), *([year] if year else []), number.lower(),
             *([_ascii(issuer)] if issuer else [])]
    return "/".join(parts)


def _path_part(path: str) -> list[str]:
    out = []
    for seg in path.split(".") if path else []:
        for prefix, word in _LEVELS:
            if seg.startswith(prefix) and seg[len(prefix):len(prefix) + 1].isdigit():
                out.append(f"{word}_{seg[len(prefix):].lower()}")
                break
        else:
            if _POINT.match(seg):
                out.append("diem_" + seg.replace("đ", "dd"))
            else:  # a segment outside the scheme, kept as it is
                out.append("x_" + quote(seg, safe=""))
    return out


def citation_id(unit_id: str, day: date) -> str:
    """The ELI-style citation id of a unit (or of one of its wordings: ``…@<amending doc>``) at
    ``day``: ``vn/nd/2016/12/cp/dieu_3/khoan_2@2024-06-01``."""
    base = unit_id.split("@", 1)[0]
    doc_id, _, path = base.partition(":")
    return "/".join([JURISDICTION, _document_part(doc_id), *_path_part(path)]) \
        + f"@{day.isoformat()}"


@dataclass(frozen=True)
class CitationRef:
    """A citation id read back.

    Attributes:
        document: the document id it names, as typed (to be matched against the loaded ones).
        path: the unit path in the graph's scheme (``D3.K2.a``); empty for the document.
        day: the date it was given, or None.
    """

    document: str
    path: str
    day: date | None

    def unit_id(self, document_id: str) -> str:
        """The graph id of the unit in ``document_id`` (the loaded id it resolved to)."""
        return f"{document_id}:{self.path}" if self.path else document_id


def parse_citation_id(value: object, field: str = "citation") -> CitationRef:
    """Read a citation id (:func:`citation_id`) back.

    Raises:
        InputError: not text, not ``vn/…``, a segment that is not a unit level, or a date that
            is not ``YYYY-MM-DD``.
    """
    text = validate_text(value, field, max_chars=300)
    body, at, when = text.partition("@")
    day: date | None = None
    if at:
        try:
            day = date.fromisoformat(when.strip())
        except ValueError:
            raise InputError(field, f"{when.strip()!r} sau '@' không phải là ngày hợp lệ "
                             "(dạng YYYY-MM-DD)") from None
    segments = [s for s in body.strip().strip("/").split("/") if s]
    if [s.lower() for s in segments[:1]] == ["eli"]:
        segments = segments[1:]
    example = "ví dụ vn/nd/2016/12/cp/dieu_3/khoan_2@2024-06-01"
    if [s.lower() for s in segments[:1]] != [JURISDICTION] or len(segments) < 3:
        raise InputError(field, f"{text!r} không phải là mã trích dẫn (dạng vn/<loại>/<năm>/"
                         f"<số>[/<cơ quan ban hành>]/<vị trí>@<ngày>, {example})")
    rest = [s.lower() for s in segments[1:]]
    first_unit = next((i for i, s in enumerate(rest) if "_" in s), len(rest))
    doc_parts, unit_parts = rest[:first_unit], rest[first_unit:]
    if doc_parts[:1] == ["id"] and len(segments) >= 3:
        document = unquote(segments[2])
    else:
        document = _document_of(doc_parts, text, field, example)
    path = []
    originals = segments[1 + first_unit:]
    for seg, original in zip(unit_parts, originals, strict=True):
        if seg.startswith("x_"):
            path.append(unquote(original[2:]))
            continue
        m = _SEGMENT.match(seg)
        if m is None:
            raise InputError(field, f"{seg!r} trong {text!r} không phải là một cấp của văn bản "
                             "(phan, chuong, muc, tieu_muc, dieu, khoan, diem, phu_luc, mau_so)")
        word, number = m.groups()
        if word == "diem":
            path.append(number.replace("dd", "đ"))
        else:
            path.append(_WORDS[word] + number)
    return CitationRef(document=document, path=".".join(path), day=day)


def _document_of(parts: list[str], text: str, field: str, example: str) -> str:
    """``['nd', '2016', '12', 'cp']`` → ``12/2016/nd-cp`` (normalised later)."""
    digits = [i for i, p in enumerate(parts) if p[:1].isdigit()]
    if not parts or not digits or digits[0] != 1 or len(digits) > 2:
        raise InputError(field, f"{text!r} không chỉ ra văn bản nào (dạng "
                         f"vn/<loại>/<năm>/<số>[/<cơ quan ban hành>], {example})")
    code = parts[0]
    if len(digits) == 2:
        year, number, issuer = parts[1], parts[2], parts[3:]
        head = f"{number}/{year}"
    else:
        number, issuer = parts[1], parts[2:]
        head = number
    return normalise_doc_number(f"{head}/{'-'.join([code, *issuer])}")
