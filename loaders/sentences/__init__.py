"""Sentence logic graph (SentGraph) construction: splitting, roles, RST relations, bridges, writes."""

from hopgraph.loaders.sentences._entities import EntityTagger, SpacyTagger, entity_key
from hopgraph.loaders.sentences._inputs import (
    RawPassage,
    read_corpus,
    sample_corpus_path,
    sample_questions_path,
)
from hopgraph.loaders.sentences._pipeline import (
    DEFAULT_BATCH_PASSAGES,
    DEFAULT_MAX_BRIDGES,
    DEFAULT_MAX_DF,
    DEFAULT_TITLE_WEIGHT,
    LoadReport,
    load_passages,
)
from hopgraph.loaders.sentences._split import looks_english, split_text
from hopgraph.loaders.sentences._structure import (
    NN_RELATIONS,
    NS_RELATIONS,
    DocumentStructure,
    heuristic_structure,
    llm_structure,
)

__all__ = [
    "DEFAULT_BATCH_PASSAGES", "DEFAULT_MAX_BRIDGES", "DEFAULT_MAX_DF", "DEFAULT_TITLE_WEIGHT", "NN_RELATIONS",
    "NS_RELATIONS", "DocumentStructure", "EntityTagger", "LoadReport", "RawPassage", "SpacyTagger",
    "entity_key", "heuristic_structure", "llm_structure", "load_passages", "looks_english",
    "read_corpus", "sample_corpus_path", "sample_questions_path", "split_text",
]
