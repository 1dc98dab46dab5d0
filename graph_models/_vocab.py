"""Allow-lists of relationship types: the only names that may appear in Cypher as identifiers."""

from __future__ import annotations

from enum import StrEnum


class StructureRel(StrEnum):
    """Containment and bookkeeping edges."""

    CONTAINS = "CONTAINS"
    VERSION_OF = "VERSION_OF"
    HAS_UNRESOLVED = "HAS_UNRESOLVED"
    CODIFIES = "CODIFIES"  # codification (Pháp điển) article -> the source unit it consolidates
    DEFINES = "DEFINES"  # unit of a definitions article (Giải thích từ ngữ) -> the term it defines


class LegalRel(StrEnum):
    """Legal relations extracted by rules; direction reads as a sentence."""

    AMENDS = "AMENDS"
    SUPPLEMENTS = "SUPPLEMENTS"
    REPLACES = "REPLACES"
    REPEALS = "REPEALS"
    REFERS_TO = "REFERS_TO"
    BASED_ON = "BASED_ON"
    GUIDES = "GUIDES"


class SentenceRel(StrEnum):
    """Edges of the sentence logic graph (SentGraph)."""

    HAS_CORE = "HAS_CORE"
    SUPPORTS = "SUPPORTS"  # core -> supplementary (nucleus-satellite)
    NN_RELATION = "NN_RELATION"  # core -> core (nucleus-nucleus)
    BRIDGE = "BRIDGE"  # topic -> topic (cross-document), stored from the smaller id
    MENTIONS = "MENTIONS"  # topic -> entity (what the bridges are computed from)
    FROM_PASSAGE = "FROM_PASSAGE"


class BioRel(StrEnum):
    """PrimeKG relation types (``kg.csv`` ``relation`` column, upper-cased, spaces to ``_``)."""

    ASSOCIATED_WITH = "ASSOCIATED_WITH"
    CONTRAINDICATION = "CONTRAINDICATION"
    INDICATION = "INDICATION"
    OFF_LABEL_USE = "OFF_LABEL_USE"
    TARGET = "TARGET"
    ENZYME = "ENZYME"
    TRANSPORTER = "TRANSPORTER"
    CARRIER = "CARRIER"
    PROTEIN_PROTEIN = "PROTEIN_PROTEIN"
    DRUG_PROTEIN = "DRUG_PROTEIN"
    DRUG_DRUG = "DRUG_DRUG"
    DRUG_EFFECT = "DRUG_EFFECT"
    PHENOTYPE_PROTEIN = "PHENOTYPE_PROTEIN"
    PHENOTYPE_PHENOTYPE = "PHENOTYPE_PHENOTYPE"
    DISEASE_PHENOTYPE_NEGATIVE = "DISEASE_PHENOTYPE_NEGATIVE"
    DISEASE_PHENOTYPE_POSITIVE = "DISEASE_PHENOTYPE_POSITIVE"
    DISEASE_PROTEIN = "DISEASE_PROTEIN"
    DISEASE_DISEASE = "DISEASE_DISEASE"
    BIOPROCESS_BIOPROCESS = "BIOPROCESS_BIOPROCESS"
    MOLFUNC_MOLFUNC = "MOLFUNC_MOLFUNC"
    CELLCOMP_CELLCOMP = "CELLCOMP_CELLCOMP"
    MOLFUNC_PROTEIN = "MOLFUNC_PROTEIN"
    CELLCOMP_PROTEIN = "CELLCOMP_PROTEIN"
    BIOPROCESS_PROTEIN = "BIOPROCESS_PROTEIN"
    EXPOSURE_PROTEIN = "EXPOSURE_PROTEIN"
    EXPOSURE_DISEASE = "EXPOSURE_DISEASE"
    EXPOSURE_EXPOSURE = "EXPOSURE_EXPOSURE"
    EXPOSURE_BIOPROCESS = "EXPOSURE_BIOPROCESS"
    EXPOSURE_MOLFUNC = "EXPOSURE_MOLFUNC"
    EXPOSURE_CELLCOMP = "EXPOSURE_CELLCOMP"
    PATHWAY_PATHWAY = "PATHWAY_PATHWAY"
    PATHWAY_PROTEIN = "PATHWAY_PROTEIN"
    ANATOMY_ANATOMY = "ANATOMY_ANATOMY"
    ANATOMY_PROTEIN_PRESENT = "ANATOMY_PROTEIN_PRESENT"
    ANATOMY_PROTEIN_ABSENT = "ANATOMY_PROTEIN_ABSENT"


class BioType(StrEnum):
    """Node labels of biomedical entities (each also carries ``BioEntity``); values are labels."""

    GENE_PROTEIN = "GeneProtein"
    DRUG = "Drug"
    DISEASE = "Disease"
    PHENOTYPE = "Phenotype"
    PATHWAY = "Pathway"
    BIOLOGICAL_PROCESS = "BiologicalProcess"
    MOLECULAR_FUNCTION = "MolecularFunction"
    CELLULAR_COMPONENT = "CellularComponent"
    ANATOMY = "Anatomy"
    EXPOSURE = "Exposure"
