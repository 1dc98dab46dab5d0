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

The letter with the highest score wins; no score above zero, or a tie at the top, abstains.
Letters carry no information, so no letter is ever preferred. A question that asks for the
exception ("all of the following except", "which is not a feature of") abstains too: paths show
what is connected, and the exception is the option the graph does not connect, which a partial
graph cannot tell from an option it merely lacks.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Protocol

from hopgraph.agents.biomed._linking import LinkedEntity, option_form
from hopgraph.agents.biomed._planning import decompose_rules

TIE_REL_TOL = 1e-9
_EXCEPTION_CUE = re.compile(r"\b(?:except|not|least|false|incorrect|untrue|exception)\b",
                            re.IGNORECASE)


class ScoredPath(Protocol):
    """What scoring needs of a path (``hopgraph.retrieval.OptionPath`` has it)."""

    @property
    def option_id(self) -> str: ...

    @property
    def stem_id(self) -> str: ...

    @property
    def score(self) -> float: ...


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


def asks_for_exception(question: str) -> bool:
    """Whether the question's final sentence (its ask) asks for the option that does not fit
    ("except", "not", "least", "false", "incorrect"); the vignette before it is not read."""
    return bool(_EXCEPTION_CUE.search(decompose_rules(question)[-1]))


def choose_option(scores: Mapping[str, float]) -> tuple[str | None, str]:
    """The letter with the highest score and the reason, or None and why it abstains.

    Abstains when there are no options, when no score is above zero ("no evidence") and when the
    best scores tie (within a relative ``TIE_REL_TOL``, so float noise is a tie too).
    """
    if not scores:
        return None, "abstain: no options"
    top = max(scores.values())
    if top <= 0:
        return None, "abstain: no evidence"
    best = [k for k, v in scores.items() if math.isclose(v, top, rel_tol=TIE_REL_TOL)]
    if len(best) > 1:
        return None, "abstain: tie"
    return best[0], "evidence"
