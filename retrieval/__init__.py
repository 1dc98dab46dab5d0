"""The Python query API: thin typed functions over the queries in ``cypher/``.

Legal retrieval::

    retriever = LegalRetriever(runner, embedder)          # both received, never built here
    ctx = retriever.retrieve("Mức đóng bảo hiểm y tế ...", k=10, as_of="2024-06-01",
                             filters={"doc_types": ["Luật"]})
    for item in ctx.items:      # role: seed / successor / reference / provenance
        print(item.citation, item.applicable, item.validity_note, item.path)
    retriever.trace(["25/2008/QH12:D14.K5"], as_of="2014-12-31")   # validity of given units

Evaluation helpers (``hopgraph eval retrieval``) live in ``_eval`` and are domain-neutral.
"""

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
