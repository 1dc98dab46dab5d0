"""The Python query API: thin typed functions over the queries in ``cypher/``.

Legal retrieval::

    retriever = LegalRetriever(runner, embedder)          # both received, never built here
    ctx = retriever.retrieve("Mức đóng bảo hiểm y tế ...", k=10, as_of="2024-06-01",
                             filters={"doc_types": ["Luật"]})
    for item in ctx.items:      # role: seed / successor / reference / provenance
        print(item.citation, item.applicable, item.validity_note, item.path)
    retriever.trace(["25/2008/QH12:D14.K5"], as_of="2014-12-31")   # validity of given units

The consolidated wording of a document at a date (văn bản hợp nhất)::

    doc = consolidate(runner, "12/2016/NĐ-MAU", "2024-06-01")
    print(doc.render())                    # every unit in force, changed ones marked
    for unit in doc.changed_units():       # state, wording, instruction and date
        print(unit.label, unit.state, unit.change.describe() if unit.change else "")
    diff_consolidated(consolidate(runner, d, "2019-01-01"), consolidate(runner, d, "2024-01-01"))

Evaluation helpers (``hopgraph eval retrieval``) live in ``_eval`` and are domain-neutral.
"""

from hopgraph.retrieval._legal import LegalRetriever
from hopgraph.retrieval._legal_consolidate import (
    Change,
    ConsolidatedDocument,
    ConsolidatedUnit,
    UnitDiff,
    consolidate,
    diff_consolidated,
    render_diff,
)
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
    "ChainStep", "Change", "ConsolidatedDocument", "ConsolidatedUnit", "ContextItem", "LegalContext", "LegalRetriever", "Provenance", "RetrievalConfig",
    "RetrievalFilters", "Role", "UnitDiff", "consolidate", "diff_consolidated", "render_diff",
]
