"""The sentence reasoner over SentGraph: anchors, refinement, path expansion, answers, evaluation."""

from hopgraph.agents.sentences._answer_line import AnswerLine, answer_line, entity_facets
from hopgraph.agents.sentences._reasoner import (
    EvidenceSentence,
    SentenceAnswer,
    SentenceReasoner,
    SentenceRetrieval,
    SentenceRetrievalConfig,
    count_tokens,
    generate_answer,
    link_seed,
    name_keys,
)

__all__ = [
    "AnswerLine",
    "EvidenceSentence",
    "SentenceAnswer",
    "SentenceReasoner",
    "SentenceRetrieval",
    "SentenceRetrievalConfig",
    "answer_line",
    "count_tokens",
    "entity_facets",
    "generate_answer",
    "link_seed",
    "name_keys",
]
