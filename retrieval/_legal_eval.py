"""The legal retrieval systems compared by ``hopgraph eval retrieval``: hopgraph's graph-aware
retrieval and its baselines (BM25 only, dense only, flat hybrid without re-ranking or graph
propagation), all over the same graph, indexes and embedder."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from hopgraph.retrieval._eval import System
from hopgraph.retrieval._legal import LegalRetriever
from hopgraph.retrieval._legal_types import RetrievalConfig


def legal_systems(
    retriever: LegalRetriever, *, k: int = 10, as_of: date | None = None, baselines: bool = True
) -> dict[str, System]:
    """Return ``{name: (question, its as_of) -> ranked unit ids}`` for hopgraph and (optionally)
    the baselines: each retrieves at the question's own date, or at ``as_of`` (today when
    ``None``) for a question without one."""
    base = retriever.config

    def system(cfg: RetrievalConfig) -> System:
        def run(question: str, question_as_of: date | None) -> list[str]:
            day = question_as_of or as_of
            return retriever.retrieve(question, k=k, as_of=day, config=cfg).ranked_unit_ids()

        return run

    out = {"hopgraph": system(base)}
    if baselines:
        # Flat = the question's words as they come, fused, no re-ranking, no graph expansion.
        flat = replace(base, rerank=False, propagate=False, clean_query=False)
        out["flat-hybrid"] = system(flat)
        out["bm25-only"] = system(replace(flat, lam=0.0))
        out["dense-only"] = system(replace(flat, lam=1.0))
    return out
