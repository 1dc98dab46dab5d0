"""neomodel classes for every node and relationship type of hopgraph, and the schema they imply.

The classes document the graph and are the single source of the schema
(:func:`schema_items`); loaders write with batched Cypher from ``cypher/``, not through neomodel's
object API. The stored form of a biomedical edge's triplet embedding (:func:`triplet_text`,
:func:`encode_vector`, :func:`triplet_embedding_key`) is here too: the loader writes it and
retrieval reads it.
"""

from hopgraph.graph_models._biomed import BioEntity, BioRelation, RelationDescription
from hopgraph.graph_models._biomed_relations import (
    RELATION_SPECS,
    RelationSpec,
    bio_type_of,
    relation_of,
)
from hopgraph.graph_models._legal import (
    Annex,
    Article,
    Chapter,
    Clause,
    DefinedTerm,
    Definition,
    Document,
    LegalNode,
    LegalRelation,
    LegalUnit,
    Part,
    Placeholder,
    Point,
    Section,
    Subsection,
    UnitVersion,
    UnresolvedReference,
)
from hopgraph.graph_models._schema import SchemaItem, index_name, node_classes, schema_items
from hopgraph.graph_models._sentence import (
    Core,
    Passage,
    Sentence,
    SentenceNode,
    Supplementary,
    Topic,
    TopicEntity,
)
from hopgraph.graph_models._triplet_vectors import (
    VECTOR_DTYPE,
    VECTOR_FORMAT,
    VERBALISATION_FINGERPRINT,
    VERBALISATION_VERSION,
    decode_vector,
    encode_vector,
    triplet_embedding_key,
    triplet_text,
)
from hopgraph.graph_models._vocab import BioRel, BioType, LegalRel, SentenceRel, StructureRel

__all__ = [
    "RELATION_SPECS",
    "VECTOR_DTYPE",
    "VECTOR_FORMAT",
    "VERBALISATION_FINGERPRINT",
    "VERBALISATION_VERSION",
    "Annex",
    "Article",
    "BioEntity",
    "BioRel",
    "BioRelation",
    "BioType",
    "Chapter",
    "Clause",
    "Core",
    "DefinedTerm",
    "Definition",
    "Document",
    "LegalNode",
    "LegalRel",
    "LegalRelation",
    "LegalUnit",
    "Part",
    "Passage",
    "Placeholder",
    "Point",
    "RelationDescription",
    "RelationSpec",
    "SchemaItem",
    "Section",
    "Sentence",
    "SentenceNode",
    "SentenceRel",
    "StructureRel",
    "Subsection",
    "Supplementary",
    "Topic",
    "TopicEntity",
    "UnitVersion",
    "UnresolvedReference",
    "bio_type_of",
    "decode_vector",
    "encode_vector",
    "index_name",
    "node_classes",
    "relation_of",
    "schema_items",
    "triplet_embedding_key",
    "triplet_text",
]
