"""The gold of ``hopgraph eval temporal``: wordings and dated questions read from a pair folder.

A pair folder has the ``vn-amend-dev`` layout: ``pairs.json`` (``{"pairs": [...]}``, each with
``amended_file``, ``amending_file``, ``amended_doc``, ``tier``, ``gold_file``,
``inserted_units_blanked_in_amended``), ``gold/*.jsonl`` (one amendment edge per line:
``target_unit``, ``kind``, ``by_unit``, ``effective_from`` …) and the plain texts.

Everything here reads the FILES, never the graph, so the gold is independent of the system under
test. The texts are read by a deliberately small reader of its own (:func:`read_units`: articles,
clauses, points, with the portal's repeated document-name prefix removed and quoted new wording
kept inside the unit that quotes it); hopgraph's loader is not used.

Wordings of a unit over time (:class:`Timeline`):

- before its first change: the amended document's own text of the unit (an inserted unit has
  none);
- from a gold edge's ``effective_from``: the wording the amending unit (``by_unit``) writes, i.e.
  its quoted text whose label is the unit's own (``“2. …”`` for khoản 2, ``“Điều 8a. …”``), or for
  a phrase substitution (``Thay thế cụm từ “A” bằng cụm từ “B”`` / ``Bỏ cụm từ “A”``) the previous
  wording with the phrase changed; a repeal (``bãi bỏ``) ends the unit (no wording) when the
  gold's ``subject`` names the unit itself (``Khoản này``). A repeal of words (``Cụm từ này``,
  ``Bỏ từ “X” trong cụm từ “Y”``) is a new wording, the previous one without them; a repeal
  described by content (``Quy định về … tại Khoản này``: the unit stays, minus something the
  instruction does not quote) gives no question: which words remain is not written anywhere.

Edges whose new wording cannot be read that way (several quotes and none with the unit's label,
an amendment of a part of the unit, no date, levels above the article) are skipped with the
reason, and counted.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Literal

from hopgraph.core.errors import HopgraphError

Phase = Literal["before", "on", "after"]
KINDS = {"sửa đổi": "amended", "thay thế": "replaced", "bổ sung": "supplemented",
         "bãi bỏ": "repealed"}
# Longest gap between a change and the "after" question (half the way to the next change).
AFTER_MAX_DAYS = 365
PHRASINGS = ("heading", "content", "reference")
# A shared run of words shorter than this names no subject (the content phrasing then cites).
MIN_CONTENT_WORDS = 4

_ARTICLE = re.compile(r"^Điều\s+(\d+[a-zđ]?)\s*[.:]\s*(.*)$", re.IGNORECASE)
_CLAUSE = re.compile(r"^(\d+[a-zđ]?)\.\s+(.*)$")
_POINT = re.compile(r"^([a-zđ]{1,2})\)\s+(.*)$")
_CHAPTER = re.compile(r"^(Chương|Mục|Phần|Phụ lục|PHỤ LỤC)\b", re.IGNORECASE)
_INLINE_CLAUSE = re.compile(r"\.\s+Khoản\s+(\d+[a-zđ]?)\.\s+")
_ADDRESS = re.compile(
    r"^(?:điểm\s+([a-zđ]{1,2})\s+)?(?:khoản\s+(\d+[a-zđ]?)\s+)?điều\s+(\d+[a-zđ]?)$", re.IGNORECASE)
_QUOTE = re.compile(r"“(.*?)”", re.DOTALL)
_SUBSTITUTE = re.compile(r"cụm từ\s+“([^”]+)”.*?bằng\s+cụm từ\s+“([^”]+)”", re.IGNORECASE | re.DOTALL)
_REMOVE = re.compile(r"\bbỏ\s+cụm từ\s+“([^”]+)”", re.IGNORECASE)
_EFFECTIVE = re.compile(r"có hiệu lực(?: thi hành)?(?: kể)? từ ngày\s+(\d{1,2})\s+tháng\s+(\d{1,2})"
                        r"\s+năm\s+(\d{4})", re.IGNORECASE)
# The text's own start ("Luật này có hiệu lực thi hành từ ngày …"), and a sentence that ends
# another document ("Luật … số 77/2015/QH13 … hết hiệu lực kể từ ngày …").
_OWN_START = re.compile(r"\bnày\s+có hiệu lực(?: thi hành)?(?: kể)? từ ngày\s+(\d{1,2})\s+tháng\s+"
                        r"(\d{1,2})\s+năm\s+(\d{4})", re.IGNORECASE)
_ENDS = re.compile(r"hết hiệu lực", re.IGNORECASE)
_PART = re.compile(r"\b(điều|khoản|điểm|chương|mục|phụ lục|quy định)\b", re.IGNORECASE)
_DOC_NUMBER = re.compile(r"\bsố\s+(\d+/\d{4}/[A-Za-zĐđ0-9-]+)")
_DATE = re.compile(r"từ ngày\s+(\d{1,2})\s+tháng\s+(\d{1,2})\s+năm\s+(\d{4})", re.IGNORECASE)
_LABEL = re.compile(r"^\s*(?:điều\s+\d+[a-zđ]?\s*[.:]|\d+[a-zđ]?\s*\.|[a-zđ]{1,2}\s*\))\s*",
                    re.IGNORECASE)


class GoldError(HopgraphError):
    """A pair folder cannot be read (missing or malformed pairs.json)."""


Address = tuple[str, str | None, str | None]  # (article, clause, point), lower case


def parse_address(text: str) -> Address | None:
    """``"Điểm a Khoản 1 Điều 3"`` -> ``("3", "1", "a")``; None for levels above the article."""
    m = _ADDRESS.match(" ".join(text.split()))
    if not m:
        return None
    point, clause, article = m.groups()
    return (article.lower(), clause.lower() if clause else None, point.lower() if point else None)


def address_label(addr: Address) -> str:
    """The marker a wording of this unit starts with: ``Điều 8a.``, ``2.``, ``b)``."""
    article, clause, point = addr
    if point:
        return f"{point})"
    if clause:
        return f"{clause}."
    return f"Điều {article}."


def cite(addr: Address) -> str:
    """``điểm a khoản 1 Điều 3``."""
    article, clause, point = addr
    parts = ([f"điểm {point}"] if point else []) + ([f"khoản {clause}"] if clause else [])
    return " ".join([*parts, f"Điều {article}"])


def normalise(text: str) -> str:
    """Compare form: NFC, lower case, no quotes, the unit's own label removed, single spaces."""
    t = unicodedata.normalize("NFC", text).lower()
    t = re.sub(r"[“”\"‘’'`]", " ", t)
    t = " ".join(t.split())
    t = _LABEL.sub("", t, count=1)
    return t.strip(" .;,:")


# -- reading the texts -------------------------------------------------------------------------

@dataclass
class TextUnits:
    """The units of one text: ``{address: text}``, article headings, and the stated start date."""

    units: dict[Address, str]
    headings: dict[str, str]
    effective: date | None
    name: str
    # the text's own start ("… này có hiệu lực … từ ngày", outside quotes; None when unstated)
    start: date | None = None
    # units whose label the reader met twice in one article or clause (a heading it did not
    # see, such as "XỬ LÝ TÀI SẢN Điều 87." on one line, runs two articles together): their
    # text is not known
    doubtful: frozenset[Address] = frozenset()
    # documents this text ends: number (compare form) -> the day they end (None: the day the
    # text itself starts)
    ends: dict[str, date | None] = field(default_factory=dict)


def read_units(text: str) -> TextUnits:
    """Read articles, clauses and points of a plain legal text (see the module docstring)."""
    lines = text.splitlines()
    name = lines[0].strip() if lines else ""
    prefix = name + ". " if name else None
    units: dict[Address, list[str]] = {}
    headings: dict[str, str] = {}
    article: str | None = None
    clause: str | None = None
    point: str | None = None
    depth = 0  # open quotation marks: lines inside a quoted new wording belong to its unit
    doubtful: set[Address] = set()

    def add(line: str) -> None:
        if article is None:
            return
        units.setdefault((article, None, None), []).append(line)
        if clause is not None:
            units.setdefault((article, clause, None), []).append(line)
            if point is not None:
                units.setdefault((article, clause, point), []).append(line)

    for raw in lines:
        line = raw.strip()
        if prefix and line.startswith(prefix):
            line = line[len(prefix):].strip()
        if not line:
            continue
        if depth > 0 and not _next_outer(line, article, clause, point):
            add(line)
            depth = max(0, depth + _balance(line))
            continue
        if line.startswith("“"):
            add(line)
            depth = max(0, _balance(line))
            continue
        m = _ARTICLE.match(line)
        if m:
            article, clause, point = m.group(1).lower(), None, None
            rest = m.group(2)
            inline = _INLINE_CLAUSE.search(rest)
            heading = rest[: inline.start()] if inline else rest
            if (article, None, None) not in units:
                headings[article] = heading.strip().rstrip(".")
                units[(article, None, None)] = [f"Điều {m.group(1)}. {heading.strip()}"]
            if inline:
                clause = inline.group(1).lower()
                body = f"{clause}. {rest[inline.end():]}"
                units[(article, clause, None)] = []
                add(body)
                depth = max(0, _balance(body))
            continue
        if _CHAPTER.match(line):
            article, clause, point = None, None, None
            continue
        if article is None:
            continue
        m = _CLAUSE.match(line)
        if m:
            clause, point = m.group(1).lower(), None
            if units.get((article, clause, None)):
                doubtful.add((article, clause, None))
            units[(article, clause, None)] = []
            add(line)
            depth = max(0, _balance(line))
            continue
        m = _POINT.match(line)
        if m and clause is not None:
            point = m.group(1).lower()
            if units.get((article, clause, point)):
                doubtful.add((article, clause, point))
            units[(article, clause, point)] = []
        add(line)
        depth = max(0, _balance(line))
    eff = None
    for m in _EFFECTIVE.finditer(text):
        try:
            eff = date(int(m.group(3)), int(m.group(2)), int(m.group(1)))
        except ValueError:
            continue
    start = _own_start(text)
    bad = frozenset(a for a in units if any(d[0] == a[0] and (d[1] == a[1] or a[1] is None)
                                               and (d[2] is None or d[2] == a[2] or a[2] is None)
                                               for d in doubtful))
    return TextUnits({a: "\n".join(v) for a, v in units.items() if v}, headings, eff, name,
                     start, bad, _ends(text))


def number_form(number: str) -> str:
    """A document number in compare form: upper case, Đ as D, no spaces, no leading zeros
    (``08/2015/NĐ-CP`` and ``8/2015/ND-CP`` are one number)."""
    form = "".join(unicodedata.normalize("NFC", number).upper().replace("Đ", "D").split())
    return re.sub(r"^0+(?=\d)", "", form)


def _quote_depth(text: str, pos: int) -> int:
    return text.count("“", 0, pos) - text.count("”", 0, pos)


def _own_start(text: str) -> date | None:
    """The day the text says it starts (its first "… này có hiệu lực … từ ngày" outside quotes:
    an amending text that quotes a new start for another document states its own later)."""
    for m in _OWN_START.finditer(text):
        if _quote_depth(text, m.start()) > 0:
            continue
        try:
            return date(int(m.group(3)), int(m.group(2)), int(m.group(1)))
        except ValueError:
            continue
    return None


def _ends(text: str) -> dict[str, date | None]:
    """Documents the text ends: in a sentence outside quotes that says "… hết hiệu lực", the first
    document number of that sentence (the subject: "Luật … số 77/2015/QH13 đã được sửa đổi …
    theo Luật số 21/2017/QH14 … hết hiệu lực"), from the date the sentence states or else the
    text's own start (None)."""
    out: dict[str, date | None] = {}
    for m in _ENDS.finditer(text):
        if _quote_depth(text, m.start()) > 0:
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        before = re.split(r"[;:]\s|\.\s+(?=[A-ZĐ])", text[line_start:m.start()])[-1]
        num = _DOC_NUMBER.search(before)
        if num is None or _PART.search(before[: num.start()]):
            continue  # no number, or a part of a document ends ("Điều 5 của Nghị định số …")
        line_end = text.find("\n", m.end())
        after = text[m.end(): line_end if line_end >= 0 else len(text)][:160]
        when: date | None = None
        d = _DATE.search(after)
        if d and "này" not in after[: d.start()][-40:]:
            try:
                when = date(int(d.group(3)), int(d.group(2)), int(d.group(1)))
            except ValueError:
                when = None
        out.setdefault(number_form(num.group(1)), when)
    return out


_INSTRUCTION = re.compile(r"\b(sửa đổi|bổ sung|bãi bỏ|thay thế|bỏ|thay|hủy bỏ)\b", re.IGNORECASE)
_LETTERS = "abcdđefghiklmnopqrstuvxy"


def _next_outer(line: str, article: str | None, clause: str | None, point: str | None) -> bool:
    """A line inside an unclosed quotation that is, in fact, the amending text's own next unit:
    the next article, or the next clause or point stating an instruction (a quotation mark the
    text forgot to close must not swallow the rest of the document)."""
    m = _ARTICLE.match(line)
    if m and article and article.isdigit() and m.group(1).isdigit():
        return int(m.group(1)) == int(article) + 1
    if not _INSTRUCTION.search(line[:80]):
        return False
    m = _CLAUSE.match(line)
    if m and clause and clause.isdigit() and m.group(1).isdigit():
        return int(m.group(1)) == int(clause) + 1
    m = _POINT.match(line)
    if m and point and point in _LETTERS and _LETTERS.index(point) + 1 < len(_LETTERS):
        return m.group(1) == _LETTERS[_LETTERS.index(point) + 1]
    return False


def _balance(line: str) -> int:
    return line.count("“") - line.count("”")


def quoted(text: str) -> list[str]:
    """The outermost “…” passages of ``text``, nested quotes kept inside them (a new wording
    that quotes a stamp, “VIET NAM CUSTOMS”, is one passage). Where the quotes do not balance
    (a closing quote missing), the passages are read as if no quote nested."""
    out: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch == "“":
            if depth == 0:
                start = i + 1
            depth += 1
        elif ch == "”" and depth > 0:
            depth -= 1
            if depth == 0:
                out.append(text[start:i])
    if depth:
        return _QUOTE.findall(text)
    return out


def new_wording(instruction: str, target: Address, previous: str | None) -> tuple[str | None, str]:
    """The wording an amending unit's text gives ``target``, and how it was read
    (``quoted`` / ``phrase`` / a reason it could not be)."""
    quotes = [q.strip() for q in quoted(instruction) if q.strip()]
    label = normalise_label(address_label(target))
    own = [q for q in quotes if normalise_label(q).startswith(label)]
    if len(own) == 1:
        return own_part(own[0], target), "quoted"
    if len(own) > 1:
        return None, "several quoted wordings carry the unit's label"
    sub = _SUBSTITUTE.search(instruction)
    if sub and previous:
        old, new = sub.group(1).strip(), sub.group(2).strip()
        if old in previous:
            return previous.replace(old, new), "phrase"
        return None, "substituted phrase not in the previous wording"
    rem = _REMOVE.search(instruction)
    if rem and previous:
        old = rem.group(1).strip()
        if old in previous:
            return " ".join(previous.replace(old, "").split()), "phrase"
        return None, "removed phrase not in the previous wording"
    if quotes:
        return None, "no quoted wording starts with the unit's label (part of the unit changed)"
    return None, "the amending unit quotes no wording"


_WHOLE_UNIT = re.compile(r"^(?:điều|khoản|điểm|tiết|mẫu|phụ lục|chương|mục|phần)\s+này$",
                         re.IGNORECASE)
_WORDS_OF = re.compile(r"\bbỏ\s+(?:từ|cụm từ)\s+“([^”]+)”\s+trong\s+cụm từ\s+“([^”]+)”",
                       re.IGNORECASE)
_PHRASE_SUBJECT = re.compile(r"^c[uụ]m\s+từ\b", re.IGNORECASE)


def repeal_scope(subject: str | None) -> Literal["unit", "words", "content"]:
    """What a repeal edge takes away, from the gold's ``subject``: the unit itself (``Khoản
    này``; no subject: the unit), words of it (``Cụm từ này``, ``Cụm từ “khoản 1” tại Khoản
    này``, ``Bỏ từ “phạt” trong cụm từ “tiền phạt chậm nộp” …``), or content it describes
    without quoting (``Quy định về doanh nghiệp quốc phòng an ninh tại Khoản này``)."""
    text = " ".join(unicodedata.normalize("NFC", subject or "").split()).strip(" .")
    if not text or _WHOLE_UNIT.match(text):
        return "unit"
    if _PHRASE_SUBJECT.match(text) or _WORDS_OF.search(text):
        return "words"
    return "content"


def without_words(instruction: str, subject: str | None, previous: str | None
                  ) -> tuple[str | None, str]:
    """The wording left when a repeal takes words out of ``previous``, and how it was read:
    ``bỏ từ “X” trong cụm từ “Y”`` (Y loses X); else every phrase of a ``bỏ cụm từ “A” và cụm
    từ “B”`` run that ``previous`` holds goes (longest first), then any ``từ “C” thành / bằng
    “D”`` the same instruction writes beside it is applied."""
    if not previous:
        return None, "the unit has no wording to take words from"
    for source in (subject or "", instruction):
        m = _WORDS_OF.search(source)
        if m:
            word, phrase_ = m.group(1).strip(), m.group(2).strip()
            if phrase_ in previous and word in phrase_:
                shorter = " ".join(phrase_.replace(word, " ", 1).split())
                return previous.replace(phrase_, shorter), "words"
            return None, "removed phrase not in the previous wording"
    runs = [m.group(0) for m in _REMOVE_RUN.finditer(instruction)]
    gone = [q.strip() for run in runs for q in _QUOTE.findall(run) if q.strip() in previous]
    if not gone:
        return None, "removed phrase not in the previous wording"
    text = previous
    for q in sorted(dict.fromkeys(gone), key=len, reverse=True):
        text = text.replace(q, " ")
    rest = _REMOVE_RUN.sub(" ", instruction)
    for m in _SUBSTITUTE_ANY.finditer(rest):
        text = text.replace(m.group(1).strip(), m.group(2).strip())
    text = " ".join(text.split())
    for mark in (",", ".", ";", ":"):
        text = text.replace(" " + mark, mark)
    return text, "words"


_REMOVE_RUN = re.compile(r"\bbỏ\s+(?:các\s+)?(?:cụm\s+)?từ\s+“[^”]+”"
                         r"(?:\s*(?:,|và|;)?\s*(?:cụm\s+)?từ\s+“[^”]+”)*", re.IGNORECASE)
_SUBSTITUTE_ANY = re.compile(r"(?:cụm\s+)?từ\s+“([^”]+)”\s+(?:bằng|thành)\s+(?:cụm\s+)?(?:từ\s+)?"
                             r"“([^”]+)”", re.IGNORECASE)


# The line that starts the next unit of the target's level (or a higher one) inside a quotation
# that rewrites several units at once ("“1. … \n2. …”" for khoản 1): the target's wording ends
# before it.
_SIBLING = {"article": re.compile(r"^\s*“?\s*Điều\s+\d+[a-zđ]?\s*[.:]", re.IGNORECASE),
            "clause": re.compile(r"^\s*“?\s*(?:Điều\s+\d+[a-zđ]?\s*[.:]|\d+[a-zđ]?\.\s)",
                                 re.IGNORECASE),
            "point": re.compile(r"^\s*“?\s*(?:Điều\s+\d+[a-zđ]?\s*[.:]|\d+[a-zđ]?\.\s|"
                                r"[a-zđ]{1,2}\)\s)", re.IGNORECASE)}


def own_part(quote: str, target: Address) -> str:
    """The target's own wording in a quotation that starts with its label: up to the first
    later line that starts another unit of its level or above (a quotation of "khoản 1" that
    also rewrites khoản 2 gives khoản 1 only; a clause keeps its points)."""
    level = "point" if target[2] else "clause" if target[1] else "article"
    lines = quote.splitlines()
    for i, line in enumerate(lines[1:], start=1):
        if _SIBLING[level].match(line):
            return "\n".join(lines[:i]).strip()
    return quote


def normalise_label(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).lower().split())


# -- timelines ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Wording:
    """One wording of a unit and the day it starts (None: the document's own text)."""

    text: str | None  # None: the unit does not exist (not yet inserted, or repealed)
    start: date | None
    source: str       # "original", or the amending document and unit
    doc_number: str = ""            # the amending document's number ("" for the original)
    by: Address | None = None       # the amending unit


@dataclass
class Timeline:
    """The wordings of one unit in date order."""

    doc: str                 # the amended document's name from pairs.json
    doc_number: str
    address: Address
    heading: str
    wordings: list[Wording]
    kinds: list[str]         # one per change (amended, replaced, supplemented, repealed, inserted)
    tier: str

    def at(self, day: date) -> int:
        """Index of the wording in force on ``day``."""
        idx = 0
        for i, w in enumerate(self.wordings):
            if w.start is None or w.start <= day:
                idx = i
        return idx


@dataclass
class Gold:
    """What a pair folder yields: the timelines, the files to load, and the skipped edges."""

    timelines: list[Timeline]
    files: list[Path]
    skipped: Counter[str] = field(default_factory=Counter)
    pairs: int = 0
    edges: int = 0
    # Every dated gold change of an article, clause or point, by amended document name (also the
    # edges whose new wording could not be read): a change of a part of a unit, or of the unit
    # it belongs to, changes what is in force of it too.
    # ``whole`` is False for a change of a named part of the unit itself (its name or opening
    # words: the gold's ``target_qualifier``), which gives it no whole wording.
    changed: dict[str, list[tuple[Address, date, bool]]] = field(default_factory=dict)
    # Dated questions not asked, by reason (see :func:`generate_questions`).
    skipped_questions: Counter[str] = field(default_factory=Counter)
    # When each amended document (by name) is in force, as the folder's texts say: from its
    # own start (or its earliest gold change, when an amendment moved the start earlier) until a
    # text of the folder ends it ("… hết hiệu lực"); None where no text says.
    starts: dict[str, date] = field(default_factory=dict)
    ends: dict[str, date] = field(default_factory=dict)


def read_pairs(folder: Path, *, tier: str | None = None) -> Gold:
    """Read ``folder`` (vn-amend-dev layout) into timelines; ``tier`` keeps the timelines a
    pair of that tier changes (each timeline holds the changes of every pair of the folder: a
    unit amended by a pair of another tier in between has that wording too).

    Raises:
        GoldError: ``pairs.json`` is missing, not JSON, or has no pairs (of that tier).
    """
    meta = folder / "pairs.json"
    if not meta.is_file():
        raise GoldError(f"{folder}: no pairs.json (expected the vn-amend-dev layout)")
    try:
        pairs = json.loads(meta.read_text(encoding="utf-8"))["pairs"]
    except (ValueError, KeyError, TypeError) as err:
        raise GoldError(f"{meta}: not a pairs file ({err})") from err
    if not isinstance(pairs, list):
        raise GoldError(f"{meta}: 'pairs' is not a list")
    pairs = [p for p in pairs if isinstance(p, dict)]
    if not any(tier is None or p.get("tier") == tier for p in pairs):
        raise GoldError(f"{meta}: no pairs{f' of tier {tier!r}' if tier else ''}")
    texts: dict[Path, TextUnits] = {}
    files: list[Path] = []
    skipped: Counter[str] = Counter()
    # (amended file, address) -> list of (date, kind, by wording source, amending file, by_unit)
    changes: dict[tuple[Path, Address], list[tuple[date, str, Path, str, str, dict[str, str]]]] = {}
    changed: dict[str, list[tuple[Address, date, bool]]] = {}
    edges = 0

    def text_of(path: Path) -> TextUnits | None:
        if path not in texts:
            try:
                texts[path] = read_units(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                return None
        return texts[path]

    n_pairs = 0
    for p in pairs:
        in_tier = tier is None or p.get("tier") == tier
        # a pair of another tier completes the timelines; its skips are not this tier's
        sk: Counter[str] = skipped if in_tier else Counter()
        try:
            amended = folder / p["amended_file"]
            amending = folder / p["amending_file"]
            gold_path = folder / p["gold_file"]
        except (KeyError, TypeError):
            sk["pair without amended_file / amending_file / gold_file"] += 1
            continue
        if text_of(amended) is None or text_of(amending) is None or not gold_path.is_file():
            sk["pair whose text or gold file cannot be read"] += 1
            continue
        if in_tier:
            n_pairs += 1
            files.extend(f for f in (amended, amending) if f not in files)
        inserted = {normalise_label(u) for u in p.get("inserted_units_blanked_in_amended") or []}
        meta_p = {"doc": str(p.get("amended_doc") or amended.stem),
                  "number": str(p.get("amended_number") or ""), "tier": str(p.get("tier") or ""),
                  "amending_number": str(p.get("amending_number") or "")}
        for line in gold_path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            edges += in_tier
            try:
                e = json.loads(line)
                unit, kind, by_unit = e["target_unit"], e["kind"], e["by_unit"]
            except (ValueError, KeyError, TypeError):
                sk["malformed gold line"] += 1
                continue
            addr = parse_address(str(unit))
            if addr is None:
                sk["target above the article (chapter, section, annex, document)"] += 1
                continue
            if kind not in KINDS:
                sk[f"kind {kind!r}"] += 1
                continue
            if e.get("verify") == "no_match":
                sk["gold's own check found no match (verify no_match)"] += 1
                continue
            try:
                day = date.fromisoformat(str(e.get("effective_from")))
            except ValueError:
                sk["no effective date"] += 1
                continue
            by = parse_address(str(by_unit or ""))
            if by is None:
                sk["amending unit not an article, clause or point"] += 1
                continue
            if e.get("target_qualifier"):
                # "Sửa đổi tên Điều 25": the quote is the new name, not the article's wording
                changed.setdefault(meta_p["doc"], []).append((addr, day, False))
                sk["a named part of the unit changed (its name or opening words): the whole "
                        "new wording is written nowhere as one text"] += 1
                continue
            how = "inserted" if kind == "bổ sung" and normalise_label(str(unit)) in inserted \
                else KINDS[kind]
            if how == "repealed":
                scope = repeal_scope(e.get("subject"))
                if scope == "content":
                    sk["partial repeal described by content (the unit stays; the words "
                            "taken out are not quoted)"] += 1
                    continue
                if scope == "words":
                    how = "words removed"
            changes.setdefault((amended, addr), []).append(
                (day, how, amending, str(by_unit), str(e.get("subject") or ""), meta_p))
            changed.setdefault(meta_p["doc"], []).append((addr, day, True))
    timelines: list[Timeline] = []
    amended_files: dict[str, Path] = {}
    for (amended, addr), evs in changes.items():
        if tier is not None and not any(ev[5]["tier"] == tier for ev in evs):
            continue
        base = texts[amended]
        evs = sorted(evs, key=lambda ev: ev[0])
        own = base.units.get(addr)
        if evs[0][1] == "inserted":
            own = None
        elif own is None:
            skipped["unit not found in the amended text"] += len(evs)
            continue
        elif addr in base.doubtful:
            skipped["unit read twice in the amended text (a heading the reader did not see): "
                    "its wording is not known"] += len(evs)
            continue
        wordings = [Wording(own, None, "original")]
        kinds: list[str] = []
        for day, how, amending, by_unit, subject, meta_e in evs:
            if amending not in files:  # a change of a pair of another tier: its text too
                files.append(amending)
            number = number_form(meta_e["amending_number"])
            if wordings[-1].start == day:
                skipped["two changes of the unit on one day"] += 1
                continue
            src = f"{texts[amending].name or amending.stem}: {by_unit}"
            if how == "repealed":
                wordings.append(Wording(None, day, src, number, parse_address(by_unit)))
                kinds.append(how)
                continue
            by_addr = parse_address(by_unit)
            instruction = texts[amending].units.get(by_addr) if by_addr else None
            if instruction is None:
                skipped["amending unit not found in the amending text"] += 1
                break
            if how == "words removed":
                text, how_read = without_words(instruction, subject, wordings[-1].text)
            else:
                text, how_read = new_wording(instruction, addr, wordings[-1].text)
            if text is None:
                skipped[how_read] += 1
                break
            wordings.append(Wording(text, day, src, number, by_addr))
            kinds.append(how)
        if len(wordings) < 2:
            continue
        meta_p = evs[0][5]
        heading = base.headings.get(addr[0], "")
        if not heading:
            first = next((w.text for w in wordings if w.text), "")
            m = _ARTICLE.match(first.splitlines()[0]) if first else None
            heading = m.group(2).strip() if m else ""
        timelines.append(Timeline(meta_p["doc"], meta_p["number"], addr, heading, wordings, kinds,
                                  tier or meta_p["tier"]))
        amended_files[meta_p["doc"]] = amended
    timelines.sort(key=lambda t: (t.doc, [a or "" for a in t.address]))
    # A text starts on the day it says, or earlier when a gold change of it is in force
    # before that day (an amendment moved its start: 31/2024/QH15 from 01/01/2025 to 01/08/2024).
    first_change: dict[Path, date] = {}
    for (amended, _addr), evs in changes.items():
        for ev in evs:
            first_change[amended] = min(ev[0], first_change.get(amended, ev[0]))

    def start_of(path: Path) -> date | None:
        own = texts[path].start
        return None if own is None else min(own, first_change.get(path, own))
    ended: dict[str, date] = {}
    for path, tu in texts.items():
        for key, stated in tu.ends.items():
            when = stated if stated is not None else start_of(path)
            if when is not None:
                ended[key] = min(when, ended.get(key, when))
    starts: dict[str, date] = {}
    ends: dict[str, date] = {}
    for tl in timelines:
        start = start_of(amended_files[tl.doc])
        if start is not None:
            starts[tl.doc] = start
        end = ended.get(number_form(tl.doc_number)) if tl.doc_number else None
        if end is not None:
            ends[tl.doc] = end
    return Gold(timelines, files, skipped, n_pairs, edges, changed, starts=starts, ends=ends)


# -- questions ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Question:
    """One dated question and its gold: the index of the wording in force (None: none is)."""

    id: str
    text: str
    as_of: date
    phase: Phase
    phrasing: str
    timeline: int            # index into Gold.timelines
    expected: int | None     # index into that timeline's wordings, None when no wording applies
    change_kind: str
    paraphrased_by: str | None = None
    template: str | None = None


def _content_words(texts: Sequence[str | None], n: int = 14) -> str:
    """The longest run of words every given wording shares, in order (its label removed), cut
    to ``n`` words; a run of under ``MIN_CONTENT_WORDS`` words is no cue (``""``).

    A run, not a set: scattered shared words ("danh sách thành được") name nothing a reader
    would write; a run common to every wording names the unit's subject without giving away
    which wording holds (the part that changed is left out).
    """
    present = [normalise(t).split() for t in texts if t]
    if not present:
        return ""
    first = present[0]
    # longest[i]: the longest run starting at first[i] that every other wording contains
    longest = [len(first) - i for i in range(len(first))]
    for other in present[1:]:
        below = [0] * (len(other) + 1)  # common prefix of first[i+1:] and other[j:]
        for i in range(len(first) - 1, -1, -1):
            row = [0] * (len(other) + 1)
            for j in range(len(other) - 1, -1, -1):
                if first[i] == other[j]:
                    row[j] = below[j + 1] + 1
            below = row
            longest[i] = min(longest[i], max(row, default=0))
    if not longest or max(longest) < MIN_CONTENT_WORDS:
        return ""
    start = max(range(len(longest)), key=lambda i: (longest[i], -i))
    return " ".join(first[start:start + min(longest[start], n)]).strip(" .;,:")


def document_name(tl: Timeline) -> str:
    """The amended document as a reader names it: its name from pairs.json (``Luật Doanh nghiệp
    2020``, ``Nghị định 08/2015/NĐ-CP``)."""
    return tl.doc


def document_number(tl: Timeline) -> str:
    """The document by its type and number (``Luật số 59/2020/QH14``; a name that already
    carries the number is kept: ``Nghị định 08/2015/NĐ-CP``)."""
    if not tl.doc_number or tl.doc_number in tl.doc:
        return tl.doc
    kind = tl.doc.split()[0] if tl.doc else "văn bản"
    return f"{kind} số {tl.doc_number}"


def phrase(tl: Timeline, day: date, phrasing: str, texts: Sequence[str | None]) -> str:
    """A Vietnamese question about the unit's content at ``day``, in one of ``PHRASINGS``.

    Every phrasing names the document (its name or its number) and either the unit
    (``reference``, ``heading``) or its content (``content``: the longest run of words all its
    wordings share), as a reader who asks about a provision would: a question that names
    neither ("quy định về các hành vi bị nghiêm cấm là gì?") has as many right answers as the
    corpus has such articles. Nothing here reads the graph.
    """
    d = day.strftime("%d/%m/%Y")
    heading = (tl.heading or "").strip().rstrip(".").lower()
    about = f" ({heading})" if heading else ""
    if phrasing == "heading":
        subject = f" về {heading}" if heading else ""
        return (f"Tại ngày {d}, {cite(tl.address)} {document_number(tl)}{subject} "
                f"quy định như thế nào?")
    if phrasing == "content":
        words = _content_words(texts)
        if words:
            return (f"Theo {document_name(tl)} áp dụng ngày {d}, nội dung “{words}” "
                    f"được quy định như thế nào?")
        return (f"Theo {document_name(tl)} áp dụng ngày {d}, {cite(tl.address)}{about} "
                f"được quy định như thế nào?")
    return (f"{cite(tl.address)} {document_name(tl)}{about} quy định như thế nào "
            f"tại ngày {d}?")


NESTED = ("a part of the unit, or the unit it belongs to, changed between its wording's start "
          "and the date (the wording in force then is written nowhere as one text)")


NOT_YET = ("the amended document was not yet in force on the date (before the start its text "
           "states, or the earliest change of it)")
ENDED = ("the amended document was no longer in force on the date (a text of the folder says it "
         "ends: \"… hết hiệu lực\")")


def nested(a: Address, b: Address) -> bool:
    """``a`` and ``b`` are one unit, or one holds the other (an article and its clause)."""
    la, lb = [x for x in a if x], [x for x in b if x]
    n = min(len(la), len(lb))
    return n > 0 and la[:n] == lb[:n]


def _within(a: Address, b: Address) -> bool:
    """``a`` and ``b`` are two different units, one inside the other (a clause and its point)."""
    return a != b and nested(a, b)


def _nested_change(gold: Gold, tl: Timeline, idx: int, day: date) -> bool:
    """A gold change of a part of ``tl``'s unit, of a unit above it, or of a named part of the
    unit itself (its name) took effect after the wording ``idx`` started and by ``day``: what is
    in force on ``day`` is then neither that wording nor any other one text the files hold (an
    article whose clause was amended in 2018 is not the article's own text of 2015 in 2025)."""
    start = tl.wordings[idx].start
    return any((_within(addr, tl.address) or (addr == tl.address and not whole))
               and (start is None or start < when) and when <= day
               for addr, when, whole in gold.changed.get(tl.doc, ()))


def generate_questions(gold: Gold, *, seed: int = 0, phrasings_per_date: int = 1
                       ) -> list[Question]:
    """For every change of every timeline: a question the day before it, on its day, and after
    it (half-way to the next change, at most ``AFTER_MAX_DAYS``), each in
    ``phrasings_per_date`` of the ``PHRASINGS`` drawn with ``seed``; no question on a day when a
    part of the unit, the unit above it or the unit's name has changed since the wording then in
    force started, before the amended document's start or after a text of the folder ends it
    (counted in ``gold.skipped_questions``)."""
    gold.skipped_questions.clear()
    rng = random.Random(seed)
    out: list[Question] = []
    for ti, tl in enumerate(gold.timelines):
        for ci in range(1, len(tl.wordings)):
            start = tl.wordings[ci].start
            assert start is not None
            nxt = tl.wordings[ci + 1].start if ci + 1 < len(tl.wordings) else None
            gap = AFTER_MAX_DAYS if nxt is None else min(AFTER_MAX_DAYS, (nxt - start).days // 2)
            days: list[tuple[Phase, date]] = [("before", start - timedelta(days=1)),
                                              ("on", start)]
            if gap >= 1:
                days.append(("after", start + timedelta(days=gap)))
            texts = [w.text for w in tl.wordings]
            for phase_, day in days:
                idx = tl.at(day)
                expected = idx if tl.wordings[idx].text is not None else None
                # drawn first: a question left out does not change the others' phrasings
                drawn = rng.sample(PHRASINGS, k=min(phrasings_per_date, len(PHRASINGS)))
                if _nested_change(gold, tl, idx, day):
                    gold.skipped_questions[NESTED] += len(drawn)
                    continue
                if tl.doc in gold.starts and day < gold.starts[tl.doc]:
                    gold.skipped_questions[NOT_YET] += len(drawn)
                    continue
                if tl.doc in gold.ends and day >= gold.ends[tl.doc]:
                    gold.skipped_questions[ENDED] += len(drawn)
                    continue
                for phrasing in drawn:
                    qid = f"t{ti}.c{ci}.{phase_}.{phrasing}"
                    out.append(Question(qid, phrase(tl, day, phrasing, texts), day, phase_,
                                        phrasing, ti, expected, tl.kinds[ci - 1]))
    return out


def sample_questions(questions: Iterable[Question], limit: int | None, seed: int = 0
                     ) -> list[Question]:
    """At most ``limit`` questions drawn with ``seed`` (all when None), in their first order."""
    qs = list(questions)
    if limit is None or limit >= len(qs):
        return qs
    keep = set(random.Random(seed).sample(range(len(qs)), limit))
    return [q for i, q in enumerate(qs) if i in keep]
