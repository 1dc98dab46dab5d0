"""One legal text into a :class:`ParsedDocument`: header metadata, structure, dates, relations."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date

from hopgraph.core.errors import IngestError
from hopgraph.loaders.legal._dates import find_effective_dates, impossible_dates, parse_date
from hopgraph.loaders.legal._ids import (
    DOC_NUMBER,
    OLD_DOC_NUMBER,
    doc_type_of_number,
    normalise_doc_number,
    slugify,
)
from hopgraph.loaders.legal._layout import repair_layout
from hopgraph.loaders.legal._model import DocumentMeta, ParsedDocument, Problem, Unit
from hopgraph.loaders.legal._parser import parse_structure

_TYPES = [
    "THÔNG TƯ LIÊN TỊCH", "NGHỊ QUYẾT LIÊN TỊCH", "VĂN BẢN HỢP NHẤT", "BỘ LUẬT", "HIẾN PHÁP",
    "NGHỊ ĐỊNH", "THÔNG TƯ", "QUYẾT ĐỊNH", "NGHỊ QUYẾT", "PHÁP LỆNH", "CHỈ THỊ", "LUẬT", "LỆNH",
]
_TYPE_RE = re.compile(r"(?<![\wÀ-ỹ])(" + "|".join(_TYPES) + r")(?![\wÀ-ỹ])")
_NUMBER_IN_HEADER = re.compile(
    rf"(?:Số|số|SỐ|Luật số|Bộ luật số|Nghị quyết số|Pháp lệnh số)\s*[:：]?\s*({DOC_NUMBER}|{OLD_DOC_NUMBER})"
)
_PREAMBLE_START = re.compile(r"^(?:Căn cứ|Xét đề nghị|Theo đề nghị|Thực hiện)\b")
_NATIONAL = re.compile(r"CỘNG\s+HÒA|CỘNG\s+HOÀ|Độc\s+lập", re.IGNORECASE)
_ISSUERS = re.compile(
    r"^(QUỐC HỘI|ỦY BAN THƯỜNG VỤ QUỐC HỘI|CHÍNH PHỦ|THỦ TƯỚNG CHÍNH PHỦ|CHỦ TỊCH NƯỚC|"
    r"BỘ [A-ZĐÀ-Ỹ ,\-]+|BẢO HIỂM XÃ HỘI VIỆT NAM|NGÂN HÀNG NHÀ NƯỚC[A-ZĐÀ-Ỹ ]*|"
    r"TÒA ÁN NHÂN DÂN TỐI CAO|VIỆN KIỂM SÁT NHÂN DÂN TỐI CAO|ỦY BAN NHÂN DÂN[A-ZĐÀ-Ỹ ]*)"
)
_SPECIFIC_EFFECT = re.compile(
    r"(?:Quy định tại\s+)?(?P<ref>(?:(?:điểm\s+[a-zđ]\s+)?khoản\s+\d+[a-zđ]?\s+)?Điều\s+\d+[a-zđ]?)"
    r"(?:\s+của\s+(?:Luật|Nghị định|Thông tư|Quyết định|Nghị quyết|Bộ luật|Pháp lệnh)\s+này)?"
    r"\s+có\s+hiệu\s+lực",
    re.IGNORECASE,
)
_DATE = r"(\d{1,2}\s+tháng\s+\d{1,2}\s+năm\s+\d{4}|\d{1,2}/\d{1,2}/\d{4})"
# The document's own end: "<type> này có hiệu lực … từ ngày X đến hết ngày Y" or
# "<type> này hết hiệu lực … (kể) từ ngày Y". Other "đến hết ngày" (transitional provisions)
# are about something else.
_EXPIRY = re.compile(
    r"(?:Luật|Bộ luật|Nghị định|Thông tư|Thông tư liên tịch|Quyết định|Nghị quyết|Pháp lệnh)\s+này\s+"
    rf"(?:có\s+hiệu\s+lực(?:\s+thi\s+hành)?\s+(?:kể\s+)?từ\s+(?:ngày\s+)?[^.;]{{1,40}}?\s+"
    rf"đến\s+hết\s+ngày|hết\s+hiệu\s+lực(?:\s+thi\s+hành)?"
    rf"\s+(?:kể\s+)?từ\s+ngày)\s+{_DATE}",
    re.IGNORECASE,
)


def split_front(front: list[tuple[int, str]]) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """Header lines (before the first ``Căn cứ``/``Theo đề nghị``) and preamble lines."""
    for i, (_, text) in enumerate(front):
        if _PREAMBLE_START.match(text):
            return front[:i], front[i:]
    return front, []


def read_header(header: list[tuple[int, str]], meta: DocumentMeta) -> None:
    """Fill number, type, issuer, issue date and title from the official header."""
    joined = " ".join(t for _, t in header)
    if meta.number is None:
        m = _NUMBER_IN_HEADER.search(joined)
        if m:
            meta.number = m.group(1)
    if meta.issue_date is None:
        m = re.search(r"ngày\s+\d{1,2}\s+tháng\s+\d{1,2}\s+năm\s+\d{4}", joined)
        if m:
            meta.issue_date = parse_date(m.group(0))
    if meta.issuer is None:
        for _, text in header:
            stripped = re.sub(r"[-–—_]{3,}.*$", "", text).strip()
            if _NATIONAL.search(stripped) and not _ISSUERS.match(stripped):
                break
            m = _ISSUERS.match(stripped)
            if m:
                meta.issuer = m.group(1).strip()
                break
    # The type is the first standalone type word after the national motto and the date line.
    after = joined
    anchor = re.search(r"năm\s+\d{4}", joined)
    if anchor:
        after = joined[anchor.end():]
    m = _TYPE_RE.search(after)
    if m:
        if meta.doc_type is None:
            meta.doc_type = m.group(1).capitalize().replace("Bộ luật", "Bộ luật")
        if meta.title is None:
            title = after[m.end():].strip(" :-–")
            title = header_title(re.sub(r"\[[^\]]*\]", "", title).strip())
            if title:
                meta.title = (m.group(1) + " " + title).strip()[:500]
            else:
                meta.title = m.group(1)


# Headers of laws until about 2006: "LUẬT CỦA QUỐC HỘI NƯỚC CỘNG HOÀ XÃ HỘI CHỦ NGHĨA VIỆT NAM SỐ
# 29/2001/QH10 VỀ HẢI QUAN" (the subject after VỀ), and amending laws with the issuer after it.
_ISSUED_BY = re.compile(r"\s*\bCỦA\s+QUỐC\s+HỘI\s+NƯỚC\s+CỘNG\s+H(?:OÀ|ÒA)\s+XÃ\s+HỘI\s+CHỦ\s+NGHĨA"
                        r"\s+VIỆT\s+NAM\b(?:\s+SỐ\s+\S+)?", re.IGNORECASE)
_NUMBERED_ABOUT = re.compile(r"^(?:SỐ\s+\S+\s+)?VỀ\s+", re.IGNORECASE)
_DATED = re.compile(r"\s+NGÀY\s+\d{1,2}\s+THÁNG\s+\d{1,2}\s+NĂM\s+\d{4}\b.*$", re.IGNORECASE)


def header_title(title: str) -> str:
    """The title as the header states it, without the issuer's formula of older laws
    ("CỦA QUỐC HỘI NƯỚC … SỐ 29/2001/QH10 VỀ HẢI QUAN" -> "HẢI QUAN"; the date after it, if
    any) and without a preamble
    run on after an upper-case title ("HẢI QUAN Để góp phần …" -> "HẢI QUAN")."""
    formula, joined_title = _ISSUED_BY.match(title), title
    title = _ISSUED_BY.sub("", title).strip()
    if formula:  # the formula first: what follows "VỀ" is the subject, the law's name
        title = _NUMBERED_ABOUT.sub("", title).strip()
    if formula or _ISSUED_BY.search(joined_title):
        title = _DATED.sub("", title).strip()
    words = title.split()
    for i, w in enumerate(words):
        if i and any(c.islower() for c in w) and all(
                not any(c.islower() for c in prev) for prev in words[:i]):
            return " ".join(words[:i]).strip(" ,;:-–")
    return title


def _first_sentence_units(units: list[Unit]) -> list[Unit]:
    return [u for u in units if u.level in ("Article", "Clause", "Point")]


def apply_dates(doc: ParsedDocument, units: list[Unit]) -> None:
    """Effective date of the document and per-provision start dates from the final provisions."""
    meta = doc.meta
    candidates: list[tuple[Unit, int, date, str]] = []
    for unit in _first_sentence_units(units):
        for offset, value, text in find_effective_dates(unit.own_text, meta.issue_date):
            candidates.append((unit, offset, value, text))
        for raw in impossible_dates(unit.own_text):
            doc.warnings.append(Problem(meta.source_file, unit.line, (
                f"impossible start date 'ngày {raw}' in {unit.label or unit.path}: no date is "
                "taken from it (the start stays unknown unless another sentence states one)")))
    general_doc: date | None = None
    general_any: date | None = None
    for unit, offset, value, text in candidates:
        line_start = unit.own_text.rfind("\n", 0, offset) + 1
        sentence = unit.own_text[line_start: offset + len(text)]
        specific = _SPECIFIC_EFFECT.search(sentence)
        doc_words = re.search(r"(?:Luật|Nghị định|Thông tư|Quyết định|Nghị quyết|Bộ luật|"
                              r"Pháp lệnh|Thông tư liên tịch|Văn bản)\s+này\s+có\s+hiệu\s+lực",
                              sentence, re.IGNORECASE)
        if specific and (not doc_words or doc_words.start() > specific.start()):
            target = _resolve_local(specific.group("ref"), units)
            if target is not None:
                doc.unit_dates[target] = value
                continue
        if not doc_words or re.match(r"\s*(?:\d+\.\s*)?Riêng\b", sentence, re.IGNORECASE):
            # "Riêng các khoản 5, 6 và 19 Điều 1 Nghị định này … có hiệu lực từ ngày …"
            own = _own_citations(sentence, meta.doc_id, units)
            if own:
                for path in own:
                    doc.unit_dates[path] = value
                continue
        if doc_words and general_doc is None:
            general_doc = value
        elif general_any is None:
            general_any = value
    general = general_doc or general_any
    if meta.effective_date is None:
        meta.effective_date = general
    for unit in _first_sentence_units(units):
        m = _EXPIRY.search(unit.own_text)
        if m:
            meta.expiry_stated = parse_date(m.group(1) if "/" in m.group(1) else "ngày " + m.group(1))


def _own_citations(sentence: str, doc_id: str, units: list[Unit]) -> list[str]:
    """Paths of this document's units an exception sentence names before ``có hiệu lực``."""
    from hopgraph.loaders.legal._citations import Context, find_citations, resolve

    head = re.split(r"\s+có\s+hiệu\s+lực", sentence, maxsplit=1)[0]
    paths = {u.path for u in units}
    out: list[str] = []
    for c in find_citations(head):
        if c.doc.kind not in ("this", "none"):
            continue
        out.extend(p for p in resolve(c, Context(doc_id, "")) if p in paths)
    return out


def _resolve_local(ref: str, units: list[Unit]) -> str | None:
    """``khoản 3 Điều 1`` -> path ``D1.K3`` when such a unit exists."""
    parts: list[str] = []
    art = re.search(r"Điều\s+(\d+[a-zđ]?)", ref, re.IGNORECASE)
    if art is None:
        return None
    parts.append("D" + art.group(1))
    cl = re.search(r"khoản\s+(\d+[a-zđ]?)", ref, re.IGNORECASE)
    if cl:
        parts.append("K" + cl.group(1))
    pt = re.search(r"điểm\s+([a-zđ])", ref, re.IGNORECASE)
    if pt:
        parts.append(pt.group(1))
    path = ".".join(parts)
    return path if any(u.path == path for u in units) else None


def make_doc_id(meta: DocumentMeta, file: str, fallback: str | None) -> str:
    """The document number, normalised; else a slug of type + title + date; else the fallback.

    Raises:
        IngestError: no number and nothing to build a stable slug from.
    """
    if meta.number:
        return normalise_doc_number(meta.number)
    doc_type = meta.doc_type
    if doc_type and meta.title and meta.title.lower().startswith(doc_type.lower()):
        doc_type = None  # "Luật Cư trú" already names its type
    parts = [p for p in (doc_type, meta.title,
                         meta.issue_date.isoformat() if meta.issue_date else None) if p]
    if meta.title:
        return slugify(" ".join(parts))
    if fallback:
        return slugify(fallback)
    raise IngestError(f"{file}:1: document has no number, no title and no id to build a stable id")


def build_document(
    lines: list[tuple[int, str]],
    *,
    file: str,
    source_format: str,
    number: str | None = None,
    title: str | None = None,
    doc_type: str | None = None,
    fallback_id: str | None = None,
    codification: bool = False,
    meta_overrides: DocumentMeta | None = None,
    names: Mapping[str, str] | None = None,
    relations: bool = True,
) -> ParsedDocument:
    """Parse one document's lines into structure, metadata and relations (``relations=False``:
    structure and metadata only; the loader reads relations in a second pass).

    Raises:
        IngestError: the text has no unit at all, or a duplicate article number.
    """
    from hopgraph.loaders.legal._relations import extract_relations

    if not codification:
        lines = repair_layout(lines)
    structure = parse_structure(lines, file, codification=codification)
    meta = meta_overrides or DocumentMeta(doc_id="")
    meta.source_file = meta.source_file or file
    meta.source_format = meta.source_format or source_format
    if number and not meta.number:
        meta.number = number
    if title and not meta.title:
        meta.title = title
    header, preamble = split_front(structure.front)
    read_header(header, meta)
    if doc_type and not meta.doc_type:
        meta.doc_type = doc_type
    if meta.number and not meta.doc_type:
        meta.doc_type = doc_type_of_number(normalise_doc_number(meta.number))
    warnings = list(structure.warnings)
    if not meta.number and not codification:
        warnings.append(Problem(file, header[0][0] if header else 1,
                                "no document number found; using a slug id"))
    meta.doc_id = meta.doc_id or make_doc_id(meta, file, fallback_id)
    if meta.number:
        meta.number = normalise_doc_number(meta.number)
    if not structure.units:
        raise IngestError(f"{file}:{lines[0][0] if lines else 1}: no article (Điều) or other "
                          "unit found; is this a legal text?")
    doc = ParsedDocument(meta=meta, units=structure.units, preamble=preamble, warnings=warnings)
    apply_dates(doc, structure.units)
    if relations:
        extract_relations(doc, names)
    return doc
