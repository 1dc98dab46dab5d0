"""Entity linking against the graph's own names and aliases (ReGraM Appendix B, offline variant).

Mentions are the question's word n-grams (1–4 tokens, not starting or ending with a stop word),
plus the long forms of abbreviations when a spaCy pipeline with scispaCy's
``abbreviation_detector`` is supplied. Each mention is one Lucene phrase query against the
``bioentity_search_text_fulltext`` index (names and aliases) — never a Python scan of all names —
and a candidate is kept when rapidfuzz's ratio between the mention and the entity's name or one of
its aliases is at least 90 (synonym expansion: an alias hit links the canonical entity).
The UMLS linker of scispaCy needs downloaded data and is not used.

MCQ options are short phrases: :meth:`EntityLinker.link_option` first links the whole option to
its most similar entity name (rapidfuzz ``token_sort_ratio`` on forms without parentheses, so
"patent ductus arteriosus (PDA)" finds "patent ductus arteriosus" and "Takayasu's arteritis"
"Takayasu arteritis") and falls back to the n-gram linking of :meth:`EntityLinker.link` for
options that embed a name in a longer phrase ("Start him on hydrocortisone").
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

from hopgraph.db import QueryRunner

DEFAULT_MIN_RATIO = 90.0
DEFAULT_MAX_NGRAM = 4
LONG_NGRAM = 8  # longer names (5 to 8 tokens) are searched as exact phrases
DEFAULT_CANDIDATES_PER_MENTION = 5
DEFAULT_MAX_ENTITIES = 12
DEFAULT_OPTION_MIN_RATIO = 90.0  # 85 let "Arthritis" link "arteritis" (89)
# A mention this short links only to an identical name or alias (case aside): at ratio 90 a
# five-letter word matches a six-letter gene symbol ("clasp" -> CLASRP).
SHORT_MENTION = 6
_PARENTHESES = re.compile(r"\s*\([^()]*\)")
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\ufeff]")
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-/'.]*[A-Za-z0-9]|[A-Za-z0-9]")
_CHEMICAL_WORD = re.compile(r"(?=.{8,})(?=.*\d)(?=.*(?:[()\[\]]|\d,\d))")
_LUCENE_PHRASE_ESCAPE = re.compile(r'(["\\])')
_LUCENE_TERM_ESCAPE = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')
STOP_WORDS = frozenset(["a", "an", "and", "are", "as", "at", "be", "been", "being", "by", "can", "could", "did", "do", "does", "for", "from", "had", "has", "have", "he", "her", "his", "how", "i", "if", "in", "into", "is", "it", "its", "may", "might", "most", "of", "on", "or", "she", "should", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "was", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would", "following", "patient", "patients", "year", "years", "old", "man", "woman", "male", "female", "history", "presents", "present", "shows", "showed", "likely", "best", "next", "most", "which", "following", "mg", "ml", "day", "days", "week", "weeks", "examination", "shows", "found", "reveals"])


@dataclass(frozen=True)
class LinkedEntity:
    """An entity the question mentions, with the evidence for the link."""

    id: str
    name: str
    node_type: str
    mention: str
    matched: str
    ratio: float
    degree: int


def mentions_of(text: str, *, max_ngram: int = DEFAULT_MAX_NGRAM,
                extra: Sequence[str] = ()) -> list[str]:
    """Candidate mention strings: content n-grams of ``text`` plus ``extra`` (abbreviation long
    forms). Longer names are found by :func:`long_mentions`."""
    out = dict.fromkeys(_content_ngrams(text, 1, max_ngram))
    # A systematic chemical name ("(2R)-1-(2,6-dimethylphenoxy)propan-2-amine") is split by the
    # token pattern into pieces no entity is named by: its whitespace-delimited words, alone and
    # in runs of up to three, are mentions too when one of them has eight characters or more, a
    # digit, and a bracket or a locant list such as "2,6" ("45-year-old" is not one).
    words = [w.strip("?.;:!\"'") for w in text.split()]
    for n in range(1, 4):
        for i in range(len(words) - n + 1):
            run = words[i:i + n]
            if any(_CHEMICAL_WORD.search(w) for w in run) and all(run):
                out.setdefault(" ".join(run), None)
    for e in extra:
        if e.strip():
            out.setdefault(e.strip(), None)
    return list(out)


def long_mentions(text: str, *, shortest: int = DEFAULT_MAX_NGRAM + 1,
                  longest: int = LONG_NGRAM) -> list[str]:
    """Content n-grams of ``shortest`` to ``longest`` tokens: disease names run that long
    ("malignant epithelial tumor of ovary", "primary cutaneous CD4+ small/medium-sized
    pleomorphic T-cell lymphoma"). They are searched as exact phrases only."""
    return list(dict.fromkeys(_content_ngrams(text, shortest, longest)))


def _content_ngrams(text: str, shortest: int, longest: int) -> Iterator[str]:
    """The token n-grams of ``text``, ``shortest`` to ``longest`` tokens, shortest first, that
    neither start nor end with a stop word and are not a bare number or under three characters."""
    tokens = _TOKEN.findall(text)
    for n in range(shortest, longest + 1):
        for i in range(len(tokens) - n + 1):
            gram = tokens[i:i + n]
            if gram[0].lower() in STOP_WORDS or gram[-1].lower() in STOP_WORDS:
                continue
            phrase = " ".join(gram)
            if len(phrase) >= 3 and not phrase.isdigit():
                yield phrase


def option_form(text: str) -> str:
    """An option's text as compared with entity names: zero-width characters and parenthesised
    parts dropped, possessive 's removed, folded to lower case with single spaces."""
    text = _PARENTHESES.sub("", _ZERO_WIDTH.sub("", text) + " ")
    text = text.replace("\u2019s ", " ").replace("'s ", " ")
    return " ".join(text.strip(" .;,").casefold().split())


def lucene_phrase(mention: str, *, fuzzy: bool = True) -> str:
    """A Lucene query for ``mention``: the exact phrase, or (``fuzzy``) all its terms with one
    edit allowed for terms of five or more characters (so "ulcer diseases" still finds "ulcer
    disease")."""
    phrase = '"' + _LUCENE_PHRASE_ESCAPE.sub(r"\\\1", mention) + '"'
    if not fuzzy:
        return phrase
    terms = [_LUCENE_TERM_ESCAPE.sub(r"\\\1", t.lower()) + ("~1" if len(t) >= 5 else "")
             for t in _TOKEN.findall(mention)]
    if not terms:
        return phrase
    return f"{phrase} OR ({' AND '.join(terms)})"


class EntityLinker:
    """Links question text to ``BioEntity`` nodes through the full-text index and rapidfuzz.

    Args:
        runner: the query runner.
        nlp: optional spaCy pipeline; when it has scispaCy's ``abbreviation_detector``, the long
            forms of abbreviations in the text become mentions too.
        min_ratio: rapidfuzz ratio threshold (paper: 90).
    """

    def __init__(self, runner: QueryRunner, *, nlp: Any | None = None,
                 min_ratio: float = DEFAULT_MIN_RATIO,
                 candidates_per_mention: int = DEFAULT_CANDIDATES_PER_MENTION,
                 max_entities: int = DEFAULT_MAX_ENTITIES) -> None:
        self._runner = runner
        self._nlp = nlp
        self._min_ratio = min_ratio
        self._per_mention = candidates_per_mention
        self._max_entities = max_entities

    def _abbreviation_long_forms(self, text: str) -> list[str]:
        if self._nlp is None or "abbreviation_detector" not in getattr(self._nlp, "pipe_names", []):
            return []
        with warnings.catch_warnings():
            # scispaCy's detector warns on every call that its global matcher has no patterns.
            warnings.filterwarnings("ignore", message=r".*\[W036\]")
            doc = self._nlp(text)
        return [str(a._.long_form) for a in getattr(doc._, "abbreviations", [])]

    def link(self, text: str) -> list[LinkedEntity]:
        """Entities mentioned in ``text``, best first (ratio, then longer mention, then fewer edges)."""
        mentions = mentions_of(text, extra=self._abbreviation_long_forms(text))
        if not mentions:
            return []
        queries = [{"mention": m, "lucene": lucene_phrase(m)} for m in mentions]
        queries += [{"mention": m, "lucene": lucene_phrase(m, fuzzy=False)}
                    for m in long_mentions(text) if m not in mentions]
        rows = self._runner.read("biomed/search_entities", mentions=queries,
                                 limit=self._per_mention)
        best: dict[str, LinkedEntity] = {}
        for r in rows:
            mention = str(r["mention"]).casefold()
            names = [str(r["name"])] + [str(a) for a in r["aliases"] or []]
            score, matched = max((fuzz.ratio(mention, n.casefold()), n) for n in names)
            if score < self._min_ratio or (len(mention) <= SHORT_MENTION and score < 100):
                continue
            cand = LinkedEntity(str(r["id"]), str(r["name"]), str(r["node_type"] or ""),
                                str(r["mention"]), matched, float(score), int(r["degree"]))
            old = best.get(cand.id)
            if old is None or (cand.ratio, len(cand.mention)) > (old.ratio, len(old.mention)):
                best[cand.id] = cand
        ranked = sorted(best.values(), key=lambda e: (-e.ratio, -len(e.mention), e.degree, e.id))
        return _drop_nested(ranked)[: self._max_entities]

    def link_option(self, text: str, *,
                    min_ratio: float = DEFAULT_OPTION_MIN_RATIO) -> list[LinkedEntity]:
        """Entities an MCQ option names, best first.

        The whole option (:func:`option_form`) is one mention: the entity whose name or alias is
        most similar to it (``token_sort_ratio`` ≥ ``min_ratio``, on forms without parentheses)
        is the option's entity, with the mention equal to the whole option (all of them when
        several names are equally similar: PrimeKG's "X" and "X (disease)"). Without one, the
        entities its n-grams name (:meth:`link`): their mentions are shorter than the option,
        which is how a scorer tells a whole-option match from a name inside a longer phrase.
        """
        form = option_form(text)
        if not form:
            return []
        # The index keeps a possessive inside its word ("kaposi's"), which the form drops: the
        # option is searched as written (parentheses aside) as well.
        written = " ".join(_PARENTHESES.sub("", _ZERO_WIDTH.sub("", text) + " ")
                           .replace("\u2019", "'").split()).strip(" .;,")
        searches = [{"mention": form, "lucene": lucene_phrase(form)}]
        if written and written.casefold() != form:
            searches.append({"mention": written, "lucene": lucene_phrase(written)})
        rows = self._runner.read("biomed/search_entities", mentions=searches,
                                 limit=self._per_mention)
        found: dict[str, LinkedEntity] = {}
        for r in rows:
            names = [str(r["name"])] + [str(a) for a in r["aliases"] or []]
            score, matched = max((fuzz.token_sort_ratio(form, option_form(n)), n) for n in names)
            if score < min_ratio or (len(form) <= SHORT_MENTION and score < 100):
                continue
            found.setdefault(str(r["id"]), LinkedEntity(
                str(r["id"]), str(r["name"]), str(r["node_type"] or ""), form, matched,
                float(score), int(r["degree"])))
        if found:
            # Every entity at the best similarity is named by the option: PrimeKG keeps
            # "osteopetrosis" and "osteopetrosis (disease)" as two nodes, and the option means
            # both. The one whose own name is the option comes first.
            top = max(e.ratio for e in found.values())
            tied = [e for e in found.values() if e.ratio == top]
            return sorted(tied, key=lambda e: (option_form(e.matched) != form, e.name.casefold() != form,
                                               -e.degree, e.id))
        return self.link(form)


def _drop_nested(entities: list[LinkedEntity]) -> list[LinkedEntity]:
    """Drop an entity whose mention lies inside a longer linked mention ("diabetes" in "type 2 diabetes")."""
    kept: list[LinkedEntity] = []
    longer = sorted(entities, key=lambda e: -len(e.mention))
    for e in longer:
        m = e.mention.casefold()
        if any(m != k.mention.casefold() and re.search(rf"\b{re.escape(m)}\b", k.mention.casefold())
               for k in kept):
            continue
        kept.append(e)
    order = {e.id: i for i, e in enumerate(entities)}
    return sorted(kept, key=lambda e: order[e.id])
