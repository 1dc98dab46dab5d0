"""Node classes of the biomedical graph (PrimeKG-style typed entities).

Every entity carries ``BioEntity`` with a unique ``id``; its PrimeKG type is a second label from
:class:`~hopgraph.graph_models.BioType`. ``search_text`` joins the name and its aliases for the
full-text index used by entity linking. Relationship types come from
:class:`~hopgraph.graph_models.BioRel`.
"""

from __future__ import annotations

from neomodel import (
    ArrayProperty,
    FloatProperty,
    FulltextIndex,
    StringProperty,
    StructuredNode,
    StructuredRel,
    VectorIndex,
)


class BioRelation(StructuredRel):
    """A PrimeKG edge: the raw relation name and its display form."""

    relation = StringProperty()
    display_relation = StringProperty()
    origin = StringProperty()


class BioEntity(StructuredNode):
    """A biomedical entity of any type."""

    uid = StringProperty(unique_index=True, required=True, db_property="id")
    name = StringProperty(required=True, index=True)
    node_type = StringProperty()
    source = StringProperty()
    source_id = StringProperty()
    aliases = ArrayProperty(StringProperty())
    search_text = StringProperty(
        fulltext_index=FulltextIndex(analyzer="standard-no-stop-words", eventually_consistent=False)
    )
    embedding = ArrayProperty(
        FloatProperty(), vector_index=VectorIndex(dimensions=384, similarity_function="cosine")
    )


class GeneProtein(BioEntity):
    """gene/protein."""


class Drug(BioEntity):
    """drug."""


class Disease(BioEntity):
    """disease."""


class Phenotype(BioEntity):
    """effect/phenotype."""


class Pathway(BioEntity):
    """pathway."""


class BiologicalProcess(BioEntity):
    """biological_process."""


class MolecularFunction(BioEntity):
    """molecular_function."""


class CellularComponent(BioEntity):
    """cellular_component."""


class Anatomy(BioEntity):
    """anatomy."""


class Exposure(BioEntity):
    """exposure."""


class RelationDescription(StructuredNode):
    """Natural-language text for a relation type, used to verbalise triplets."""

    uid = StringProperty(unique_index=True, required=True, db_property="id")
    text = StringProperty()
