"""Line layout repairs before the structure parser: what a text says stays, where it sits changes.

Real copies of legal texts put units on lines in ways the markers' line-start rule cannot read:

- **portal copies** repeat the document's name before some units (``Luật Doanh nghiệp 2020.
  Điều 5. Bảo đảm …``) and sometimes a whole path (``… Điều 1. Sửa đổi … Khoản 3. Bổ sung …``);
  the prefix is removed and a repeated path is cut into its units;
- **a quote opening on the instruction's own line** (``… như sau: “4. Áp dụng …``) is moved to a
  line of its own, so the quoted new wording is read as a quote;
- **the word ``Điều`` alone on a line** and the article's number and name on the next are joined;
- **a first point glued to its clause's opening words** (``Ủy ban nhân dân cấp huyện: a) Xác
  nhận …`` with ``b) …`` on the next line) is put on a line of its own;
- **an instruction broken over two lines** (``1. Bổ sung các khoản 4, 5 và 6 vào`` /
  ``Điều 4 như sau:``) is joined: a line that opens in lower case, or with ``Điều`` (an article
  marker too: a known over-reach, kept as it was), continues an instruction line with no closing
  punctuation.

Line numbers are kept (a split line's parts share its number), so messages still name the
source line.
"""

from __future__ import annotations

import re
from collections import Counter

from hopgraph.core.vocabulary import CHANGE_VERBS

Lines = list[tuple[int, str]]

_MARKERS = r"(?:Điều|ĐIỀU|Chương|CHƯƠNG|Mục|MỤC|Phần|PHẦN|Tiểu mục|TIỂU MỤC|Phụ lục|PHỤ LỤC)"
_PREFIXED = re.compile(rf"^(?P<prefix>[^“”\"]{{3,160}}?)\.\s+(?={_MARKERS}\s+[\dIVXLC])")
_PATH_CLAUSE = re.compile(r"\.\s+Khoản\s+(\d{1,3}[a-zđ]?)\.\s+")
_PATH_POINT = re.compile(r"\.\s+Điểm\s+([a-zđ])\)?\.?\s+")
_ARTICLE_HEAD = re.compile(r"^(Điều\s+\d{1,4}[a-zđ]?)\.")
_QUOTE_ON_LINE = re.compile(r"(?:như\s+sau|sau\s+đây)\s*:\s*(?=[“\"«])", re.IGNORECASE)
_CLOSED = re.compile(r"[.:;!?”\"’»)\]]\s*$")
_POINT_AFTER_FIRST = re.compile(r"^.[\dđ]?\)")


def _opens_lower(text: str) -> bool:
    """The line opens in lower case and is no point marker (``a)``, ``b1)``, ``dđ)``): a
    capital Vietnamese letter (``Đ``, ``Ủ``, ``Ư``) is not lower case."""
    return text[:1].islower() and not _POINT_AFTER_FIRST.match(text)


_OPENS_UNIT = re.compile(r"^(?:\d{1,3}[a-zđ]?\.|[a-zđ]\d?\)|[-–+•])")


def portal_prefix(lines: Lines) -> str | None:
    """The name a portal copy repeats before units, when at least two unit lines carry it."""
    counts: Counter[str] = Counter()
    for _, text in lines:
        m = _PREFIXED.match(text.strip())
        if m and not re.match(rf"^{_MARKERS}\s", m.group("prefix")):
            counts[m.group("prefix").strip()] += 1
    if not counts:
        return None
    prefix, n = counts.most_common(1)[0]
    return prefix if n >= 2 else None


def _strip_portal(lines: Lines, prefix: str) -> Lines:
    out: Lines = []
    lead = prefix + "."
    current_article: str | None = None
    for line, raw in lines:
        text = raw.strip()
        if not text.startswith(lead):
            out.append((line, raw))
            continue
        rest = text[len(lead):].strip()
        head = _ARTICLE_HEAD.match(rest)
        clause = _PATH_CLAUSE.search(rest)
        if head and clause:
            article_part, unit_part = rest[: clause.start()], rest[clause.start():]
            if head.group(1) != current_article:
                out.append((line, article_part))
                current_article = head.group(1)
            unit_part = _PATH_CLAUSE.sub(lambda m: f"\n{m.group(1)}. ", unit_part, count=1)
            unit_part = _PATH_POINT.sub(lambda m: f"\n{m.group(1)}) ", unit_part, count=1)
            out.extend((line, part) for part in unit_part.split("\n") if part.strip())
            continue
        if head:
            current_article = head.group(1)
        out.append((line, rest))
    return out


# a quote closes after a word or a stop, never after a blank or a colon: a straight quote after
# "như sau: " opens the new wording ("… như sau: "Điều 24. Trách nhiệm …") and is not cut off
_CLOSE_THEN_ARTICLE = re.compile(r"(?<=[^\s:][”\"])\s*[.;]?\s*(?=Điều\s+\d{1,4}[a-zđ]?(?:\.?\s+[A-ZĐÀ-Ỹ]"
                                 r"|\.\s*$))")


_NEW_WORDING = re.compile(r"\s*(?=[“\"](?:\d{1,3}[a-zđ]?\.\s|[a-zđ]\)\s|Điều\s+\d))")
# one quoted new wording closed and the next opened on the same line (``… phải nộp.” “6. Chính
# phủ …``: one instruction quoting the wordings of several targets): each quote on its own line;
# the two quotes may be of either kind (``… Chính phủ.” "5. Thu nhập …``, a copy mixing them)
_CLOSE_THEN_WORDING = re.compile(r"(?<=[^\s:][”\"])[.;,]?[ \t]*(?=[“\"](?:\d{1,3}[a-zđ]?\.\s|[a-zđ]\d?\)\s"
                                 r"|Điều\s+\d{1,4}[a-zđ]?\.\s))")


def _quote_after_target(raw: str) -> re.Match[str] | None:
    """``Sửa đổi, bổ sung khoản 4 Điều 44 của Luật … số … “4. …``: new wording opened on the
    instruction's line without ``như sau:`` (never a phrase edit's ``cụm từ “…”``)."""
    if not _instruction_like(raw.strip()):
        return None
    m = _NEW_WORDING.search(raw)
    if m is None or m.start() == 0:
        return None
    before = raw[: m.start()].rstrip()
    if re.search(r"(?:từ|ngữ|bằng|cụm)$", before) or "“" in before or '"' in before:
        return None
    return m


# a quoted wording left open and the next one opened on the same line (``“6. Khai sai … được
# thông quan “9. Sử dụng …”``): the first is closed there, each on its own line
_QUOTED_WORDING_LINE = re.compile(r"^[“\"](?:\d{1,3}[a-zđ]?\.\s|[a-zđ]\d?\)\s|Điều\s+\d)")
_UNCLOSED_THEN_WORDING = re.compile(r"(?<=[^\s:“”\"])[ \t]+(?=“(?:\d{1,3}[a-zđ]?\.\s|[a-zđ]\d?\)\s"
                                    r"|Điều\s+\d{1,4}[a-zđ]?\.\s))")


def _close_unclosed(whole: str) -> list[str]:
    if not _QUOTED_WORDING_LINE.match(whole.strip()):
        return [whole]
    m = _UNCLOSED_THEN_WORDING.search(whole)
    if m is None or "”" in whole[: m.start()] or '"' in whole[1: m.start()]:
        return [whole]
    return [whole[: m.start()] + "”", *_close_unclosed(whole[m.end():])]


def _split_quotes(lines: Lines) -> Lines:
    out: Lines = []
    for line, whole in lines:
        for raw in (part for piece in _CLOSE_THEN_WORDING.split(whole)
                    for part in _close_unclosed(piece)):
            close = _CLOSE_THEN_ARTICLE.search(raw)
            if close and close.start() > 0:
                # new wording closed mid-line and the next article starts there ("…”Điều 2 …")
                out.append((line, raw[: close.start()].rstrip()))
                raw = raw[close.end():]
            m = _QUOTE_ON_LINE.search(raw) or _quote_after_target(raw)
            if m and m.end() < len(raw.rstrip()):
                out.append((line, raw[: m.end()].rstrip()))
                out.append((line, raw[m.end():].strip()))
            else:
                out.append((line, raw.rstrip()))
    return out


def _join_broken(lines: Lines) -> Lines:
    out: Lines = []
    for line, raw in lines:
        text = raw.strip()
        if out and text:
            prev_line, prev = out[-1]
            prev_text = prev.strip()
            open_citation = _OPEN_CITATION_END.search(prev_text) is not None
            if prev_text and not _CLOSED.search(prev_text) and not prev_text.startswith(
                    ("“", '"')) and (_instruction_like(prev_text) or open_citation) and (
                    # a line that opens in lower case, or with "Điều" (as the reader has
                    # done since the character class that read "Đ" as lower case: the
                    # instruction "… vào" ⏎ "Điều 4 như sau:", but also a line "Điều 5. …")
                    _opens_lower(text) or text.startswith("Điều") or (
                        (open_citation or _OPEN_WORD_END.search(prev_text))
                        and not _STARTS_UNIT.match(text))):
                out[-1] = (prev_line, f"{prev_text} {text}")
                continue
        out.append((line, raw))
    return out


_ACTION = re.compile(rf"{CHANGE_VERBS}|thay\s+cụm|bỏ\s+cụm", re.IGNORECASE)


_OPEN_WORD_END = re.compile(r"(?<![\wÀ-ỹ])(?:số|của|tại|và|về|theo|sau|vào|thuộc|các|bổ\s+sung)$")
# "c) Khoản 5" / "Điều 2 và khoản 2 Điều 16 của Luật …": a citation cut before its article
_OPEN_CITATION_END = re.compile(r"(?<![\wÀ-ỹ])(?:khoản|điểm)(?:\s+\d{1,3}[a-zđ]?|\s+[a-zđ])?$",
                                re.IGNORECASE)
_STARTS_UNIT = re.compile(r"^(?:\d{1,3}[a-zđ]?\.\s|[a-zđ]\d?\)|(?:Điều|Chương|Mục|Phần)\s+\S+[.:]|[“\"«-])")


def _instruction_like(text: str) -> bool:
    return bool(_OPENS_UNIT.match(text) and _ACTION.search(text)) or bool(
        re.match(r"^(?:Điều\s+\d{1,4}[a-zđ]?\.\s+)?(?:Sửa\s+đổi|Bổ\s+sung|Bãi\s+bỏ|Thay\s+thế)",
                 text))


# the word "Điều" alone on a line, its number and name on the next ("Điều⏎74. Cưỡng chế …")
_ARTICLE_WORD_ALONE = re.compile(r"^([“\"]?)(Điều|ĐIỀU)$")
_ARTICLE_NUMBER_START = re.compile(r"^\d{1,4}[a-zđ]?\.(?:\s|$)")


def _join_article_word(lines: Lines) -> Lines:
    out: Lines = []
    for line, raw in lines:
        if out and _ARTICLE_WORD_ALONE.match(out[-1][1].strip()) and \
                _ARTICLE_NUMBER_START.match(raw.strip()):
            out[-1] = (out[-1][0], f"{out[-1][1].strip()} {raw.strip()}")
            continue
        out.append((line, raw))
    return out


# a clause's opening words and its first point on one line ("Ủy ban nhân dân cấp huyện: a) Xác
# nhận …" with "b) …" on the next line): the point starts a line of its own
_GLUED_FIRST_POINT = re.compile(r"(?<=:)[ \t]+(?=a\)[ \t]+\S)")


def _split_first_points(lines: Lines) -> Lines:
    out: Lines = []
    for i, (line, raw) in enumerate(lines):
        after = next((t.strip() for _, t in lines[i + 1:] if t.strip()), "")
        m = _GLUED_FIRST_POINT.search(raw)
        if m is not None and after.startswith("b)") and raw[: m.start()].strip():
            out.append((line, raw[: m.start()].rstrip()))
            out.append((line, raw[m.end():]))
        else:
            out.append((line, raw))
    return out


# an article's name wrapped onto the next line, which opens in lower case and is no point
# ("Điều 9. Tính tiền … quy định tại các⏎khoản 4, 5, 6 và 7 Điều 137 Luật Đất đai")
_ARTICLE_NAME_LINE = re.compile(r"^[“\"]?Điều\s+\d{1,4}[a-zđ]?\.\s+\S")


def _join_wrapped_names(lines: Lines) -> Lines:
    out: Lines = []
    for line, raw in lines:
        text = raw.strip()
        if out and _opens_lower(text):
            prev = out[-1][1].strip()
            if _ARTICLE_NAME_LINE.match(prev) and not _CLOSED.search(prev) and len(prev) <= 300 \
                    and not _instruction_like(prev.lstrip("“\"")):
                out[-1] = (out[-1][0], f"{prev} {text}")
                continue
        out.append((line, raw))
    return out


def repair_layout(lines: Lines) -> Lines:
    """The lines with portal prefixes removed, quotes split off, broken instructions and
    wrapped article names joined, a first point glued to its clause's opening words put on a
    line of its own; a double quote typed as two single ones (``‘‘Điều 58. …’’``) read as one."""
    lines = [(n, t.replace("‘‘", "“").replace("’’", "”")) for n, t in lines]
    lines = _join_article_word(lines)
    prefix = portal_prefix(lines)
    if prefix is not None:
        lines = _strip_portal(lines, prefix)
    lines = _join_wrapped_names(_join_broken(lines))
    return _split_first_points(_split_quotes(lines))
