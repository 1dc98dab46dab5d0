"""Node and relationship classes of the regulations graph (structure-driven regulatory KG).

Every node of this graph carries the label ``LegalNode`` with a unique ``id``; loaders MERGE on
that label so that a ``Placeholder`` created by a reference turns into the real unit in place.
Units of every level also carry ``LegalUnit``, which one vector index and one full-text index
cover. Ids follow ``<document number>:<unit path>``, e.g. ``15/2023/QH15:D5.K2.a``.

Validity dates (issue 16). A UnitVersion and an inserted unit carry ``valid_from`` (the date its
amending instruction took effect, or ``None``), ``valid_from_unknown`` (``True`` when the amending
text states no start date) and ``not_before`` (the amending document's issue date). A wording with
``valid_from_unknown`` is never in force before ``not_before`` and never at all without it; from
``not_before`` on it is served flagged as uncertain (``date_unknown`` in ``legal/get_text_as_of``,
``legal/_trace_seeds``, ``legal/consolidate_document``). The wording it follows then ends at
``not_before`` with ``valid_to_unknown = True`` ("possibly superseded"), set by the
``legal/derive_*`` queries. Candidate versions are ordered by ``coalesce(valid_from, not_before)``.
An original unit whose ``valid_from`` is ``None`` (its document's effect date unknown) is, as
before, in force from the start. Change edges (AMENDS, SUPPLEMENTS, REPEALS) carry
``effective_date``, ``None`` when unknown; such a change counts from its document's issue date.
"""

from __future__ import annotations

from neomodel import (
    ArrayProperty,
    BooleanProperty,
    DateProperty,
    FloatProperty,
    FulltextIndex,
    IntegerProperty,
    RelationshipFrom,
    RelationshipTo,
    StringProperty,
    StructuredNode,
    StructuredRel,
    VectorIndex,
)

from hopgraph.graph_models._vocab import LegalRel, StructureRel


class LegalRelation(StructuredRel):
    """A legal relation found by a rule: which rule, the matched text, any stated date."""

    method = StringProperty(required=True)
    evidence = StringProperty()
    effective_date = DateProperty()
    origin = StringProperty(default="text")  # "text", "codification" or "annotation"


class Definition(StructuredRel):
    """``(unit)-[:DEFINES]->(DefinedTerm)``: the wording after the term's "là" in that unit."""

    definition = StringProperty()


class LegalNode(StructuredNode):
    """Anything in the regulations graph that can be the target of a reference."""

    uid = StringProperty(unique_index=True, required=True, db_property="id")


class Document(LegalNode):
    """A legal document: law, decree, circular, decision, consolidated text."""

    number = StringProperty()
    doc_type = StringProperty()
    issuer = StringProperty()
    title = StringProperty()
    issue_date = DateProperty()
    effective_date = DateProperty()
    effective_date_stated = DateProperty()  # as the document states it; effective_date follows a later change
    expiry_date = DateProperty()
    status = StringProperty()
    status_external = StringProperty()
    status_disagrees = BooleanProperty()  # derived status contradicts status_external
    expiry_stated = DateProperty()  # end of validity stated by the document itself
    source_file = StringProperty()
    source_format = StringProperty()

    contains = RelationshipTo("LegalUnit", StructureRel.CONTAINS.value)
    based_on = RelationshipTo("Document", LegalRel.BASED_ON.value, model=LegalRelation)
    guides = RelationshipTo("LegalNode", LegalRel.GUIDES.value, model=LegalRelation)
    replaces = RelationshipTo("LegalNode", LegalRel.REPLACES.value, model=LegalRelation)


class LegalUnit(LegalNode):
    """A unit of any level; ``text`` is its own wording, ``text_segmented`` the word-segmented copy."""

    doc_id = StringProperty(index=True, required=True)
    level = StringProperty(required=True)
    number = StringProperty()
    path = StringProperty()
    label = StringProperty()
    heading = StringProperty()
    text = StringProperty()
    text_segmented = StringProperty(
        fulltext_index=FulltextIndex(analyzer="whitespace", eventually_consistent=False)
    )
    embedding = ArrayProperty(
        FloatProperty(), vector_index=VectorIndex(dimensions=384, similarity_function="cosine")
    )
    ordinal = IntegerProperty()
    valid_from = DateProperty()
    valid_to = DateProperty()
    status = StringProperty()
    citation = StringProperty()
    # id of the amending document that inserted this unit (indexed: re-loading or removing that
    # document finds what it wrote, and a load's derive scope, without reading every unit)
    supplemented_by = StringProperty(index=True)
    inserted_after = StringProperty()  # id of the unit this inserted unit follows
    amended_by = StringProperty(index=True)  # UnitVersion only: id of the amending document
    source_line = IntegerProperty()  # line of the unit's marker in the source file
    valid_from_unknown = BooleanProperty()  # version / inserted unit: no start date stated
    not_before = DateProperty()  # version / inserted unit: its amending document's issue date
    valid_to_unknown = BooleanProperty()  # ended by a successor whose start is unknown
    # the document whose own start date valid_from is (it moves when that start is changed)
    date_from_doc = StringProperty(index=True)
    # UnitVersion: None (the whole unit rewritten), "title", "lead" (only the words before its
    # sub-units) or "phrase" (phrases replaced, removed or added: derived from the instruction)
    scope = StringProperty()
    derived = StringProperty()  # "phrase": written by the derive step from a phrase edit
    doc_start = DateProperty()  # the wording states the start date of its document
    made_from_instruction = BooleanProperty()  # a unit made from new wording its law lacked

    children = RelationshipTo("LegalUnit", StructureRel.CONTAINS.value)
    parent = RelationshipFrom("LegalNode", StructureRel.CONTAINS.value)
    amends = RelationshipTo("LegalNode", LegalRel.AMENDS.value, model=LegalRelation)
    supplements = RelationshipTo("LegalNode", LegalRel.SUPPLEMENTS.value, model=LegalRelation)
    replaces = RelationshipTo("LegalNode", LegalRel.REPLACES.value, model=LegalRelation)
    repeals = RelationshipTo("LegalNode", LegalRel.REPEALS.value, model=LegalRelation)
    refers_to = RelationshipTo("LegalNode", LegalRel.REFERS_TO.value, model=LegalRelation)
    guides = RelationshipTo("LegalNode", LegalRel.GUIDES.value, model=LegalRelation)
    version_of = RelationshipTo("LegalUnit", StructureRel.VERSION_OF.value)
    codifies = RelationshipTo("LegalNode", StructureRel.CODIFIES.value, model=LegalRelation)
    unresolved = RelationshipTo("UnresolvedReference", StructureRel.HAS_UNRESOLVED.value)
    defines = RelationshipTo("DefinedTerm", StructureRel.DEFINES.value, model=Definition)


class Part(LegalUnit):
    """Phần."""


class Chapter(LegalUnit):
    """Chương."""


class Section(LegalUnit):
    """Mục."""


class Subsection(LegalUnit):
    """Tiểu mục."""


class Article(LegalUnit):
    """Điều."""


class Clause(LegalUnit):
    """Khoản."""


class Point(LegalUnit):
    """Điểm."""


class Annex(LegalUnit):
    """Phụ lục / Mẫu."""


class UnitVersion(LegalUnit):
    """New wording of a unit enacted by an amending instruction, valid from its effective date."""


class Placeholder(LegalNode):
    """A referenced unit or document that is not loaded yet; becomes the real node in place."""

    kind = StringProperty()  # "unit" or "document"
    doc_id = StringProperty()


class UnresolvedReference(StructuredNode):
    """A reference too vague to resolve (``theo quy định của pháp luật về …``); never guessed."""

    uid = StringProperty(unique_index=True, required=True, db_property="id")
    text = StringProperty()
    method = StringProperty()


class DefinedTerm(StructuredNode):
    """A term a document defines in its definitions article ("Giải thích từ ngữ"), scoped to
    that document (``Trong Luật này, các từ ngữ dưới đây được hiểu như sau``).

    ``key`` is the term folded as questions are (lower case, single spaces); ``uid`` (stored as
    ``id``) is ``<doc_id>|<key>``. Derived after every load by ``legal/derive_defined_terms``.
    """

    uid = StringProperty(unique_index=True, required=True, db_property="id")
    key = StringProperty(index=True, required=True)
    term = StringProperty()
    doc_id = StringProperty()


class LoadState(StructuredNode):
    """Whether the last legal load finished: one node, ``id`` ``'legal'``.

    A load sets ``started_at`` (and clears ``finished_at``) before it writes its first document;
    the transaction of the derive steps (validity, defined terms, re-homing) sets
    ``finished_at``. A load killed in between leaves ``finished_at`` null: the next load derives
    first, and ``hopgraph db repair`` derives now (``legal/get_load_state``).
    """

    uid = StringProperty(unique_index=True, required=True, db_property="id")
    documents = IntegerProperty()  # documents the load set out to write
    # started_at, finished_at: Neo4j datetimes written by the queries (datetime()), not by
    # neomodel, whose DateTimeProperty stores a float
