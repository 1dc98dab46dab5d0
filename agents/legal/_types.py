"""Typed results of the legal QA agents: interpretation, evidence, claims, the final answer.

Plain dataclasses (house style: pydantic only at trust boundaries, i.e. the LLM's JSON, which is
validated in the agents). :class:`Answer` is the stable result of
:meth:`hopgraph.agents.legal.LegalQA.ask`; ``Answer.to_dict()`` is its JSON form (``hopgraph ask
--json``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any, Literal

from hopgraph.core.results import Evidence
from hopgraph.core.vocabulary import AnswerMode, AnswerStatus
from hopgraph.retrieval import ContextItem, LegalContext, RetrievalFilters

Intent = Literal["chitchat", "regulatory", "out_of_scope", "not_vietnamese"]
# One enum each for answer status and mode (hopgraph.core.vocabulary); the old names stay.
Status = AnswerStatus
Verdict = Literal[
    "supported", "unsupported", "contradicted", "superseded_citation", "invented_citation",
    "extracted", "unchecked",
]
Mode = AnswerMode
AgentName = Literal["interpreter", "pathfinder", "grader", "rewriter", "writer", "auditor"]


@dataclass(frozen=True)
class UnitRef:
    """A unit reference found in text: ``điểm a khoản 2 Điều 5 Nghị định 96/2023/NĐ-CP``.

    ``doc_number`` is ``None`` when the text names no document (``Điều 5`` alone) and ``"này"``
    for a relative reference (``Điều 5 của Luật này``).
    """

    article: str
    clause: str | None = None
    point: str | None = None
    doc_type: str | None = None
    doc_number: str | None = None
    text: str = ""

    @property
    def path(self) -> str:
        """The id-scheme path: ``D5.K2.a``."""
        parts = [f"D{self.article}"]
        if self.clause:
            parts.append(f"K{self.clause}")
        if self.point:
            parts.append(self.point)
        return ".".join(parts)


@dataclass(frozen=True)
class DocRef:
    """A document number found in text, normalised (``NĐ-CP``), with its type when stated."""

    number: str
    doc_type: str | None
    text: str


@dataclass(frozen=True)
class Interpretation:
    """What the Interpreter understood.

    Attributes:
        intent: chit-chat, regulatory question, or out of scope.
        question: the question as given.
        sub_questions: the parts retrieved separately (the question itself when not split).
        doc_refs / unit_refs / dates: what the deterministic parsers found.
        as_of: the date the question asks about, if it states one.
        needs_retrieval: False for chit-chat and out-of-scope questions.
        filters: retrieval filters (documents the question scopes itself to with ``theo …``).
        method: ``rules`` or ``rules+llm`` (the LLM was asked because the rules were unsure).
        notes: why the routing was chosen.
    """

    intent: Intent
    question: str
    sub_questions: list[str]
    doc_refs: list[DocRef]
    unit_refs: list[UnitRef]
    dates: list[date]
    as_of: date | None
    needs_retrieval: bool
    filters: RetrievalFilters
    method: str = "rules"
    notes: list[str] = field(default_factory=list)


@dataclass
class EvidenceSet:
    """What the Pathfinder retrieved for one sub-question (after any reflective rewrites)."""

    sub_question: str
    query: str
    context: LegalContext
    rewrites: list[str] = field(default_factory=list)
    graded_relevant: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Citation:
    """One cited unit, with its Vietnamese citation and validity at the as-of date."""

    node_id: str
    citation: str
    applicable: bool
    validity_note: str
    role: str
    date_unknown: bool = False  # the wording's start date is unknown (served from not_before)
    not_before: date | None = None


@dataclass
class Claim:
    """One sentence of the answer with the evidence ids it rests on and the Auditor's verdict."""

    text: str
    evidence_ids: list[str]
    verdict: Verdict
    support: float = 0.0
    notes: list[str] = field(default_factory=list)


@dataclass
class AgentStep:
    """Cost of one agent step: wall time, LLM calls and tokens."""

    agent: AgentName
    latency_s: float
    llm_calls: int = 0
    llm_failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    note: str = ""


@dataclass
class Answer:
    """The structured answer of :meth:`LegalQA.ask`.

    Attributes:
        question: the question as given.
        text: the answer shown to the user (Vietnamese), with citations and validity notes.
        status: answered (LLM, audited), retrieval_only (extracted evidence, no LLM), abstained,
            clarify (the question needs more detail), chitchat, out_of_scope.
        mode: ``llm`` or ``retrieval_only``.
        as_of: the date validity was judged at.
        claims: sentences with evidence ids and verdicts.
        citations: the cited units (only ids present in the retrieved evidence).
        route: the agents that ran, in order (``interpreter``, ``pathfinder``, …).
        steps: per-agent latency and tokens.
        fallback_reason: why the LLM path was not used or not trusted, if so.
        interpretation: the Interpreter's output.
        evidence: the evidence sets per sub-question.
        pipeline: ``standard`` or ``reflective``.
    """

    question: str
    text: str
    status: Status
    mode: Mode
    as_of: date | None
    claims: list[Claim]
    citations: list[Citation]
    route: list[str]
    steps: list[AgentStep]
    fallback_reason: str | None = None
    interpretation: Interpretation | None = None
    evidence: list[EvidenceSet] = field(default_factory=list)
    pipeline: str = "standard"

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens over all agents."""
        return sum(s.prompt_tokens + s.completion_tokens for s in self.steps)

    @property
    def latency_s(self) -> float:
        """Wall time over all agent steps."""
        return sum(s.latency_s for s in self.steps)

    def evidence_items(self) -> list[ContextItem]:
        """Every retrieved item, in order, without duplicates."""
        seen: dict[str, ContextItem] = {}
        for ev in self.evidence:
            for item in ev.context.items:
                seen.setdefault(item.node_id, item)
        return list(seen.values())

    def to_evidence(self) -> list[Evidence]:
        """The retrieved items in the shared evidence shape (:class:`hopgraph.core.results.Evidence`),
        in order, without duplicates; the cited ones are in :attr:`citations` by the same id."""
        days = {item.node_id: ev.context.as_of for ev in self.evidence
                 for item in ev.context.items}
        return [item.to_evidence(self.as_of or days.get(item.node_id))
                for item in self.evidence_items()]

    def to_dict(self, *, include_evidence_text: bool = False) -> dict[str, Any]:
        """A JSON-ready dict (dates as ISO strings); evidence texts only when asked."""
        data: dict[str, Any] = {
            "question": self.question, "text": self.text, "status": self.status,
            "mode": self.mode, "pipeline": self.pipeline,
            "as_of": self.as_of.isoformat() if self.as_of else None,
            "fallback_reason": self.fallback_reason,
            "claims": [asdict(c) for c in self.claims],
            "citations": [asdict(c) for c in self.citations],
            "route": list(self.route),
            "steps": [asdict(s) for s in self.steps],
            "total_tokens": self.total_tokens,
            "latency_s": round(self.latency_s, 4),
        }
        if self.interpretation is not None:
            i = self.interpretation
            data["interpretation"] = {
                "intent": i.intent, "sub_questions": i.sub_questions, "method": i.method,
                "doc_refs": [asdict(d) for d in i.doc_refs],
                "unit_refs": [asdict(u) for u in i.unit_refs],
                "dates": [d.isoformat() for d in i.dates],
                "as_of": i.as_of.isoformat() if i.as_of else None,
                "filters": asdict(i.filters), "notes": i.notes,
            }
        data["evidence"] = [
            {
                "sub_question": e.sub_question, "query": e.query, "rewrites": e.rewrites,
                "notes": e.notes, "reason_if_empty": e.context.reason_if_empty,
                "items": [
                    {
                        "node_id": it.node_id, "citation": it.citation, "role": it.role,
                        "applicable": it.applicable, "validity_note": it.validity_note,
                        "date_unknown": it.date_unknown,
                        "path": [s.describe() for s in it.path],
                        **({"text": it.text} if include_evidence_text else {}),
                    }
                    for it in e.context.items
                ],
            }
            for e in self.evidence
        ]
        return data
