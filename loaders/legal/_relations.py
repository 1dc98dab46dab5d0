"""Rule-based legal relations at unit level: amendment instructions, references, legal basis.

Every relation records the rule (``method``), the matched text (``evidence``) and the stated
effective date. Rules, in the order they run on each unit:

- amending instructions (``Sửa đổi, bổ sung khoản 2 Điều 5 như sau: “…”``, ``Bổ sung khoản 1a
  vào sau khoản 1``, ``Bãi bỏ Điều 9``, ``Thay thế cụm từ “A” bằng cụm từ “B” tại …``,
  ``Thay thế Phụ lục I … bằng Phụ lục I …``), split into actions at ``;`` and at a new verb, the
  target document inherited from the instruction's ancestors or the document title;
- references (``quy định tại khoản 1 Điều 5 của Luật này``, ranges, lists, relative ``này``,
  other documents by number); vague ones (``theo quy định của pháp luật về …``) become
  unresolved references;
- document level: BASED_ON (``Căn cứ …``), GUIDES (``quy định chi tiết …``, ``hướng dẫn …``,
  annotations ``[… được hướng dẫn bởi …]``), REPLACES (``… thay thế Nghị định số …``,
  ``… hết hiệu lực kể từ ngày … này có hiệu lực``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from datetime import date

from hopgraph.core.vocabulary import (
    AMEND_WORD,
    ANNUL_WORD,
    CHANGE_VERBS,
    PHRASE_OBJECT,
    RENUMBER_WORD,
    REPEAL_WORD,
    REPLACE_WORD,
    SUPPLEMENT_WORD,
)
from hopgraph.loaders.legal._citations import (
    DOC_MENTION,
    VAGUE,
    Citation,
    Context,
    doc_after,
    find_citations,
    resolve,
    title_placeholder,
)
from hopgraph.loaders.legal._dates import find_effective_dates
from hopgraph.loaders.legal._ids import normalise_doc_number, roman_to_int, segment, version_id
from hopgraph.loaders.legal._model import (
    SCOPED,
    NewUnit,
    ParsedDocument,
    Problem,
    Relation,
    Unit,
    Unresolved,
)
from hopgraph.loaders.legal._parser import parse_structure

_MARKER = re.compile(r"^(?:Điều\s+\d+[a-zđ]?\s*[.:]?|\d{1,3}[a-zđ]?\.|[a-zđ]\d?\))\s*", re.IGNORECASE)
_ACTION_START = re.compile(
    rf"^(?:{AMEND_WORD}|{SUPPLEMENT_WORD}|{REPEAL_WORD}|{ANNUL_WORD}|{REPLACE_WORD}"
    rf"|bỏ\s+(?:cụm\s+từ|từ|các\s+cụm)|thay\s+{PHRASE_OBJECT}|{RENUMBER_WORD}\s)",
    re.IGNORECASE,
)
_PASSIVE = re.compile(
    r"^(?P<chain>(?:(?:điểm|khoản|Điều|các\s+khoản|các\s+điểm)\s+[^\n]{1,120}?))(?<!\sđã)\s+"
    r"(?P<verb>được\s+sửa\s+đổi(?:,\s*bổ\s+sung)?|được\s+bổ\s+sung|(?:được|bị)\s+bãi\s+bỏ"
    r"|được\s+đánh\s+số(?:\s+lại)?\s+thành)",
    re.IGNORECASE,
)
# "Cụm từ “A” tại khoản 3 Điều 2 được thay thế bằng cụm từ “B”", "… được bỏ / bị bãi bỏ"
_PASSIVE_PHRASE = re.compile(
    r"^(?:các\s+|một\s+số\s+)?(?:cụm\s+)?từ(?:\s+ngữ)?\s*“[^”]*”\s*(?:,\s*“[^”]*”\s*)*"
    r"(?P<where>(?:tại|ở|trong)\s+[^\n]{1,300}?)\s+(?:được|bị)\s+"
    r"(?P<verb>thay\s+thế|thay|sửa\s+đổi|bỏ|bãi\s+bỏ)",
    re.IGNORECASE,
)
_SPLIT = re.compile(
    rf";\s*|,?\s+(?:và|đồng\s+thời)\s+(?=(?:{CHANGE_VERBS})\b)",
    re.IGNORECASE,
)
# "Sửa đổi khoản 1, bổ sung khoản 1a và …": a comma before a verb that names units starts an
# action of its own; "Sửa đổi, bổ sung Điều 5" stays one (the verb before it names no unit)
_COMMA_ACTION = re.compile(
    rf",\s+(?=(?:{CHANGE_VERBS})\s+(?:các\s+|tên\s+)?"
    r"(?:khoản|điểm|điều|mục|chương|phụ\s+lục)\b)", re.IGNORECASE)
_NAMES_UNIT = re.compile(r"\b(?:khoản|điểm|điều|mục|chương|phụ\s+lục)\s+\S", re.IGNORECASE)


def split_actions(masked: str) -> list[str]:
    """The clauses of an instruction, one action each."""
    out: list[str] = []
    for part in _SPLIT.split(masked):
        pieces = _COMMA_ACTION.split(part)
        merged = [pieces[0]]
        for piece in pieces[1:]:
            if _NAMES_UNIT.search(merged[-1]):
                merged.append(piece)
            else:
                merged[-1] = f"{merged[-1]}, {piece}"
        out.extend(merged)
    return out


_AFTER = re.compile(r"\s+vào\s+(?:sau|trước|(?:đoạn\s+)?cuối)\s+|\s+vào\s+(?=(?:điểm|khoản|Điều))",
                    re.IGNORECASE)
# a line under "… tiết b1 điểm b như sau:" that adds a text at the unit's end
_ADDED_AT_END = re.compile(r"^bổ\s+sung\b.*“.*”.*\b(?:tại|vào)\s+(?:đoạn\s+)?cuối\b",
                           re.IGNORECASE)
# "Bổ sung nội dung: “…” tại đoạn cuối tiết b1 điểm b": where a text is added (only then)
_AT_END = re.compile(r"\s+tại\s+(?:đoạn\s+)?cuối\s+", re.IGNORECASE)
_PHRASE = re.compile(r"(?:thay\s+thế|thay|bỏ)\s+(?:các\s+|một\s+số\s+)?(?:cụm\s+)?từ", re.IGNORECASE)
_ANNEX_REPLACE = re.compile(r"thay\s+thế\s+(?:các\s+)?(?:Phụ\s+lục|Mẫu)", re.IGNORECASE)
# "Bãi bỏ các quy định liên quan đến … tại khoản 1 Điều 19", "Bãi bỏ các nội dung quy định về
# tỷ giá … tại:": part of a unit, described by content; its extent cannot be computed
_PARTIAL_REPEAL = re.compile(
    rf"^(?:{REPEAL_WORD}|{ANNUL_WORD})\s+(?:các\s+|một\s+số\s+|những\s+)?(?:nội\s+dung|quy\s+định)\b",
    re.IGNORECASE)
# "… tại khoản 1 Điều 19, …": the places of an instruction follow this word
_AT_PLACES = re.compile(r"\s(?:tại|ở|trong)\s")
_HOW = re.compile(r"\s+(?:như\s+sau|sau\s+đây)\s*:?\s*$", re.IGNORECASE)
_REPLACE_DOC = re.compile(
    r"(?:thay\s+thế|bãi\s+bỏ)\s+(?:các\s+)?(?P<dtype>Luật|Bộ luật|Nghị định|Thông tư liên tịch|Thông tư|"
    r"Quyết định|Nghị quyết|Pháp lệnh)(?![\wÀ-ỹ])",
    re.IGNORECASE,
)
_EXPIRES = re.compile(
    r"(?P<dtype>Luật|Bộ luật|Nghị định|Thông tư liên tịch|Thông tư|Quyết định|Nghị quyết|Pháp lệnh)"
    r"(?P<rest>[^;:\n]{0,400}?)\s+hết\s+hiệu\s+lực(?:\s+thi\s+hành)?\s+(?:kể\s+)?từ\s+ngày\s+"
    r"(?:Luật|Bộ luật|Nghị định|Thông tư|Quyết định|Nghị quyết|Pháp lệnh)\s+này\s+có\s+hiệu\s+lực",
)
_GUIDE = re.compile(
    r"(?:quy\s+định\s+chi\s+tiết|hướng\s+dẫn\s+(?:thi\s+hành|thực\s+hiện|chi\s+tiết)?)"
    r"(?P<rest>[^\n]{0,300})",
    re.IGNORECASE,
)
_ANNOTATION_GUIDE = re.compile(
    r"(?P<what>Điều|Khoản|Điểm|Chương|Mục|Phụ lục)?\s*(?:này\s+)?được\s+hướng\s+dẫn\s+(?:bởi|tại)\s+"
    r"(?P<rest>.+)$",
    re.IGNORECASE,
)
_ANNOTATION_TARGET = re.compile(
    r"^(?:(?P<kind>Điều|Khoản|Điểm|Chương|Mục)\s+(?P<num>[\w.]+)\s+(?:(?:Điều)\s+(?P<art>\d+[a-zđ]?)\s+)?)?"
    r"(?P<dtype>Nghị định|Thông tư|Quyết định|Nghị quyết|Luật)\s+(?:số\s+)?(?P<number>[\w/.-]+)",
)


_OWN_REPEAL = re.compile(
    r"(?:Luật|Bộ\s+luật|Nghị\s+định|Thông\s+tư(?:\s+liên\s+tịch)?|Quyết\s+định|Nghị\s+quyết|Pháp\s+lệnh)"
    r"\s+này\s+(?P<verb>(?:thay\s+thế\s+và\s+)?bãi\s+bỏ|thay\s+thế)\s+(?P<rest>[^\n]{0,1500})",
    re.IGNORECASE,
)


_TEXTUAL_START = re.compile(
    r"^(?:(?:bãi\s+)?bỏ|thay\s+thế|thay|sửa\s+đổi|bổ\s+sung)\s+(?:các\s+|một\s+số\s+)?(?:cụm\s+)?từ(?:\s+ngữ)?\b"
    r"|^(?:thay\s+thế|thay|bỏ|bãi\s+bỏ)\s+(?:các\s+|một\s+số\s+)?(?:cụm\s+từ|từ)\s*[“\"]",
    re.IGNORECASE,
)
_PHRASE_ITEM = re.compile(r"^(?:các\s+|một\s+số\s+)?(?:cụm\s+)?từ(?:\s+ngữ)?\s*[“\"]", re.IGNORECASE)
# "Điểm 2.1 Khoản 2 Điều 2", "Tiết a Điểm 1.2 …", "tiết 1.2.1": sub-units numbered with decimals
# (the procedures of Bảo hiểm xã hội Việt Nam), which the parser keeps as text of their clause
_DECIMAL_PART = re.compile(
    r"(?<![\wÀ-ỹ])(?:tiết\s+[a-zđ]\d?\s+(?:của\s+|tại\s+)?)?(?:tiết|điểm)\s+\d{1,3}(?:\.\d{1,3})+"
    r"(?![\d])", re.IGNORECASE)
_ANNEX_TARGET = re.compile(r"(?<![\wÀ-ỹ])Phụ\s+lục\s+(?:số\s+)?([IVXLC]+|\d{1,2})(?![\wÀ-ỹ])",
                           re.IGNORECASE)
_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|‘[^’]*’")
_CHANGE_TYPES = ("AMENDS", "SUPPLEMENTS", "REPEALS", "REPLACES")
# "Luật Đường sắt số 06/2017/QH14 đã được sửa đổi, bổ sung một số điều theo Luật số 35/2018/QH14
# và Luật số 16/2023/QH15": which documents amended a law, as a text states it
_STATED_AMENDED = re.compile(
    r"(?P<law>(?:Luật|Bộ\s+luật|Nghị\s+định|Thông\s+tư|Pháp\s+lệnh|Nghị\s+quyết)\b[^;:\n“”]{0,150}?)"
    r"\s+đã\s+được\s+sửa\s+đổi(?:,\s*bổ\s+sung)?(?:\s+một\s+số\s+điều)?\s+(?:theo|bởi|tại)\s+"
    r"(?P<by>[^;:\n“”()]{0,400})", re.IGNORECASE)
# "Thay thế cụm từ “A” bằng cụm từ “B” trong toàn bộ Luật", "… tại Nghị định này": the whole text
_WHOLE_TEXT = re.compile(
    r"(?:toàn\s+bộ|(?:trong|tại|ở)\s+(?:các\s+)?(?:Luật|Bộ\s+luật|Nghị\s+định|Thông\s+tư|Pháp\s+lệnh"
    r"|Nghị\s+quyết|Quyết\s+định|văn\s+bản)\b)", re.IGNORECASE)
# an amendment of only the name of an article / chapter, or of only the words before its
# sub-units ("khổ đầu", "phần mở đầu", "câu dẫn")
_TITLE_ONLY = re.compile(r"\btên\s+(?:của\s+)?(?:Điều|điều|Chương|chương|Mục|mục|Phụ\s+lục)",
                         re.IGNORECASE)
_LEAD_ONLY = re.compile(r"(?:khổ|đoạn|phần)\s+(?:đầu|mở\s+đầu|dẫn)|câu\s+dẫn", re.IGNORECASE)
_DOC_START = re.compile(
    r"^(?:\d+[a-zđ]?\.\s*)?(?:Luật|Bộ\s+luật|Nghị\s+định|Thông\s+tư(?:\s+liên\s+tịch)?|Pháp\s+lệnh"
    r"|Nghị\s+quyết|Quyết\s+định)\s+này\s+có\s+hiệu\s+lực", re.IGNORECASE)


def simultaneous(edits: list[str] | None) -> list[str] | None:
    """Pairs of phrase edits made to apply at once when they are applied one after another.

    ``“Tổng cục Thuế” bằng “Cục Thuế”; “Cục Thuế” bằng “cơ quan Thuế”`` must not turn
    "Tổng cục Thuế" into "cơ quan Thuế", nor "Chi cục Thuế" spoil "Chi cục Thuế khu vực": each
    old phrase (longest first) becomes a private-use marker, then each marker its new phrase."""
    if not edits or len(edits) <= 2:
        return edits
    pairs = sorted(zip(edits[::2], edits[1::2], strict=True), key=lambda p: -len(p[0]))
    marks = [f"\ue000{i}\ue001" for i in range(len(pairs))]
    return ([x for (old, _), m in zip(pairs, marks, strict=True) for x in (old, m)]
            + [x for (_, new), m in zip(pairs, marks, strict=True) for x in (m, new)])


def applicable_edits(masked: str, quotes: list[str]) -> list[str] | None:
    """The phrase edits of one instruction (:func:`phrase_edits`) in the form stored on its
    edge: pairs that, applied one after another, act at once (:func:`simultaneous`)."""
    return simultaneous(phrase_edits(masked, quotes))


def phrase_edits(masked: str, quotes: list[str]) -> list[str] | None:
    """The phrase edits of one instruction as ``[old1, new1, old2, new2, …]``, read from its
    masked text (each quotation ``“…”``) and its quotations in order; None when the two do not
    agree or the instruction is not a phrase edit that can be applied.

    ``thay thế cụm từ “A”, “B” bằng cụm từ “C”`` gives A→C, B→C; ``bỏ cụm từ “A”`` removes A
    (with the space before it); ``bổ sung cụm từ “X” vào sau cụm từ “Y”`` writes Y→"Y X".
    """
    spots = [m.start() for m in re.finditer("“…”", masked)]
    if not spots or len(spots) != len(quotes):
        return None
    low = masked.lower()
    into = re.search(r"\bvào\s+(sau|trước)\b", low) or re.search(
        r"\b(sau|trước)\s+(?=(?:các\s+)?(?:cụm\s+)?từ\b|“…”)", low)
    if into and re.search(r"\bbổ\s+sung\b", low):
        added = [q for q, at in zip(quotes, spots, strict=True) if at < into.start()]
        anchors = [q for q, at in zip(quotes, spots, strict=True) if at > into.start()]
        if not added or len(anchors) != 1:
            return None
        words = " ".join(added)
        anchor = anchors[0]
        return [anchor, f"{anchor} {words}" if into.group(1) == "sau" else f"{words} {anchor}"]
    bys = list(re.finditer(r"\b(?:bằng|thành)\s+(?:các\s+)?(?:cụm\s+)?(?:từ\s+(?:ngữ\s+)?)?(?=“…”)", low))
    if len(bys) > 1:
        # "cụm từ “A” bằng cụm từ “B”; cụm từ “C” bằng cụm từ “D”; …": each "bằng" takes the
        # quotation right after it, the ones since the previous pair are what it replaces
        out: list[str] = []
        taken = 0
        for by_m in bys:
            olds = [quotes[i] for i in range(taken, len(quotes)) if spots[i] < by_m.start()]
            new_i = next((i for i in range(taken, len(quotes)) if spots[i] >= by_m.end()), None)
            if not olds or new_i is None:
                return None
            out.extend(x for old in olds if old for x in (old, quotes[new_i]))
            taken = new_i + 1
        return out or None
    by = bys[0] if bys else re.search(r"\bbằng\b", low)
    if by:
        olds = [q for q, at in zip(quotes, spots, strict=True) if at < by.start()]
        news = [q for q, at in zip(quotes, spots, strict=True) if at > by.start()]
        if not olds or not news or (len(news) != 1 and len(news) != len(olds)):
            return None
        pairs = zip(olds, news * len(olds) if len(news) == 1 else news, strict=True)
        return [x for old, new in pairs if old for x in (old, new)]
    within = re.search(r"\b(?:trong|của)\s+(?:cụm\s+)?từ\b", low)
    if within and re.search(r"(?:^|\s)(?:bãi\s+)?bỏ\b", low) and len(quotes) == 2:
        # "bỏ từ “phạt” trong cụm từ “tiền phạt chậm nộp”": the phrase loses the word
        word, phrase = quotes
        shorter = re.sub(r"\s{2,}", " ", phrase.replace(word, "", 1)).strip()
        return [phrase, shorter] if word and word in phrase else None
    if re.search(r"(?:^|\s)(?:bãi\s+)?bỏ\b", low):
        return [x for q in quotes if q for x in (f" {q}", "", q, "")]
    return None


_BY_NEW = re.compile(r"\s*\b(?:bằng|thành)\s+(?:các\s+)?(?:cụm\s+)?(?:từ\s+(?:ngữ\s+)?)?“…”.*$",
                     re.IGNORECASE | re.DOTALL)


def carry_new_phrase(segments: list[tuple[str | None, str]], quoted: list[list[str]]
                     ) -> tuple[list[tuple[str | None, str]], list[list[str]]]:
    """``Thay thế cụm từ “A” tại khoản 2 Điều 3; khoản 1 Điều 22; khoản 5 Điều 24 bằng cụm từ
    “B”``: the places run over several ``;`` segments and only the last one says what replaces
    the phrase. Its ``bằng cụm từ “B”`` is moved to the substitution, which then has its pair
    (A→B), and the segments after it are places that take that pair.

    Only when the substitution segment has quotations and no ``bằng`` / ``thành`` of its own,
    the segments up to the one with ``bằng “…”`` quote nothing else, and that one quotes nothing
    before its ``bằng``; otherwise the segments are returned unchanged."""
    out, out_q = list(segments), [list(q) for q in quoted]
    for i, (action, seg) in enumerate(out):
        if action != "TEXTUAL" or not out_q[i] \
                or not re.search(r"\bthay\b", seg, re.IGNORECASE) \
                or re.search(r"\b(?:bằng|thành)\b", seg, re.IGNORECASE):
            continue
        for j in range(i + 1, len(out)):
            tail = _BY_NEW.search(out[j][1])
            head_part = out[j][1][:tail.start()] if tail else out[j][1]
            if "“…”" in head_part:
                break  # a quotation of its own: another instruction, not places of this one
            if tail is None:
                continue
            moved = tail.group(0).count("“…”")
            out[i] = (action, out[i][1].rstrip(" ;,.") + " " + tail.group(0).strip())
            out_q[i] = out_q[i] + out_q[j][len(out_q[j]) - moved:]
            out[j] = ("PLACES", head_part.rstrip(" ;,."))
            out_q[j] = out_q[j][:len(out_q[j]) - moved]
            break
    return out, out_q


# the first item of an edit that appends its second at the end of the unit's wording
APPEND_AT_END = "\ue002"


def _appended_text(where: str, anchors: list[str], seg_quotes: list[str], unit: Unit
                   ) -> str | None:
    """The text ``Bổ sung … vào cuối <unit>`` adds at the unit's end: the one quotation of the
    instruction (on its line, else the one quoted block under it); None when the place is not
    the end of one unit or the text is not one quotation."""
    if "cuối" not in where.lower() or len(anchors) != 1:
        return None
    return _one_quote(seg_quotes, unit)


def _one_quote(seg_quotes: list[str], unit: Unit) -> str | None:
    """The one quotation of an instruction: on its line, else the one quoted block under it."""
    quotes = [q for q in seg_quotes if q.strip()]
    if not quotes:
        quotes = ["\n".join(t for _, t in q.lines) for q in unit.quotes]
    if len(quotes) != 1 or not quotes[0].strip():
        return None
    return quotes[0].strip()


_TYPE_WORD_LOWER = re.compile(r"(?<![\wÀ-ỹ])(?:thông tư liên tịch|nghị quyết liên tịch|bộ luật|luật|"
                              r"nghị định|thông tư|quyết định|nghị quyết|pháp lệnh)(?![\wÀ-ỹ])")


def sentence_case(title: str) -> str:
    """A title written in capitals as running text writes it: lower case, each document type
    word capitalised, each token with a digit (a document number) in capitals."""
    low = re.sub(r"\S*\d\S*", lambda m: m.group(0).upper(), title.lower())
    return _TYPE_WORD_LOWER.sub(lambda m: m.group(0)[0].upper() + m.group(0)[1:], low)


def _quotes(text: str) -> list[str]:
    return [m.group(0)[1:-1].strip() for m in _QUOTED.finditer(text)]


def mask_quotes(text: str) -> str:
    """Quoted words are data, never an instruction or a target: ``“…”`` in their place."""
    return _QUOTED.sub("“…”", text)


def _hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]


def _strip_marker(text: str) -> str:
    return _MARKER.sub("", text, count=1).strip()


class _Extractor:
    def __init__(self, doc: ParsedDocument, names: Mapping[str, str] | None) -> None:
        self.doc = doc
        self.names = names
        self.doc_id = doc.meta.doc_id
        self.by_path = {u.path: u for u in doc.units}
        # articles made up of quoted clauses (_match_fragment): their versions take their name
        # from the article they change
        self._bodies: list[Unit] = []
        self.seen: set[tuple[str, str, str, str, str]] = set()
        self._date_doc: str | None = None  # the instruction being read takes the document's date

    # -- helpers -------------------------------------------------------------------------
    def uid(self, unit: Unit) -> str:
        return f"{self.doc_id}:{unit.path}"

    def date_of(self, unit: Unit) -> date | None:
        for u in [unit, *unit.ancestors()]:
            if u.path in self.doc.unit_dates:
                return self.doc.unit_dates[u.path]
        return self.doc.meta.effective_date

    def date_doc(self, unit: Unit) -> str | None:
        """This document's id when ``unit``'s start date is the document's own start date (no
        provision states another), else None."""
        if any(u.path in self.doc.unit_dates for u in [unit, *unit.ancestors()]):
            return None
        return self.doc_id

    def add(self, rel: Relation) -> None:
        key = (rel.source, rel.type, rel.target, rel.method, rel.origin)
        if key in self.seen or rel.source == rel.target:
            return
        if rel.type in _CHANGE_TYPES and rel.date_from_doc is None:
            rel.date_from_doc = self._date_doc
        self.seen.add(key)
        self.doc.relations.append(rel)

    def unresolved(self, source: str, text: str, method: str) -> None:
        self.doc.unresolved.append(Unresolved(source, text.strip(), method))

    # -- amending instructions -----------------------------------------------------------
    def instruction_text(self, unit: Unit) -> str | None:
        """The instruction sentence when ``unit`` amends another text, else None."""
        lines = unit.own_text.split("\n")
        first = _strip_marker(lines[0])
        if not first and len(lines) > 1:
            first = lines[1]
        elif (unit.level == "Article" and unit.heading and len(lines) > 1
              and _ACTION_START.match(lines[1].strip())):
            first = lines[1].strip()  # "Điều 13. <heading>" then "Sửa đổi quy định tại …"
        if _PASSIVE_PHRASE.match(first):
            return first
        if self._partial_parent(unit) is not None and find_citations(
                " ".join(x.strip() for x in lines), self.names):
            # "b) Khoản 1⏎Điều 6 của Luật … số 04/2007/QH11 …;": a place of the repeal above
            return " ".join(_strip_marker(x) if i == 0 else x.strip()
                            for i, x in enumerate(lines) if x.strip())
        if not (_ACTION_START.match(first) or _PASSIVE.match(first)):
            # "c) Khoản 5 Điều 2 … của Luật X;" under "Thay thế cụm từ “A” bằng cụm từ “B” tại
            # các luật sau đây:": a place of the phrase edit above it
            if self._phrase_parent(unit) is not None and find_citations(first, self.names):
                return first
            return None
        announces = re.search(r"một\s+số\s+(?:điều|điểm|khoản)|các\s+(?:điều|khoản|điểm)\s+sau",
                              first, re.IGNORECASE)
        if announces and any(c.level in ("Clause", "Point") for c in unit.children):
            return None
        if announces and len(lines) > 1 and _ACTION_START.match(lines[1].strip()):
            first = lines[1].strip()
        if not (unit.quotes or find_citations(first, self.names) or _PHRASE.search(first)
                or _ANNEX_REPLACE.search(first)):
            return None
        return _with_wrapped_targets(first, lines)

    def target_doc(self, unit: Unit, text: str) -> tuple[str | None, str]:
        """The amended document: named in the instruction, an ancestor, or the title.

        Named by number, or by a title a known document carries; else, when the nearest text
        that names a document names it by title only, a title placeholder
        (:func:`title_placeholder`) a later load re-homes.
        """
        # quoted words are data: a phrase that equals a law's title names no document
        sources = [mask_quotes(x) for x in (
            text, unit.own_text.split("\n")[0], *[a.own_text for a in unit.ancestors()],
            *[a.heading or "" for a in unit.ancestors()], self.doc.meta.title or "")]
        for source in sources:
            ref = self._doc_in(source)
            if ref is not None:
                return ref, source
        for source in sources:
            named = self._title_in(mask_quotes(source))
            if named is not None:
                return named, source
        # a title in capitals ("NGHỊ ĐỊNH SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA NGHỊ ĐỊNH SỐ
        # 08/2015/NĐ-CP …"), last: an article that names no document amends the one it numbers
        title = self.doc.meta.title or ""
        if title and title == title.upper():
            cased = sentence_case(title)
            ref = self._doc_in(mask_quotes(cased))
            if ref is not None:
                return ref, cased
        return None, ""

    def _title_in(self, text: str) -> str | None:
        for m in DOC_MENTION.finditer(text):
            ref = doc_after(text[m.start():], self.names)
            if ref.kind != "name" or not ref.name:
                continue
            words = ref.name.split()
            if len(words) < 2 or re.search(r"\b(?:này|sửa\s+đổi|bổ\s+sung|có\s+liên\s+quan)\b",
                                           ref.name, re.IGNORECASE):
                continue
            placeholder = title_placeholder(ref.name, ref.year)
            self.doc.title_targets[placeholder] = ref.name
            return placeholder
        return None

    def _doc_in(self, text: str) -> str | None:
        for m in DOC_MENTION.finditer(text):
            ref = doc_after(text[m.start():], self.names)
            if ref.kind == "number" and ref.number and ref.number != self.doc_id:
                return ref.number
        return None

    def instructions(self, unit: Unit, text: str) -> bool:
        head = _HOW.sub("", text.split("\n")[0]).strip().rstrip(".")
        masked = mask_quotes(head)
        target_doc, _ = self.target_doc(unit, masked)
        source = self.uid(unit)
        effective = self.date_of(unit)
        self._date_doc = self.date_doc(unit)
        if target_doc is None:
            if not unit.quotes:
                return False
            self.unresolved(source, head, "amendment_target_document_unknown")
            return True
        phrase = _PASSIVE_PHRASE.match(head)
        if phrase is not None:
            method = ("phrase_removal" if "bỏ" in phrase.group("verb").lower()
                      else "textual_substitution")
            edits = applicable_edits(masked, _quotes(head))
            paths = self._targets(mask_quotes(phrase.group("where")), [], target_doc=target_doc)
            for path in paths:
                self.add(Relation(source, f"{target_doc}:{path}", "AMENDS", method, head[:500],
                                  effective, edits=edits))
            if not paths and _WHOLE_TEXT.search(phrase.group("where")):
                self.add(Relation(source, target_doc, "AMENDS", method, head[:500], effective,
                                  target_kind="document", edits=edits))
            return True
        partial_parent = self._partial_parent(unit)
        if _PARTIAL_REPEAL.match(masked) or partial_parent is not None:
            # part of a unit repealed by a description of its content: the unit is named and
            # flagged (method partial_repeal, no new wording), never repealed whole
            at = _AT_PLACES.search(masked)
            places = masked if partial_parent is not None else masked[at.end():] if at else ""
            said = head if partial_parent is None else f"{partial_parent} {head}"
            paths = self._targets(places, self._outer_container(unit), target_doc=target_doc)
            for path in paths:
                self.add(Relation(source, f"{target_doc}:{path}", "AMENDS", "partial_repeal",
                                  said[:500], effective))
            if not paths and places and _WHOLE_TEXT.search(places):
                self.add(Relation(source, target_doc, "AMENDS", "partial_repeal", said[:500],
                                  effective, target_kind="document"))
            return True
        passive = _PASSIVE.match(masked)
        segments: list[tuple[str | None, str]]
        parent_phrase = None if _ACTION_START.match(masked) or passive else self._phrase_parent(unit)
        if parent_phrase is not None:
            low = parent_phrase.lower()
            method = ("textual_substitution" if re.search(r"thay|bằng", low) else
                      "phrase_addition" if low.startswith("bổ sung") else "phrase_removal")
            assert unit.parent is not None
            parent_line = _lead(unit.parent)
            edits = applicable_edits(mask_quotes(parent_line), _quotes(parent_line))
            for path in self._targets(masked, [], target_doc=target_doc):
                self.add(Relation(source, f"{target_doc}:{path}", "AMENDS", method,
                                  f"{parent_line[:300]} — {head[:200]}", effective,
                                  edits=edits))
            return True
        if passive:
            quoted: list[list[str]] = [[]]
            verb = passive.group("verb").lower()
            passive_action = "REPEALS" if "bãi bỏ" in verb else (
                "SUPPLEMENTS" if verb.startswith("được bổ sung") else
                "RENUMBER" if "đánh số" in verb else "AMENDS")
            segments = [(passive_action, passive.group("chain"))]
        else:
            segments = self._segments(split_actions(masked), None)
            quoted = _segment_quotes(masked, _quotes(head), [s for _, s in segments])
            segments, quoted = carry_new_phrase(segments, quoted)
            base = next((a for a, _ in reversed(segments) if a is not None), None)
            # "Thay thế một số cụm từ như sau:" and dash-bulleted items below it
            bullets = [line.strip().lstrip("-–+•").strip() for line in
                       unit.own_text.split("\n")[1:] if line.strip()[:1] in ("-", "–", "+", "•")]
            if bullets and _HOW.search(text.split("\n")[0] + " "):
                for item in bullets:
                    more = self._segments(split_actions(mask_quotes(item)), base)
                    quoted.extend(_segment_quotes(mask_quotes(item), _quotes(item),
                                                  [s for _, s in more]))
                    segments.extend(more)
        # the container: the upper levels of the last citation of the whole instruction, or of
        # the instruction above it ("Sửa đổi, bổ sung một số điểm, khoản của Điều 9 như sau:")
        all_cites = [c for c in find_citations(masked, self.names)
                     if c.doc.kind in ("none", "number")]
        container = self._container(all_cites[-1]) if all_cites else []
        if not any(k == "D" for k, _ in container):
            container = self._outer_container(unit) + container
        body = _body_instructions(unit, text)
        if body and len(segments) == 1 and segments[0][0] == "AMENDS":
            # "a) Sửa đổi, bổ sung khoản 3 như sau:" then, unquoted, "Thay thế cụm từ “A” thành
            # “B”." or "Bãi bỏ điểm d và sửa đổi điểm đ thành điểm d.": the lines below say how
            heads = self._targets(segments[0][1], container, target_doc=target_doc)
            if len(heads) == 1 and (heads[0].split(".")[-1][:1] in ("D", "K") or all(
                    _ADDED_AT_END.match(x) for x in body)):
                self._body_actions(heads[0], body, source, target_doc, effective, head)
                return True
        fragments = self._fragments(unit)
        used_fragments: set[int] = set()
        textual: tuple[str, list[str] | None, str] | None = None  # the last phrase edit
        verb = ""  # the verb of the last clause that has one (a list item inherits it)
        series: list[str] = []  # phrase edits of a series whose places come at its end
        for (action, seg), seg_quotes in zip(segments, quoted, strict=True):
            if action is None:
                continue
            own_verb = _VERB_WORD.match(seg)
            if own_verb:
                verb = own_verb.group(0)
            if action == "PLACES" and textual is not None:
                method, edits, said = textual
                for path in self._targets(seg, container, target_doc=target_doc):
                    self.add(Relation(source, f"{target_doc}:{path}", "AMENDS", method,
                                      f"{said} — {seg}"[:500], effective, edits=edits))
                continue
            if action == "TEXTUAL":
                # "Bãi bỏ Điều 7; cụm từ “X” tại khoản 1 Điều 17": the item takes the list's verb
                worded = seg if own_verb or not verb else f"{verb} {seg}"
                low = worded.lower()
                method = ("textual_substitution" if re.search(r"thay|bằng", low) else
                          "phrase_addition" if low.startswith("bổ sung") else "phrase_removal")
                said = _unmask(seg, seg_quotes)
                paths = self._targets(seg, container, phrase=True, target_doc=target_doc)
                raw = phrase_edits(worded, seg_quotes) or []
                if not paths and not _WHOLE_TEXT.search(seg) and raw:
                    # "Thay thế cụm từ “A” bằng cụm từ “B”; cụm từ “C” bằng cụm từ “D” tại
                    # khoản 2 Điều 16, …": the places at the end of the series serve every pair
                    series.extend(raw)
                    continue
                edits = (simultaneous(series + raw) if series and raw else
                         applicable_edits(worded, seg_quotes))
                series = []
                if (method == "phrase_removal" and len(paths) > 1
                        and re.match(rf"(?:{REPEAL_WORD}|{ANNUL_WORD})\b", verb, re.IGNORECASE)):
                    # "Bãi bỏ cụm từ “X” tại khoản 2 Điều 40, khoản 4 Điều 61, Điều 58": a place
                    # that nowhere holds the phrase is itself repealed (derive_phrase_versions)
                    method = "listed_phrase_removal"
                textual = (method, edits, said)
                for path in paths:
                    self.add(Relation(source, f"{target_doc}:{path}", "AMENDS", method,
                                      said, effective, edits=edits))
                if not paths and _WHOLE_TEXT.search(seg):
                    self.add(Relation(source, target_doc, "AMENDS", method, said, effective,
                                      target_kind="document", edits=edits))
                continue
            if action == "RENUMBER":
                # "Điều 5 được đánh số thành Điều 5a", "Đánh số lại khoản 3 thành khoản 4":
                # the unit keeps its wording under a new number
                before = re.split(r"\s+thành\s+", seg, maxsplit=1, flags=re.IGNORECASE)[0]
                for path in self._targets(before, container, target_doc=target_doc):
                    self.add(Relation(source, f"{target_doc}:{path}", "AMENDS", "renumbering",
                                      head[:500], effective))
                continue
            if action == "ANNEX":
                for m in re.finditer(r"(?:Phụ\s+lục|Mẫu\s+số)\s+([IVXLC]+|\d+[a-z]?)", seg,
                                     re.IGNORECASE):
                    num = str(roman_to_int(m.group(1)) or m.group(1))
                    self.add(Relation(source, f"{target_doc}:PL{num}", "REPLACES",
                                      "annex_replacement", seg, effective))
                    break
                continue
            anchor_path = None
            target_part = seg
            after = _AFTER.search(seg) or (_AT_END.search(seg) if action == "SUPPLEMENTS"
                                           else None)
            anchors: list[str] = []
            holder: list[tuple[str, str]] | None = None
            if after:
                target_part, anchor_text = seg[: after.start()], seg[after.end():]
                anchors = self._targets(anchor_text, container, target_doc=target_doc)
                anchor_path = anchors[0] if anchors else None
                if anchor_path is not None and not re.search(r"\b(?:sau|trước)\b",
                                                             after.group(0), re.IGNORECASE):
                    # "Bổ sung điểm đ vào khoản 1 Điều 4", "… vào cuối khoản 2": the unit named
                    # holds the new one (it is not a sibling it follows)
                    holder = [(seg_[0], seg_[1:]) for seg_ in anchor_path.split(".")]
                    anchor_path = None
            targets = self._targets(target_part, holder if holder is not None else
                                    container if anchor_path is None else
                                    self._container_of_path(anchor_path) or container,
                                    target_doc=target_doc)
            named_part = self._named_part(unit, target_part, targets, container) \
                if action == "AMENDS" else None
            if named_part is not None and named_part not in targets:
                # "a) Sửa đổi, bổ sung tên Điều như sau:" under "… tên Điều, đoạn mở đầu của
                # Điều 25 …", "sửa đổi tên Điều, khoản 1 Điều 3": the unit whose name (or
                # opening words) changes is the one the instruction names around the words
                targets = [named_part, *targets]
            if not targets and not anchors:
                # "mục 192 thuộc Phụ lục IV …", "Bãi bỏ Mẫu số 03/LCHS Phụ lục II": the annex
                targets = [f"PL{roman_to_int(m.group(1)) or m.group(1)}" for m in
                           _ANNEX_TARGET.finditer(target_part)][:1]
            if not targets and anchors and action == "SUPPLEMENTS" and after is not None \
                    and _LEAD_ONLY.search(target_part) and "trước" in after.group(0).lower() \
                    and self._lead_before(anchors, seg_quotes, unit, source, target_doc,
                                          head, effective):
                continue
            if not targets and anchors and action == "SUPPLEMENTS":
                # "Bổ sung vào cuối khoản 2 Điều 7 nội dung như sau: …": new text in that unit;
                # at its end, one quoted text: an edit that appends it (derive_phrase_versions)
                added = _appended_text(after.group(0) if after else "", anchors, seg_quotes,
                                       unit)
                if series and added:
                    # "Thay thế cụm từ “A” thành “B”; bổ sung nội dung: “…” tại cuối khoản 8":
                    # the phrase edit before, which names no place, is made in that unit too
                    for path in anchors:
                        self.add(Relation(source, f"{target_doc}:{path}", "AMENDS",
                                          "textual_substitution", head[:500], effective,
                                          edits=simultaneous(series)))
                    series = []
                for path in anchors:
                    self.add(Relation(source, f"{target_doc}:{path}", "AMENDS",
                                      "text_addition", head[:500], effective,
                                      edits=[APPEND_AT_END, added] if added else None))
                continue
            decimal = _DECIMAL_PART.search(target_part)
            if decimal is not None and targets:
                self._sub_unit_change(unit, source, target_doc, targets, decimal.group(0),
                                      action, head, effective)
                continue
            whole = None if named_part is not None else self._quoted_holder(
                action, targets, fragments, used_fragments)
            if whole is not None:
                # "Sửa đổi, bổ sung các điểm a, b và c khoản 3 Điều 12 như sau: “3. …⏎a) …”": the
                # quote is the whole clause that holds the points named, its opening words too
                # (they changed with them): the clause's new wording, its points in it
                for place in (whole[0], *targets):
                    self.add(Relation(source, f"{target_doc}:{place}", "AMENDS",
                                      "amend_instruction", head[:500], effective))
                self._new_units(whole[1], target_doc, whole[0], "AMENDS", effective, None)
                continue
            for path in targets:
                target_id = f"{target_doc}:{path}"
                method = {"AMENDS": "amend_instruction", "SUPPLEMENTS": "supplement_instruction",
                          "REPEALS": "repeal_instruction"}[action]
                self.add(Relation(source, target_id, action, method, head[:500], effective))
                if action == "REPEALS":
                    continue
                frag = self._match_fragment(path, fragments, used_fragments, len(targets) == 1
                                            and len(segments) == 1)
                if frag is None and path == named_part:
                    # the new opening words, quoted beside the parts' wordings
                    frag = next((f for i, f in enumerate(fragments) if f.level == "Text"
                                 and i not in used_fragments), None)
                    if frag is not None:
                        used_fragments.add(fragments.index(frag))
                if frag is None:
                    continue
                scope = _scope_of(target_part, path, targets, frag) if action == "AMENDS" \
                    else None
                if scope in ("title", "head") and frag.children:
                    # "Sửa đổi tên Điều 51 và khoản 3 Điều 51 như sau: “Điều 51. <tên>⏎3. …”":
                    # the article's name only; its quoted parts are the other targets' wordings
                    fragments.extend(frag.children)
                self._new_units(frag, target_doc, path, action, effective, anchor_path, scope)
        if series:
            self.doc.warnings.append(Problem(self.doc.meta.source_file, unit.line, (
                f"{source}: a phrase edit names no place it is made in (“{series[0]}” → "
                f"“{series[1]}”): not applied")))
        return True

    def _quoted_holder(self, action: str, targets: list[str], fragments: list[Unit],
                       used: set[int]) -> tuple[str, Unit] | None:
        """The unit that holds every target, with its quoted wording, when an amending
        instruction names parts of a unit but quotes that unit whole (its one quote opens with
        the holder's marker: ``“3. …”`` for points of khoản 3, ``“Điều 5. …”`` for clauses of
        Điều 5); None otherwise. The quote is taken (``used``)."""
        if action != "AMENDS" or not targets or len(fragments) != 1 or used:
            return None
        parents = {".".join(t.split(".")[:-1]) for t in targets}
        parent = parents.pop() if len(parents) == 1 else ""
        last = parent.split(".")[-1]
        frag = fragments[0]
        if not last[1:2].isdigit() or _level_of(parent) not in ("Article", "Clause") \
                or frag.level != _level_of(parent) or frag.number != last[1:]:
            return None
        used.add(0)
        return parent, frag

    def _lead_before(self, anchors: list[str], seg_quotes: list[str], unit: Unit, source: str,
                     target_doc: str, head: str, effective: date | None) -> bool:
        """``Bổ sung đoạn mở đầu vào trước khoản 1 Điều 51 như sau: “…”``: opening words for the
        unit that holds the part named, before it (a version of scope ``lead``); False when the
        instruction does not name one part or quote one text."""
        text = _one_quote(seg_quotes, unit)
        if len(anchors) != 1 or "." not in anchors[0] or text is None:
            return False
        holder = anchors[0].rsplit(".", 1)[0]
        target_id = f"{target_doc}:{holder}"
        self.add(Relation(source, target_id, "AMENDS", "amend_instruction", head[:500],
                          effective))
        self._scoped_version(NewUnit(
            id=version_id(target_id, self.doc_id), doc_id=target_doc, level=_level_of(holder),
            number=holder.split(".")[-1].lstrip("DK"), path=holder, text=text,
            valid_from=effective, by_doc=self.doc_id, kind="version", target_id=target_id,
            not_before=self.doc.meta.issue_date, own_text=text, line=unit.line,
            date_from_doc=self._date_doc, scope="lead"))
        return True

    def _sub_unit_change(self, unit: Unit, source: str, target_doc: str, targets: list[str],
                         named: str, action: str, head: str, effective: date | None) -> None:
        """An instruction aimed at a sub-unit numbered with decimals (``Sửa đổi, bổ sung Điểm
        2.1 Khoản 2 Điều 2 như sau: “2.1. …”``, ``Bổ sung Tiết đ Điểm 1.2 Khoản 1 Điều 3``,
        ``Bãi bỏ Điểm 2.3 Khoản 2 Điều 5``), which the parser keeps as text of the unit that
        holds it: that unit is marked changed from the instruction's date, without a new wording
        (the quote is the sub-unit's wording, never the holder's), and never repealed whole."""
        method = "partial_repeal" if action == "REPEALS" else "sub_unit_instruction"
        for path in targets:
            self.add(Relation(source, f"{target_doc}:{path}", "AMENDS", method, head[:500],
                              effective))
            self.doc.warnings.append(Problem(self.doc.meta.source_file, unit.line, (
                f"{source} names {named} of {target_doc}:{path}, a part numbered with decimals "
                f"that is kept as text of {path}: {path} is marked "
                + ("partly repealed from the instruction's date (the part stays in its text)"
                   if action == "REPEALS" else
                   "amended from the instruction's date, without a new wording"))))

    def _named_part(self, unit: Unit, target_part: str, targets: list[str],
                    container: list[tuple[str, str]]) -> str | None:
        """The unit whose name or opening words an instruction changes when it names them
        without a number (``tên Điều``, ``đoạn mở đầu``): the unit the words stand before
        (``tên Điều, khoản 1 Điều 3``: Điều 3), else the one the enclosing instruction names
        after them (``a) Sửa đổi tên Điều như sau:`` under ``… tên Điều, đoạn mở đầu của Điều
        25 và …``), else the container; None when the words are numbered or absent."""
        title = _TITLE_ONLY.search(target_part)
        lead = _LEAD_ONLY.search(target_part)
        words = title or lead
        if words is None or _NUMBERED_PART.match(target_part[words.end():]):
            return None
        if targets:
            first = targets[0].split(".")
            return first[0] if title else ".".join(first[:-1]) or None
        for anc in unit.ancestors():
            line = mask_quotes(_lead(anc))
            at = (_TITLE_ONLY if title else _LEAD_ONLY).search(line)
            if at is None:
                continue
            cites = [c for c in find_citations(line[at.end():], self.names)
                     if c.doc.kind in ("none", "number") and c.articles
                     and c.articles != ["này"] and len(c.articles) == 1]
            if cites:
                part = self._container(cites[0])
                if title:
                    part = part[:1]
                return ".".join(f"{k}{n}" for k, n in part)
        cont = [x for x in container if x[0] in ("D", "K")]
        if title:
            cont = cont[:1]
        return ".".join(f"{k}{n}" for k, n in cont) or None

    def _body_actions(self, path: str, lines: list[str], source: str, target_doc: str,
                      effective: date | None, head: str) -> None:
        """The unquoted instructions under ``… khoản 3 như sau:`` (``Thay thế cụm từ “A” thành
        “B”.``, ``Bỏ cụm từ “A”, thay thế từ “C” thành “D”.``, ``Bãi bỏ điểm d và sửa đổi điểm
        đ thành điểm d.``), each read inside the unit ``path`` the line above names: phrase edits
        of that unit (applied at once), repeals and renumberings of its parts. A line read as
        none of these leaves the unit amended with its new wording unknown."""
        inside = [(x[0], x[1:]) for x in path.split(".")]
        target = f"{target_doc}:{path}"
        raw: list[str] = []
        methods: list[str] = []
        said: list[str] = []
        unread = False
        for line in lines:
            masked = mask_quotes(line.strip().rstrip(".;"))
            quotes = _quotes(line)
            pieces = [x.strip(" ,") for part in split_actions(masked)
                      for x in _PHRASE_ACTION_SPLIT.split(part) if x.strip(" ,")]
            for piece, piece_quotes in zip(pieces, _segment_quotes(masked, quotes, pieces),
                                           strict=True):
                if re.match(r"bổ\s+sung\b", piece, re.IGNORECASE) and len(piece_quotes) == 1 \
                        and (_AT_END.search(piece) or re.search(r"\bvào\s+(?:đoạn\s+)?cuối\b",
                                                                 piece, re.IGNORECASE)):
                    # "Bổ sung nội dung: “…” tại đoạn cuối tiết b1 điểm b.": a text added at
                    # the end of the unit the line above names
                    self.add(Relation(source, target, "AMENDS", "text_addition",
                                      f"{head} — {_unmask(piece, piece_quotes)}"[:500], effective,
                                      edits=[APPEND_AT_END, piece_quotes[0].strip()]))
                    continue
                action = self._action(piece)
                if action == "TEXTUAL":
                    edits = phrase_edits(piece, piece_quotes)
                    if edits:
                        raw.extend(edits)
                        low = piece.lower()
                        methods.append("textual_substitution" if re.search(r"thay|bằng", low)
                                       else "phrase_addition" if low.startswith("bổ sung")
                                       else "phrase_removal")
                        said.append(_unmask(piece, piece_quotes))
                        continue
                elif action == "REPEALS":
                    paths = self._targets(piece, inside, target_doc=target_doc)
                    for sub in paths:
                        self.add(Relation(source, f"{target_doc}:{sub}", "REPEALS",
                                          "repeal_instruction", f"{head} — {piece}"[:500],
                                          effective))
                    if paths:
                        continue
                elif action == "RENUMBER":
                    before = re.split(r"\s+thành\s+", piece, maxsplit=1, flags=re.IGNORECASE)[0]
                    paths = self._targets(before, inside, target_doc=target_doc)
                    for sub in paths:
                        self.add(Relation(source, f"{target_doc}:{sub}", "AMENDS", "renumbering",
                                          f"{head} — {piece}"[:500], effective))
                    if paths:
                        continue
                unread = True
        if raw:
            method = next((m for m in methods if m == "textual_substitution"), methods[0])
            self.add(Relation(source, target, "AMENDS", method,
                              f"{head} — {'; '.join(said)}"[:500], effective,
                              edits=simultaneous(raw)))
        if unread:
            self.add(Relation(source, target, "AMENDS", "amend_instruction", head[:500],
                              effective))

    def _segments(self, parts: list[str], base: str | None) -> list[tuple[str | None, str]]:
        """Actions of a list of clauses; a clause without a verb takes the one before it
        (``Bãi bỏ Điều 7; Điều 8; cụm từ “…” tại khoản 1 Điều 17``)."""
        out: list[tuple[str | None, str]] = []
        for seg in parts:
            seg = seg.strip(" ,.")
            if not seg:
                continue
            action = self._action(seg)
            prev = out[-1] if out else (None, "")
            if action is None and prev[0] in ("TEXTUAL", "PLACES") and _WRAPPED_TARGET.match(seg) \
                    and (prev[0] == "PLACES" or (self._action(prev[1]) == "TEXTUAL"
                                                 and _AT_PLACES.search(prev[1]))):
                # "Thay thế cụm từ “A” bằng “B” tại khoản 3 Điều 3; khoản 2 Điều 5; …": more
                # places of the same phrase edit (one with a verb of its own: an item of a list
                # under "Bãi bỏ …; cụm từ “X” tại …; Điều 4" leaves Điều 4 to that verb)
                out.append(("PLACES", seg))
                continue
            if action is None and base is not None:
                action = "TEXTUAL" if _PHRASE_ITEM.match(seg) else (
                    base if base != "TEXTUAL" else None)
                if action is None and find_citations(seg, self.names):
                    action = "AMENDS"
            elif action == "TEXTUAL" and re.match(r"(?:bãi\s+)?bỏ", seg, re.IGNORECASE):
                base = "REPEALS"
            elif action is not None:
                base = action
            out.append((action, seg))
        return out

    def _phrase_parent(self, unit: Unit) -> str | None:
        """The phrase edit this unit lists a place of (its parent's instruction ends with
        ``… tại các luật … sau đây:`` / ``như sau:``), else None."""
        parent = unit.parent
        if parent is None or unit.level not in ("Clause", "Point"):
            return None
        line = _lead(parent)
        masked = mask_quotes(line)
        if _TEXTUAL_START.match(masked) and _HOW.search(masked + " ") and not unit.quotes:
            return masked
        return None

    def _partial_parent(self, unit: Unit) -> str | None:
        """The partial repeal this unit lists places of (its parent's instruction is ``Bãi bỏ
        các nội dung quy định về … tại:``), else None."""
        parent = unit.parent
        if parent is None or unit.level not in ("Clause", "Point") or unit.quotes:
            return None
        line = " ".join(x.strip() for x in (parent.own_text or "").split("\n") if x.strip())
        line = _strip_marker(line)
        if _PARTIAL_REPEAL.match(line) and line.endswith(":"):
            return line
        return None

    def _outer_container(self, unit: Unit) -> list[tuple[str, str]]:
        """The article (and clause) the enclosing instruction names, for relative
        sub-instructions (``a) Sửa đổi điểm b khoản 1 như sau:`` under ``… của Điều 9``)."""
        for anc in unit.ancestors():
            if anc.level not in ("Article", "Clause", "Point"):
                continue
            line = _lead(anc)
            if not _ACTION_START.match(line):
                continue
            cites = [c for c in find_citations(mask_quotes(line), self.names)
                     if c.doc.kind != "this"]
            if cites:
                cont = self._container(cites[-1])
                if cont:
                    return cont
        return []

    def _action(self, seg: str) -> str | None:
        low = seg.lower()
        if _TEXTUAL_START.match(low):
            return "TEXTUAL"
        if _ANNEX_REPLACE.match(low):
            return "ANNEX"
        if low.startswith(("bãi bỏ", "hủy bỏ", "huỷ bỏ")):
            return "REPEALS"
        if re.match(r"đánh\s+số(?:\s+lại)?\s", low) or _RENUMBER_AS_AMEND.match(low):
            return "RENUMBER"
        if low.startswith("sửa đổi"):
            return "AMENDS"
        if low.startswith("bổ sung"):
            return "SUPPLEMENTS"
        if low.startswith(("thay thế", "thay ")):
            return "AMENDS"
        return None

    def _container(self, c: Citation) -> list[tuple[str, str]]:
        levels: list[tuple[str, str]] = []
        if c.articles and c.articles != ["này"] and len(c.articles) == 1:
            levels.append(("D", c.articles[0]))
            if c.clauses and len(c.clauses) == 1 and c.clauses != ["này"]:
                levels.append(("K", c.clauses[0]))
        return levels

    def _container_of_path(self, path: str) -> list[tuple[str, str]] | None:
        parts = path.split(".")
        out: list[tuple[str, str]] = []
        for seg in parts[:-1]:
            out.append((seg[0], seg[1:]))
        return out or None

    def _targets(self, text: str, container: list[tuple[str, str]] | None,
                 phrase: bool = False, target_doc: str | None = None) -> list[str]:
        if phrase:
            m = re.search(r"\s(?:tại|ở|của|trong)\s+(.*)$", text, re.IGNORECASE)
            text = m.group(1) if m else ""
        paths: list[str] = []
        for c in find_citations(text, self.names):
            if any(x == ["này"] for x in (c.articles, c.clauses, c.points, c.chapters)):
                continue  # "khoản 2 Điều này": the amending text itself, never a target
            if (c.doc.kind == "this" and not self._means_amended(c, target_doc)) or (
                    c.doc.kind == "number" and target_doc is not None
                    and c.doc.number != target_doc):
                continue  # a unit of another document named in passing
            if c.chapters or c.annexes:
                paths.extend(resolve(c, Context(self.doc_id, ""), target_doc="other"))
                continue
            art = c.articles
            clauses = c.clauses
            points = c.points
            cont = dict(container or [])
            if art is None:
                if "D" not in cont:
                    continue
                art = [cont["D"]]
                if clauses is None and points is not None and "K" in cont:
                    clauses = [cont["K"]]
            for a in art:
                base = f"D{a}"
                if clauses:
                    for k in clauses:
                        paths.extend([f"{base}.K{k}.{p}" for p in points] if points else
                                     [f"{base}.K{k}"])
                elif points:
                    paths.extend(f"{base}.{p}" for p in points)
                else:
                    paths.append(base)
        return paths

    def _means_amended(self, c: Citation, target_doc: str | None) -> bool:
        """``Bãi bỏ điểm đ khoản 3 Điều 77 của Luật này`` inside an instruction aimed at
        another law: older amending laws write "Luật này" for the law they amend. Read so only
        when the amending text has no such article of its own (it cannot be amending itself)."""
        if target_doc is None or target_doc == self.doc_id or not c.articles:
            return False
        return not any(f"D{a}" in self.by_path for a in c.articles)

    def _fragments(self, unit: Unit) -> list[Unit]:
        """Top-level units of every quoted block of an instruction (fragment parse)."""
        out: list[Unit] = []
        for quote in unit.quotes:
            structure = parse_structure(quote.lines, self.doc.meta.source_file, fragment=True)
            tops = [u for u in structure.units if u.parent is None]
            if not tops:
                text = quote.text
                out.append(Unit(level="Text", number="", path="", label="", line=quote.lines[0][0]
                                if quote.lines else unit.line, ordinal=0, text=text))
            out.extend(tops)
        return out

    def _match_fragment(self, path: str, fragments: list[Unit], used: set[int],
                        only: bool) -> Unit | None:
        last = path.split(".")[-1]
        level = "Article" if last.startswith("D") else "Clause" if last.startswith("K") else (
            "Annex" if last.startswith("PL") else "Point")
        number = last[1:] if level in ("Article", "Clause") else last[2:] if level == "Annex" else last
        for i, frag in enumerate(fragments):
            if i not in used and frag.level == level and frag.number == number:
                used.add(i)
                return frag
        if only and len(fragments) == 1 and 0 not in used and not (
                level == "Article" and fragments[0].level == "Clause"
                and fragments[0].number != "1"):
            # one quote for one target is its wording; but one later clause ("“2. …”") for an
            # article is not the article's whole wording
            used.add(0)
            return fragments[0]
        if only and level == "Article" and fragments and not used and fragments[0].number == "1" \
                and all(f.level == "Clause" for f in fragments):
            # "Điều 49 được sửa đổi, bổ sung như sau: “1. …⏎2. …”": the article's whole new
            # wording, quoted without its name (the name stays: see NewUnit.name_from_base); a
            # quote that starts at a later clause ("“3. …⏎4. …”") is not known to be the whole
            used.update(range(len(fragments)))
            body = Unit(level="Article", number=number, path="", label=f"Điều {number}",
                        line=fragments[0].line, ordinal=0, children=list(fragments),
                        text="\n".join(f.text for f in fragments))
            self._bodies.append(body)
            return body
        return None

    def _new_units(self, frag: Unit, target_doc: str, path: str, action: str,
                   effective: date | None, anchor_path: str | None,
                   scope: str | None = None) -> None:
        base_parent = ".".join(path.split(".")[:-1])
        todo: list[tuple[Unit, str, str | None]] = [(frag, path, None)]
        while todo:
            node, node_path, parent_new = todo.pop(0)
            target_id = f"{target_doc}:{node_path}"
            level = node.level if node.level != "Text" else _level_of(node_path)
            if action == "AMENDS" and scope in SCOPED:
                # the name or the opening words only: the wording before the sub-units, which
                # keep theirs (derive_phrase_versions writes the whole wording from it)
                self._scoped_version(NewUnit(
                    id=version_id(target_id, self.doc_id), doc_id=target_doc, level=level,
                    number=node.number or node_path.split(".")[-1].lstrip("DK"),
                    path=node_path, text=(node.own_text if node.level != "Text"
                                          else node.text).strip(),
                    valid_from=effective, by_doc=self.doc_id, kind="version",
                    target_id=target_id, not_before=self.doc.meta.issue_date,
                    own_text=node.own_text if node.level != "Text" else node.text,
                    heading=node.heading, line=node.line, date_from_doc=self._date_doc,
                    scope=scope))
                return
            if action == "AMENDS":
                new_id = version_id(target_id, self.doc_id)
                self.doc.new_units.append(NewUnit(
                    name_from_base=any(node is b for b in self._bodies),
                    id=new_id, doc_id=target_doc, level=level, number=node.number or
                    node_path.split(".")[-1].lstrip("DK"), path=node_path, text=node.text,
                    valid_from=effective, by_doc=self.doc_id, kind="version", target_id=target_id,
                    not_before=self.doc.meta.issue_date,
                    own_text=node.own_text if node.level != "Text" else node.text,
                    parent_id=parent_new, heading=node.heading, line=node.line,
                    date_from_doc=self._date_doc, scope=scope if node is frag else None,
                    doc_start=_doc_start(node)))
            else:
                new_id = target_id
                parent_id = parent_new or (f"{target_doc}:{base_parent}" if base_parent else
                                           None)
                self.doc.new_units.append(NewUnit(
                    id=new_id, doc_id=target_doc, level=level, number=node.number or
                    node_path.split(".")[-1].lstrip("DK"), path=node_path, text=node.text,
                    valid_from=effective, by_doc=self.doc_id, kind="inserted",
                    not_before=self.doc.meta.issue_date,
                    own_text=node.own_text if node.level != "Text" else node.text,
                    parent_id=parent_id,
                    inserted_after=(f"{target_doc}:{anchor_path}" if anchor_path and node is frag
                                    else None),
                    heading=node.heading, line=node.line, date_from_doc=self._date_doc))
            for child in node.children:
                todo.append((child, f"{node_path}.{segment(child.level, child.number)}", new_id))

    def _scoped_version(self, new: NewUnit) -> None:
        """Add a version that gives a unit's name or opening words; the name and the opening
        words one document gives in two instructions (``a) Sửa đổi tên Điều …``, ``b) Sửa đổi
        đoạn mở đầu …``) are one version (scope ``head``: name, then opening words)."""
        old = next((n for n in self.doc.new_units if n.id == new.id), None)
        if old is None:
            self.doc.new_units.append(new)
            return
        pair = {old.scope, new.scope}
        if pair != {"title", "lead"}:
            self.doc.new_units.append(new)  # reported as a second wording when written
            return
        title, lead = (old, new) if old.scope == "title" else (new, old)
        old.text = f"{title.text}\n{lead.text}"
        old.own_text = old.text
        old.heading = title.heading
        old.scope = "head"

    # -- references ----------------------------------------------------------------------
    def references(self, unit: Unit, text: str, *, skip_docs: set[str] | None = None) -> None:
        source = self.uid(unit)
        ancestors = {self.uid(a) for a in unit.ancestors()} | {source}
        ctx = Context(self.doc_id, unit.path)
        covered: list[tuple[int, int]] = []
        for c in find_citations(text, self.names):
            covered.append((c.start, c.end))
            if c.doc.kind == "name":
                self.unresolved(source, c.text, "external_document_without_number")
                continue
            doc_id = c.doc.number if c.doc.kind == "number" else self.doc_id
            target_doc = None if doc_id == self.doc_id else doc_id
            for path in resolve(c, ctx, target_doc=target_doc):
                target = f"{doc_id}:{path}"
                if target in ancestors:
                    continue
                method = ("relative_reference" if any(
                    x == ["này"] for x in (c.articles, c.clauses, c.points)) or
                          (c.articles is None and doc_id == self.doc_id) else
                          "range_reference" if re.search(r"\btừ\s", c.text) else
                          "external_reference" if doc_id != self.doc_id else
                          "absolute_reference")
                self.add(Relation(source, target, "REFERS_TO", method, c.text[:300]))
        for m in DOC_MENTION.finditer(text):
            if any(s <= m.start() < e for s, e in covered):
                continue
            line_start = text.rfind("\n", 0, m.start()) + 1
            if _ACTION_START.match(_strip_marker(text[line_start:m.start()] + "x")):
                continue  # "Sửa đổi, bổ sung một số điều của Luật số X": an announcement
            ref = doc_after(text[m.start():], self.names)
            if ref.number in (skip_docs or set()):
                continue
            if ref.kind == "number" and ref.number and ref.number != self.doc_id:
                self.add(Relation(source, ref.number, "REFERS_TO", "document_reference",
                                  text[m.start(): m.start() + ref.end][:300], target_kind="document"))
        for m in VAGUE.finditer(text):
            self.unresolved(source, m.group(0), "vague_law_reference")

    # -- document level ------------------------------------------------------------------
    def basis(self) -> None:
        for line, text in self.doc.preamble:
            if not text.startswith("Căn cứ"):
                continue
            found = False
            for m in DOC_MENTION.finditer(text):
                ref = doc_after(text[m.start():], self.names)
                if ref.kind == "number" and ref.number and ref.number != self.doc_id:
                    self.add(Relation(self.doc_id, ref.number, "BASED_ON", "legal_basis",
                                      text[:300], source_kind="document", target_kind="document"))
                    found = True
            if not found and DOC_MENTION.search(text):
                self.doc.unresolved.append(Unresolved(self.doc_id, text.strip().rstrip(";"),
                                                      "legal_basis_without_number"))
            del line

    def guides(self) -> None:
        texts: list[tuple[str, Unit | None]] = [(self.doc.meta.title or "", None)]
        for unit in self.doc.units[:3]:
            if unit.level in ("Article", "Clause"):
                texts.append((unit.own_text, unit))
        for text, _unit in texts:
            for m in _GUIDE.finditer(text):
                rest = m.group(0)
                if re.match(r"\s*(?:này|Điều này|khoản này)", m.group("rest")):
                    continue
                line_start = text.rfind("\n", 0, m.start()) + 1
                if self._doc_in(text[line_start:m.start()]) is not None:
                    continue  # "… của Nghị định số X … quy định chi tiết …": X's description
                cites = find_citations(rest, self.names)
                target_doc = None
                for mm in DOC_MENTION.finditer(rest):
                    ref = doc_after(rest[mm.start():], self.names)
                    if ref.kind == "number" and ref.number and ref.number != self.doc_id:
                        target_doc = ref.number
                        break
                if target_doc is None:
                    continue
                paths: list[str] = []
                for c in cites:
                    if (c.doc.kind == "number" and c.doc.number == target_doc) or c.doc.kind == "none":
                        paths.extend(resolve(c, Context(target_doc, ""), target_doc=target_doc))
                if paths:
                    for path in paths:
                        self.add(Relation(self.doc_id, f"{target_doc}:{path}", "GUIDES",
                                          "detailing_statement", rest[:300],
                                          source_kind="document"))
                else:
                    self.add(Relation(self.doc_id, target_doc, "GUIDES", "detailing_statement",
                                      rest[:300], source_kind="document", target_kind="document"))

    def replacements(self, unit: Unit, text: str) -> set[str]:
        """Document-level replacement and repeal; returns the documents named."""
        named: set[str] = set()
        self._date_doc = self.date_doc(unit)
        for m in _REPLACE_DOC.finditer(text):
            ref = doc_after(text[m.start("dtype"):], self.names)
            before = text[max(0, m.start() - 120): m.start()]
            if not re.search(r"(?:Luật|Nghị định|Thông tư|Quyết định|Nghị quyết|Pháp lệnh|Bộ luật)"
                             r"\s+này", before + m.group(0), re.IGNORECASE) and \
                    not text.lower().startswith(("bãi bỏ", "thay thế")):
                continue
            if ref.kind == "number" and ref.number and ref.number != self.doc_id:
                kind = "REPLACES" if "thay" in m.group(0).lower() else "REPEALS"
                named.add(ref.number)
                self.add(Relation(self.doc_id, ref.number, kind, "document_replacement" if
                                  kind == "REPLACES" else "document_repeal",
                                  text[m.start(): m.start() + 300].split("\n")[0],
                                  self.date_of(unit), source_kind="document",
                                  target_kind="document"))
        for m in _OWN_REPEAL.finditer(text):
            # "Nghị định này thay thế và bãi bỏ các quy định … tại khoản 1 Điều 1, Điều 13 đến
            # Điều 19 … Nghị định số X": units of another document end
            kind = "REPEALS" if "bãi" in m.group("verb").lower() else "REPLACES"
            for c in find_citations(m.group("rest"), self.names):
                if c.doc.kind != "number" or not c.doc.number or c.doc.number == self.doc_id:
                    continue
                named.add(c.doc.number)
                for path in resolve(c, Context(c.doc.number, ""), target_doc=c.doc.number):
                    self.add(Relation(self.uid(unit), f"{c.doc.number}:{path}", kind,
                                      "repeal_statement" if kind == "REPEALS" else
                                      "replacement_statement", m.group(0)[:300],
                                      self.date_of(unit)))
        for m in _EXPIRES.finditer(text):
            ref = doc_after(text[m.start():], self.names)
            if ref.kind == "number" and ref.number and ref.number != self.doc_id:
                named.add(ref.number)
                self.add(Relation(self.doc_id, ref.number, "REPLACES", "expiry_on_effect",
                                  m.group(0)[:300], self.date_of(unit), source_kind="document",
                                  target_kind="document"))
        return named

    def stated_amendments(self, text: str) -> None:
        """``Luật X số A đã được sửa đổi, bổ sung theo Luật số B và Luật số C``: B and C amended A
        (an AMENDS edge between the documents, method ``stated_amendment``), so that a
        consolidation of A can say which amending documents it has not loaded."""
        if "đã được sửa đổi" not in text:
            return
        self._date_doc = None
        for m in _STATED_AMENDED.finditer(text):
            law = doc_after(m.group("law"), self.names)
            if law.kind != "number" or not law.number or law.number == self.doc_id:
                continue
            by_text = m.group("by")
            for mm in DOC_MENTION.finditer(by_text):
                ref = doc_after(by_text[mm.start():], self.names)
                if ref.kind == "number" and ref.number and ref.number not in (law.number,):
                    self.add(Relation(ref.number, law.number, "AMENDS", "stated_amendment",
                                      m.group(0)[:300], source_kind="document",
                                      target_kind="document"))

    def annotations(self, unit: Unit) -> None:
        for _line, note in unit.annotations:
            m = _ANNOTATION_GUIDE.search(note)
            if m is None:
                continue
            rest = m.group("rest")
            for part in re.split(r"\s*;\s*|\s+và\s+(?=(?:Điều|Khoản|Chương|Nghị định|Thông tư))",
                                 rest):
                t = _ANNOTATION_TARGET.match(part.strip())
                if t is None:
                    continue
                number = normalise_doc_number(t.group("number"))
                source = number
                kind = "document"
                if t.group("kind") == "Điều":
                    source, kind = f"{number}:D{t.group('num')}", "unit"
                elif t.group("kind") == "Chương":
                    num = roman_to_int(t.group("num")) or t.group("num")
                    source, kind = f"{number}:C{num}", "unit"
                elif t.group("kind") == "Khoản" and t.group("art"):
                    source, kind = f"{number}:D{t.group('art')}.K{t.group('num')}", "unit"
                self.add(Relation(source, self.uid(unit), "GUIDES", "guidance_annotation",
                                  note[:300], origin="annotation", source_kind=kind,
                                  target_kind="unit"))


# the verb a clause of an instruction starts with ("bãi bỏ" before "bỏ")
_VERB_WORD = re.compile(
    rf"^(?:{REPEAL_WORD}|{ANNUL_WORD}|bỏ|{REPLACE_WORD}|thay|{AMEND_WORD}|{SUPPLEMENT_WORD})(?=\s)",
    re.IGNORECASE)
# "Bỏ cụm từ “A”, thay thế từ “B” thành “C”": a phrase edit of its own after a comma
_PHRASE_ACTION_SPLIT = re.compile(
    rf",\s+(?=(?:{REPEAL_WORD}|bỏ|{REPLACE_WORD}|thay|{SUPPLEMENT_WORD})\s+{PHRASE_OBJECT}\b)",
    re.IGNORECASE)
# "sửa đổi điểm đ thành điểm d": a new number, the wording unchanged
_RENUMBER_AS_AMEND = re.compile(
    rf"^{AMEND_WORD}\s+(?:điểm|khoản|điều|tiết|mục)\s+[\w.]+\s+thành\s+(?:điểm|khoản|điều|tiết|mục)"
    r"\s+[\w.]+\s*$", re.IGNORECASE)


# "tên Điều 5", "đoạn mở đầu khoản 2", "tên của Điều 5": the words are followed by the unit
_NUMBERED_PART = re.compile(r"^\s*(?:của\s+)?(?:(?:điều|khoản|điểm)\s+)?\d", re.IGNORECASE)


def _scope_of(target_part: str, path: str, targets: list[str], frag: Unit) -> str | None:
    """What of ``path`` a quoted wording replaces: ``title`` (an article's name), ``lead`` (the
    words before its sub-units), ``head`` (both), or None (all of it). The name belongs to an
    article; the opening words to the one target, or to the target the others are parts of."""
    title = _TITLE_ONLY.search(target_part) is not None and path.split(".")[-1][:1] in "DCM"
    others = [t for t in targets if t != path]
    inner = all(t.startswith(path + ".") for t in others)
    lead = _LEAD_ONLY.search(target_part) is not None and inner
    if title and lead:
        return "head"
    if title and len(targets) == 1:
        # a whole article quoted under "tên Điều 5" gives the whole article
        return None if frag.children else "title"
    if title and inner:
        return "title"
    if lead:
        return "lead"
    return None


def _body_instructions(unit: Unit, text: str) -> list[str]:
    """The lines under an instruction that ends ``như sau:`` when they are instructions of
    their own, not quoted (``Thay thế cụm từ “A” thành “B”.``), else []."""
    head = text.split("\n")[0].strip()
    if not _HOW.search(head + " "):
        return []
    own = [x.strip() for x in (unit.own_text or "").split("\n") if x.strip()]
    # the lines after the instruction's own line: under an article heading ("Điều 140. Sửa đổi,
    # bổ sung Điều 4 của Luật …") the instruction is the second line, not a line of its body
    start = next((i + 1 for i, x in enumerate(own) if x == head), 1)
    lines = own[start:]
    if not lines or not all(_ACTION_START.match(x) for x in lines):
        return []
    return lines


def _segment_quotes(masked: str, quotes: list[str], segments: list[str]) -> list[list[str]]:
    """The quotations each segment of ``masked`` masks, in the segments' order (two segments
    may read alike once masked: ``cụm từ “…” bằng cụm từ “…”; cụm từ “…” bằng …``)."""
    out: list[list[str]] = []
    at = 0
    for seg in segments:
        i = masked.find(seg, at)
        if i < 0:
            out.append([])
            continue
        before = masked[:i].count("“…”")
        out.append(quotes[before: before + seg.count("“…”")])
        at = i + len(seg)
    return out


def _unmask(seg: str, quotes: list[str]) -> str:
    """``seg`` with its quotations written out again (the evidence a reader sees)."""
    for q in quotes:
        seg = seg.replace("“…”", f"“{q}”", 1)
    return seg


_WRAPPED_TARGET = re.compile(r"^(?:khoản|điểm|Điều|điều|mục|Mục|chương|Chương|phụ\s+lục|Phụ\s+lục"
                             r"|các\s+(?:khoản|điểm|điều)|tiết)\s+\S")


def _with_wrapped_targets(first: str, lines: list[str]) -> str:
    """An instruction whose list of places goes on over the next lines (``… điểm b khoản 1
    Điều 26;`` then ``khoản 9 Điều 88;``) read whole: the lines after it that start with a
    place and follow a ``;`` or ``,``."""
    at = next((i for i, x in enumerate(lines) if first in x), None)
    if at is None:
        return first
    out = first
    for line in lines[at + 1:]:
        line = line.strip()
        if not _WRAPPED_TARGET.match(line) or not out.rstrip().endswith((";", ",")):
            break
        out = f"{out.rstrip()} {line}"
    return out


def _doc_start(node: Unit) -> date | None:
    """The start date of the amended document when the new wording states it (``1. Luật này
    có hiệu lực thi hành từ ngày 01 tháng 8 năm 2024, trừ …``)."""
    own = (node.own_text or node.text).strip()
    if not _DOC_START.match(own):
        return None
    found = find_effective_dates(own, None)
    return found[0][1] if found else None


def _lead(unit: Unit) -> str:
    """A unit's instruction sentence: its first line without the marker, or the next line
    when the marker stands alone or the first line is an article's heading."""
    lines = unit.own_text.split("\n") if unit.own_text else [""]
    line = _strip_marker(lines[0])
    if (not line or (unit.level == "Article" and not _ACTION_START.match(line))) and len(lines) > 1:
        line = lines[1].strip()
    return line


def _level_of(path: str) -> str:
    last = path.split(".")[-1]
    if last.startswith("PL"):
        return "Annex"
    if last.startswith("D"):
        return "Article"
    if last.startswith("K"):
        return "Clause"
    return "Point"


def _drop_announcements(doc: ParsedDocument) -> None:
    """``6. Sửa đổi, bổ sung khoản 1, khoản 5 Điều 18 như sau:`` over ``a) Sửa đổi, bổ sung
    khoản 1 như sau: Bãi bỏ điểm d …`` and ``b) … khoản 5 …``: the instruction above announces
    what the ones below it do. Its edge to a unit that an instruction below changes (that unit,
    or a part of a clause or point) is taken out when it wrote no wording of its own: left, it
    read as an amendment whose new wording was not extracted, and the unit was served as of
    unknown wording."""
    below: dict[str, set[str]] = {}
    for rel in doc.relations:
        if rel.type in _CHANGE_TYPES and rel.source_kind == "unit":
            below.setdefault(rel.target, set()).add(rel.source)
    worded = {n.target_id or n.id for n in doc.new_units}

    def announced(rel: Relation) -> bool:
        if rel.type != "AMENDS" or rel.method != "amend_instruction" or rel.target in worded:
            return False
        inside = [t for t in below if t == rel.target or (
            t.startswith(rel.target + ".") and _level_of(rel.target) in ("Clause", "Point"))]
        return any(src.startswith(rel.source + ".") for t in inside for src in below[t])

    doc.relations[:] = [r for r in doc.relations if not announced(r)]


def extract_relations(doc: ParsedDocument, names: Mapping[str, str] | None = None, *,
                      reset: bool = False) -> None:
    """Fill ``doc.relations``, ``doc.new_units`` and ``doc.unresolved`` from its text.

    ``reset`` clears what an earlier pass found first (the loader reads relations again once
    every document's title is known).
    """
    if reset:
        doc.relations.clear()
        doc.new_units.clear()
        doc.unresolved.clear()
        doc.title_targets.clear()
    ex = _Extractor(doc, names)
    ex.basis()
    ex.guides()
    for unit in doc.units:
        if unit.level not in ("Article", "Clause", "Point", "Annex"):
            ex.annotations(unit)
            continue
        ex.annotations(unit)
        instruction = ex.instruction_text(unit) if unit.level != "Annex" else None
        if instruction is not None and ex.instructions(unit, instruction):
            continue
        own = unit.own_text
        replaced = ex.replacements(unit, own)
        ex.references(unit, own, skip_docs=replaced)
    _drop_announcements(doc)
    for text in [doc.meta.title or "", *(t for _, t in doc.preamble),
                 *(u.own_text for u in doc.units)]:
        ex.stated_amendments(text)
    for new in doc.new_units:
        # references inside new wording are read against the amended document
        ctx_unit = Unit(level=new.level, number=new.number, path=new.path, label="", line=0,
                        ordinal=0)
        sub = _Extractor(doc, names)
        sub.doc_id = new.doc_id
        sub.seen = ex.seen
        own = new.own_text or new.text
        source_id = new.id
        before = len(doc.relations)
        sub.references(ctx_unit, own)
        for rel in doc.relations[before:]:
            rel.source = source_id
        for item in doc.unresolved:
            if item.source == f"{new.doc_id}:{new.path}" and new.kind == "version":
                item.source = source_id
