"""The sentence reasoner over SentGraph: anchors, refinement, path expansion, answers, evaluation."""

from hopgraph.agents.sentences._eval import evaluate, format_table, read_questions
from hopgraph.agents.sentences._reasoner import (
    EvidenceSentence,
    SentenceAnswer,
    SentenceReasoner,
    SentenceRetrieval,
    SentenceRetrievalConfig,
    count_tokens,
    generate_answer,
)

__all__ = [
    "EvidenceSentence", "SentenceAnswer", "SentenceReasoner", "SentenceRetrieval",
    "SentenceRetrievalConfig", "count_tokens", "evaluate", "format_table", "generate_answer",
    "read_questions",
]
