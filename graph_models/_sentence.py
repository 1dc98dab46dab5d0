"""Node classes of the sentence logic graph (SentGraph): topics, core and supplementary sentences.

Each passage has one ``Topic``; its sentences are ``Sentence`` nodes with a second label ``Core``
or ``Supplementary``. Edge types come from :class:`~hopgraph.graph_models.SentenceRel`; the
rhetorical relation is a property, and ``method`` says whether an LLM or the deterministic
fallback produced the edge.
"""

from __future__ import annotations

from neomodel import (
    ArrayProperty,
    FloatProperty,
    FulltextIndex,
    IntegerProperty,
    StringProperty,
    StructuredNode,
    StructuredRel,
    VectorIndex,
)


class SentenceRelation(StructuredRel):
    """A typed rhetorical relation and how it was found."""

    relation = StringProperty()
    method = StringProperty()  # 'llm' or 'heuristic'
    score = FloatProperty()
    evidence = StringProperty()  # why the edge exists (shared entities, the marker seen)


class SentenceNode(StructuredNode):
    """Any node of the sentence graph."""

    uid = StringProperty(unique_index=True, required=True, db_property="id")


class Passage(SentenceNode):
    """A source passage (title + text) and what the loader noticed about it."""

    title = StringProperty()
    text = StringProperty()
    language = StringProperty()  # 'en' or 'non-en' (a cheap stop-word check, not a classifier)
    method = StringProperty()  # how its sentences were classified: 'llm' or 'heuristic'
    notes = ArrayProperty(StringProperty())  # what the loader had to handle (long sentence split, ...)
    embedding = ArrayProperty(
        FloatProperty(), vector_index=VectorIndex(dimensions=384, similarity_function="cosine")
    )


class Topic(SentenceNode):
    """The topic node of a passage: its title and a summary line."""

    title = StringProperty()
    text = StringProperty()
    key = StringProperty(index=True)  # the normalised title, matched against entity keys
    embedding = ArrayProperty(
        FloatProperty(), vector_index=VectorIndex(dimensions=384, similarity_function="cosine")
    )


class TopicEntity(SentenceNode):
    """A named entity (spaCy NER) mentioned in a passage; shared entities bridge topics.

    ``id`` is ``entity:<normalised name>``; ``(Topic)-[:MENTIONS]->(TopicEntity)``.
    """

    name = StringProperty()
    label = StringProperty()


class Sentence(SentenceNode):
    """A sentence of a passage."""

    passage_id = StringProperty(index=True)
    position = IntegerProperty()
    role = StringProperty()  # 'core' or 'supplementary' (mirrors the second label)
    text = StringProperty(
        fulltext_index=FulltextIndex(analyzer="standard-no-stop-words", eventually_consistent=False)
    )
    embedding = ArrayProperty(
        FloatProperty(), vector_index=VectorIndex(dimensions=384, similarity_function="cosine")
    )


class Core(Sentence):
    """A core (nucleus) sentence."""


class Supplementary(Sentence):
    """A supplementary (satellite) sentence."""
