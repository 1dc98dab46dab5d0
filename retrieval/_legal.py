"""Legal retrieval: seeded hybrid search, validity tracing, references and provenance.

:class:`LegalRetriever` runs one registered query, ``legal/retrieve_context``, in one round trip:

1. dense and lexical candidates, filtered (document, as-of date) before fusion, fused;
2. re-ranked with the question's own mentions (document numbers and titles, article numbers),
   the share of each heading's phrases the question repeats and the share of the question's
   phrases each candidate's text repeats (the question's side of those signals is computed here
   and passed as parameters);
3. from the top k: validity tracing along AMENDS / REPLACES / SUPPLEMENTS / REPEALS chains to the
   wording in force at the as-of date, one REFERS_TO hop, and provenance of every unit involved
   (the fragment ``legal/_trace_seeds``, which ``legal/expand_context`` also runs for given ids).

Python prepares the question and assembles and bounds the context; it never walks the graph.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import date
from itertools import pairwise
from typing import Any

from hopgraph.core.errors import RetrievalError
from hopgraph.core.ports import Embedder
from hopgraph.core.vocabulary import name_form
from hopgraph.db import QueryRunner
from hopgraph.retrieval._legal_context import assemble_context
from hopgraph.retrieval._legal_query import (
    LEXICAL_STOPWORDS,
    PreparedQuery,
    parse_as_of,
    parse_filters,
    prepare_question,
)
from hopgraph.retrieval._legal_types import (
    DEFAULT_K,
    Candidate,
    LegalContext,
    RetrievalConfig,
    RetrievalFilters,
    to_native,
)

RETRIEVE_QUERY = "legal/retrieve_context"
EXPAND_QUERY = "legal/expand_context"
MAX_K = 100
HARD_MAX_CHAIN_DEPTH = 10  # the literal bound of the variable-length pattern in _trace_seeds
SPARSE_POOL_FACTOR = 4
# Article granularity folds several chunk hits into one article: read more vector hits first.
DENSE_POOL_FACTOR_ARTICLE = 2
QUERY_VECTOR_CACHE = 256
W_DOC_MENTION = 0.15
W_ARTICLE_MENTION = 0.3
# The question names the candidate's exact unit with its document ("khoản 2 Điều 5 Nghị định
# 12/2016/NĐ-CP"): above its article and sibling clauses whatever their search scores (a fused
# score is at most 1), and a candidate even when neither index found it.
W_UNIT_MENTION = 1.0
# The question quotes a passage ("nội dung “…” được quy định thế nào?") and the candidate's text
# holds it: as strong as naming the unit, more the more of the text the passage fills (a point
# that is mostly the passage before the article that also holds it). Of the QUOTE_POOL full-text
# hits of the quoted words, the QUOTED_MAX that hold the passage join the candidates.
W_QUOTE = 1.0
QUOTE_POOL = 50
# No seed left after the date and filters: the pools are read this many times deeper (one more
# round trip).
WIDEN = 8
QUOTED_MAX = 10
# A definitional question ("X là Y", "Thế nào là X?") and a candidate that defines X (its
# DEFINES edge, or one of its clauses'): DEFINITION_FLOOR for naming the term, the rest by the
# share of the question's predicate bigrams the definition repeats.
W_DEFINITION = 0.7
DEFINITION_FLOOR = 0.5
_SYLLABLE = re.compile(r"\w+", re.UNICODE)
_YEAR = re.compile(r"(?<![\d/])(?:19|20)\d{2}(?![\d/])")  # a year written alone, not in a number
# Single-syllable stopwords: a bigram of two of them ("có được", "là không") is no phrase.
_STOP_SYLLABLES = frozenset(w for w in LEXICAL_STOPWORDS if "_" not in w)


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

    def _why_empty(self, day: date, filtered: bool) -> str:
        """Why a search found nothing, in the reader's words: no document loaded, nothing in
        force yet at ``day``, or no unit matching the question (and its filters)."""
        rows = self.runner.read("legal/legal_span")
        span = to_native(rows[0]) if rows else {}
        first = span.get("first_day")
        if not span.get("documents"):
            return ("chưa có văn bản pháp luật nào được nạp vào cơ sở dữ liệu "
                    "(hopgraph load legal …)")
        if isinstance(first, date) and day < first:
            return (f"không có văn bản nào đã nạp có hiệu lực tại ngày {day:%d/%m/%Y}: văn bản "
                    f"sớm nhất có hiệu lực từ {first:%d/%m/%Y}")
        if filtered:
            return "không có điều khoản nào khớp với câu hỏi và bộ lọc đã chọn"
        return "không có điều khoản nào khớp với câu hỏi"

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
        if k > cfg.candidates:
            # k seeds need at least k candidates from each index and after fusion
            cfg = replace(cfg, candidates=k)
        prepared = prepare_question(question)
        day = parse_as_of(as_of, self._today())
        flt = parse_filters(filters)
        if not prepared.terms:
            return LegalContext(prepared.question, day, [], [],
                                "câu hỏi không có từ nào để tìm kiếm", 0, _ms(started))
        vector = self._embed(prepared.question)
        params = {**search_params(prepared, vector, day, flt, cfg),
                  **rerank_params(prepared, cfg), **trace_params(cfg, cfg.propagate)}
        db_started = time.perf_counter()
        rows = self.runner.read(RETRIEVE_QUERY, k=k, **params)
        db_ms = _ms(db_started)
        row = to_native(rows[0]) if rows else {}
        seeds = [_candidate(c, cfg.rerank) for c in row.get("candidates") or []]
        trips = 1
        if not seeds:
            # The indexes rank the whole graph; the date and the filters come after. At an early
            # date (or with a narrow filter) a whole pool can be units not yet in force: read
            # the pools WIDEN times deeper, once.
            db_started = time.perf_counter()
            rows = self.runner.read(RETRIEVE_QUERY, k=k, **{
                **params, **{pool: params[pool] * WIDEN
                             for pool in ("dense_pool", "sparse_pool", "quote_pool")}})
            db_ms += _ms(db_started)
            trips = 2
            row = to_native(rows[0]) if rows else {}
            seeds = [_candidate(c, cfg.rerank) for c in row.get("candidates") or []]
        if not seeds:
            return LegalContext(prepared.question, day, [], [], self._why_empty(day, flt.active),
                                trips + 1, _ms(started), db_ms=db_ms)
        items, warnings, truncated = assemble_context(seeds, row, day, cfg)
        return LegalContext(
            question=prepared.question,
            as_of=day,
            items=items,
            seeds=[c.id for c in seeds],
            reason_if_empty=None if items else "tìm thấy điều khoản nhưng không đọc lại được nội dung",
            round_trips=trips,
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
        rows = self.runner.read(EXPAND_QUERY, seed_ids=ids, as_of=day, **trace_params(cfg, True))
        items, warnings, truncated = assemble_context(
            seeds, to_native(rows[0]) if rows else {"seeds": [], "units": []}, day, cfg
        )
        return LegalContext(
            question="", as_of=day, items=items, seeds=ids,
            reason_if_empty=None if items else "không có đơn vị nào trong số đã nêu trong cơ sở dữ liệu",
            round_trips=1, latency_ms=_ms(started), truncated=truncated, warnings=warnings,
        )



def search_params(prepared: PreparedQuery, vector: Sequence[float], as_of: date,
                  filters: RetrievalFilters, cfg: RetrievalConfig) -> dict[str, Any]:
    """Parameters of the seed search (candidates, fusion, filters) for ``legal/retrieve_context``.

    Raises:
        RetrievalError: unknown fusion or a fusion weight outside [0, 1].
    """
    if cfg.fusion not in ("linear", "rrf"):
        raise RetrievalError(f"fusion must be 'linear' or 'rrf', got {cfg.fusion!r}")
    if not 0.0 <= cfg.lam <= 1.0:
        raise RetrievalError(f"lambda must lie in [0, 1], got {cfg.lam}")
    # The lexical branch searches the question's content words only when asked (and when any
    # are left): boilerplate such as "là đúng hay sai?" matches articles at random.
    lucene = (prepared.lucene_content or prepared.lucene) if cfg.clean_query else prepared.lucene
    return dict(
        vector=list(vector),
        query=lucene or "none",
        use_sparse=bool(lucene) and cfg.lam < 1.0,
        candidates=cfg.candidates,
        dense_pool=cfg.candidates * (DENSE_POOL_FACTOR_ARTICLE if cfg.granularity == "article" else 1),
        sparse_pool=cfg.candidates * (SPARSE_POOL_FACTOR if filters.active else 1),
        has_filter=filters.active,
        doc_ids=typed_list(filters.doc_ids),
        doc_types=typed_list(name_form(t) for t in filters.doc_types),
        issuers=typed_list(name_form(i) for i in filters.issuers),
        as_of=as_of,
        fusion=cfg.fusion,
        lam=cfg.lam if lucene else 1.0,
        rrf_k=cfg.rrf_k,
        to_article=cfg.granularity == "article",
    )


def trace_params(cfg: RetrievalConfig, propagate: bool) -> dict[str, int]:
    """Bounds of the validity tracing and reference hop (``legal/_trace_seeds``): the chain
    depth clamped to 1..``HARD_MAX_CHAIN_DEPTH``; both 0 when nothing is propagated (seeds only).
    """
    if not propagate:
        return {"max_depth": 0, "max_refs": 0}
    return {"max_depth": max(1, min(cfg.max_chain_depth, HARD_MAX_CHAIN_DEPTH)),
            "max_refs": max(0, cfg.max_references)}


def rerank_params(prepared: PreparedQuery, cfg: RetrievalConfig) -> dict[str, Any]:
    """The question's side of the re-rank, which ``legal/retrieve_context`` applies to every
    fused candidate: its folded text, the document and article numbers it names, its syllables
    and syllable bigrams, and the bonus weights (all zero without re-ranking: flat hybrid).

    A question that repeats a heading's phrases ("trách nhiệm của cơ quan đăng ký cư trú")
    names the article's subject; shared single words ("của", "người") do not, so a heading
    scores by the share of its syllable bigrams the question contains (a one-syllable
    heading: the syllable itself). The other way round, the text of a candidate's article scores
    by the share of the question's bigrams it repeats (:func:`body_grams`).

    Raises:
        RetrievalError: a negative heading or body weight.
    """
    for name, weight in (("heading_weight", cfg.heading_weight), ("body_weight", cfg.body_weight)):
        if weight is not None and not weight >= 0.0:
            raise RetrievalError(f"{name} must be a number >= 0, got {weight}")
    q_fold = name_form(prepared.question)
    return dict(
        q_fold=q_fold,
        doc_numbers=typed_list(name_form(n) for n in prepared.doc_numbers),
        q_years=typed_list(dict.fromkeys(_YEAR.findall(q_fold))),
        articles=typed_list(prepared.articles),
        unit_paths=typed_list(prepared.units if cfg.rerank else ()),
        quotes=typed_list(prepared.quotes if cfg.rerank else ()),
        quote_query=prepared.lucene_quote if cfg.rerank else "",
        quote_pool=QUOTE_POOL,
        quoted_max=QUOTED_MAX,
        w_quote=W_QUOTE if cfg.rerank else 0.0,
        q_grams=typed_list(question_grams(q_fold)),
        q_subject=prepared.subject,
        p_grams=typed_list(phrase_grams(prepared.predicate)),
        w_doc=W_DOC_MENTION if cfg.rerank else 0.0,
        w_article=W_ARTICLE_MENTION if cfg.rerank else 0.0,
        w_unit=W_UNIT_MENTION if cfg.rerank else 0.0,
        w_heading=cfg.heading_weight if cfg.rerank else 0.0,
        q_body=typed_list(body_grams(q_fold)),
        w_body=cfg.body_bonus(),
        w_definition=W_DEFINITION if cfg.rerank and prepared.subject else 0.0,
        definition_floor=DEFINITION_FLOOR,
    )


def question_grams(q_fold: str) -> list[str]:
    """The syllables and syllable bigrams (``"a b"``) of a folded question, sorted."""
    syl = _SYLLABLE.findall(q_fold)
    return sorted({f"{a} {b}" for a, b in pairwise(syl)} | set(syl))


def body_grams(q_fold: str) -> list[str]:
    """The folded question's syllable bigrams that a candidate's text may repeat, sorted: every
    bigram except those of two stopword syllables. The share of them a candidate repeats is a
    phrase match ("hợp đồng vụ việc" against "hợp đồng làm việc"), which BM25 over single
    words and one pooled vector both miss."""
    syl = _SYLLABLE.findall(q_fold)
    return sorted({f"{a} {b}" for a, b in pairwise(syl)
                   if not (a in _STOP_SYLLABLES and b in _STOP_SYLLABLES)})


def typed_list(values: Iterable[str]) -> list[str]:
    """A list parameter of ``legal/retrieve_context``: ``[""]`` when empty, never ``[]``.

    Neo4j caches a query's plan under its text and its parameters' types, and an empty list is
    not typed as a list of strings: with ``[]`` every combination of empty and non-empty lists
    (a question naming an article or not, defining a term or not) was planned anew, 1.5-2.5 s
    each on this project's 2 cores. No document id, type, issuer, number, article or syllable
    is the empty string, so ``[""]`` matches nothing.
    """
    out = list(values)
    return out or [""]


def phrase_grams(text: str) -> list[str]:
    """The syllable bigrams of a folded phrase, sorted; its one syllable when it has one."""
    syl = _SYLLABLE.findall(text)
    return sorted(set(syl) if len(syl) == 1 else {f"{a} {b}" for a, b in pairwise(syl)})


def _candidate(c: Mapping[str, Any], reranked: bool) -> Candidate:
    keys = ("dense", "sparse", "dense_norm", "sparse_norm", "fused") + (
        ("heading", "body", "definition", "quote", "rerank") if reranked else ())
    scores = {key: float(c[key]) for key in keys if c.get(key) is not None}
    return Candidate(c["id"], c["doc_id"], scores, float(c["rerank"]))


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000.0, 3)
