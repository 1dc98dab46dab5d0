"""Deterministic ids, document numbers, unit paths and Vietnamese citations.

Ids follow ``<document id>:<unit path>`` (``docs/vietnamese-legal.md``): ``P`` Phần, ``C`` Chương,
``M`` Mục, ``TM`` Tiểu mục, ``D`` Điều, ``K`` khoản, the letter for điểm, ``PL`` Phụ lục and
``MS`` Mẫu số. Chapters, parts and sections are paths of their own (``C2``, ``C2.M1``); articles
are numbered through the whole document, so an article's path never includes its chapter.
"""

from __future__ import annotations

import re
import unicodedata

# The one normaliser of document numbers lives in the core vocabulary; re-exported here.
from hopgraph.core.vocabulary import normalise_doc_number as normalise_doc_number

LEVELS = ("Part", "Chapter", "Section", "Subsection", "Article", "Clause", "Point", "Annex")
LEVEL_PREFIX = {
    "Part": "P", "Chapter": "C", "Section": "M", "Subsection": "TM", "Article": "D",
    "Clause": "K", "Point": "", "Annex": "PL",
}
LEVEL_WORD = {
    "Part": "Phần", "Chapter": "Chương", "Section": "Mục", "Subsection": "Tiểu mục",
    "Article": "Điều", "Clause": "khoản", "Point": "điểm", "Annex": "Phụ lục",
}
# Vietnamese point letters in order: no f, j, w, z; đ follows d.
POINT_LETTERS = ["a", "b", "c", "d", "đ", "e", "g", "h", "i", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "x", "y"]
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_ORDINALS = {
    "nhất": 1, "một": 1, "hai": 2, "ba": 3, "tư": 4, "bốn": 4, "năm": 5, "sáu": 6, "bảy": 7,
    "tám": 8, "chín": 9, "mười": 10,
}
DOC_TYPES = {
    "QH": "Luật", "NĐ": "Nghị định", "TT": "Thông tư", "TTLT": "Thông tư liên tịch",
    "QĐ": "Quyết định", "NQ": "Nghị quyết", "VBHN": "Văn bản hợp nhất", "PL": "Pháp lệnh",
    "CT": "Chỉ thị",
}
DOC_NUMBER = r"\d{1,5}[a-z]?(?:/\d{4})?/[A-ZĐ][A-ZĐa-z0-9]*(?:-[A-ZĐ][A-ZĐa-z0-9]*)*"
OLD_DOC_NUMBER = r"\d{1,5}-[A-ZĐ]+/[A-ZĐ]+"
DOC_NUMBER_RE = re.compile(rf"(?<![\w/])({DOC_NUMBER}|{OLD_DOC_NUMBER})(?![\w/])")


def slugify(text: str) -> str:
    """ASCII slug: diacritics folded, đ -> d, lower case, non-alphanumerics -> '-'."""
    folded = unicodedata.normalize("NFD", text.replace("đ", "d").replace("Đ", "D"))
    ascii_text = "".join(c for c in folded if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def doc_type_of_number(number: str) -> str | None:
    """The document type a number's code implies (``QH`` -> Luật), or None."""
    codes = number.split("/")[-1].split("-")
    first = codes[0]
    if first.startswith("QH"):
        return "Luật"
    for code in (first, *codes[1:]):
        if code in DOC_TYPES:
            return DOC_TYPES[code]
    return None


def roman_to_int(text: str) -> int | None:
    """``IV`` -> 4; None when ``text`` is not a Roman numeral."""
    text = text.upper()
    if not text or any(c not in _ROMAN for c in text):
        return None
    total = 0
    for i, c in enumerate(text):
        value = _ROMAN[c]
        total += -value if i + 1 < len(text) and _ROMAN[text[i + 1]] > value else value
    return total


def ordinal_number(text: str) -> str | None:
    """``thứ nhất`` -> '1', ``IV`` -> '4', ``12`` -> '12', ``2a`` -> '2a'; else None."""
    t = text.strip().lower()
    if t.startswith("thứ"):
        return str(_ORDINALS[t[3:].strip()]) if t[3:].strip() in _ORDINALS else None
    if re.fullmatch(r"\d+[a-zđ]?", t):
        return t.lstrip("0") or "0"
    roman = roman_to_int(text.strip())
    return str(roman) if roman is not None else None


def point_index(letter: str) -> int:
    """Position of a point letter (``đ`` -> 4); -1 when not a point letter."""
    base = letter.rstrip("0123456789")
    return POINT_LETTERS.index(base) if base in POINT_LETTERS else -1


def number_key(number: str) -> tuple[int, str]:
    """Sort key of an article or clause number: ``12a`` -> (12, 'a')."""
    match = re.match(r"(\d+)(.*)", number)
    return (int(match.group(1)), match.group(2)) if match else (0, number)


def segment(level: str, number: str) -> str:
    """One path segment: ('Article', '12a') -> 'D12a'; codification codes keep dashes."""
    return LEVEL_PREFIX[level] + number.replace(".", "-")


def unit_id(doc_id: str, path: str) -> str:
    """``<doc id>:<path>``."""
    return f"{doc_id}:{path}"


def split_unit_id(uid: str) -> tuple[str, str]:
    """Inverse of :func:`unit_id` (document ids never contain ':')."""
    doc, _, path = uid.partition(":")
    return doc, path


def version_id(target_id: str, amending_doc_id: str) -> str:
    """Id of the new wording of ``target_id`` enacted by ``amending_doc_id``."""
    return f"{target_id}@{amending_doc_id}"


def citation(chain: list[tuple[str, str]], doc_label: str) -> str:
    """Vietnamese citation from the smallest unit up: ``Điểm a khoản 2 Điều 5 Luật số X``.

    Args:
        chain: (level, number) from the outermost unit that matters (article or higher) down.
        doc_label: how the document is named, e.g. ``Luật số 25/2008/QH12``.
    """
    words = []
    for level, number in reversed(chain):
        word = LEVEL_WORD[level]
        words.append(f"{word} {number}")
    text = " ".join(words)
    if text:
        text = text[0].upper() + text[1:]
    return f"{text} {doc_label}".strip()


def doc_label(doc_type: str | None, number: str | None, title: str | None) -> str:
    """How citations name a document: ``Luật số 25/2008/QH12``, or its type and title."""
    if number:
        return f"{doc_type or 'Văn bản'} số {number}"
    if doc_type and title and title.lower().startswith(doc_type.lower()):
        return title
    return f"{doc_type or ''} {title or ''}".strip()
