"""Typed results of legal retrieval: filters, configuration, provenance, chains, context items.

These are plain dataclasses (house style: pydantic only at trust boundaries). The retriever in
``_legal.py`` builds them from the rows of the ``cypher/legal`` queries; agents and the CLI read
them. Every :class:`ContextItem` carries the path that justifies its presence.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any, Literal

from hopgraph.core.citations import citation_id
from hopgraph.core.results import Evidence, Validity

Role = Literal["seed", "successor", "reference", "provenance"]
Fusion = Literal["linear", "rrf"]
Granularity = Literal["unit", "article"]

DEFAULT_K = 10
DEFAULT_LAMBDA = 0.5
# Candidates per index before fusion, and after it. 20 since 2026-11-29 (50 before): the same run
# of ALQAC (article granularity, the benchmark's 30 against 20) gave equal Hit@1/Hit@5/MRR on
# train_2023 and train_102023; the temporal benchmark with unit vectors (vn-amend-dev minor, 215
# questions) equal top-5, top-1 0.938 against 0.948 (one unit, asked at two dates, fell to rank 2);
# server CPU per retrieval 13.1 against 19.0 ms at 10k units, 52.3 against 85.0 at 1M (issue 26
# item 4; legal_retrieval_scale_body.md, _1m_body.md).
DEFAULT_CANDIDATES = 20
# Re-rank bonus per share of a heading's syllable bigrams the question repeats; tuned on ALQAC
# train_2023 only (tests/benchmarks/results/legal_retrieval_alqac.md).
DEFAULT_HEADING_WEIGHT = 0.3
# Re-rank bonus per share of the question's syllable bigrams the candidate's article text repeats
# (a phrase-match signal that bag-of-words BM25 and one pooled vector both lack); chosen on ALQAC
# train_2023 only, inside the plateau 1.25-2.0 (legal_retrieval_alqac_grid_2023_body.md). Applied
# by default when candidates are articles: at unit granularity an article and all its clauses
# share one bonus and crowd the top k (on the shipped sample questions it lowered the gold of 3
# of 12 questions and lifted none), so there the default is 0.
DEFAULT_BODY_WEIGHT = 1.5
DEFAULT_RRF_K = 60
DEFAULT_MAX_ITEMS = 40
DEFAULT_MAX_CHARS = 24_000
DEFAULT_MAX_CHAIN_DEPTH = 6
DEFAULT_MAX_REFERENCES = 3
MAX_QUESTION_CHARS = 2_000


@dataclass(frozen=True)
class RetrievalFilters:
    """Restrictions applied to seed candidates before fusion. Empty tuples mean no restriction.

    Attributes:
        doc_types: document types (``Luật``, ``Nghị định`` …), matched case-insensitively.
        issuers: issuing bodies, matched case-insensitively.
        doc_ids: document ids (``25/2008/QH12``).
    """

    doc_types: tuple[str, ...] = ()
    issuers: tuple[str, ...] = ()
    doc_ids: tuple[str, ...] = ()

    @property
    def active(self) -> bool:
        """True when any restriction is set."""
        return bool(self.doc_types or self.issuers or self.doc_ids)


@dataclass(frozen=True)
class RetrievalConfig:
    """Tuning of :class:`~hopgraph.retrieval.LegalRetriever`; named defaults above.

    Attributes:
        fusion: ``"linear"`` (``lam·dense + (1−lam)·sparse`` after per-query min-max) or ``"rrf"``.
        lam: weight of the dense score in linear fusion.
        candidates: candidates taken from each index before fusion.
        rrf_k: the constant of reciprocal rank fusion.
        granularity: ``"unit"`` ranks every unit level as found; ``"article"`` scores each hit as
            its containing Article (an article ranked by its best clause or chunk).
        rerank: re-rank fused candidates with structural signals (document and unit mentions in
            the question, headings); ``False`` gives flat hybrid retrieval.
        heading_weight: re-rank bonus times the share of the candidate heading's syllable
            bigrams that the question repeats.
        body_weight: re-rank bonus times the share of the question's syllable bigrams (those
            not made of two function words) that the candidate's text repeats (a clause or
            point: the text of its article, as for the heading; a part, chapter or section:
            none). ``None``: ``DEFAULT_BODY_WEIGHT`` at article granularity, 0 at unit
            granularity (see :meth:`body_bonus`).
        propagate: trace validity and expand references; ``False`` returns seeds only.
        clean_query: the full-text branch leaves out question boilerplate and function words
            (``LEXICAL_STOPWORDS``); ``False`` searches every word of the question.
        max_items: most context items returned.
        max_chars: most characters of unit text over all items.
        max_chain_depth: longest AMENDS/REPLACES/SUPPLEMENTS chain followed; longer is reported.
        max_references: most REFERS_TO targets added per seed or successor.
    """

    fusion: Fusion = "linear"
    lam: float = DEFAULT_LAMBDA
    candidates: int = DEFAULT_CANDIDATES
    rrf_k: int = DEFAULT_RRF_K
    granularity: Granularity = "unit"
    rerank: bool = True
    heading_weight: float = DEFAULT_HEADING_WEIGHT
    body_weight: float | None = None
    propagate: bool = True
    clean_query: bool = True
    max_items: int = DEFAULT_MAX_ITEMS
    max_chars: int = DEFAULT_MAX_CHARS
    max_chain_depth: int = DEFAULT_MAX_CHAIN_DEPTH
    max_references: int = DEFAULT_MAX_REFERENCES

    def body_bonus(self) -> float:
        """The body-phrase weight in effect: ``body_weight`` when set, else
        ``DEFAULT_BODY_WEIGHT`` for article candidates and 0 for units; 0 without re-ranking."""
        if not self.rerank:
            return 0.0
        if self.body_weight is not None:
            return self.body_weight
        return DEFAULT_BODY_WEIGHT if self.granularity == "article" else 0.0


@dataclass(frozen=True)
class Provenance:
    """Where a unit comes from: its document and its position, for a citation string."""

    doc_id: str
    number: str | None
    doc_type: str | None
    title: str | None
    issuer: str | None
    issue_date: date | None
    effective_date: date | None
    expiry_date: date | None
    status: str | None
    position: str
    citation: str


@dataclass(frozen=True)
class ChainStep:
    """One edge of a justification path.

    ``relation`` is the edge type (AMENDS, REPLACES, SUPPLEMENTS, REPEALS, REFERS_TO, VERSION_OF,
    CONTAINS). ``source_id``/``target_id`` follow the stored direction, e.g. for AMENDS the
    amending instruction and the amended unit. ``in_force`` tells whether the change had taken
    effect at the as-of date. ``date_unknown``: the amending text states no start date; the
    change counts from ``not_before`` (the amending document's issue date) and is flagged.
    """

    relation: str
    source_id: str
    target_id: str
    source_citation: str | None = None
    effective_date: date | None = None
    method: str | None = None
    evidence: str | None = None
    in_force: bool = True
    date_unknown: bool = False
    not_before: date | None = None

    def describe(self, verb: str | None = None) -> str:
        """A one-line Vietnamese reading, e.g. ``được sửa đổi bởi khoản 1 Điều 1 Luật
        46/2014/QH13, có hiệu lực từ 01/01/2015`` (dates dd/mm/yyyy); ``verb`` replaces the
        relation's own (``bị bãi bỏ một phần bởi`` for an amendment that repeals a part)."""
        verb = verb or _STEP_VERBS.get(self.relation, self.relation.lower())
        text = f"{verb} {self.source_citation or self.source_id}"
        if self.effective_date is not None:
            text += f", có hiệu lực từ {vn_date(self.effective_date)}"
        elif self.date_unknown:
            text += ", ngày có hiệu lực chưa xác định" + (
                f" (không trước {vn_date(self.not_before)})" if self.not_before else "")
        if not self.in_force:
            text += " (chưa có hiệu lực)"
        return text


# How a reader is told each edge of a validity chain (ChainStep.describe).
_STEP_VERBS = {
    "AMENDS": "được sửa đổi bởi",
    "REPLACES": "được thay thế bởi",
    "SUPPLEMENTS": "được bổ sung bởi",
    "REPEALS": "bị bãi bỏ bởi",
    "REFERS_TO": "được dẫn chiếu bởi",
    "VERSION_OF": "nội dung mới của",
    "CONTAINS": "thuộc",
}


def vn_date(day: date) -> str:
    """A date as a Vietnamese reader writes it: ``01/06/2024``."""
    return day.strftime("%d/%m/%Y")


@dataclass(frozen=True)
class ContextItem:
    """One piece of evidence in the context set C(q).

    Attributes:
        node_id: the unit's id (``<doc-id>:<path>`` or ``<unit id>@<amending doc id>``).
        text: the unit's wording (for a version: the new wording).
        citation: a citation string (``khoản 1 Điều 12 Luật 25/2008/QH12``).
        role: ``seed`` (found by search), ``successor`` (the wording in force that replaces or
            amends a seed), ``reference`` (one REFERS_TO hop), ``provenance`` (structure context).
        scores: ``dense``, ``sparse``, ``fused``, ``rerank`` … as available.
        path: the edges from the seed to this item; empty for a seed.
        valid_from / valid_to: the unit's validity interval, where known.
        applicable: whether this wording is in force at the as-of date.
        validity_note: human reading of the validity judgement.
        provenance: document and position.
        seed_id: the seed this item was reached from (itself for a seed).
        rank: 1-based order in the context.
        date_unknown: the validity of this wording at the date rests on a start date that is
            unknown (its own, or that of a change superseding it): the amending document states
            none; it is served from ``not_before`` (the amending document's issue date) and every
            answer that uses it must say so (:attr:`uncertainty_note`).
        not_before: that issue date, where known.
        consolidated: ``text`` is the unit's wording with its changed parts replaced by the
            wording in force at the date (the stored text is the wording as enacted).
    """

    node_id: str
    text: str
    citation: str
    role: Role
    scores: dict[str, float]
    path: list[ChainStep]
    valid_from: date | None
    valid_to: date | None
    applicable: bool
    validity_note: str
    provenance: Provenance
    seed_id: str
    rank: int = 0
    date_unknown: bool = False
    not_before: date | None = None
    consolidated: bool = False
    pending: list[ChainStep] = field(default_factory=list)

    @property
    def uncertainty_note(self) -> str | None:
        """``ngày có hiệu lực chưa xác định (không trước DD/MM/YYYY)`` when ``date_unknown``."""
        if not self.date_unknown:
            return None
        if self.not_before is None:
            return "ngày có hiệu lực chưa xác định"
        return ("ngày có hiệu lực chưa xác định (không trước "
                f"{self.not_before.strftime('%d/%m/%Y')})")

    @property
    def validity(self) -> Validity:
        """In force, in force from an unknown start date, or not in force at the as-of date."""
        if not self.applicable:
            return Validity.NOT_IN_FORCE
        return Validity.IN_FORCE_DATE_UNKNOWN if self.date_unknown else Validity.IN_FORCE

    def citation_day(self, as_of: date) -> date:
        """The date this wording's citation id carries: ``as_of`` when it is in force then;
        else the date its own wording starts (a superseded or pending wording resolves back to
        itself); ``as_of`` when that start is not known."""
        if self.applicable or self.valid_from is None:
            return as_of
        return self.valid_from

    def to_evidence(self, as_of: date | None = None) -> Evidence:
        """This item in the shared evidence shape (:class:`hopgraph.core.results.Evidence`): the
        re-rank score (else the fused one), the validity note with the unknown-date warning,
        the document id and position as provenance, and with ``as_of`` (the date validity was
        judged at) its ELI-style citation id (:func:`hopgraph.core.citations.citation_id`)."""
        score = self.scores.get("rerank", self.scores.get("fused"))
        note = "; ".join(n for n in (self.validity_note, self.uncertainty_note) if n) or None
        prov = self.provenance
        cid = None if as_of is None else citation_id(self.node_id, self.citation_day(as_of))
        return Evidence(domain="legal", id=self.node_id, text=self.text, role=self.role,
                        score=score, citation=self.citation, validity=self.validity,
                        validity_note=note, provenance=f"{prov.doc_id} {prov.position}".strip(),
                        citation_id=cid)


@dataclass(frozen=True)
class LegalContext:
    """The answer of :meth:`LegalRetriever.retrieve`: a bounded, ordered context set.

    Attributes:
        question: the question as given.
        as_of: the date validity was judged at.
        items: ordered context items (seeds with their successors and references).
        seeds: the seed ids in rank order.
        reason_if_empty: why ``items`` is empty (``None`` otherwise).
        round_trips: database round trips spent.
        latency_ms: wall time of the whole call (question embedding included).
        db_ms: wall time of the database round trips alone.
        truncated: items or characters were cut to the bounds.
        warnings: chains cut at the depth bound, cycles found, filters that matched nothing.
    """

    question: str
    as_of: date
    items: list[ContextItem]
    seeds: list[str]
    reason_if_empty: str | None
    round_trips: int
    latency_ms: float
    truncated: bool = False
    warnings: list[str] = field(default_factory=list)
    db_ms: float = 0.0

    def applicable_items(self) -> list[ContextItem]:
        """Items whose wording is in force at ``as_of``."""
        return [i for i in self.items if i.applicable]

    def ranked_unit_ids(self) -> list[str]:
        """Unit ids for evaluation: seeds in rank order (versions mapped to their base unit)."""
        return [s.split("@", 1)[0] for s in self.seeds]

    def to_evidence(self) -> list[Evidence]:
        """The items in the shared evidence shape, in context order
        (:meth:`ContextItem.to_evidence`)."""
        return [item.to_evidence(self.as_of) for item in self.items]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (dates as ISO strings)."""
        result: dict[str, Any] = _jsonable(asdict(self))
        return result


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, date):
        return value.isoformat()
    return value


@dataclass(frozen=True)
class Candidate:
    """One seed: a fused candidate of the search, with its scores and final (re-ranked) score."""

    id: str
    doc_id: str
    scores: dict[str, float]
    score: float


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
