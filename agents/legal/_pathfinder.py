"""The Pathfinder: one retrieval call per sub-question, through the retrieval API only.

Seeds, validity tracing (AMENDS / REPLACES / SUPPLEMENTS chains to the wording in force at the
as-of date), one REFERS_TO hop and provenance all come from
:meth:`hopgraph.retrieval.LegalRetriever.retrieve`; nothing here walks the graph. When the
Interpreter's document filter matches nothing, the sub-question is retried once without it.
``flat=True`` asks the retriever for seeds only, without re-ranking or propagation (the paper's
"flat retrieval" ablation).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import date
from typing import Any, Protocol

from hopgraph.agents.legal._types import AgentStep, EvidenceSet, Interpretation
from hopgraph.retrieval import LegalContext, RetrievalConfig, RetrievalFilters

DEFAULT_SEEDS = 5


class Retriever(Protocol):
    """What the Pathfinder needs of :class:`hopgraph.retrieval.LegalRetriever`."""

    def retrieve(
        self,
        question: str,
        *,
        k: int = ...,
        as_of: date | str | None = ...,
        filters: RetrievalFilters | Mapping[str, Any] | None = ...,
        config: RetrievalConfig | None = ...,
    ) -> LegalContext:
        """Return the bounded context set for ``question``."""
        ...


FLAT_CONFIG = RetrievalConfig(rerank=False, propagate=False)


class Pathfinder:
    """Runs retrieval for each sub-question.

    Args:
        retriever: the legal retrieval API.
        k: seeds per sub-question.
        flat: seeds only (no re-ranking, validity tracing or references).
    """

    def __init__(self, retriever: Retriever, *, k: int = DEFAULT_SEEDS, flat: bool = False) -> None:
        self.retriever = retriever
        self.k = k
        self.flat = flat

    def find(
        self, interpretation: Interpretation, as_of: date | None
    ) -> tuple[list[EvidenceSet], AgentStep]:
        """Retrieve evidence for every sub-question of ``interpretation``.

        Raises:
            RetrievalError: the question is not acceptable to the retriever.
            DatabaseError: the server failed.
        """
        started = time.perf_counter()
        out = [
            self.search(sub, as_of, interpretation.filters) for sub in interpretation.sub_questions
        ]
        items = sum(len(e.context.items) for e in out)
        step = AgentStep(agent="pathfinder", latency_s=time.perf_counter() - started,
                         note=f"{len(out)} sub-question(s), {items} item(s)")
        return out, step

    def search(
        self, query: str, as_of: date | None, filters: RetrievalFilters, *, sub_question: str = ""
    ) -> EvidenceSet:
        """One retrieval call (plus one unfiltered retry when the filter matched nothing)."""
        config = FLAT_CONFIG if self.flat else None
        context = self.retriever.retrieve(query, k=self.k, as_of=as_of, filters=filters,
                                          config=config)
        evidence = EvidenceSet(sub_question=sub_question or query, query=query, context=context)
        if not context.items and filters.active:
            context = self.retriever.retrieve(query, k=self.k, as_of=as_of,
                                              filters=RetrievalFilters(), config=config)
            evidence.context = context
            evidence.notes.append("document filter matched nothing; retried without it")
        return evidence
