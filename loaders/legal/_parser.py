"""The deterministic structure parser: lines of a legal text into Phần … Điểm and Phụ lục.

Markers are recognised at line start only (``docs/vietnamese-legal.md``), with numbering checks
that keep body text such as ``1.000 đồng`` or a list restarting at ``1.`` inside a point from
becoming units. Quoted new wording after an amending instruction (``… như sau:`` followed by
``“…”``) is kept inside the instruction's text and recorded as a :class:`Quote`; it never
becomes part of the amending document's own structure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hopgraph.core.errors import IngestError
from hopgraph.core.vocabulary import (
    AMEND_WORD,
    ANNUL_WORD,
    REPEAL_WORD,
    REPLACE_WORD,
    SUPPLEMENT_WORD,
)
from hopgraph.loaders.legal._ids import number_key, ordinal_number, point_index, segment
from hopgraph.loaders.legal._model import Problem, Quote, Unit

RANK = {"Part": 0, "Chapter": 1, "Section": 2, "Subsection": 3, "Article": 4, "Clause": 5,
        "Point": 6}
_ORD_WORDS = r"(?:nhất|một|hai|ba|tư|bốn|năm|sáu|bảy|tám|chín|mười)"
_PART = re.compile(
    rf"^(?:PHẦN|Phần)\s+((?:THỨ|thứ|Thứ)\s+{_ORD_WORDS}|(?:THỨ)\s+\w+|[IVXLC]+|\d+)\b\s*[.:\-–]?\s*(.*)$",
    re.IGNORECASE,
)
_CHAPTER = re.compile(r"^(?:CHƯƠNG|Chương)\s+([IVXLC]+[a-z]?|\d+[a-z]?)(?![\w])\s*[.:\-–]?\s*(.*)$")
_SECTION = re.compile(r"^(?:MỤC|Mục)\s+(\d+[a-z]?|[IVXLC]+)(?![\w])\s*[.:\-–]?\s*(.*)$")
_SUBSECTION = re.compile(r"^(?:TIỂU MỤC|Tiểu mục)\s+(\d+[a-z]?|[IVXLC]+)(?![\w])\s*[.:\-–]?\s*(.*)$")
_ARTICLE = re.compile(r"^(?:Điều|ĐIỀU|Ðiều)\s+(\d{1,4}[a-zđ]?)\s*(?:[.:]\s*(.*)|$)")
# "Điều 2 Sửa đổi, bổ sung …": a heading with no full stop; accepted only in sequence
_ARTICLE_NO_DOT = re.compile(r"^(?:Điều|ĐIỀU)\s+(\d{1,4})\s+(?=[A-ZĐÀ-Ỹ])(.*)$")
_ARTICLE_ANY = re.compile(r"^(?:Điều|ĐIỀU|Ðiều)\s+(\d{1,4}[a-zđ]?)(?:\s*[.:]|\s+(?=[A-ZĐÀ-Ỹ])|\s*$)")
_INSTRUCTION_LINE = re.compile(
    rf"^(?:{AMEND_WORD}|{SUPPLEMENT_WORD}|{REPEAL_WORD}|{ANNUL_WORD}|{REPLACE_WORD}"
    r"|thay\s+cụm|bỏ\s+cụm|bỏ\s+từ"
    r"|(?:tên\s+|các\s+)?(?:điểm|khoản|điều|mục|chương|phụ\s+lục)\s[^“”\"]{0,150}?"
    r"(?:được|bị)\s+(?:sửa|bổ|bãi|thay))",
    re.IGNORECASE,
)
_FINAL_HEADING = re.compile(r"^(?:Hiệu\s+lực|Điều\s+khoản|Trách\s+nhiệm|Tổ\s+chức\s+thực\s+hiện"
                            r"|Sửa\s+đổi|Bổ\s+sung|Bãi\s+bỏ|Quy\s+định\s+chuyển\s+tiếp)", re.IGNORECASE)
_OWN_EFFECT = re.compile(r"^(?:\d{1,2}\.\s+)?(?:Luật|Bộ\s+luật|Nghị\s+định|Thông\s+tư|Quyết\s+định"
                         r"|Nghị\s+quyết|Pháp\s+lệnh)\s+này\s+có\s+hiệu\s+lực")
_CODIFIED_ARTICLE = re.compile(r"^(?:Điều)\s+(\d+(?:\.\d+)*\.[A-ZĐ]+(?:\.\d+)+[a-zđ]?)\.?\s*(.*)$")
_CLAUSE = re.compile(r"^(\d{1,3}[a-zđ]?)\.(?:\s+(\S.*)|\s*$|(?=[A-ZĐÀ-Ỹ]))")
_POINT = re.compile(r"^([a-zđ]\d?)\)\s*(.*)$")
_ANNEX = re.compile(
    r"^(?:PHỤ LỤC|Phụ lục|PHỤ LỤC SỐ|Phụ lục số)\s*([IVXLC]+[a-z]?|\d+[a-z]?)?\s*[.:\-–]?\s*(.*)$"
)
_FORM = re.compile(r"^(?:MẪU SỐ|Mẫu số)\s*(\d+[a-z]?(?:/[\w-]+)?)\s*[.:\-–]?\s*(.*)$")
_UNKNOWN_MARKER = re.compile(r"^(?:Điều|ĐIỀU|Chương|CHƯƠNG)\s+\S+?[.:](?:\s|$)")
_SIGNATURE = re.compile(
    r"^(?:(?:Luật|Bộ luật|Nghị quyết|Pháp lệnh|Hiến pháp) này (?:đã )?được .{0,80}thông qua"
    r"|Nơi nhận\s*:|(?:TM|KT|TL|TUQ|Q)\.\s|\(đã ký\)|(?:CHỦ TỊCH|BỘ TRƯỞNG|THỦ TƯỚNG|CHỦ NHIỆM"
    r"|TỔNG GIÁM ĐỐC|PHÓ THỦ TƯỚNG)(?:\s+[A-ZĐÀ-Ỹ ]+)?$)"
)
_ANNOTATION = re.compile(r"\[([^\[\]]{3,600})\]\s*$")
_OPEN_QUOTES = ("“", '"', "‘", "«")
_CLOSE_QUOTE_END = re.compile(r"[”\"’»][.;,]?\s*$")
_INSTRUCTION_END = re.compile(r"(?:như sau|sau đây)\s*:?\s*$", re.IGNORECASE)
_ACTION_COLON = re.compile(r"(?:sửa đổi|bổ sung|thay thế|bãi bỏ)[^\n]*:\s*$", re.IGNORECASE)
_ACTION = re.compile(r"sửa đổi|bổ sung|thay thế|bãi bỏ", re.IGNORECASE)
_UNIT_NAMED = re.compile(r"(?:điểm\s+[a-zđ]\d?|khoản\s+\d+[a-zđ]?|Điều\s+\d+[a-zđ]?)\s+(?:khoản|Điều|của)",
                         re.IGNORECASE)


# a closing quote with the next instruction or article glued after it on the same line (portal
# crawls: "… pháp luật về giá.”; b) Thay thế cụm từ …", "… tiền phạt."Điều 2. Sửa đổi …",
# "… hành vi vi phạm đó.” 2." with the instruction on the next line)
_GLUED_INSTRUCTION = re.compile(r"(?<=[”\"»])[.;,]?\s*(?=(?:[a-zđ]\d?\)|\d{1,3}[a-zđ]?\.)(?:\s+\S|\s*$)"
                                r"|(?:Điều|ĐIỀU)\s+\d{1,4}[a-zđ]?\.\s*[A-ZĐÀ-Ỹ])")
_MARKER_HEAD = re.compile(r"^(?:[a-zđ]\d?\)|\d{1,3}[a-zđ]?\.)\s*")


# a chapter heading glued to the last sentence of the chapter before ("… chi tiết Điều này.
# Chương II BẢO VỆ VÀ PHÁT TRIỂN …"): the heading is in capitals
_GLUED_CHAPTER = re.compile(r"(?<=[.;:])\s+(?=(?:Chương|CHƯƠNG)\s+[IVXLC]+\s*[.:\-–]?\s+[A-ZĐÀ-Ỹ]{2,}\s)")
# an article heading with its first clause on the same line
_GLUED_FIRST_CLAUSE = re.compile(r"^((?:Điều|ĐIỀU)\s+\d{1,4}[a-zđ]?\s*[.:][^\n]{0,250}?)\s+1\.\s+(?=[A-ZĐÀ-Ỹ])")
# the next clause glued to the last point of the clause before ("… đường sắt. 6. Chính phủ …")
_GLUED_CLAUSE = re.compile(r"(?<=[.;])\s+(?=(\d{1,3})\.\s+[A-ZĐÀ-Ỹ])")
_POINT_START = re.compile(r"^[a-zđ]\d?\)\s")
_CLAUSE_START = re.compile(r"^(\d{1,3})\.(?:\s|$)")
# a bare clause number at the end of a line, after a word that does not take a number
_TRAILING_CLAUSE = re.compile(r"(\S+)\s+(\d{1,3})\.$")
_NUMBERED_WORDS = {"khoản", "điều", "điểm", "mục", "chương", "phần", "số", "năm", "tháng",
                   "ngày", "lần", "bậc", "loại", "hạng", "cấp", "nhóm", "lục", "mẫu", "tiết",
                   "đoạn", "câu", "dòng", "trang", "quyển", "tập", "kỳ", "kì", "giai", "vùng",
                   "khu", "tầng", "tuyến", "đợt", "thứ", "và", "hoặc", "đến", "từ"}
# Cyrillic letters that look like Latin point letters ("р)" for "p)", "с)" for "c)")
_CYRILLIC_POINT = re.compile(r"^([аеорсхуі])\)")
_LATIN = str.maketrans("аеорсхуі", "aeopcxyi")


def _unglue(text: str, last_clause: int | None) -> list[str]:
    """A line of a portal crawl that holds two units split where the second one starts."""
    parts = [p for p in _GLUED_CHAPTER.split(text) if p] or [text]
    first = _GLUED_FIRST_CLAUSE.match(parts[0])
    # "Điều 27. Yêu cầu … 1. Phù hợp …": the first clause on the heading's line
    if first and first.group(1).split()[-1].lower() not in _NUMBERED_WORDS:
        parts[:1] = [first.group(1), parts[0][first.end(1):].strip()]
    if last_clause is not None and _POINT_START.match(parts[-1]):
        m = next((m for m in _GLUED_CLAUSE.finditer(parts[-1])
                  if int(m.group(1)) == last_clause + 1), None)
        if m is not None:
            parts[-1:] = [parts[-1][: m.start()], parts[-1][m.end():]]
    return parts


def split_glued(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The lines of a portal crawl with two units on one line split where the second starts
    (same line number); Cyrillic point letters read as Latin.

    After a closing quote, only where a numbered instruction follows (``b) Thay thế …``,
    ``12. Bãi bỏ …``, a bare ``2.`` whose instruction is the next line) or an article heading
    (``Điều 2. Sửa đổi …``): quoted wording that goes on after a quote stays whole. Elsewhere,
    only a marker the numbering expects next: a clause number left at the end of a line, the
    next clause after the last point, the first clause on its article's heading line, a chapter
    heading in capitals (:func:`_unglue`)."""
    out: list[tuple[int, str]] = []
    last_clause: int | None = None
    for i, (line, raw) in enumerate(lines):
        after_line = lines[i + 1][1].strip() if i + 1 < len(lines) else ""
        raw = _CYRILLIC_POINT.sub(lambda m: m.group(1).translate(_LATIN) + ")", raw.strip())
        if _ARTICLE_ANY.match(raw):
            last_clause = None
        elif (cm := _CLAUSE_START.match(raw)) is not None:
            last_clause = int(cm.group(1))
        parts: list[str] = []
        rest = raw
        while True:
            cut = None
            for m in _GLUED_INSTRUCTION.finditer(rest):
                tail = rest[m.end():]
                if tail.startswith(("Điều", "ĐIỀU")):
                    cut = m
                    break
                body = _MARKER_HEAD.sub("", tail).strip()
                if _INSTRUCTION_LINE.match(body or after_line):
                    cut = m
                    break
            if cut is None:
                break
            parts.append(rest[: cut.start()] + rest[cut.start(): cut.end()].strip())
            rest = rest[cut.end():]
        pieces = [*parts, rest]
        trailing = _TRAILING_CLAUSE.search(pieces[-1])
        if (trailing is not None and int(trailing.group(2)) == (last_clause or 0) + 1
                and trailing.group(1).strip(".,;:").lower() not in _NUMBERED_WORDS
                and after_line[:1].isupper() and not _CLAUSE_START.match(after_line)):
            # "… theo quy định tại Điều 107 Luật Đất đai 1." and the clause's text on the next
            # line: a heading wrapped over two lines took the first clause's number with it
            pieces[-1:] = [pieces[-1][: trailing.start(2)].rstrip(), trailing.group(2) + "."]
        for piece in pieces:
            for text in _unglue(piece, last_clause):
                if (cm := _CLAUSE_START.match(text)) is not None and text is not piece:
                    last_clause = int(cm.group(1))
                out.append((line, text))
    return out


@dataclass
class Structure:
    """Units in document order, the lines before the first unit, the lines after the body."""

    units: list[Unit]
    front: list[tuple[int, str]]
    tail: list[tuple[int, str]] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)


@dataclass
class _Entry:
    line: int
    text: str
    quote: int | None = None  # index of the quote block it belongs to


def _heading(rest: str | None) -> str | None:
    rest = (rest or "").strip()
    if not rest or rest.endswith((".", ";", ":", ",")) or len(rest) > 250:
        return None
    return rest


class _Parser:
    def __init__(self, file: str, *, fragment: bool, codification: bool) -> None:
        self.file = file
        self.fragment = fragment
        self.codification = codification
        self.entries: list[_Entry] = []
        self.units: list[Unit] = []
        self.stack: list[Unit] = []
        self.front: list[tuple[int, str]] = []
        self.tail: list[tuple[int, str]] = []
        self.warnings: list[Problem] = []
        self.quotes: list[tuple[Unit, int, int]] = []  # unit, first entry, last entry
        self.last_article: Unit | None = None
        self.in_tail = False
        self.pending_heading: Unit | None = None
        self.paths: set[str] = set()
        self.annex_count = 0
        self.article_lines: dict[int, list[tuple[int, int]]] = {}
        self.annex_numbering = False
        self.pos = 0

    # -- helpers -------------------------------------------------------------------------
    def warn(self, line: int, message: str) -> None:
        self.warnings.append(Problem(self.file, line, message))

    def current(self) -> Unit | None:
        return self.stack[-1] if self.stack else None

    def _close_to(self, rank: int) -> None:
        while self.stack and RANK.get(self.stack[-1].level, -1) >= rank:
            unit = self.stack.pop()
            unit.end = len(self.entries)

    def _close_all(self) -> None:
        self._close_to(-10)

    def _open(self, level: str, number: str, label: str, line: int, heading: str | None,
              text: str, path_override: str | None = None) -> Unit:
        rank = RANK.get(level, -1)
        self._close_to(rank if rank >= 0 else -10)
        parent = self.current()
        if path_override is not None:
            path = path_override
        elif level in ("Article", "Annex", "Part", "Chapter") or parent is None:
            path = segment(level, number)
        else:
            path = f"{parent.path}.{segment(level, number)}"
        if path in self.paths and not self.fragment:
            if level in ("Article", "Clause", "Point") and not self.codification:
                raise IngestError(f"{self.file}:{line}: {label} repeats the id {path}")
            # a structural heading whose parent heading is missing from the source (ALQAC
            # texts keep "Tiểu mục" lines but drop "Mục" lines): keep both, distinctly
            n = 2
            while f"{path}-{n}" in self.paths:
                n += 1
            self.warn(line, f"{label} repeats {path} under the same parent: id {path}-{n}")
            path = f"{path}-{n}"
        self.paths.add(path)
        unit = Unit(level=level, number=number, path=path, label=label, line=line,
                    ordinal=len(self.units) + 1, heading=heading, parent=parent,
                    start=len(self.entries))
        if parent is not None:
            if parent.own_end == 0:
                parent.own_end = len(self.entries)
            parent.children.append(unit)
        self.entries.append(_Entry(line, text))
        self.units.append(unit)
        self.stack.append(unit)
        return unit

    def _nearest(self, *levels: str) -> Unit | None:
        for unit in reversed(self.stack):
            if unit.level in levels:
                return unit
        return None

    def _last_child(self, parent: Unit | None, level: str) -> Unit | None:
        if parent is None:
            return None
        kids = [c for c in parent.children if c.level == level]
        return kids[-1] if kids else None

    # -- markers -------------------------------------------------------------------------
    def _try_markers(self, line: int, text: str) -> bool:
        if self.codification:
            m = _CODIFIED_ARTICLE.match(text)
            if m:
                self._article(line, text, m.group(1), m.group(2))
                return True
        m = _ARTICLE.match(text)
        if m and not self.codification:
            # (a codification numbers its articles with codes; "Điều 1." there is a form's text)
            return self._article(line, text, m.group(1), m.group(2))
        m = _ARTICLE_NO_DOT.match(text)
        if m and not self.codification and not self.fragment:
            prev = self.last_article
            expected = number_key(prev.number)[0] + 1 if prev is not None else 1
            if int(m.group(1)) == expected:
                return self._article(line, text, m.group(1), m.group(2))
        for pattern, level in ((_PART, "Part"), (_CHAPTER, "Chapter"), (_SUBSECTION, "Subsection"),
                               (_SECTION, "Section")):
            m = pattern.match(text)
            if m:
                number = ordinal_number(m.group(1))
                if number is None:
                    self.warn(line, f"unknown marker {text[:40]!r}: treated as text")
                    return False
                if level == "Section" and (m.group(2) or "").strip()[:1].islower():
                    return False  # "Mục 1 Chương này quy định …" is body text
                self._structural(line, text, level, number, m.group(2))
                return True
        for pattern, prefix in ((_ANNEX, "PL"), (_FORM, "MS")):
            m = pattern.match(text)
            if m and self._annex_allowed(text, m.group(1), prefix):
                self._annex(line, text, m.group(1), m.group(2), prefix)
                return True
        if self.in_tail:
            return False
        m = _CLAUSE.match(text)
        if m and self._clause(line, text, m.group(1)):
            return True
        m = _POINT.match(text)
        if m and self._point(line, text, m.group(1)):
            return True
        if _UNKNOWN_MARKER.match(text):
            self.warn(line, f"unknown marker {text[:40]!r}: treated as text")
        return False

    def _annex_allowed(self, text: str, number: str | None, prefix: str) -> bool:
        if self.fragment:
            return True
        if len(text) > 200 or (self.last_article is None and not self.in_tail):
            return False
        if prefix == "PL":
            upper = text.startswith("PHỤ LỤC")
            return upper or number is not None
        return True

    def _structural(self, line: int, text: str, level: str, number: str, rest: str | None) -> None:
        if self.in_tail:
            self.in_tail = False
        heading = (rest or "").strip() or None
        label = {"Part": "Phần", "Chapter": "Chương", "Section": "Mục",
                 "Subsection": "Tiểu mục"}[level] + " " + number
        unit = self._open(level, number, label, line, heading, text)
        if heading is None:
            self.pending_heading = unit

    def _article(self, line: int, text: str, number: str, rest: str | None) -> bool:
        prev = self.last_article
        in_annex = any(u.level == "Annex" for u in self.stack)
        if in_annex and not self.fragment and not self.codification:
            # an annex form numbers its own "Điều 1, 2, 3": text of the annex, unless the
            # document's own articles go on after it (its effect article after the annexes)
            expected = number_key(prev.number)[0] + 1 if prev is not None else 1
            if number_key(number) != (expected, "") or self.annex_numbering:
                self.annex_numbering = True  # the form's own numbering has begun
                return False
        if prev is not None and not self.codification:
            new, old = number_key(number), number_key(prev.number)
            if new == old:
                if self.fragment:
                    self.warn(line, f"duplicate Điều {number}")
                else:
                    self.warn(line, f"Điều {number} repeats the article at line {prev.line}: "
                                    "treated as text")
                    return False
            if new < old:
                self.warn(line, f"Điều {number} after Điều {prev.number} is out of order: "
                                "treated as text")
                return False
            if not self.fragment and (new[0] > old[0] + 1 or (new[1] and new[0] != old[0])):
                resume = self._resumes(old[0] + 1)
                if resume is not None:
                    self.warn(line, f"Điều {number} stands between Điều {prev.number} and "
                                    f"Điều {old[0] + 1} (line {resume}): treated as text")
                    return False
                if not new[1]:
                    self.warn(line, f"numbering gap: Điều {number} follows Điều {prev.number}")
        self.in_tail = False
        unit = self._open("Article", number, f"Điều {number}", line, _heading(rest), text)
        self.last_article = unit
        return True

    def _clause(self, line: int, text: str, number: str) -> bool:
        holder = self._nearest("Article")
        if holder is None and not self.fragment:
            return False
        prev = self._last_child(holder, "Clause") if holder else self._last_top("Clause")
        key = number_key(number)
        if key[0] > 300:
            return False
        if prev is None:
            if not self.fragment and key[0] != 1:
                return False
        elif key <= number_key(prev.number):
            if key == number_key(prev.number):
                # a second "2." is most likely a numbering slip of the source; its text stays
                # in the clause above, and the report says so instead of folding it silently
                self.warn(line, f"repeated clause number: khoản {number} again in "
                                f"{holder.label if holder else 'fragment'} (first at line "
                                f"{prev.line}); its text is kept as part of that clause")
            return False
        elif key[0] > number_key(prev.number)[0] + 1 and not key[1] and not self.fragment:
            self.warn(line, f"numbering gap: khoản {number} follows khoản {prev.number} "
                            f"in {holder.label if holder else 'fragment'}")
        if holder is not None:
            self._close_to(RANK["Clause"])
        self._open("Clause", number, f"Khoản {number}", line, None, text)
        return True

    def _last_top(self, level: str) -> Unit | None:
        tops = [u for u in self.units if u.level == level and u.parent is None]
        return tops[-1] if tops else None

    def _point(self, line: int, text: str, letter: str) -> bool:
        holder = self._nearest("Clause", "Article")
        if holder is None and not self.fragment:
            return False
        if point_index(letter) < 0:
            return False
        prev = self._last_child(holder, "Point") if holder else self._last_top("Point")
        if prev is None:
            if not self.fragment and letter != "a":
                return False
        elif point_index(letter) < point_index(prev.number) or (
                point_index(letter) == point_index(prev.number) and letter <= prev.number):
            if letter == prev.number and not self.fragment:
                # a second "b)" is most likely a slip of the source: kept in the point above,
                # and said so
                self.warn(line, f"repeated point letter: điểm {letter} again in "
                                f"{holder.label if holder else 'fragment'} (first at line "
                                f"{prev.line}); its text is kept as part of that point")
            return False
        if holder is not None:
            self._close_to(RANK["Point"])
        self._open("Point", letter, f"Điểm {letter}", line, None, text)
        return True

    def _annex(self, line: int, text: str, number: str | None, rest: str | None,
               prefix: str) -> None:
        self.in_tail = False
        self.annex_numbering = False
        self.annex_count += 1
        num = (ordinal_number(number) if number and prefix == "PL" else number) or str(
            self.annex_count)
        self._close_all()
        word = "Phụ lục" if prefix == "PL" else "Mẫu số"
        unit = self._open("Annex", num if prefix == "PL" else f"MS{num}",
                          f"{word} {number or ''}".strip(), line, (rest or "").strip() or None,
                          text, path_override=("PL" + num) if prefix == "PL" else ("MS" + num))
        if unit.heading is None:
            self.pending_heading = unit

    # -- main loop -----------------------------------------------------------------------
    def _resumes(self, number: int) -> int | None:
        """The line of a later article marker ``Điều <number>`` (the sequence going on)."""
        for pos, line in self.article_lines.get(number, []):
            if pos > self.pos:
                return line
        return None

    def _quote_boundary(self, text: str, owner: Unit) -> bool:
        """An unclosed quote ends where the next instruction or article of the amending text
        starts: the owner's next sibling, written as an instruction."""
        m = _CLAUSE.match(text)
        if m and owner.level == "Clause":
            nxt = number_key(m.group(1))
            if nxt[0] == number_key(owner.number)[0] + 1 and _INSTRUCTION_LINE.match(
                    (m.group(2) or "").strip()):
                return True
        m = _POINT.match(text)
        if m and owner.level == "Point" and point_index(m.group(1)) == point_index(
                owner.number) + 1 and _INSTRUCTION_LINE.match(m.group(2).strip()):
            return True
        m = _ARTICLE_ANY.match(text)
        if m and self.last_article is not None:
            nxt = number_key(m.group(1))
            rest = text[m.end():].strip()
            last = number_key(self.last_article.number)[0]
            if (nxt[0] == last + 1 and _INSTRUCTION_LINE.match(rest)) or (
                    last < nxt[0] <= last + 3 and _FINAL_HEADING.match(rest)):
                return True
        # the amending text's own effect clause ("2. Nghị định này có hiệu lực …")
        return bool(_OWN_EFFECT.match(text))

    def feed(self, lines: list[tuple[int, str]]) -> None:
        quote_owner: Unit | None = None
        quote_start = 0
        self.article_lines = {}
        for pos, (line, raw) in enumerate(lines):
            m = _ARTICLE_ANY.match(raw.strip())
            if m and m.group(1).isdigit():
                self.article_lines.setdefault(int(m.group(1)), []).append((pos, line))
        for pos, (line, raw) in enumerate(lines):
            self.pos = pos
            text = raw.strip()
            if not text:
                continue
            if quote_owner is not None:
                if not self.fragment and self._quote_boundary(text, quote_owner):
                    first = self.entries[quote_start]
                    self.warn(first.line, f"quotation opened here is not closed before the next "
                                          f"instruction at line {line}: closed there")
                    self.quotes.append((quote_owner, quote_start, len(self.entries)))
                    quote_owner = None
                else:
                    self.entries.append(_Entry(line, text, quote=len(self.quotes)))
                    if _CLOSE_QUOTE_END.search(text):
                        self.quotes.append((quote_owner, quote_start, len(self.entries)))
                        quote_owner = None
                    continue
            annotation = _ANNOTATION.search(text)
            if annotation and not text.startswith(_OPEN_QUOTES):
                owner = self.current()
                if owner is not None:
                    owner.annotations.append((line, annotation.group(1)))
                text = text[: annotation.start()].rstrip()
                if not text:
                    continue
            if self.pending_heading is not None:
                pending, self.pending_heading = self.pending_heading, None
                if not self._looks_like_marker(text) and len(text) <= 250:
                    pending.heading = text
                    self.entries.append(_Entry(line, text))
                    continue
            owner = self.current()
            if (owner is not None and text.startswith(_OPEN_QUOTES) and not self.in_tail
                    and self._instruction_context(owner)):
                single = len(text) > 1 and _CLOSE_QUOTE_END.search(text[1:]) is not None
                self.entries.append(_Entry(line, text, quote=len(self.quotes)))
                if single:
                    self.quotes.append((owner, len(self.entries) - 1, len(self.entries)))
                else:
                    quote_owner, quote_start = owner, len(self.entries) - 1
                continue
            if not self.in_tail and self.stack and not self.fragment and _SIGNATURE.match(text):
                self._close_all()
                self.in_tail = True
            if self._try_markers(line, text):
                continue
            if self.in_tail:
                self.tail.append((line, text))
            elif self.stack:
                self.entries.append(_Entry(line, text))
            else:
                self.front.append((line, text))
        if quote_owner is not None:
            first = self.entries[quote_start]
            self.warn(first.line, "quotation opened here is never closed (truncated input?); "
                                  "it runs to the end of the text")
            self.quotes.append((quote_owner, quote_start, len(self.entries)))
        self._close_all()

    def _looks_like_marker(self, text: str) -> bool:
        return any(p.match(text) for p in (_ARTICLE, _CHAPTER, _SECTION, _PART, _SUBSECTION,
                                           _CLAUSE, _ANNEX))

    def _instruction_context(self, owner: Unit) -> bool:
        """A quote opens new wording only right after an instruction (``… như sau:``)."""
        idx = len(self.entries) - 1
        while idx >= owner.start:
            entry = self.entries[idx]
            if entry.quote is not None:
                return True  # a second quoted block of the same instruction
            if _ACTION_COLON.search(entry.text):
                return True
            if _ACTION.search(entry.text) and _UNIT_NAMED.search(entry.text):
                # "Sửa đổi, bổ sung khoản 4 Điều 44 của Luật …" then the wording, no "như sau:"
                return True
            if not _INSTRUCTION_END.search(entry.text):
                return False
            context = [entry.text] + [u.heading or "" for u in [owner, *owner.ancestors()]]
            return any(_ACTION.search(t) for t in context)
        return False

    def finish(self) -> Structure:
        for unit in self.units:
            if unit.own_end == 0 or unit.own_end > unit.end:
                unit.own_end = unit.end
            body = self.entries[unit.start:unit.end]
            unit.text = "\n".join(e.text for e in body)
            own = self.entries[unit.start:unit.own_end]
            unit.own_text = "\n".join(e.text for e in own if e.quote is None)
        for owner, first, last in self.quotes:
            lines = [(e.line, e.text) for e in self.entries[first:last]]
            if lines:
                lines[0] = (lines[0][0], lines[0][1][1:].lstrip())
                end_line, end_text = lines[-1]
                lines[-1] = (end_line, re.sub(r"[”\"’»][.;,]?\s*$", "", end_text).rstrip())
            owner.quotes.append(Quote([(n, t) for n, t in lines if t]))
        return Structure(self.units, self.front, self.tail, self.warnings)


def parse_structure(lines: list[tuple[int, str]], file: str, *, fragment: bool = False,
                    codification: bool = False) -> Structure:
    """Parse numbered lines into units.

    Args:
        lines: (line number in the source, text) in order.
        file: the input's name, for messages.
        fragment: parsing quoted new wording: any unit level may come first, no numbering checks.
        codification: article markers are Pháp điển codes (``Điều 2.2.LQ.1.``).

    Raises:
        IngestError: a duplicate article number (the document would have two units with one id).
    """
    parser = _Parser(file, fragment=fragment, codification=codification)
    parser.feed(lines if fragment else split_glued(lines))
    return parser.finish()
