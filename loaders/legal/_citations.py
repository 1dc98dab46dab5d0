"""Citations inside legal text: ``điểm a khoản 2 Điều 5 của Luật số X``, lists, ranges, ``này``.

A :class:`Citation` is what the text says; :func:`resolve` turns it into unit paths against a
context (the current document and unit). Nothing here guesses: a document named without a number
that no name index knows stays unresolved.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date

from hopgraph.core.vocabulary import normalise_doc_number
from hopgraph.loaders.legal._ids import (
    DOC_NUMBER,
    OLD_DOC_NUMBER,
    point_index,
    roman_to_int,
    slugify,
)

_N = r"\d{1,3}[a-zđ]?"
_L = r"[a-zđ]\d?"
_NLIST = rf"{_N}(?:(?:\s*,\s*(?:và\s+|hoặc\s+)?|\s+và\s+|\s+hoặc\s+){_N}(?![\d.]))*"
_LLIST = rf"{_L}(?:(?:\s*,\s*(?:và\s+|hoặc\s+)?|\s+và\s+|\s+hoặc\s+){_L}(?![\w]))*"
_CHAIN = re.compile(
    rf"(?<![\wÀ-ỹ])(?:(?:(?:các\s+)?tiết\s+(?P<tts>{_L}(?:(?:\s*,\s*|\s+và\s+|\s+hoặc\s+)(?:tiết\s+)?{_L})*)(?![\wÀ-ỹ])\s*(?:của\s+|tại\s+)?)?"
    rf"(?:các\s+)?điểm\s+(?P<pts>{_LLIST}|này)(?![\wÀ-ỹ])\s*"
    rf"(?:,\s*(?=(?:khoản|[đð]iều)\s))?(?:của\s+|tại\s+)?)?"
    rf"(?:(?:(?:các\s+)?khoản\s+(?P<khs>{_NLIST}|này)|từ\s+khoản\s+(?P<k1>{_N})\s+đến\s+(?:khoản\s+)?(?P<k2>{_N}))"
    rf"(?![\wÀ-ỹ])\s*(?:,\s*(?=[đð]iều\s))?(?:của\s+|tại\s+)?)?"
    rf"(?:(?:từ\s+)?[đð]iều\s+(?P<d1>{_N})\s+(?:đến|tới)\s+(?:hết\s+)?(?:[đð]iều\s+)?(?P<d2>{_N})(?![\d/])"
    rf"|(?:các\s+)?[đð]iều\s+(?P<ds>{_NLIST}|này)"
    rf"|(?:(?:tên\s+)?(?:tiểu\s+mục\s+(?P<tms>\d+[a-z]?)\s+(?:của\s+)?)?mục\s+(?P<ms>\d+[a-z]?|[IVXLC]+)\s+(?:của\s+|thuộc\s+)?)?"
    rf"(?:các\s+)?chương\s+(?P<chs>[IVXLC]+(?:\s*(?:,|và)\s*[IVXLC]+)*|này)"
    rf"|(?:các\s+)?phụ\s+lục\s+(?P<pls>[IVXLC]+|\d+|này))?(?![\wÀ-ỹ])",
    re.IGNORECASE,
)
DOC_TYPE_WORDS = (r"Thông tư liên tịch|Nghị quyết liên tịch|Văn bản hợp nhất|Bộ luật|Luật|Nghị định|"
                  r"Thông tư|Quyết định|Nghị quyết|Pháp lệnh|Hiến pháp|Chỉ thị")
_DOC_AFTER = re.compile(
    rf"^\s*[,\-–]?\s*(?:của\s+|tại\s+|thuộc\s+|theo\s+)?(?P<dtype>{DOC_TYPE_WORDS})(?![\wÀ-ỹ])(?P<rest>[^;:()\[\]\n]{{0,160}})",
)
_THIS = re.compile(r"^\s*này(?![\wÀ-ỹ])")
_NUMBER = re.compile(rf"(?<![\w/])(?:số\s+)?({DOC_NUMBER}|{OLD_DOC_NUMBER})(?![\w/])")
# "và" ends a document's name only before another document or unit ("Luật A và Luật B"), not
# inside one ("Luật Quy hoạch đô thị và nông thôn số 47/2024/QH15")
_STOP = re.compile(
    rf"(?:\s(?:và|hoặc)\s(?=(?:{DOC_TYPE_WORDS}|các|điểm|khoản|Điều|Chương|Mục|Phụ lục)(?![\wÀ-ỹ]))"
    r"|[.;]|(?<![\wÀ-ỹ])(?:điểm|khoản|Điều)\s+\d)", re.IGNORECASE)
_NAME_END = re.compile(r"\s+(?:ngày|năm|đã được|được|sửa đổi|về việc|quy định|như sau|sau đây)(?:\s|$)", re.IGNORECASE)
VAGUE = re.compile(
    r"theo\s+quy\s+định\s+của\s+pháp\s+luật(?:\s+(?:về|có liên quan)[^,;.:()\n]{0,80})?"
    r"|quy\s+định\s+khác\s+của\s+pháp\s+luật(?:\s+có\s+liên\s+quan)?"
    r"|văn\s+bản\s+quy\s+phạm\s+pháp\s+luật\s+có\s+liên\s+quan",
    re.IGNORECASE,
)
DOC_MENTION = re.compile(
    rf"(?<![\wÀ-ỹ])(?P<dtype>{DOC_TYPE_WORDS})(?![\wÀ-ỹ])(?P<rest>[^;:()\[\]\n]{{0,160}})"
)


@dataclass
class DocRef:
    """Which document a citation names: this one, one by number, or one by name only."""

    kind: str  # "this" | "number" | "name" | "none"
    number: str | None = None
    name: str | None = None
    end: int = 0  # offset in the text where the document mention ends
    year: int | None = None  # the year the name carries, when the text gives one


@dataclass
class Citation:
    start: int
    end: int
    text: str
    points: list[str] | None
    clauses: list[str] | None
    articles: list[str] | None
    chapters: list[str] | None
    annexes: list[str] | None
    doc: DocRef


def _items(raw: str | None) -> list[str] | None:
    if raw is None:
        return None
    if raw.strip().lower() == "này":
        return ["này"]
    return [x for x in re.split(r"\s*,\s*(?:và\s+|hoặc\s+)?|\s+và\s+|\s+hoặc\s+", raw.strip()) if x]


def _range(a: str | None, b: str | None) -> list[str] | None:
    if a is None or b is None or not a.isdigit() or not b.isdigit() or int(b) < int(a):
        return None
    if int(b) - int(a) > 200:
        return None
    return [str(i) for i in range(int(a), int(b) + 1)]


_YEAR = re.compile(r"(?:\bnăm\s+|[\s,]+)(\d{4})(?:\s*\)?)?$|\bnăm\s+(\d{4})\b", re.IGNORECASE)


def name_year(scope: str) -> int | None:
    """The year a document name carries (``Luật Doanh nghiệp 2020``, ``… ngày 29 tháng 6 năm
    2001``, ``Luật Đất đai năm 2013``), or None."""
    for m in _YEAR.finditer(scope):
        year = int(m.group(1) or m.group(2))
        if 1945 <= year <= 2100:
            return year
    return None


def doc_after(text: str, names: Mapping[str, str] | None) -> DocRef:
    """The document named right after a citation (``của Luật này``, ``Nghị định số X``).

    A name with a number gives the number, except when the number names no known document and
    the name does (a text citing its amended law by title and a mistyped number); a name
    without a number is looked up by title (and year, when the text gives one).
    """
    m = _DOC_AFTER.match(text)
    if m is None:
        return DocRef("none")
    rest = m.group("rest")
    if _THIS.match(rest):
        return DocRef("this", end=m.start("rest") + _THIS.match(rest).end())  # type: ignore[union-attr]
    stop = _STOP.search(rest)
    scope = rest[: stop.start()] if stop else rest
    num = _NUMBER.search(scope)
    if num:
        number = normalise_doc_number(num.group(1))
        name = _clean_name(m.group("dtype") + scope[: num.start()])
        known = getattr(names, "numbers", None)
        if known is not None and number not in known and name:
            # a mistyped suffix (04/2007/QH11 for the loaded 04/2007/QH12): the same number
            # and year under the title the text gives
            by_name = lookup_name(name, names, name_year(scope[: num.start()]))
            if by_name and by_name in known and _same_number_and_year(by_name, number):
                number = by_name
        return DocRef("number", number=number, name=name or None,
                      end=m.start("rest") + num.end())
    name = _clean_name(m.group("dtype") + scope)
    year = name_year(scope)
    found = lookup_name(name, names, year)
    if found:
        return DocRef("number", number=found, name=name, end=m.start("rest") + len(scope))
    return DocRef("name", name=name, end=m.start("rest") + len(scope), year=year)


def _same_number_and_year(a: str, b: str) -> bool:
    pa, pb = a.split("/"), b.split("/")
    return len(pa) >= 3 and len(pb) >= 3 and pa[:2] == pb[:2]


def _clean_name(raw: str) -> str:
    name = re.sub(r"\s+", " ", raw).strip(" ,-–")
    cut = _NAME_END.search(name + " ")
    if cut:
        name = name[: cut.start()]
    name = re.sub(r"\s+\d{4}$", "", name)
    return name.strip(" ,-–")


def name_key(name: str) -> str:
    """A comparable form of a document name: lower case, single spaces, no trailing words."""
    key = re.sub(r"\s+", " ", name.lower()).strip(" ,.;-–")
    key = re.sub(r"\s+(?:số|ngày|năm)\b.*$", "", key)
    key = re.sub(r"\s+\d{4}$", "", key)
    return key


class NameIndex(Mapping[str, str]):
    """Document names to numbers: the titles of known documents with their issue dates, and the
    names texts state beside a number (``Luật quản lý thuế số 78/2006/QH11``).

    A name several known documents carry (``Luật Đất đai`` of 2013 and of 2024) resolves with the
    year the citing text gives, else to the latest one issued on or before ``as_of`` (the citing
    document's issue date: the law a lawyer reads as "the" Luật Đất đai on that day).
    ``numbers`` are the documents known to exist (loaded or being loaded).
    """

    def __init__(self, as_of: date | None = None) -> None:
        self._by_key: dict[str, dict[str, date | None]] = {}
        self._local: dict[str, str] = {}  # a scoped view's own names, over the shared ones
        self.numbers: set[str] = set()
        self.as_of = as_of

    def add(self, name: str, number: str, issued: date | None = None, *,
            known: bool = True) -> None:
        key = name_key(name)
        if not key or len(key) < 4:
            return
        number = normalise_doc_number(number)
        entry = self._by_key.setdefault(key, {})
        if issued is not None or number not in entry:
            entry[number] = issued
        if known:
            self.numbers.add(number)

    def scoped(self, as_of: date | None, local: Mapping[str, str] | None = None) -> NameIndex:
        """A view for one citing document: its date, and the names its own text states (the
        shared names are not copied: the view reads them through)."""
        out = NameIndex(as_of)
        out._by_key = self._by_key
        out.numbers = self.numbers
        for key, number in (local or {}).items():
            # a name the text states beside a number wins, unless that number is unknown and
            # the name is a known document's title (a mistyped number in the amending text) —
            # and that title is a document issued before the citing one: a text never names a
            # law enacted after it
            known = self._by_key.get(key)
            later = known is not None and as_of is not None and all(
                d is not None and d > as_of for d in known.values())
            if key not in self._by_key or number in self.numbers or later:
                out._local[key] = number
        return out

    def resolve(self, key: str, year: int | None = None) -> str | None:
        local = self._local.get(key)
        entry = {local: None} if local is not None else self._by_key.get(key)
        if not entry:
            return None
        if len(entry) == 1:
            number = next(iter(entry))
            issued = entry[number]
            if issued is not None and self.as_of is not None and issued > self.as_of:
                return None  # the only document of that name came after the citing one
            if year is not None and issued is not None and issued.year != year and (
                    f"/{year}/" not in number):
                return None
            return number
        items = list(entry.items())
        if year is not None:
            hits = [n for n, d in items if (d is not None and d.year == year) or f"/{year}/" in n]
            return hits[0] if len(hits) == 1 else None
        dated = [(d, n) for n, d in items if d is not None and (self.as_of is None or d <= self.as_of)]
        return max(dated)[1] if dated else None

    def __getitem__(self, key: str) -> str:
        number = self.resolve(key)
        if number is None:
            raise KeyError(key)
        return number

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_key.keys() | self._local.keys())

    def __len__(self) -> int:
        return len(self._by_key.keys() | self._local.keys())


def lookup_name(name: str, names: Mapping[str, str] | None, year: int | None = None) -> str | None:
    """The number of the one document known by this name (and year), else None."""
    if not names:
        return None
    key = name_key(name)
    if isinstance(names, NameIndex):
        return names.resolve(key, year)
    return names.get(key)


_ISSUER_WORDS = re.compile(
    r"\s+của\s+(?:quốc\s+hội|chính\s+phủ|ủy\s+ban\s+thường\s+vụ\s+quốc\s+hội|chủ\s+tịch\s+nước)"
    r"(?:\s+nước\s+cộng\s+ho[àa]\s+xã\s+hội\s+chủ\s+nghĩa\s+việt\s+nam)?", re.IGNORECASE)


TITLE_PLACEHOLDER = "~"


def title_placeholder(name: str, year: int | None = None) -> str:
    """The id of a document known only by the title an amending text names it by
    (``Luật Bảo hiểm y tế`` -> ``~luat-bao-hiem-y-te``); the derive step re-homes everything
    written against it onto the loaded document that carries the title."""
    slug = slugify(name_key(name))
    return f"{TITLE_PLACEHOLDER}{slug}-{year}" if year else f"{TITLE_PLACEHOLDER}{slug}"


def title_slugs(title: str, issued: date | None) -> list[str]:
    """The placeholder keys (without ``~``) a document's title answers to."""
    out: list[str] = []
    for alias in title_aliases(title):
        slug = slugify(name_key(alias))
        if not slug:
            continue
        out.append(slug)
        if issued is not None:
            out.append(f"{slug}-{issued.year}")
    return sorted(set(out))


def title_aliases(title: str) -> list[str]:
    """Names a document's title is cited by: the title, and the old header form ``LUẬT CỦA QUỐC
    HỘI … SỐ 29/2001/QH10 VỀ HẢI QUAN`` read as ``Luật Hải quan``."""
    out = [title]
    t = _ISSUER_WORDS.sub("", title)
    t = re.sub(r"\s+số\s+\S+", "", t, flags=re.IGNORECASE)
    t = re.sub(r"\s+ngày\s+\d{1,2}\s+tháng\s+\d{1,2}\s+năm\s+\d{4}", "", t, flags=re.IGNORECASE)
    t = re.split(r"[.;:]|\s+(?:Để|Căn cứ)\s", t)[0].strip()
    m = re.match(rf"^({DOC_TYPE_WORDS})\s+về\s+(.+)$", t, re.IGNORECASE)
    if m:
        t = f"{m.group(1)} {m.group(2)}"
    if t and t != title:
        out.append(t)
    return out


def stated_names(lines: list[str]) -> dict[str, str]:
    """Names a text states beside a number (``Luật Sở hữu trí tuệ số 50/2005/QH11``)."""
    out: dict[str, str] = {}
    for text in lines:
        for m in DOC_MENTION.finditer(text):
            ref = doc_after(text[m.start():], None)
            if ref.kind == "number" and ref.number and ref.name:
                key = name_key(ref.name)
                if len(key.split()) >= 2 and not re.search(r"\b(?:này|sửa đổi)\b", key):
                    out.setdefault(key, ref.number)
    return out


def find_citations(text: str, names: Mapping[str, str] | None = None) -> list[Citation]:
    """Every unit citation in ``text``, with the document each one names."""
    out: list[Citation] = []
    for m in _CHAIN.finditer(text):
        if m.end() == m.start():
            continue
        pts, khs, ds = _items(m.group("pts")), _items(m.group("khs")), _items(m.group("ds"))
        if m.group("tts") and pts and pts != ["này"]:
            # "tiết b1 điểm b": a tiết is kept beside the points, named by its own marker
            pts = _items(re.sub(r"tiết\s+", "", m.group("tts")))
        if khs is None:
            khs = _range(m.group("k1"), m.group("k2"))
        if ds is None:
            ds = _range(m.group("d1"), m.group("d2"))
        chs, pls = _items(m.group("chs")), _items(m.group("pls"))
        if chs and m.group("ms") and len(chs) == 1:
            section = m.group("ms")
            section = str(roman_to_int(section) or section) if re.fullmatch(r"[IVXLC]+", section) \
                else section
            sub = f".TM{m.group('tms')}" if m.group("tms") else ""
            chs = [f"{chs[0]}.M{section}{sub}"]
        if not any((pts, khs, ds, chs, pls)):
            continue
        if pts and any(p != "này" and point_index(p) < 0 for p in pts):
            continue
        doc = doc_after(text[m.end():], names)
        end = m.end() + doc.end if doc.kind != "none" else m.end()
        out.append(Citation(m.start(), end, text[m.start():end].strip(), pts, khs, ds, chs, pls,
                            doc))
    # "khoản 1 và khoản 2 Điều 12 của Luật số X": a list shares the article and the document
    # named at its end.
    for i in range(len(out) - 2, -1, -1):
        cur, nxt = out[i], out[i + 1]
        if not re.fullmatch(r"\s*(?:,|và|hoặc|,\s*và|,\s*hoặc)\s*", text[cur.end:nxt.start]):
            continue
        if cur.articles is None and cur.chapters is None and cur.annexes is None and (
                nxt.articles is not None):
            if cur.clauses is None and cur.points is not None and nxt.clauses is not None:
                cur.clauses = nxt.clauses
            cur.articles = nxt.articles
        relative = any(x == ["này"] for x in (cur.points, cur.clauses, cur.articles))
        if cur.doc.kind == "none" and not relative:
            cur.doc = nxt.doc
    return out


@dataclass
class Context:
    """Where a citation is read: the document and the path of the unit that contains it."""

    doc_id: str
    path: str  # e.g. "D5.K2.a"; "" for document-level text

    def part(self, prefix: str) -> str | None:
        for seg in self.path.split("."):
            if prefix == "D" and seg.startswith("D") and not seg.startswith("DS"):
                return seg[1:]
            if prefix == "K" and seg.startswith("K"):
                return seg[1:]
        if prefix == "P":
            last = self.path.split(".")[-1] if self.path else ""
            return last if last and last[0].islower() else None
        return None


def resolve(c: Citation, ctx: Context, target_doc: str | None = None) -> list[str]:
    """Unit paths (``D5.K2.a``) a citation names, relative parts filled from ``ctx``.

    ``target_doc`` set means the citation is about another document: relative parts
    (``này``) are not allowed then and yield nothing.
    """
    own = target_doc is None or target_doc == ctx.doc_id
    if c.chapters:
        out: list[str] = []
        for chapter in c.chapters:
            if chapter == "này" or not chapter:
                return []
            roman, _, rest = chapter.partition(".")
            out.append(f"C{roman_to_int(roman) or roman}" + (f".{rest}" if rest else ""))
        return out
    if c.annexes:
        return [] if "này" in c.annexes else [f"PL{roman_to_int(a) or a}" for a in c.annexes]
    articles = c.articles
    if articles == ["này"]:
        cur = ctx.part("D") if own else None
        if cur is None:
            return []
        articles = [cur]
    clauses = c.clauses
    if clauses == ["này"]:
        cur = ctx.part("K") if own else None
        if cur is None:
            return []
        clauses = [cur]
    points = c.points
    if points == ["này"]:
        cur = ctx.part("P") if own else None
        if cur is None:
            return []
        points = [cur]
    if articles is None:
        if not own:
            return []
        cur = ctx.part("D")
        if cur is None:
            return []
        articles = [cur]
        if clauses is None and points is not None:
            k = ctx.part("K")
            if k is not None:
                clauses = [k]
    paths: list[str] = []
    for a in articles:
        base = f"D{a}"
        if clauses:
            for k in clauses:
                if points:
                    paths.extend(f"{base}.K{k}.{p}" for p in points)
                else:
                    paths.append(f"{base}.K{k}")
        elif points:
            paths.extend(f"{base}.{p}" for p in points)
        else:
            paths.append(base)
    return paths
