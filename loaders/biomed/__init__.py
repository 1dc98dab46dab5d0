"""PrimeKG loading: ``kg.csv`` and names-only triplet TSVs into typed entities and edges, and
the opt-in pass that stores each edge's triplet embedding for MMR."""

from hopgraph.loaders.biomed._bulk import BulkReport, bulk_import_primekg
from hopgraph.loaders.biomed._embed import EmbedReport, embed_triplets
from hopgraph.loaders.biomed._estimate import LoadEstimate, estimate_load
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
    read_edges,
)

__all__ = [
    "DEFAULT_BATCH_SIZE", "SAMPLE_ALIASES", "SAMPLE_TRIPLETS", "BioLoader", "BulkReport", "EdgeRow",
    "EmbedReport", "LoadEstimate", "LoadReport", "NodeRow", "ReadStats", "RowProblem",
    "bulk_import_primekg", "embed_triplets", "estimate_load", "infer_types", "load_primekg",
    "read_alias_table", "read_edges", "read_kg_csv", "read_triplet_tsv",
]
