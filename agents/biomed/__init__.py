"""ReGraM region-first reasoning over the biomedical graph: typing, decomposition, linking,
region reasoning with evidence-aware modes, the Reviewer and answer synthesis."""

from hopgraph.agents.biomed._build import build_nlp
from hopgraph.agents.biomed._linking import EntityLinker, LinkedEntity, mentions_of
from hopgraph.agents.biomed._planning import Plan, Typed, classify, decompose
from hopgraph.agents.biomed._reasoner import (
    BioAnswer,
    HopResult,
    Mode,
    Regram,
    RegramConfig,
    mode_for,
    region_evidence,
)
from hopgraph.agents.biomed._reviewer import (
    GraphVerifier,
    Hypothesis,
    LLMVerifier,
    Reviewer,
    Verdict,
    Verifier,
)

__all__ = [
    "BioAnswer", "EntityLinker", "GraphVerifier", "HopResult", "Hypothesis", "LLMVerifier",
    "LinkedEntity", "Mode", "Plan", "Regram", "RegramConfig", "Reviewer", "Typed", "Verdict",
    "Verifier", "build_nlp", "classify", "decompose", "mentions_of", "mode_for",
    "region_evidence",
]
