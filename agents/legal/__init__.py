"""Legal QA agents: Interpreter, Pathfinder, Auditor, Conductor and the self-reflective loop.

The entry object is :class:`LegalQA`; ``LegalQA(runner, embedder, chat).ask(question, as_of=…,
use_llm=…)`` returns an :class:`Answer` (text, claims with evidence ids and Auditor verdicts,
citations, route, per-agent tokens and latency). With ``chat=None`` or ``use_llm=False`` the
answer is retrieval-only extracted evidence with citations and validity chains; it abstains, saying
why, when the best evidence misses the question's subject (``QAOptions.abstention``).
"""

from hopgraph.agents.legal._abstention import AbstentionRule
from hopgraph.agents.legal._auditor import Auditor, AuditReport, DraftSentence
from hopgraph.agents.legal._conductor import LegalQA, QAOptions, answer_footer
from hopgraph.agents.legal._interpreter import Interpreter
from hopgraph.agents.legal._parsing import (
    content_tokens,
    format_citation,
    parse_dates,
    parse_document_numbers,
    parse_unit_references,
    tokens,
)
from hopgraph.agents.legal._pathfinder import Pathfinder, Retriever
from hopgraph.agents.legal._reflective import ReflectiveLoop
from hopgraph.agents.legal._types import (
    AgentStep,
    Answer,
    Citation,
    Claim,
    DocRef,
    EvidenceSet,
    Interpretation,
    UnitRef,
)

__all__ = [
    "AbstentionRule", "AgentStep", "Answer", "AuditReport", "Auditor", "Citation", "Claim",
    "DocRef", "DraftSentence", "EvidenceSet", "Interpretation", "Interpreter", "LegalQA",
    "Pathfinder", "QAOptions", "ReflectiveLoop", "Retriever", "UnitRef", "answer_footer",
    "content_tokens",
    "format_citation", "parse_dates", "parse_document_numbers", "parse_unit_references", "tokens",
]
