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

Biomedical regions for ReGraM (``collect_candidates``, ``select_region``: weighted MMR; ``DEFAULT_K``
and ``DEFAULT_LAMBDA`` are the region's) and sentence-graph lookups (``find_anchor_sentences``,
``expand_frontier``) are exported beside the legal API. Evaluation helpers (``hopgraph eval
retrieval``) live in ``_eval`` and are domain-neutral. The biomedical names are imported on first
use: they read the relation specs of :mod:`hopgraph.graph_models` (neomodel), which legal
retrieval does not need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hopgraph.retrieval._eval import DEFAULT_KS, evaluate, load_questions
from hopgraph.retrieval._legal import LegalRetriever
from hopgraph.retrieval._legal_akn import to_akn as consolidation_to_akn
from hopgraph.retrieval._legal_compare import Comparison, split_official
from hopgraph.retrieval._legal_compare import compare as compare_consolidation
from hopgraph.retrieval._legal_consolidate import (
    Change,
    ConsolidatedDocument,
    ConsolidatedUnit,
    UnitDiff,
    consolidate,
    diff_consolidated,
    render_diff,
)
from hopgraph.retrieval._legal_eval import legal_systems
from hopgraph.retrieval._legal_query import (
    definition_item,
    definition_subject,
    parse_as_of,
    parse_filters,
    prepare_question,
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
from hopgraph.retrieval._sentence import (
    DEFAULT_ANCHOR_K,
    EXPAND_PATHS_MAX_HOPS,
    ExpandedPath,
    LinkSeed,
    Neighbour,
    PassageHit,
    SentenceHit,
    expand_frontier,
    expand_paths,
    expand_paths_linked,
    find_anchor_sentences,
    find_passages,
    find_title_links,
    passage_titles,
)

if TYPE_CHECKING:
    from hopgraph.retrieval._biomed import (
        DEFAULT_HOP_DECAY,
        DEFAULT_K,
        DEFAULT_LAMBDA,
        DEFAULT_MAX_EDGES,
        DEFAULT_PER_ENTITY_LIMIT,
        Candidates,
        Domain,
        HopConstraint,
        JoinedEntity,
        OptionPath,
        Region,
        SeedReport,
        Triplet,
        candidate_vectors,
        collect_candidates,
        join_hops,
        relation_weights,
        score_option_paths,
        select_region,
        type_of_label,
        weighted_mmr,
    )

__all__ = [
    "DEFAULT_ANCHOR_K",
    "DEFAULT_HOP_DECAY",
    "DEFAULT_K",
    "DEFAULT_KS",
    "DEFAULT_LAMBDA",
    "DEFAULT_MAX_EDGES",
    "DEFAULT_PER_ENTITY_LIMIT",
    "EXPAND_PATHS_MAX_HOPS",
    "Candidates",
    "ChainStep",
    "Change",
    "Comparison",
    "ConsolidatedDocument",
    "ConsolidatedUnit",
    "ContextItem",
    "Domain",
    "ExpandedPath",
    "HopConstraint",
    "JoinedEntity",
    "LegalContext",
    "LegalRetriever",
    "LinkSeed",
    "Neighbour",
    "OptionPath",
    "PassageHit",
    "Provenance",
    "Region",
    "RetrievalConfig",
    "RetrievalFilters",
    "Role",
    "SeedReport",
    "SentenceHit",
    "Triplet",
    "UnitDiff",
    "candidate_vectors",
    "collect_candidates",
    "compare_consolidation",
    "consolidate",
    "consolidation_to_akn",
    "definition_item",
    "definition_subject",
    "diff_consolidated",
    "evaluate",
    "expand_frontier",
    "expand_paths",
    "expand_paths_linked",
    "find_anchor_sentences",
    "find_passages",
    "find_title_links",
    "join_hops",
    "legal_systems",
    "load_questions",
    "parse_as_of",
    "parse_filters",
    "passage_titles",
    "prepare_question",
    "relation_weights",
    "render_diff",
    "score_option_paths",
    "select_region",
    "split_official",
    "type_of_label",
    "weighted_mmr",
]

_BIOMED = frozenset({
    "DEFAULT_HOP_DECAY",
    "DEFAULT_K",
    "DEFAULT_LAMBDA",
    "DEFAULT_MAX_EDGES",
    "DEFAULT_PER_ENTITY_LIMIT",
    "Candidates",
    "Domain",
    "HopConstraint",
    "JoinedEntity",
    "OptionPath",
    "Region",
    "SeedReport",
    "Triplet",
    "candidate_vectors",
    "collect_candidates",
    "join_hops",
    "relation_weights",
    "score_option_paths",
    "select_region",
    "type_of_label",
    "weighted_mmr",
})


def __getattr__(name: str) -> Any:
    if name in _BIOMED:
        from hopgraph.retrieval import _biomed

        return getattr(_biomed, name)
    raise AttributeError(f"module 'hopgraph.retrieval' has no attribute {name!r}")
