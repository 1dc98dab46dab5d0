"""Legal QA agents: Interpreter, Pathfinder, Auditor, Conductor and the self-reflective loop.

The entry object is :class:`LegalQA`; ``LegalQA(runner, embedder, chat).ask(question, as_of=…,
use_llm=…)`` returns an :class:`Answer` (text, claims with evidence ids and Auditor verdicts,
citations, route, per-agent tokens and latency). With ``chat=None`` or ``use_llm=False`` the
answer is retrieval-only extracted evidence with citations and validity chains; it abstains, saying
why, when the best evidence misses the question's subject (``QAOptions.abstention``).
"""

from hopgraph.agents.legal._abstention import AbstentionRule
from hopgraph.agents.legal._auditor import Auditor, AuditReport, DraftSentence
from hopgraph.agents.legal._conductor import LegalQA, QAOptions
from hopgraph.agents.legal._dataset import BuildReport, build_dataset
from hopgraph.agents.legal._interpreter import Interpreter
from hopgraph.agents.legal._parsing import (
    format_citation,
    parse_dates,
    parse_document_numbers,
    parse_unit_references,
    tokens,
)
from hopgraph.agents.legal._pathfinder import Pathfinder, Retriever
from hopgraph.agents.legal._reflective import ReflectiveLoop
from hopgraph.agents.legal._temporal_eval import (
    TemporalReport,
    ask_system,
    flat_system,
    paraphrase,
    retrieve_system,
    run_temporal,
)
from hopgraph.agents.legal._temporal_eval import render_markdown as render_temporal
from hopgraph.agents.legal._temporal_gold import (
    Gold,
    GoldError,
    Question,
    generate_questions,
    read_pairs,
    sample_questions,
)
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
    "AbstentionRule", "AgentStep", "Answer", "AuditReport", "Auditor", "BuildReport",
    "Citation", "Claim", "DocRef", "DraftSentence", "EvidenceSet", "Gold", "GoldError",
    "Interpretation", "Interpreter", "LegalQA", "Pathfinder", "QAOptions", "Question",
    "ReflectiveLoop", "Retriever", "TemporalReport", "UnitRef", "ask_system", "build_dataset",
    "flat_system", "format_citation", "generate_questions",
    "paraphrase", "parse_dates", "parse_document_numbers", "parse_unit_references", "read_pairs",
    "render_temporal", "retrieve_system", "run_temporal",
    "sample_questions", "tokens",
]
