"""Sentence logic graph (SentGraph) construction: splitting, roles, RST relations, bridges, writes."""

from hopgraph.loaders.sentences._entities import EntityTagger, SpacyTagger, entity_key
from hopgraph.loaders.sentences._inputs import RawPassage, read_corpus
from hopgraph.loaders.sentences._pipeline import LoadReport, load_passages
from hopgraph.loaders.sentences._split import looks_english, split_text
from hopgraph.loaders.sentences._structure import (
    NN_RELATIONS,
    NS_RELATIONS,
    DocumentStructure,
    heuristic_structure,
    llm_structure,
)

__all__ = [
    "NN_RELATIONS", "NS_RELATIONS", "DocumentStructure", "EntityTagger", "LoadReport",
    "RawPassage", "SpacyTagger", "entity_key", "heuristic_structure", "llm_structure",
    "load_passages", "looks_english", "read_corpus", "split_text",
]
