"""The Python query API: thin typed functions over the queries in ``cypher/``."""

from hopgraph.retrieval._legal import LegalRetriever
from hopgraph.retrieval._legal_types import (
    ChainStep,
    ContextItem,
    LegalContext,
    Provenance,
    RetrievalConfig,
    RetrievalFilters,
    Role,
)

__all__ = [
    "ChainStep", "ContextItem", "LegalContext", "LegalRetriever", "Provenance", "RetrievalConfig",
    "RetrievalFilters", "Role",
]
