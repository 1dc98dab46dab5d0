"""Deterministic parsers for Vietnamese legal questions and answers.

Document numbers (``96/2023/NĐ-CP``, ``1234/QĐ-BYT``, ``01/VBHN-BYT``, old forms such as
``35-L/CTN``), unit references (``điểm a khoản 2 Điều 5 Nghị định 96/2023/NĐ-CP``, ``Điều 5 của
Luật này``) and dates (``ngày 01 tháng 7 năm 2025``, ``01/7/2025``, ``2025-07-01``, ``năm 2019``).
The Interpreter uses them before any LLM; the Auditor uses them to find every citation a draft
answer makes; the Conductor uses :func:`format_citation` to write citations the Vietnamese way.
"""

from __future__ import annotations

import re
from datetime import date

from hopgraph.agents.legal._types import DocRef, UnitRef

# One vocabulary (issue 17): the loader's document ids and fold, re-exported for the agents.
from hopgraph.core.citations import document_name
from hopgraph.core.vocabulary import fold as fold
from hopgraph.core.vocabulary import normalise_doc_number as normalise_doc_number

DOC_TYPES = (
    "Hiến pháp", "Bộ luật", "Luật", "Pháp lệnh", "Nghị quyết liên tịch", "Nghị quyết",
    "Nghị định", "Thông tư liên tịch", "Thông tư", "Quyết định", "Chỉ thị", "Văn bản hợp nhất",
    "Lệnh", "Công văn",
)
_TYPE_ALT = "|".join(sorted((re.escape(t) for t in DOC_TYPES), key=len, reverse=True))
_CODE = r"[A-ZĐa-zđ][A-ZĐa-zđ0-9]*(?:\s*-\s*[A-ZĐa-zđ0-9]+)*"
_DOC_NUMBER = (
    rf"\d+[a-zđ]?\s*/\s*\d{{4}}\s*/\s*{_CODE}"  # 96/2023/NĐ-CP, 15/2023/QH15
    r"|\d+\s*-\s*[A-ZĐ]{1,4}\s*/\s*[A-ZĐ]{2,}\d*"  # 35-L/CTN (old form)
    r"|\d+\s*/\s*[A-ZĐa-zđ]+(?:\s*-\s*[A-ZĐa-zđ0-9]+)+"  # 1234/QĐ-BYT, 01/VBHN-BYT
)
DOC_NUMBER_RE = re.compile(rf"(?<![\w/])(?:{_DOC_NUMBER})(?![\w/])")
_TYPED_DOC_RE = re.compile(
    rf"(?P<type>{_TYPE_ALT})(?P<name>(?:(?!này\b)[^.;:?!\n\d]){{0,80}}?)\s*(?:số\s+)?(?P<num>{_DOC_NUMBER})"
    r"(?![\w/])",
    re.IGNORECASE,
)
_UNIT_RE = re.compile(
    r"(?:điểm\s+(?P<point>[a-zđ])\)?\s*,?\s*(?:của\s+)?)?"
    r"(?:khoản\s+(?P<clause>\d+[a-zđ]?)\s*,?\s*(?:của\s+)?)?"
    r"điều\s+(?P<article>\d+[a-zđ]?)(?![\w/])",
    re.IGNORECASE,
)
_RELATIVE_RE = re.compile(rf"^\s*,?\s*(?:của\s+)?(?P<type>{_TYPE_ALT})\s+này", re.IGNORECASE)
_LOOSE_UNIT_RE = re.compile(r"\b(?:điểm|khoản|điều|mục|chương)\s+\w+", re.IGNORECASE)
_NEXT_UNIT_RE = re.compile(r"\b(?:điểm|khoản|điều)\s+\d|[.;?!\n]", re.IGNORECASE)
_DATE_WORDS_RE = re.compile(
    r"ngày\s+(\d{1,2})\s+tháng\s+(\d{1,2})\s+năm\s+(\d{4})", re.IGNORECASE
)
_DATE_SLASH_RE = re.compile(r"(?<![\d/])(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{4})(?![\d/])")
_DATE_ISO_RE = re.compile(r"(?<![\d/])(\d{4})-(\d{2})-(\d{2})(?![\d/])")
_MONTH_RE = re.compile(r"tháng\s+(\d{1,2})\s*(?:/|năm)\s*(\d{4})", re.IGNORECASE)
_YEAR_RE = re.compile(r"năm\s+(\d{4})(?!\s*/)", re.IGNORECASE)


def _canonical_type(raw: str) -> str:
    low = raw.lower()
    for t in DOC_TYPES:
        if t.lower() == low:
            return t
    return raw


def parse_document_numbers(text: str) -> list[DocRef]:
    """Every document number in ``text``, with its type when written before it, in order."""
    refs: dict[str, DocRef] = {}
    typed_spans: dict[int, tuple[str, str]] = {}
    for m in _TYPED_DOC_RE.finditer(text):
        typed_spans[m.start("num")] = (_canonical_type(m.group("type")), m.group(0))
    for m in DOC_NUMBER_RE.finditer(text):
        number = normalise_doc_number(m.group(0))
        doc_type, shown = typed_spans.get(m.start(), (None, m.group(0)))
        if number not in refs or (refs[number].doc_type is None and doc_type):
            refs[number] = DocRef(number=number, doc_type=doc_type, text=shown.strip())
    return list(refs.values())


def parse_unit_references(text: str) -> list[UnitRef]:
    """Every unit reference (``điểm … khoản … Điều …``) and the document it names, in order.

    The document is the first number written after the reference and before the next reference
    or the end of the sentence; ``… Luật này`` gives ``doc_number="này"``.
    """
    out: list[UnitRef] = []
    for m in _UNIT_RE.finditer(text):
        tail = text[m.end():m.end() + 140]
        stop = _NEXT_UNIT_RE.search(tail)
        window = tail[: stop.start()] if stop else tail
        doc_type: str | None = None
        number: str | None = None
        rel = _RELATIVE_RE.match(window)
        if rel:
            doc_type, number = _canonical_type(rel.group("type")), "này"
        else:
            typed = _TYPED_DOC_RE.search(window)
            if typed and not window[: typed.start()].strip(" ,").lower().startswith(
                ("và", "hoặc")
            ):
                doc_type = _canonical_type(typed.group("type"))
                number = normalise_doc_number(typed.group("num"))
            else:
                bare = DOC_NUMBER_RE.search(window)
                if bare and len(window[: bare.start()].strip(" ,")) <= 12:
                    number = normalise_doc_number(bare.group(0))
        point = m.group("point")
        out.append(UnitRef(
            article=m.group("article"), clause=m.group("clause"),
            point=point.lower() if point else None, doc_type=doc_type, doc_number=number,
            text=m.group(0).strip(),
        ))
    return out


def _safe_date(y: int, mo: int, d: int) -> date | None:
    try:
        return date(y, mo, d)
    except ValueError:
        return None


def parse_dates(text: str) -> tuple[list[date], list[int]]:
    """Full dates in ``text`` (in order) and bare years (``năm 2019``) not part of a full date.

    Document numbers are masked first, so ``96/2023/NĐ-CP`` is never read as a date.
    """
    masked = DOC_NUMBER_RE.sub(lambda m: " " * len(m.group(0)), text)
    found: list[tuple[int, date]] = []
    used: list[tuple[int, int]] = []
    for rx, order in ((_DATE_WORDS_RE, "dmy"), (_DATE_SLASH_RE, "dmy"), (_DATE_ISO_RE, "ymd")):
        for m in rx.finditer(masked):
            if any(a <= m.start() < b for a, b in used):
                continue
            a, b, c = (int(g) for g in m.groups())
            day = _safe_date(c, b, a) if order == "dmy" else _safe_date(a, b, c)
            used.append((m.start(), m.end()))  # an invalid date is not re-read as a month
            if day is not None:
                found.append((m.start(), day))
    for m in _MONTH_RE.finditer(masked):
        if not any(a <= m.start() < b for a, b in used):
            day = _safe_date(int(m.group(2)), int(m.group(1)), 1)
            if day is not None:
                found.append((m.start(), day))
                used.append((m.start(), m.end()))
    years = [
        int(m.group(1)) for m in _YEAR_RE.finditer(masked)
        if not any(a <= m.start() < b for a, b in used)
    ]
    return [d for _, d in sorted(found, key=lambda p: p[0])], years


def format_citation(
    node_id: str, *, doc_type: str | None = None, doc_number: str | None = None
) -> str:
    """The Vietnamese citation of a unit id, smallest unit first.

    ``96/2023/NĐ-CP:D5.K2.a`` with type ``Nghị định`` gives ``Điểm a khoản 2 Điều 5 Nghị định số
    96/2023/NĐ-CP``. A version id (``<unit>@<amending doc>``) adds ``(được sửa đổi, bổ sung bởi
    Nghị định số …)`` (the amending document's type from its number). Chapters and sections are left out, as in legal drafting.
    """
    base, _, amending = node_id.partition("@")
    doc_id, _, path = base.partition(":")
    words: list[str] = []
    for seg in path.split(".") if path else []:
        if seg[:1] == "D" and seg[1:2].isdigit():
            words.append(f"Điều {seg[1:]}")
        elif seg[:1] == "K" and seg[1:2].isdigit():
            words.append(f"khoản {seg[1:]}")
        elif seg[:1] in {"P", "C", "M"} and seg[1:2].isdigit():
            continue
        elif seg and not seg[:1].isdigit():
            words.append(f"điểm {seg}")
    words.reverse()
    document = f"{doc_type} số {doc_number or doc_id}" if doc_type else f"văn bản số {doc_number or doc_id}"
    text = " ".join([*words, document]).strip()
    text = text[:1].upper() + text[1:]
    if amending:
        text += f" (được sửa đổi, bổ sung bởi {document_name(amending)})"
    return text


_TOKEN_RE = re.compile(r"\w+(?:[.,/%-]\w+)*%?", re.UNICODE)
STOPWORDS = frozenset(fold(w) for w in ["là", "gì", "bao", "nhiêu", "như", "thế", "nào", "có", "không", "được", "và", "hoặc", "của", "cho", "các", "những", "một", "theo", "tại", "trong", "khi", "thì", "này", "đó", "với", "về", "từ", "đến", "ai", "đâu", "nào", "sao", "vậy", "ạ", "nhé", "hãy", "bạn", "tôi", "mình", "hiện", "nay", "quy", "định", "the", "a", "an", "of", "is", "are", "what", "how", "which", "to", "in", "on", "for"])


def tokens(text: str) -> list[str]:
    """Folded word tokens (Vietnamese syllables), numbers kept whole (``4,5%``, ``01/01/2023``)."""
    return [fold(t) for t in _TOKEN_RE.findall(text)]


def content_tokens(text: str) -> list[str]:
    """:func:`tokens` without stop words."""
    return [t for t in tokens(text) if t not in STOPWORDS]


NUMBER_RE = re.compile(r"(?<![\w/])\d+(?:[.,]\d+)?\s*%|(?<![\w/,.])\d+(?:[.,]\d+)?(?![\w/%])")


def numbers_in(text: str) -> set[str]:
    """Numbers and percentages stated in ``text``, normalised (``4,5 %`` → ``4.5%``)."""
    masked = DOC_NUMBER_RE.sub(" ", text)
    for rx in (_UNIT_RE, _LOOSE_UNIT_RE, _DATE_WORDS_RE, _DATE_SLASH_RE, _DATE_ISO_RE, _MONTH_RE,
               _YEAR_RE):
        masked = rx.sub(" ", masked)
    out = set()
    for m in NUMBER_RE.finditer(masked):
        out.add(re.sub(r"\s+", "", m.group(0)).replace(",", "."))
    return out
