"""Compare a consolidation with an official consolidated text (văn bản hợp nhất, VBHN), unit by
unit: the benchmark of ``consolidate`` and a check a legal team runs on its own graph.

The official text is split into Điều / khoản / điểm units (a unit's text is its own lines only,
as the graph keeps it), both sides are normalised the same way (Unicode, quotes, dashes, footnote
markers, the VBHN's inline notes, old and new tone placement, i/y spelling), and every VBHN unit is
classified: ``equal``, ``equal_punctuation`` (equal once punctuation and spaces are dropped: not
counted as equal), ``repealed_agreed`` (counted as equal), ``stale`` (the VBHN marks the unit as
changed and the consolidation shows the enacted wording), ``missing``, ``repealed_shown``,
``repealed_wrongly``, ``other``; units the consolidation shows that the VBHN lacks are ``extra``.
A unit is *marked* when it, or a unit that contains it, carries a footnote marker ``[n]``.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from hopgraph.core.vocabulary import CHANGE_VERBS
from hopgraph.retrieval._legal_consolidate import (
    ConsolidatedDocument,
    ConsolidatedUnit,
    full_label,
)

Key = tuple[str, str | None, str | None]

_ARTICLE = re.compile(r"^Điều\s+(\d+[a-zđ]?)\s*[.:]", re.IGNORECASE)
_CLAUSE = re.compile(r"^(?:\[\d+\]\s*)*(\d+[a-zđ]?)\.(?!\d)")
_POINT = re.compile(r"^(?:\[\d+\]\s*)*([a-zđ]\d?)\)")
_GLUED_FIRST_CLAUSE = re.compile(
    r"^(Điều\s+\d+[a-zđ]?\s*[.:][^\n]{0,250}?)\s+1\.(?:\[\d+\])*\s*(?=[A-ZĐÀ-Ỹ])")
_HEADING = re.compile(r"^(?:Chương|Mục|Phần|Tiểu\s+mục)\b", re.IGNORECASE)
_PAGE_PREFIX = re.compile(r"^Văn bản hợp nhất \d+/VBHN-[^.]*?\.\s*")
_FOOTNOTE = re.compile(r"\[\d+\]")
_BRACKET_NOTE = re.compile(rf"\[[^\]]*(?:được|bị)\s+(?:{CHANGE_VERBS})"
                           r"[^\]]*\]", re.IGNORECASE)
_INLINE_NOTE = re.compile(rf"\([^()]*(?:được|bị)\s+(?:{CHANGE_VERBS})"
                          r"[^()]*(?:theo\s+quy\s+định\s+tại|bởi)[^()]*\)", re.IGNORECASE)
_REPEALED_ONLY = re.compile(r"^\(?\s*(?:được|bị|đã\s+được|đã\s+bị)\s+bãi\s+bỏ\s*\)?\.?$",
                            re.IGNORECASE)
_TONES = {"oà": "òa", "oá": "óa", "oả": "ỏa", "oã": "õa", "oạ": "ọa",
          "oè": "òe", "oé": "óe", "oẻ": "ỏe", "oẽ": "õe", "oẹ": "ọe",
          "uỳ": "ùy", "uý": "úy", "uỷ": "ủy", "uỹ": "ũy", "uỵ": "ụy"}
_IY = {"ỹ": "ĩ", "ỷ": "ỉ", "ý": "í", "ỳ": "ì", "ỵ": "ị", "y": "i"}
_IY_SYLLABLE = re.compile(r"(?<![\wÀ-ỹ])([bcdđghklmnprstvx]h?)([yýỳỷỹỵ])(?![\wÀ-ỹ])")


@dataclass
class OfficialUnit:
    """One unit of the official text: its key, its own lines, whether it carries a footnote."""

    key: Key
    text: str
    marked: bool
    line: int


def split_official(text: str) -> dict[Key, OfficialUnit]:
    """The Điều / khoản / điểm units of an official consolidated text, by (article, clause,
    point) number; a point directly under an article has clause ``None``."""
    lines = [unicodedata.normalize("NFC", x) for x in text.splitlines()]
    lines = _rejoin(lines)
    start = next((i for i, x in enumerate(lines) if _ARTICLE.match(x.strip())), len(lines))
    units: dict[Key, OfficialUnit] = {}
    order: list[Key] = []
    article: str | None = None
    clause: str | None = None
    current: Key | None = None
    open_quote = False
    for i in range(start, len(lines)):
        raw = _PAGE_PREFIX.sub("", lines[i].strip())
        if raw.startswith("XÁC THỰC VĂN BẢN HỢP NHẤT") or re.match(r"^\[1\]\s", raw):
            break
        if not raw:
            continue
        new_key: Key | None = None
        if not open_quote:
            if m := _ARTICLE.match(raw):
                article, clause = m.group(1), None
                new_key = (article, None, None)
            elif _HEADING.match(raw) or (not re.search(r"[a-zà-ỹđ]", raw) and "|" not in raw
                                         and re.search(r"[A-ZÀ-ỸĐ]", raw)):
                continue
            elif article is not None and (m := _CLAUSE.match(raw)):
                clause = m.group(1)
                new_key = (article, clause, None)
            elif article is not None and (m := _POINT.match(raw)):
                new_key = (article, clause, m.group(1))
        if new_key is not None:
            current = new_key
            if new_key in units:
                units[new_key].text += "\n" + raw
            else:
                units[new_key] = OfficialUnit(new_key, raw, False, i + 1)
                order.append(new_key)
        elif current is not None:
            units[current].text += "\n" + raw
        if raw.count("“") > raw.count("”"):
            open_quote = True
        elif raw.count("”") > raw.count("“"):
            open_quote = False
    for key in order:
        if _FOOTNOTE.search(units[key].text):
            for other in order:
                if inside(other, key):
                    units[other].marked = True
    return {k: units[k] for k in order}


def _rejoin(lines: list[str]) -> list[str]:
    """Headings a crawl splits across two lines, one line again: ``Điều⏎26. …``,
    ``… ĐƯỜNG SẮT Điều⏎26. …``, ``Mục⏎1. …`` (page prefixes dropped first), ``Điều 34.
    Điều⏎kiện …`` and ``Điều 56. Giá⏎vận tải …``; then a heading line that also holds the
    article's first clause (``Điều 27. Yêu cầu … 1.[6] Phù hợp …``), two lines."""
    out: list[str] = []
    for line in lines:
        line = _PAGE_PREFIX.sub("", line.strip())
        prev = out[-1] if out else ""
        word = re.search(r"(?:^|\s)(Điều|Mục)$", prev)
        if word and re.match(r"^\d+[a-zđ]?\.\s", line):
            out[-1] = prev[: word.start()].strip()
            line = f"{word.group(1)} {line}"
        elif (word or (_ARTICLE.match(prev) and len(prev) < 120)) and re.match(r"^[a-zà-ỹđ]", line):
            line = f"{out.pop()} {line}"
        glued = _GLUED_FIRST_CLAUSE.match(line)
        if glued and glued.group(1).split()[-1].lower() not in (
                "khoản", "điều", "điểm", "mục", "chương", "số", "năm"):
            out.extend([glued.group(1), line[glued.end(1):].strip()])
            continue
        out.append(line)
    return [x for x in out if x]


def inside(inner: Key, outer: Key) -> bool:
    """Whether ``inner`` is ``outer`` or one of its sub-units."""
    if inner[0] != outer[0]:
        return False
    if outer[1] is None and outer[2] is None:
        return True
    if outer[2] is None:
        return inner[1] == outer[1]
    return inner == outer


def normalise(text: str) -> str:
    """The comparison form of a wording (see the module docstring)."""
    t = unicodedata.normalize("NFC", text)
    t = _BRACKET_NOTE.sub(" ", t)
    t = _FOOTNOTE.sub(" ", t)
    t = _INLINE_NOTE.sub(" ", t)
    t = (t.replace("“", '"').replace("”", '"').replace("‘", "'").replace("’", "'")
         .replace("–", "-").replace("—", "-").replace("\u00a0", " ").replace("./.", "."))
    t = t.lower()
    for old, new in _TONES.items():
        t = t.replace(old, new)
    t = _IY_SYLLABLE.sub(lambda m: m.group(1) + _IY[m.group(2)], t)
    t = " ".join(t.split())
    t = re.sub(r"\s+([,.;:)\]])", r"\1", t)
    t = re.sub(r"([(\[])\s+", r"\1", t)
    return t.strip()


def _bare(text: str) -> str:
    return re.sub(r"[\W_]+", "", normalise(text))


def unit_key(unit_id: str) -> Key | None:
    """(article, clause, point) of a graph unit id (``18/2017/QH14:D44.K4.a`` → ("44", "4",
    "a")); None for a unit that is not an article, clause or point."""
    path = unit_id.split(":", 1)[1] if ":" in unit_id else unit_id
    parts = path.split(".")
    if not parts or not re.match(r"^D\d", parts[0]):
        return None
    art = parts[0][1:]
    clause = point = None
    for p in parts[1:]:
        if re.match(r"^K\d", p):
            clause = p[1:]
        elif re.match(r"^[a-zđ]\d?$", p):
            point = p
        else:
            return None
    return (art, clause, point)


@dataclass
class UnitComparison:
    """One unit's verdict, with both texts (normalised) where they exist."""

    key: Key
    label: str
    verdict: str
    marked: bool
    ours: str | None = None
    official: str | None = None
    reason: str = ""


EQUALISH = ("equal", "repealed_agreed")


@dataclass
class Comparison:
    """The whole comparison: one verdict per official unit, then the extra units."""

    doc_id: str
    as_of: str
    units: list[UnitComparison] = field(default_factory=list)
    extra: list[UnitComparison] = field(default_factory=list)
    doc_notes: list[str] = field(default_factory=list)

    def counts(self, marked_only: bool = False) -> Counter[str]:
        return Counter(u.verdict for u in self.units if u.marked or not marked_only)

    def equal(self, marked_only: bool = False) -> tuple[int, int]:
        """(units counted equal, units compared)."""
        units = [u for u in self.units if u.marked or not marked_only]
        return sum(u.verdict in EQUALISH for u in units), len(units)

    def render(self, limit: int = 60) -> str:
        eq, n = self.equal()
        meq, mn = self.equal(marked_only=True)
        day = ".".join(reversed(self.as_of.split("-"))).replace(".", "/")
        lines = [f"So sánh {self.doc_id} tại ngày {day} với văn bản hợp nhất chính thức:",
                 f"  đơn vị trùng khớp: {eq}/{n}"
                 + (f" ({100 * eq / n:.1f}%)" if n else ""),
                 f"  đơn vị được sửa đổi (có chú thích) trùng khớp: {meq}/{mn}",
                 f"  đơn vị thừa (văn bản hợp nhất không có): {len(self.extra)}"]
        lines.extend(f"  lưu ý: {x}" for x in self.doc_notes)
        counts = self.counts()
        lines.append("  " + ", ".join(f"{_VERDICT_VI.get(k, k)} {v}"
                                      for k, v in sorted(counts.items())))
        shown = [u for u in self.units if u.verdict not in EQUALISH] + self.extra
        for u in shown[:limit]:
            lines.append(f"- {u.label}: {_VERDICT_VI.get(u.verdict, u.verdict)}"
                         + (" [có chú thích]" if u.marked else "")
                         + (f" — {u.reason}" if u.reason else ""))
        if len(shown) > limit:
            lines.append(f"… và {len(shown) - limit} đơn vị khác (--json để xem hết)")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        eq, n = self.equal()
        meq, mn = self.equal(marked_only=True)
        return {"doc_id": self.doc_id, "as_of": self.as_of, "units": n, "equal": eq,
                "marked_units": mn, "marked_equal": meq, "extra": len(self.extra),
                "verdicts": dict(self.counts()), "marked_verdicts": dict(self.counts(True)),
                "doc_notes": self.doc_notes,
                "differences": [
                    {"unit": u.label, "key": list(u.key), "verdict": u.verdict,
                     "marked": u.marked, "reason": u.reason, "ours": u.ours,
                     "official": u.official}
                    for u in [*self.units, *self.extra] if u.verdict not in EQUALISH]}


_VERDICT_VI = {"equal": "trùng khớp", "equal_punctuation": "chỉ khác dấu câu",
               "repealed_agreed": "cùng bãi bỏ", "stale": "chưa cập nhật sửa đổi",
               "missing": "thiếu", "repealed_shown": "đã bãi bỏ nhưng vẫn hiển thị",
               "repealed_wrongly": "hiển thị bãi bỏ nhưng văn bản hợp nhất còn",
               "extra": "thừa", "other": "khác nội dung"}


def label_of(key: Key) -> str:
    """``Điểm a khoản 4 Điều 44`` (the unit named as :func:`full_label` names a graph unit)."""
    art, clause, point = key
    path = ".".join([f"D{art}", *([f"K{clause}"] if clause else []), *([point] if point else [])])
    return full_label(f":{path}")


def compare(doc: ConsolidatedDocument, official_text: str) -> Comparison:
    """Classify every unit of ``official_text`` against the consolidation ``doc``."""
    official = split_official(official_text)
    ours: dict[Key, ConsolidatedUnit] = {}
    for u in doc.units:
        key = unit_key(u.id)
        if key is not None and key not in ours:
            ours[key] = u
    out = Comparison(doc.doc_id, doc.as_of.isoformat(), doc_notes=list(doc.notes))
    for key, off in official.items():
        out.units.append(_verdict(key, off, ours.get(key)))
    for key, u in ours.items():
        if key not in official and u.shown and u.state != "repealed":
            out.extra.append(UnitComparison(key, label_of(key), "extra", False,
                                            ours=normalise(u.text)))
    return out


def _verdict(key: Key, off: OfficialUnit, u: ConsolidatedUnit | None) -> UnitComparison:
    label = label_of(key)
    body = _MARKER_OF(key).sub("", normalise(off.text), count=1).strip()
    official_repealed = bool(_REPEALED_ONLY.match(body))
    o_norm = normalise(off.text)
    if u is None or not u.shown:
        if official_repealed:
            return UnitComparison(key, label, "repealed_agreed", off.marked, None, o_norm)
        reason = ("chưa có hiệu lực tại ngày này" if u is not None and u.state == "not_yet"
                  else "nội dung mới của đơn vị chứa nó không có" if u is not None
                  else "đồ thị không có đơn vị này")
        return UnitComparison(key, label, "missing", off.marked, None, o_norm, reason)
    if u.state == "repealed":
        if official_repealed:
            return UnitComparison(key, label, "repealed_agreed", off.marked, None, o_norm)
        return UnitComparison(key, label, "repealed_wrongly", off.marked, None, o_norm,
                              u.mark())
    mine = normalise(u.text)
    if official_repealed:
        return UnitComparison(key, label, "repealed_shown", off.marked, mine, o_norm)
    if mine == o_norm:
        return UnitComparison(key, label, "equal", off.marked, mine, o_norm)
    if _bare(u.text) == _bare(off.text):
        return UnitComparison(key, label, "equal_punctuation", off.marked, mine, o_norm)
    if off.marked and u.state == "original" and not u.notes:
        return UnitComparison(key, label, "stale", True, mine, o_norm,
                              "đồ thị còn nội dung ban hành ban đầu")
    return UnitComparison(key, label, "other", off.marked, mine, o_norm, u.mark())


def _MARKER_OF(key: Key) -> re.Pattern[str]:
    if key[2] is not None:
        return re.compile(r"^[a-zđ]\d?\)\s*")
    if key[1] is not None:
        return re.compile(r"^\d+[a-zđ]?\.\s*")
    return re.compile(r"^điều\s+\d+[a-zđ]?\s*[.:]\s*")
