"""Scoring MCQ options by graph evidence, and choosing a letter only when the evidence picks one.

An option's score is built from the weighted paths (``biomed/score_option_paths``) that join one
of its entities to an entity linked from the question:

- per question entity, the best path from any of the option's entities counts once (a question
  entity reached by many paths is one piece of evidence, not many);
- a path's score (weights, decay per extra edge, middle hubs discounted in Cypher) is multiplied
  by the link's confidence (name similarity / 100, times the share of the option's text that the
  linked mention covers: a name inside a longer phrase is weaker evidence about the option);
- and divided by ``log(2 + degree)`` of the option's entity: a hub (a disease with hundreds of
  edges) reaches some question entity by chance, so reaching one says less about it (a PMI-like
  normalisation against how connected the option's entity is anyway).

Evidence comes in two tiers (:func:`option_strength`). A *direct* fact (one edge between the
option's entity and a question entity) is what a question such as "which disease is associated
with GENE and treated with DRUG" asks for; it counts its weight times the link's confidence, halved
when its relation is not the one the question's cue words ask for at that entity ("treated with"
→ INDICATION, not CONTRAINDICATION). Only question entities the option does not reach directly
add *indirect* evidence (paths of two or three edges). Options compare on their direct facts
first, undiscounted (a hub with the asked-for edge still has the fact), and only when those tie on
the hub-discounted sum of all their evidence. So an option joined to both named entities beats one
joined to one of them and merely near the other, and of two options with the same facts the more
specific entity wins. With ``option_direct_first`` off (the ``option_one_sum`` ablation), all of
an option's evidence is one hub-discounted sum (:func:`option_score`).

A negated cue asks for the opposite relation (``hopgraph.agents.biomed._joins.relation_cue``:
"should not be treated with X", "contraindicated in X" -> CONTRAINDICATION): a fact of the
relation opposite to the one asked (an INDICATION when a contraindication is asked, and the other
way round) is evidence against the option, not half a fact: it counts nothing, and longer paths
to that question entity count nothing either.

The letter with the highest score wins; no score above zero, or a tie at the top, abstains.
Letters carry no information, so no letter is ever preferred. A question that asks for the
exception ("all of the following except", "which is not a feature of") abstains too: paths show
what is connected, and the exception is the option the graph does not connect, which a partial
graph cannot tell from an option it merely lacks. A negation that belongs to a relation cue
("which drug should not be used to treat X") is not an exception: the question asks for a
contraindication, which the graph states (:func:`asks_for_exception`). An "except" question
whose cue was turned (:func:`hopgraph.agents.biomed._joins.opposite_relations`) is answered only
by an option holding a fact of the asked relation (``OptionStrength.asked``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from hopgraph.agents.biomed._linking import LinkedEntity, option_form
from hopgraph.agents.biomed._planning import decompose_rules

TIE_REL_TOL = 1e-9
_EXCEPTION_CUE = re.compile(r"\b(?:except|not|least|false|incorrect|untrue|exception)\b",
                            re.IGNORECASE)
# "not" / "never" followed within a few words by a relation cue: the question asks for the
# opposite relation ("should not be treated with", "is not indicated in", "must never be given to")
_NEGATED_RELATION = re.compile(
    r"\b(?:not|never)\s+(?:\w+\s+){0,2}?(?:be\s+)?(?:treat|used|use|given|give|prescrib|administer"
    r"|indicated|contra-?indicated|recommended|receiv|taken|take)\w*", re.IGNORECASE)
# an opposite relation is evidence against an option (see the module docstring)
OPPOSITE_RELATIONS: dict[str, frozenset[str]] = {
    "CONTRAINDICATION": frozenset({"INDICATION", "OFF_LABEL_USE"}),
    "INDICATION": frozenset({"CONTRAINDICATION"}),
    "OFF_LABEL_USE": frozenset({"CONTRAINDICATION"}),
}


class ScoredPath(Protocol):
    """What scoring needs of a path (``hopgraph.retrieval.OptionPath`` has it)."""

    @property
    def option_id(self) -> str: ...

    @property
    def stem_id(self) -> str: ...

    @property
    def score(self) -> float: ...

    @property
    def relations(self) -> tuple[str, ...]: ...


def link_confidence(entity: LinkedEntity, option_text: str) -> float:
    """How surely ``entity`` is what the option names: its name similarity (0–1) times the share
    of the option's characters its mention covers (1 for a whole-option match)."""
    form = option_form(option_text)
    cover = min(1.0, len(entity.mention) / len(form)) if form else 0.0
    return entity.ratio / 100.0 * cover


def hub_discount(degree: int) -> float:
    """``1 / log(2 + degree)``: the weight left to an option entity with ``degree`` edges."""
    return 1.0 / math.log(2.0 + max(degree, 0))


def option_score(paths: Sequence[ScoredPath], entities: Sequence[LinkedEntity],
                 option_text: str) -> float:
    """The evidence score of one option (see the module docstring); 0 without a path.

    Args:
        paths: the option's paths, any order.
        entities: the option's linked entities (a path from an entity not among them is ignored).
        option_text: the option as written (for the link's coverage).
    """
    factor = {e.id: link_confidence(e, option_text) * hub_discount(e.degree) for e in entities}
    best: dict[str, float] = {}
    for p in paths:
        if p.option_id not in factor:
            continue
        value = p.score * factor[p.option_id]
        if value > best.get(p.stem_id, 0.0):
            best[p.stem_id] = value
    return float(sum(best.values()))


OFF_CUE_FACTOR = 0.5  # a direct fact whose relation is not the one the question's cue asks for
OPPOSITE_FACTOR = 0.0  # a direct fact of the opposite relation (0.5 before issue 29: off-cue)


@dataclass(frozen=True)
class OptionStrength:
    """An option's evidence in two tiers (see the module docstring)."""

    direct: float = 0.0  # one-edge facts, not discounted by the option's degree
    specific: float = 0.0  # the same facts, each divided by log(2 + the option's degree)
    indirect: float = 0.0  # longer paths to the question entities no fact reaches, discounted
    asked: float = 0.0  # the direct facts whose relation is the one a cue asks for

    @property
    def total(self) -> float:
        """The option's score as reported: every piece of evidence hub-discounted."""
        return self.specific + self.indirect

    @property
    def key(self) -> tuple[float, float]:
        """What options are compared on: direct facts, then the discounted total (among options
        with the same facts, the more specific entity and the one nearer the rest win)."""
        return (self.direct, self.total)


def option_strength(paths: Sequence[ScoredPath], entities: Sequence[LinkedEntity],
                    option_text: str,
                    cues: Mapping[str, Sequence[str]] | None = None, *,
                    opposite_factor: float = OPPOSITE_FACTOR) -> OptionStrength:
    """The two-tier evidence of one option.

    Args:
        paths: the option's paths, any order.
        entities: the option's linked entities (a path from an entity not among them is ignored).
        option_text: the option as written (for the link's coverage).
        cues: per question entity, the relation types its cue words ask for (empty or absent:
            any relation is what is asked).
        opposite_factor: what a fact of the relation opposite to every asked one counts
            (:data:`OPPOSITE_RELATIONS`); at 0 it is evidence against the option, and longer
            paths to the same question entity count nothing either.
    """
    confidence = {e.id: link_confidence(e, option_text) for e in entities}
    hub = {e.id: hub_discount(e.degree) for e in entities}
    direct: dict[str, tuple[float, float, float]] = {}  # stem -> (fact, x hub discount, on cue)
    indirect: dict[str, float] = {}
    against: set[str] = set()  # question entities the option has an opposite fact with
    for p in paths:
        if p.option_id not in confidence:
            continue
        if len(p.relations) == 1:
            asked = (cues or {}).get(p.stem_id) or ()
            value = p.score * confidence[p.option_id]
            on_cue = value if asked and p.relations[0] in asked else 0.0
            if asked and p.relations[0] not in asked:
                opposite = all(p.relations[0] in OPPOSITE_RELATIONS.get(a, ()) for a in asked)
                value *= opposite_factor if opposite else OFF_CUE_FACTOR
                if opposite and opposite_factor == 0.0:
                    against.add(p.stem_id)
                    continue
            triple = (value, value * hub[p.option_id], on_cue)
            if triple > direct.get(p.stem_id, (0.0, 0.0, 0.0)):
                direct[p.stem_id] = triple
        else:
            value = p.score * confidence[p.option_id] * hub[p.option_id]
            if value > indirect.get(p.stem_id, 0.0):
                indirect[p.stem_id] = value
    return OptionStrength(float(sum(v for v, _, _ in direct.values())),
                          float(sum(d for _, d, _ in direct.values())),
                          float(sum(v for k, v in indirect.items()
                                    if k not in direct and k not in against)),
                          float(sum(c for _, _, c in direct.values())))


def asks_for_exception(question: str, *, negated_relations: bool = True) -> bool:
    """Whether the question's final sentence (its ask) asks for the option that does not fit
    ("except", "not", "least", "false", "incorrect"); the vignette before it is not read.

    With ``negated_relations`` (the default) a "not" / "never" that negates a treatment word
    ("should not be treated with", "is not indicated", "must never be given") is not an
    exception: the question asks for the opposite relation (a contraindication), which the
    graph states, and is scored as such. False: every "not" asks for the exception (the rule
    before issue 29)."""
    ask = decompose_rules(question)[-1]
    if negated_relations:
        ask = _NEGATED_RELATION.sub(" ", ask)
    return bool(_EXCEPTION_CUE.search(ask))


def choose_option(scores: Mapping[str, float | tuple[float, ...]]) -> tuple[str | None, str]:
    """The letter with the highest score and the reason, or None and why it abstains.

    A score is a number or a tuple compared in order (:attr:`OptionStrength.key`: direct
    facts, then the hub-discounted total). Abstains when there are no options, when no score is above zero
    ("no evidence") and when the best scores tie (every component within a relative
    ``TIE_REL_TOL``, so float noise is a tie too).
    """
    if not scores:
        return None, "abstain: no options"
    keys = {k: (v,) if isinstance(v, (int, float)) else tuple(v) for k, v in scores.items()}
    if not any(c > 0 for key in keys.values() for c in key):
        return None, "abstain: no evidence"
    ranked = sorted(keys.items(), key=_key_order)
    best_letter, best = ranked[0]
    tied = [k for k, key in ranked if _same(key, best)]
    if len(tied) > 1:
        return None, "abstain: tie"
    return best_letter, "evidence"


def _same(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return len(a) == len(b) and all(math.isclose(x, y, rel_tol=TIE_REL_TOL, abs_tol=1e-12)
                                    for x, y in zip(a, b, strict=True))


def _key_order(item: tuple[str, tuple[float, ...]]) -> tuple[float, ...]:
    # Components within the tolerance compare equal, so float noise in the direct tier does not
    # hide the indirect tier: round to a relative grid before negating for a descending sort.
    return tuple(-float(f"{c:.9g}") for c in item[1])
