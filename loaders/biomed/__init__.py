"""PrimeKG loading: ``kg.csv`` and names-only triplet TSVs into typed entities and edges."""

from hopgraph.loaders.biomed._readers import (
    EdgeRow,
    NodeRow,
    ReadStats,
    RowProblem,
    infer_types,
    read_alias_table,
    read_kg_csv,
    read_triplet_tsv,
)
from hopgraph.loaders.biomed._writer import (
    DEFAULT_BATCH_SIZE,
    SAMPLE_ALIASES,
    SAMPLE_TRIPLETS,
    BioLoader,
    LoadReport,
    load_primekg,
)

__all__ = [
    "DEFAULT_BATCH_SIZE", "SAMPLE_ALIASES", "SAMPLE_TRIPLETS", "BioLoader", "EdgeRow",
    "LoadReport", "NodeRow", "ReadStats", "RowProblem", "infer_types", "load_primekg",
    "read_alias_table", "read_kg_csv", "read_triplet_tsv",
]
