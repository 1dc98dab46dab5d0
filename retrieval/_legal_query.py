"""Query preparation for legal retrieval: validation, Vietnamese segmentation, Lucene escaping,
and the mentions of documents and units a question makes (used to re-rank candidates)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from hopgraph.core.errors import RetrievalError
from hopgraph.core.questions import validate_question
from hopgraph.core.vocabulary import name_form, normalise_doc_number
from hopgraph.retrieval._legal_types import MAX_QUESTION_CHARS, RetrievalFilters

# The form names are compared in here (hopgraph.core.vocabulary.name_form), under its old name.
fold = name_form

MAX_QUERY_TERMS = 64
_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')
_LUCENE_WORDS = {"AND", "OR", "NOT", "TO"}
_TOKEN = re.compile(r"[\w/.\-]+", re.UNICODE)
# A number's code has a letter (QH15, NĐ-CP): a date ("01/07/2021") is no document number.
_DOC_NUMBER = re.compile(
    r"\b(\d{1,4}/(?:\d{4}/)?(?=[0-9]*[A-ZĐa-zđ])[A-ZĐa-zđ0-9]+(?:[-–][A-ZĐa-zđ0-9]+)*)")
_ARTICLE = re.compile(r"\bđiều\s+(\d+[a-zđ]?)\b", re.IGNORECASE)
# "điểm a khoản 2 Điều 5", "khoản 2 Điều 5", "Điều 5": a unit the question names, as its path.
_UNIT = re.compile(r"(?:\bđiểm\s+([a-zđ]{1,2})\s+(?:tại\s+|của\s+)?)?"
                   r"(?:\bkhoản\s+(\d+[a-zđ]?)\s+(?:tại\s+|của\s+)?)?\bđiều\s+(\d+[a-zđ]?)\b",
                   re.IGNORECASE)
_FILTER_KEYS = {"doc_types", "issuers", "doc_ids"}
# Quoted passages: typographic double quotes, guillemets, straight double quotes (single quotes
# are apostrophes too often to be read as quotes).
_QUOTE = re.compile(r"“([^”]{1,2000})”|«([^»]{1,2000})»|\"([^\"]{1,2000})\"")
MAX_QUOTES = 3
MIN_QUOTE_WORDS = 3
MAX_QUOTE_CHARS = 300
# Definitional questions: "Thế nào là X?", "Khái niệm X", and statements "X là Y" / "Việc X là Y"
# / "X được hiểu là Y" (ALQAC's true-or-false form). The term is what a definitions article
# ("Giải thích từ ngữ") would list; loaders store such terms as DefinedTerm nodes.
_DEFINITION_ASK = re.compile(r"^(?:thế nào là|như thế nào là|định nghĩa(?: của| về)?|khái niệm(?: của| về)?)"
                             r"\s+(.+)$")
_DEFINITION_STATEMENT = re.compile(r"^(?:việc\s+)?(.+?)\s+(?:được hiểu là|là)\s+(.+)$")
# A numbered item of a definitions article: "N. <term> là …" (the term without a parenthesis).
_DEFINITION_ITEM = re.compile(r"^\s*\d+[a-zđ]?[.)]\s*([^\n(]{2,160}?)\s+(?:được hiểu là|là)\s")
# "Theo Luật …, X là gì?": the scope names where to look, it is not part of the term.
_SCOPE_PREFIX = re.compile(r"^(?:theo|căn cứ|trong)\s[^,?]{2,120},\s*")
_EDGE_PUNCT = " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~“”"
MAX_TERM_WORDS = 20  # the longest term derive_defined_terms keeps ("gói dịch vụ y tế cơ bản do quỹ … chi trả": 15)
# Words that carry the question's form, not its legal content: the interrogative boilerplate of
# exam-style questions ("… là đúng hay sai?", "… nào sau đây?", "bao lâu") and the most common
# function words. On a case-sensitive whitespace full-text index every query term adds score, so
# these terms only pull in articles that happen to repeat them. Compared in lower case, as pyvi
# segments them (syllables of one word joined by ``_``).
QUESTION_FORM_WORDS = frozenset({
    "đúng", "sai", "hay", "gì", "nào", "sau", "đây", "sau_đây", "bao_nhiêu", "bao_lâu", "thế_nào",
    "như_thế_nào", "không", "đúng_không", "hay_không", "là",
})
FUNCTION_WORDS = frozenset({
    "có", "được", "của", "và", "các", "những", "thì", "trong", "theo", "cho", "với", "về", "khi",
    "nếu", "này", "như", "mà", "để", "từ", "đã", "sẽ", "do", "một",
})
LEXICAL_STOPWORDS = QUESTION_FORM_WORDS | FUNCTION_WORDS


@dataclass(frozen=True)
class PreparedQuery:
    """A validated question with its segmented form and Lucene query."""

    question: str
    segmented: str
    lucene: str
    terms: tuple[str, ...]
    doc_numbers: tuple[str, ...]
    articles: tuple[str, ...]
    lucene_content: str = ""  # ``lucene`` without LEXICAL_STOPWORDS ("" when nothing is left)
    subject: str = ""  # the term a definitional question is about, folded ("" when none)
    predicate: str = ""  # what the question says the term is, folded ("" when it asks)
    units: tuple[str, ...] = ()  # unit paths the question names ("D5", "D5.K2", "D5.K2.a")
    quotes: tuple[str, ...] = ()  # the passages the question quotes, folded (quoted_passages)
    lucene_quote: str = ""  # full-text query over the quoted words (quote_query; "" when none)


def segment(text: str) -> str:
    """Word-segment Vietnamese text with pyvi (syllables of one word joined by ``_``)."""
    # lazy, and without scikit-learn (hopgraph.core.segmenting): loading the CRF model costs ~0.3 s
    from hopgraph.core.segmenting import segment as segment_vi

    return segment_vi(text)


def definition_subject(q_fold: str) -> tuple[str, str]:
    """The term a definitional question is about and what it says the term is, both folded.

    ``("", "")`` when the question is not definitional or its subject is longer than a term
    can be. The subject is compared with ``DefinedTerm.key``; it is not checked here that any
    document defines it.
    """
    text = _SCOPE_PREFIX.sub("", q_fold.strip(_EDGE_PUNCT), count=1)
    asked = _DEFINITION_ASK.match(text)
    if asked:
        subject, predicate = asked.group(1), ""
    else:
        stated = _DEFINITION_STATEMENT.match(text)
        if not stated:
            return "", ""
        subject, predicate = stated.group(1), stated.group(2)
    subject = subject.strip(_EDGE_PUNCT)
    if not subject or len(subject.split()) > MAX_TERM_WORDS:
        return "", ""
    return subject, predicate.strip(_EDGE_PUNCT)


def definition_item(text: str, subject: str) -> str | None:
    """The line of ``text`` whose numbered item ``N. <term> là …`` defines ``subject`` (a
    folded subject from :func:`definition_subject`); None when no line does. The item shape and
    the term's trimming are those ``legal/derive_defined_terms`` stores DefinedTerm keys with.
    """
    if not subject:
        return None
    for line in text.splitlines():
        m = _DEFINITION_ITEM.match(line)
        if m and fold(m.group(1).strip(_EDGE_PUNCT)) == subject:
            return line
    return None


def escape_term(term: str) -> str:
    """Escape one term for Lucene's classic query parser."""
    if term.upper() in _LUCENE_WORDS:
        return f'"{term}"'
    return _LUCENE_SPECIAL.sub(r"\\\1", term)


def lucene_query(
    segmented: str, stopwords: frozenset[str] = frozenset()
) -> tuple[str, tuple[str, ...]]:
    """OR-query over the segmented tokens (original case and lower case), special chars escaped.

    Args:
        segmented: the pyvi-segmented question.
        stopwords: lower-case tokens left out of the query.

    Returns ``("", ())`` when nothing searchable remains (only punctuation or stopwords).
    """
    terms: list[str] = []
    seen: set[str] = set()
    for tok in _TOKEN.findall(segmented):
        tok = tok.strip(".-/")
        if not tok or not any(c.isalnum() for c in tok) or tok.lower() in stopwords:
            continue
        for form in (tok, tok.lower()):
            if form not in seen:
                seen.add(form)
                terms.append(form)
        if len(terms) >= MAX_QUERY_TERMS:
            break
    return " ".join(escape_term(t) for t in terms), tuple(terms)


def prepare_question(question: object) -> PreparedQuery:
    """Validate and prepare a question.

    Raises:
        RetrievalError: the question fails ``hopgraph.core.questions.validate_question`` (not a
            string, not valid UTF-8, empty, longer than ``MAX_QUESTION_CHARS``).
    """
    # no word to search: an empty result with its reason (the CLI refuses it before this)
    q = validate_question(question, max_chars=MAX_QUESTION_CHARS, require_word=False)
    seg = segment(q)
    lucene, terms = lucene_query(seg)
    content, _ = lucene_query(seg, LEXICAL_STOPWORDS)
    numbers = tuple(dict.fromkeys(normalise_doc_number(m) for m in _DOC_NUMBER.findall(q)))
    articles = tuple(dict.fromkeys(m.lower() for m in _ARTICLE.findall(q)))
    subject, predicate = definition_subject(fold(q))
    quotes = quoted_passages(q)
    return PreparedQuery(q, seg, lucene, terms, numbers, articles, content, subject, predicate,
                         named_units(q), quotes, quote_query(quotes))


def quoted_passages(question: str) -> tuple[str, ...]:
    """The passages a question quotes (between “ ”, « » or straight double quotes), folded as
    :func:`fold` does, edge punctuation stripped; at most ``MAX_QUOTES``, each of at least
    ``MIN_QUOTE_WORDS`` words and at most ``MAX_QUOTE_CHARS`` characters (a longer one is cut at
    a word boundary: a prefix of a quote is still in the text that holds the quote).

    A quoted passage is a user's exact words from the law ("nội dung “…” được quy định thế
    nào?"): the units whose text holds it are what the question is about.
    """
    out: list[str] = []
    for m in _QUOTE.finditer(question):
        passage = fold(next(g for g in m.groups() if g is not None)).strip(_EDGE_PUNCT)
        if len(passage) > MAX_QUOTE_CHARS:
            passage = passage[:MAX_QUOTE_CHARS].rsplit(" ", 1)[0]
        if len(passage.split()) >= MIN_QUOTE_WORDS and passage not in out:
            out.append(passage)
        if len(out) == MAX_QUOTES:
            break
    return tuple(out)


def quote_query(quotes: Sequence[str]) -> str:
    """An OR-query over the quoted passages' segmented words for the full-text index (which is
    case-sensitive): each word but the ``LEXICAL_STOPWORDS`` in lower case and capitalised
    ("đại_hội_đồng", "Đại_hội_đồng"); ``""`` when there is no quote or no searchable word."""
    terms: list[str] = []
    for passage in quotes:
        for tok in _TOKEN.findall(segment(passage)):
            tok = tok.strip(".-/")
            if not tok or not any(c.isalnum() for c in tok) or tok.lower() in LEXICAL_STOPWORDS:
                continue
            for form in (tok.lower(), tok[:1].upper() + tok[1:].lower()):
                if form not in terms:
                    terms.append(form)
    return " ".join(escape_term(t) for t in terms[:MAX_QUERY_TERMS])


def named_units(question: str) -> tuple[str, ...]:
    """The paths of the units a question names, in the loader's id form (``"khoản 2 Điều 5"``
    -> ``"D5.K2"``, ``"điểm a khoản 2 Điều 5"`` -> ``"D5.K2.a"``, ``"Điều 5a"`` -> ``"D5a"``)."""
    paths = []
    for point, clause, article in _UNIT.findall(question):
        path = f"D{article.lower()}"
        if clause:
            path += f".K{clause.lower()}"
            if point:
                path += f".{point.lower()}"
        paths.append(path)
    return tuple(dict.fromkeys(paths))


def parse_as_of(as_of: object, today: date) -> date:
    """Accept a ``date``, an ISO ``YYYY-MM-DD`` string or ``None`` (today).

    Raises:
        RetrievalError: anything else, or a string that is not an ISO date.
    """
    if as_of is None:
        return today
    if isinstance(as_of, date):
        return as_of
    if isinstance(as_of, str):
        try:
            return date.fromisoformat(as_of.strip())
        except ValueError:
            raise RetrievalError(
                f"as-of date {as_of!r} is not an ISO date (expected YYYY-MM-DD)"
            ) from None
    raise RetrievalError(f"as-of date must be a date or YYYY-MM-DD string, got {type(as_of).__name__}")


def parse_filters(filters: object) -> RetrievalFilters:
    """Accept ``RetrievalFilters``, a mapping with keys doc_types/issuers/doc_ids, or ``None``.

    Raises:
        RetrievalError: unknown keys or values that are not strings / lists of strings.
    """
    if filters is None:
        return RetrievalFilters()
    if isinstance(filters, RetrievalFilters):
        values: Mapping[str, Any] = {
            "doc_types": filters.doc_types, "issuers": filters.issuers, "doc_ids": filters.doc_ids
        }
    elif isinstance(filters, Mapping):
        unknown = sorted(set(map(str, filters)) - _FILTER_KEYS)
        if unknown:
            raise RetrievalError(
                f"unknown filter(s) {unknown}; known filters: {sorted(_FILTER_KEYS)}"
            )
        values = filters
    else:
        raise RetrievalError(f"filters must be a mapping, got {type(filters).__name__}")
    out: dict[str, tuple[str, ...]] = {}
    for key in _FILTER_KEYS:
        raw = values.get(key) or ()
        if isinstance(raw, str):
            raw = (raw,)
        if not isinstance(raw, list | tuple | set | frozenset) or not all(
            isinstance(v, str) for v in raw
        ):
            raise RetrievalError(f"filter {key!r} must be a string or a list of strings")
        out[key] = tuple(v.strip() for v in raw if v.strip())
    return RetrievalFilters(**out)
