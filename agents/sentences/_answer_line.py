"""The answer line without an LLM: which evidence sentence answers the question, and why.

Retrieval ranks evidence by similarity and path score; the sentence that answers a bridge
question ("Where was the director of Film A born?") is often the one the graph reached last,
in the passage of an entity the question does not name (Bob's), and it is about the part of the
question the named entity does not cover ("born"). This module picks it by rules, from the
evidence retrieval already holds (no query, no model):

- the question's *facets* are the entities it names (``question_facets``, then
  :func:`entity_facets`: a single word that modifies the word after it, "Welsh singer",
  "Australian city", or begins with a digit, "2004", is an attribute of what is asked, not an
  entity, and a leading "If" / "This" is dropped); its *asked words* are its other content words
  ("director", "born"), compared on their first five letters;
- **comparison** (two facets or more and "or" / "both" / "same" / "which … first"): for each of
  the first two facets, the evidence sentence of a passage about that facet (its title, else its
  text; a passage titled exactly with the facet first) that shares the most asked words, a sentence holding a number or a year first when the
  question asks for one ("first", "older", "how many", "when"). Both sentences answer, in the
  order the question names them: they hold the compared values.
- **bridge** (otherwise): the sentence that shares the most asked words among those that name
  no entity of the question, in their text or their passage's title (the far end of the bridge),
  half a word more for a passage one bridge away (its title named by a sentence about an entity
  of the question) and for a number when one is asked for, ties broken by its score; those one
  bridge away (or reached along a BRIDGE edge or a title link) are tried first; failing those, among the sentences of passages whose title names
  none; then any. When no sentence shares an asked word, the best-scored sentence stays first,
  and the reason says so.

The evidence is then shown with the answering sentences first (``SentenceRetrievalConfig
.answer_first``), the others in retrieval order. The reason names the sentence's passage, how it
was reached (anchor, or the path's edges from its anchor) and the words it shares.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

_STEM = 5
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    ["what", "which", "who", "whom", "whose", "where", "when", "why", "how", "is", "are", "was", "were", "do", "does", "did", "the", "a", "an", "in", "on", "of", "for", "and", "or", "both", "has", "have", "had", "can", "to", "by", "with", "from", "at", "as", "that", "this", "these", "those", "it", "its", "his", "her", "their", "there", "than", "then", "be", "been", "being", "same", "also", "one", "ones", "name", "named", "called", "known"])
_COMPARISON = re.compile(r"\bor\b|\bboth\b|\bsame\b|\beither\b|\bneither\b", re.IGNORECASE)
_ASKS_VALUE = re.compile(
    r"\b(?:when|year|years|date|first|earlier|earliest|later|latest|older|oldest|younger|"
    r"youngest|how\s+many|how\s+much|how\s+long|how\s+old|population|number|age|born\s+first)\b",
    re.IGNORECASE)
_VALUE = re.compile(r"\b\d[\d,.]*\b")
_PAREN = re.compile(r"\([^)]*\)")


class _Sentence(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def passage_id(self) -> str: ...

    @property
    def position(self) -> int: ...

    @property
    def text(self) -> str: ...

    @property
    def score(self) -> float: ...

    @property
    def path(self) -> tuple[str, ...]: ...

    @property
    def relations(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class AnswerLine:
    """The sentences that answer the question (the first answers; a comparison has one per
    compared side), the kind of question read, and why they were chosen."""

    kind: str  # 'bridge' or 'comparison'
    sentence_ids: tuple[str, ...]
    reason: str


def _words(text: str) -> set[str]:
    return {w[:_STEM] for w in _WORD.findall(text.lower())}


def asked_words(question: str, facets: Sequence[str]) -> set[str]:
    """The question's content words outside the entities it names, cut to five letters (a
    shorter word whole: "die" then matches "died")."""
    named = set().union(*(_words(f) for f in facets)) if facets else set()
    return {w[:_STEM] for w in _WORD.findall(question.lower())
            if w not in _STOP and len(w) > 2 and w[:_STEM] not in named}


def _matches(asked: set[str], text: str) -> set[str]:
    """The asked words that begin a word of ``text``."""
    words = set(_WORD.findall(text.lower()))
    return {a for a in asked if any(w.startswith(a) for w in words)}


def _covers(words: set[str], facet: str) -> bool:
    need = {w for w in _words(facet) if w not in _STOP and len(w) > 1}
    if not need:
        return False
    hit = len(need & words)
    return hit == len(need) or (len(need) >= 3 and hit * 3 >= 2 * len(need))


_LEADING = frozenset(["if", "this", "that", "these", "those", "although", "while", "since"])
_NEXT_WORD = re.compile(r"\s+([A-Za-z]+)")


def entity_facets(question: str, facets: Sequence[str]) -> list[str]:
    """The facets that name an entity, for the answer line: a leading "If" / "This" … dropped,
    a single word that begins with a digit left out ("2004", "70's", "4-letter"), and so is a single word that modifies the lower-case word
    after it ("Australian city", "Welsh singer", "Germany's best"): an attribute of the thing
    asked about, not an entity whose passage the answer is outside of."""
    out = []
    for facet in facets:
        words = facet.split()
        while len(words) > 1 and words[0].lower() in _LEADING:
            words = words[1:]
        if not words or (len(words) == 1 and words[0][0].isdigit()):
            continue
        name = " ".join(words)
        if len(words) == 1:
            at = question.find(name)
            after = _NEXT_WORD.match(question, at + len(name)) if at >= 0 else None
            if after is not None and after.group(1).islower() and after.group(1) not in _STOP:
                continue
        out.append(name)
    return out


def _how(e: _Sentence, titles: Mapping[str, str]) -> str:
    if len(e.path) <= 1:
        return "an anchor (vector search)"
    start = e.path[0].split("#")[0]
    edges = ", ".join(r.rstrip(":") for r in e.relations)
    return f"reached from '{titles.get(start, start)}' along {edges}"


def _shared(e: _Sentence, asked: set[str]) -> list[str]:
    return sorted(_matches(asked, e.text))


def answer_line(question: str, evidence: Sequence[_Sentence], titles: Mapping[str, str],
                facets: Sequence[str]) -> AnswerLine | None:
    """The answering sentence(s) among ``evidence`` (see the module docstring); None without
    evidence.

    Args:
        question: the question as asked.
        evidence: the retrieved sentences, in retrieval order.
        titles: passage id -> title (a missing title reads as the passage id).
        facets: the entities the question names (``question_facets(question)``).
    """
    if not evidence:
        return None
    facets = entity_facets(question, facets)
    asked = asked_words(question, facets)
    wants_value = bool(_ASKS_VALUE.search(question))
    order = {e.id: i for i, e in enumerate(evidence)}

    def about(e: _Sentence, facet: str) -> int:
        # 3: the passage's title is the facet (its parenthetical aside); 2: the title names the
        # facet; 1: the sentence's text does; 0: neither
        title = titles.get(e.passage_id, e.passage_id)
        if _covers(_words(title), facet):
            return 3 if _words(_PAREN.sub("", title)) == _words(facet) else 2
        return 1 if _covers(_words(e.text), facet) else 0

    # passages one bridge away: their title is named by a sentence about an entity of the
    # question (the Analytical Engine's sentence names Charles Babbage)
    near = [e for e in evidence if any(about(e, f) > 0 for f in facets)]
    near_words = set().union(*(_words(e.text) for e in near)) if near else set()
    bridged = {e.passage_id for e in evidence
               if _covers(near_words, titles.get(e.passage_id, ""))}

    def merit(e: _Sentence) -> tuple[float, ...]:
        value = 1.0 if wants_value and _VALUE.search(e.text) else 0.0
        hop = 1.0 if e.passage_id in bridged else 0.0
        return (len(_matches(asked, e.text)) + 0.5 * value + 0.5 * hop, e.score, -order[e.id])

    if len(facets) >= 2 and _COMPARISON.search(question):
        chosen: list[_Sentence] = []
        for facet in facets[:2]:
            pool = [e for e in evidence if e not in chosen and about(e, facet) > 0]
            if pool:
                chosen.append(max(pool, key=lambda e: (about(e, facet), *merit(e))))
        if len(chosen) == 2:
            parts = [f"'{titles.get(e.passage_id, e.passage_id)}' #{e.position} for "
                     f"'{f}' ({_how(e, titles)}"
                     + (f"; shares {', '.join(_shared(e, asked))}" if _shared(e, asked) else "")
                     + ")" for f, e in zip(facets[:2], chosen, strict=True)]
            return AnswerLine("comparison", tuple(e.id for e in chosen),
                              "the compared values: " + " and ".join(parts))
    # the far end of the bridge: neither the passage's title nor the sentence names an entity
    # of the question; else a passage whose title names none; else any sentence
    far = [e for e in evidence if not any(about(e, f) > 0 for f in facets)]
    other = [e for e in evidence if not any(about(e, f) >= 2 for f in facets)]
    linked = [e for e in far if e.passage_id in bridged
              or any(r.startswith(("BRIDGE", "TITLE")) for r in e.relations)]
    tiers = [("a passage one bridge from the question's entities", linked),
             ("a passage the question does not name", far),
             ("a passage whose title the question does not name", other),
             ("a passage the question names", list(evidence))]
    for where, pool in tiers:
        best = max(pool, key=merit) if pool else None
        if best is not None and _shared(best, asked):
            title = titles.get(best.passage_id, best.passage_id)
            return AnswerLine("bridge", (best.id,),
                              f"closes the bridge: '{title}' #{best.position}, in {where}, "
                              f"{_how(best, titles)}; shares {', '.join(_shared(best, asked))} "
                              "with the question")
    top = evidence[0]
    return AnswerLine("bridge", (top.id,),
                      "no evidence sentence shares a word the question asks about beyond the "
                      f"entities it names: the best-scored one, "
                      f"'{titles.get(top.passage_id, top.passage_id)}' #{top.position}")
