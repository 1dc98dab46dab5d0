"""Legal retrieval: seeded hybrid search, validity tracing, references and provenance.

:class:`LegalRetriever` runs two registered queries, one round trip each, in one read
transaction (one snapshot, one BEGIN/COMMIT):

1. ``legal/search_units_hybrid`` — dense and lexical candidates, filtered (document, as-of date)
   before fusion, fused in Cypher;
2. ``legal/expand_context`` — from the chosen seeds: validity tracing along AMENDS / REPLACES /
   SUPPLEMENTS / REPEALS chains to the wording in force at the as-of date, one REFERS_TO hop,
   and provenance of every unit involved.

Between the two, the fused candidates are re-ranked with the question's own mentions (document
numbers and titles, article numbers) and heading overlap. Python only assembles and bounds the
context; it never walks the graph.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache
from itertools import pairwise
from typing import Any

from hopgraph.agents import Embedder
from hopgraph.db import QueryRunner, ReadTransaction, Record
from hopgraph.errors import RetrievalError
from hopgraph.retrieval._legal_context import assemble_context
from hopgraph.retrieval._legal_query import (
    PreparedQuery,
    fold,
    parse_as_of,
    parse_filters,
    prepare_question,
)
from hopgraph.retrieval._legal_types import (
    DEFAULT_K,
    LegalContext,
    RetrievalConfig,
    RetrievalFilters,
)

SEARCH_QUERY = "legal/search_units_hybrid"
EXPAND_QUERY = "legal/expand_context"
MAX_K = 100
HARD_MAX_CHAIN_DEPTH = 10  # the literal bound of the variable-length pattern in expand_context
SPARSE_POOL_FACTOR = 4
# Article granularity folds several chunk hits into one article: read more vector hits first.
DENSE_POOL_FACTOR_ARTICLE = 2
QUERY_VECTOR_CACHE = 256
W_DOC_MENTION = 0.15
W_ARTICLE_MENTION = 0.3
# Re-rank weights and fusion, tuned on ALQAC train_2023 only (train_102023 is held out); see
# tests/benchmarks/results/legal_retrieval_alqac.md.
W_HEADING = 0.3
_SYLLABLE = re.compile(r"\w+", re.UNICODE)
_TITLE_YEAR = re.compile(r"\s+(?:năm\s+)?\d{4}$")


@dataclass(frozen=True)
class Candidate:
    """One fused seed candidate from the search query, with its re-rank score."""

    id: str
    doc_id: str
    scores: dict[str, float]
    score: float
    heading: str | None = None
    doc_title: str | None = None
    doc_number: str | None = None


class LegalRetriever:
    """Graph-aware retrieval over the regulations graph.

    Args:
        runner: executes the registered queries (never built here).
        embedder: embeds the question (E5 query side for Vietnamese).
        config: tuning; defaults from :class:`RetrievalConfig`.
        today: returns the default as-of date (injectable for tests).
    """

    def __init__(
        self,
        runner: QueryRunner,
        embedder: Embedder,
        *,
        config: RetrievalConfig | None = None,
        today: Callable[[], date] = date.today,
    ) -> None:
        self.runner = runner
        self.embedder = embedder
        self.config = config or RetrievalConfig()
        self._today = today
        self._vectors: OrderedDict[str, list[float]] = OrderedDict()

    def _embed(self, question: str) -> list[float]:
        # Baselines and agents re-ask the same question; a query embedding costs ~25 ms or more.
        vec = self._vectors.get(question)
        if vec is None:
            vec = list(self.embedder.embed_query(question))
            self._vectors[question] = vec
            if len(self._vectors) > QUERY_VECTOR_CACHE:
                self._vectors.popitem(last=False)
        return vec

    def retrieve(
        self,
        question: str,
        *,
        k: int = DEFAULT_K,
        as_of: date | str | None = None,
        filters: RetrievalFilters | Mapping[str, Any] | None = None,
        config: RetrievalConfig | None = None,
    ) -> LegalContext:
        """Return the bounded, legally valid context set for ``question``.

        Args:
            question: the question (Vietnamese), at most ``MAX_QUESTION_CHARS`` characters.
            k: number of seeds (1..100).
            as_of: date validity is judged at (``date`` or ``YYYY-MM-DD``); today by default.
            filters: document types, issuers, document ids; applied before fusion.
            config: overrides the retriever's configuration for this call.

        Returns:
            A :class:`LegalContext`; empty items come with ``reason_if_empty``.

        Raises:
            RetrievalError: empty or over-long question, bad ``k``, bad date, unknown filter.
            DatabaseError: the server failed.
        """
        started = time.perf_counter()
        cfg = config or self.config
        if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= MAX_K:
            raise RetrievalError(f"k must be an integer between 1 and {MAX_K}, got {k!r}")
        prepared = prepare_question(question)
        day = parse_as_of(as_of, self._today())
        flt = parse_filters(filters)
        if not prepared.terms:
            return LegalContext(prepared.question, day, [], [],
                                "the question has no searchable words", 0, _ms(started))
        vector = self._embed(prepared.question)

        def work(tx: ReadTransaction) -> tuple[list[Candidate], list[Candidate], list[Record]]:
            # Both queries in one read transaction: the expansion sees the snapshot the seeds
            # came from, and the pair pays for one BEGIN/COMMIT.
            candidates = self.search(tx, prepared, vector, day, flt, cfg)
            if not candidates:
                return [], [], []
            ranked = self.rerank(prepared, candidates) if cfg.rerank else candidates
            seeds = ranked[:k]
            rows = tx.read(
                EXPAND_QUERY,
                seed_ids=[c.id for c in seeds],
                as_of=day,
                max_depth=max(1, min(cfg.max_chain_depth, HARD_MAX_CHAIN_DEPTH)) if cfg.propagate else 0,
                max_refs=max(0, cfg.max_references) if cfg.propagate else 0,
            )
            return candidates, seeds, rows

        db_started = time.perf_counter()
        candidates, seeds, rows = self.runner.read_transaction(work)
        db_ms = _ms(db_started)
        round_trips = 2 if candidates else 1
        if not candidates:
            reason = "no legal unit matched the question"
            reason += " and filters" if flt.active else " (is the regulations graph loaded?)"
            return LegalContext(prepared.question, day, [], [], reason, round_trips,
                                _ms(started), db_ms=db_ms)
        items, warnings, truncated = assemble_context(
            seeds, to_native(rows[0]) if rows else {"seeds": [], "units": []}, day, cfg
        )
        return LegalContext(
            question=prepared.question,
            as_of=day,
            items=items,
            seeds=[c.id for c in seeds],
            reason_if_empty=None if items else "seeds were found but none could be read back",
            round_trips=round_trips,
            latency_ms=_ms(started),
            truncated=truncated,
            warnings=warnings,
            db_ms=round(db_ms, 3),
        )

    def trace(self, unit_ids: Sequence[str], *, as_of: date | str | None = None,
              config: RetrievalConfig | None = None) -> LegalContext:
        """Trace given units (no search): validity, references and provenance, one round trip.

        Args:
            unit_ids: unit ids (``<doc-id>:<path>`` or version ids), in the order wanted.
            as_of: date validity is judged at; today by default.
            config: overrides the retriever's configuration for this call.

        Raises:
            RetrievalError: no ids, too many ids, or a bad date.
        """
        started = time.perf_counter()
        cfg = config or self.config
        ids = [u for u in dict.fromkeys(unit_ids) if isinstance(u, str) and u.strip()]
        if not ids or len(ids) > MAX_K:
            raise RetrievalError(f"trace needs 1 to {MAX_K} unit ids, got {len(ids)}")
        day = parse_as_of(as_of, self._today())
        seeds = [Candidate(u, u.split(":", 1)[0], {}, 0.0) for u in ids]
        rows = self.runner.read(
            EXPAND_QUERY, seed_ids=ids, as_of=day,
            max_depth=max(1, min(cfg.max_chain_depth, HARD_MAX_CHAIN_DEPTH)),
            max_refs=max(0, cfg.max_references),
        )
        items, warnings, truncated = assemble_context(
            seeds, to_native(rows[0]) if rows else {"seeds": [], "units": []}, day, cfg
        )
        return LegalContext(
            question="", as_of=day, items=items, seeds=ids,
            reason_if_empty=None if items else "none of the unit ids is in the graph",
            round_trips=1, latency_ms=_ms(started), truncated=truncated, warnings=warnings,
        )

    def search(
        self,
        reader: ReadTransaction,
        prepared: PreparedQuery,
        vector: Sequence[float],
        as_of: date,
        filters: RetrievalFilters,
        cfg: RetrievalConfig,
    ) -> list[Candidate]:
        """Run the seed query (one round trip) in ``reader``'s open read transaction and return
        fused candidates, best first."""
        if cfg.fusion not in ("linear", "rrf"):
            raise RetrievalError(f"fusion must be 'linear' or 'rrf', got {cfg.fusion!r}")
        if not 0.0 <= cfg.lam <= 1.0:
            raise RetrievalError(f"lambda must lie in [0, 1], got {cfg.lam}")
        # The lexical branch searches the question's content words only when asked (and when
        # any are left): boilerplate such as "là đúng hay sai?" matches articles at random.
        lucene = (prepared.lucene_content or prepared.lucene) if cfg.clean_query else prepared.lucene
        rows = reader.read(
            SEARCH_QUERY,
            vector=list(vector),
            query=lucene or "none",
            use_sparse=bool(lucene) and cfg.lam < 1.0,
            candidates=cfg.candidates,
            dense_pool=cfg.candidates * (DENSE_POOL_FACTOR_ARTICLE if cfg.granularity == "article" else 1),
            sparse_pool=cfg.candidates * (SPARSE_POOL_FACTOR if filters.active else 1),
            has_filter=filters.active,
            doc_ids=list(filters.doc_ids),
            doc_types=[fold(t) for t in filters.doc_types],
            issuers=[fold(i) for i in filters.issuers],
            as_of=as_of,
            fusion=cfg.fusion,
            lam=cfg.lam if lucene else 1.0,
            rrf_k=cfg.rrf_k,
            to_article=cfg.granularity == "article",
        )
        out = []
        for r in rows:
            scores = {
                key: float(r[key])
                for key in ("dense", "sparse", "dense_norm", "sparse_norm", "fused")
                if r.get(key) is not None
            }
            out.append(Candidate(r["id"], r["doc_id"], scores, float(r["fused"]), r.get("heading"),
                                 r.get("doc_title"), r.get("doc_number")))
        return out

    def rerank(self, prepared: PreparedQuery, candidates: list[Candidate]) -> list[Candidate]:
        """Add structural evidence to the fused score: the question's own document and article
        mentions and how much of the unit's heading the question repeats as a phrase."""
        q_fold = fold(prepared.question)
        q_grams = question_grams(q_fold)
        scored = []
        for c in candidates:
            doc_hit = _doc_mentioned(c, q_fold, prepared.doc_numbers)
            number = c.id.rsplit(":D", 1)[-1].split(".", 1)[0].lower() if ":D" in c.id else ""
            art_hit = 1.0 if doc_hit and number and number in prepared.articles else 0.0
            overlap = heading_overlap(c.heading, q_grams) if c.heading else 0.0
            bonus = W_DOC_MENTION * doc_hit + W_ARTICLE_MENTION * art_hit + W_HEADING * overlap
            scores = dict(c.scores)
            scores["heading"] = overlap
            scores["rerank"] = c.score + bonus
            scored.append(replace(c, scores=scores, score=c.score + bonus))
        scored.sort(key=lambda c: (-c.score, c.id))
        return scored


def _doc_mentioned(c: Candidate, q_fold: str, numbers: tuple[str, ...]) -> float:
    if c.doc_number and any(fold(c.doc_number) == fold(n) for n in numbers):
        return 1.0
    # "Luật Viên chức 2010" is cited as "Luật Viên chức": the year is not part of the name.
    title = _TITLE_YEAR.sub("", fold(c.doc_title or ""))
    return 1.0 if len(title) >= 8 and title in q_fold else 0.0


def heading_overlap(heading: str, q_grams: frozenset[tuple[str, ...]]) -> float:
    """Share of the heading's syllable bigrams that the question contains (a one-syllable
    heading: the syllable itself). A question that repeats the heading's phrases ("trách nhiệm
    của cơ quan đăng ký cư trú") names the article's subject; shared single words ("của",
    "người") do not.

    Args:
        heading: the unit's heading.
        q_grams: :func:`question_grams` of the folded question.
    """
    grams = _heading_grams(heading)
    return len(grams & q_grams) / len(grams) if grams else 0.0


def question_grams(q_fold: str) -> frozenset[tuple[str, ...]]:
    """The syllables (1-tuples) and syllable bigrams of a folded question."""
    syl = _SYLLABLE.findall(q_fold)
    return frozenset(pairwise(syl)) | frozenset((s,) for s in syl)


@lru_cache(maxsize=8192)
def _heading_grams(heading: str) -> frozenset[tuple[str, ...]]:
    syl = _SYLLABLE.findall(fold(heading))
    return frozenset({(syl[0],)}) if len(syl) == 1 else frozenset(pairwise(syl))


def to_native(value: Any) -> Any:
    """Driver temporal values (``neo4j.time.Date``) to ``datetime.date``, recursively."""
    if isinstance(value, dict):
        return {k: to_native(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_native(v) for v in value]
    to_native_fn = getattr(value, "to_native", None)
    if to_native_fn is not None and not isinstance(value, date):
        return to_native_fn()
    return value


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000.0, 3)
