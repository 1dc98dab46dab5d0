"""What each biomedical relation type means: its endpoint types, its text, its family.

One :class:`RelationSpec` per :class:`~hopgraph.graph_models.BioRel`. The signature ``(head,
tail)`` fixes the stored direction of an edge (PrimeKG lists every edge in both directions; the
loader writes it once, head type to tail type, ordered by id when both ends share a type). The
description verbalises a triplet (the relation description map of ReGraM, Appendix B) and the
family ties the relation to a row of the paper's Table 7 domain-weight matrix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hopgraph.graph_models._vocab import BioRel, BioType

G, DR, DI, PH = BioType.GENE_PROTEIN, BioType.DRUG, BioType.DISEASE, BioType.PHENOTYPE
PW, BP, MF, CC = (BioType.PATHWAY, BioType.BIOLOGICAL_PROCESS, BioType.MOLECULAR_FUNCTION,
                  BioType.CELLULAR_COMPONENT)
AN, EX = BioType.ANATOMY, BioType.EXPOSURE


@dataclass(frozen=True)
class RelationSpec:
    """One relation type: stored direction, natural-language text and Table 7 family."""

    rel: BioRel
    head: BioType
    tail: BioType
    text: str
    family: str


def _spec(rel: BioRel, head: BioType, tail: BioType, text: str, family: str) -> RelationSpec:
    return RelationSpec(rel, head, tail, text, family)


RELATION_SPECS: dict[BioRel, RelationSpec] = {s.rel: s for s in (
    _spec(BioRel.ASSOCIATED_WITH, G, DI, "is genetically associated with", "Associated_with"),
    _spec(BioRel.CONTRAINDICATION, DR, DI, "is contraindicated in", "Treats"),
    _spec(BioRel.INDICATION, DR, DI, "is indicated for the treatment of", "Treats"),
    _spec(BioRel.OFF_LABEL_USE, DR, DI, "is used off-label to treat", "Treats"),
    _spec(BioRel.TARGET, DR, G, "targets the protein", "Targets"),
    _spec(BioRel.ENZYME, DR, G, "is metabolised by the enzyme", "Targets"),
    _spec(BioRel.TRANSPORTER, DR, G, "is transported by", "Targets"),
    _spec(BioRel.CARRIER, DR, G, "is carried by the carrier protein", "Targets"),
    _spec(BioRel.PROTEIN_PROTEIN, G, G, "interacts with the protein", "Interacts_with"),
    _spec(BioRel.DRUG_PROTEIN, DR, G, "acts on the protein", "Targets"),
    _spec(BioRel.DRUG_DRUG, DR, DR, "interacts with the drug", "Interacts_with"),
    _spec(BioRel.DRUG_EFFECT, DR, PH, "can cause the side effect", "Causes"),
    _spec(BioRel.PHENOTYPE_PROTEIN, PH, G, "is linked to the protein", "Associated_with"),
    _spec(BioRel.PHENOTYPE_PHENOTYPE, PH, PH, "is a kind of phenotype related to", "Associated_with"),
    _spec(BioRel.DISEASE_PHENOTYPE_NEGATIVE, DI, PH, "typically does not present with", "Causes"),
    _spec(BioRel.DISEASE_PHENOTYPE_POSITIVE, DI, PH, "presents with the symptom", "Causes"),
    _spec(BioRel.DISEASE_PROTEIN, DI, G, "is associated with the protein", "Associated_with"),
    _spec(BioRel.DISEASE_DISEASE, DI, DI, "is a subtype or relative of the disease", "Associated_with"),
    _spec(BioRel.BIOPROCESS_BIOPROCESS, BP, BP, "is a biological process related to", "Occurs_in"),
    _spec(BioRel.MOLFUNC_MOLFUNC, MF, MF, "is a molecular function related to", "Occurs_in"),
    _spec(BioRel.CELLCOMP_CELLCOMP, CC, CC, "is a cellular component related to", "Occurs_in"),
    _spec(BioRel.MOLFUNC_PROTEIN, MF, G, "is a molecular function of", "Regulates"),
    _spec(BioRel.CELLCOMP_PROTEIN, CC, G, "is the cellular location of", "Expressed_in"),
    _spec(BioRel.BIOPROCESS_PROTEIN, BP, G, "is a biological process involving", "Regulates"),
    _spec(BioRel.EXPOSURE_PROTEIN, EX, G, "is an exposure that affects", "Associated_with"),
    _spec(BioRel.EXPOSURE_DISEASE, EX, DI, "is an exposure linked to the disease", "Causes"),
    _spec(BioRel.EXPOSURE_EXPOSURE, EX, EX, "is an exposure related to", "Associated_with"),
    _spec(BioRel.EXPOSURE_BIOPROCESS, EX, BP, "is an exposure that affects the process", "Regulates"),
    _spec(BioRel.EXPOSURE_MOLFUNC, EX, MF, "is an exposure that affects the function", "Regulates"),
    _spec(BioRel.EXPOSURE_CELLCOMP, EX, CC, "is an exposure that affects the component", "Occurs_in"),
    _spec(BioRel.PATHWAY_PATHWAY, PW, PW, "is a pathway related to", "Occurs_in"),
    _spec(BioRel.PATHWAY_PROTEIN, PW, G, "is a pathway that involves", "Regulates"),
    _spec(BioRel.ANATOMY_ANATOMY, AN, AN, "is an anatomical part related to", "Associated_with"),
    _spec(BioRel.ANATOMY_PROTEIN_PRESENT, AN, G, "expresses the protein", "Expressed_in"),
    _spec(BioRel.ANATOMY_PROTEIN_ABSENT, AN, G, "does not express the protein", "Expressed_in"),
)}

# PrimeKG's x_type / y_type values.
_TYPE_NAMES: dict[str, BioType] = {
    "gene/protein": G, "drug": DR, "disease": DI, "effect/phenotype": PH, "pathway": PW,
    "biological_process": BP, "molecular_function": MF, "cellular_component": CC,
    "anatomy": AN, "exposure": EX,
}
_REL_NORMAL = re.compile(r"[\s\-/]+")


def bio_type_of(primekg_type: str) -> BioType | None:
    """The label for a PrimeKG node type (``"gene/protein"`` → GeneProtein); None if unknown."""
    key = primekg_type.strip().lower()
    if key in _TYPE_NAMES:
        return _TYPE_NAMES[key]
    for t in BioType:
        if key == t.value.lower():
            return t
    return None


def relation_of(name: str) -> BioRel | None:
    """The relation type for a raw name (``"off-label use"`` → OFF_LABEL_USE); None if unknown."""
    key = _REL_NORMAL.sub("_", name.strip()).upper()
    try:
        return BioRel(key)
    except ValueError:
        return None
