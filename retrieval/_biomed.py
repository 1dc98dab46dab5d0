"""Region construction for ReGraM: weighted candidate triplets (Cypher) and weighted MMR.

:func:`collect_candidates` runs ``biomed/collect_region_candidates`` with the domain's relation
weight map as a parameter (paper Table 7, extended to every :class:`BioRel` through its family);
:func:`select_region` re-ranks the candidates with weighted MMR (Eq. 1, λ = 0.7, K = 15) and
returns a :class:`Region`, the hard boundary G_q = (V_q, E_q) that later lookups are held to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from hopgraph.agents._embedders import Embedder
from hopgraph.db import QueryRunner
from hopgraph.graph_models import RELATION_SPECS, BioRel
from hopgraph.graph_models._vocab import BioType

DEFAULT_K = 15
DEFAULT_LAMBDA = 0.7
DEFAULT_PER_ENTITY_LIMIT = 60
DEFAULT_WEIGHT = 1.0


class Domain(StrEnum):
    """Query domains of ReGraM §3.1."""

    GENE_PROTEIN = "GENE_PROTEIN"
    DRUG_THERAPY = "DRUG_THERAPY"
    DISEASE_SYMPTOM = "DISEASE_SYMPTOM"
    PATHWAY_METABOLISM = "PATHWAY_METABOLISM"
    INTEGRATED = "INTEGRATED"


# Paper Table 7: relation family -> weight per domain (columns in Domain order).
TABLE7: dict[str, tuple[float, float, float, float, float]] = {
    "Interacts_with": (1.5, 0.8, 0.6, 1.0, 1.2),
    "Targets": (0.8, 1.5, 0.8, 1.0, 1.3),
    "Treats": (0.6, 1.5, 1.2, 0.8, 1.1),
    "Causes": (0.5, 0.7, 1.5, 0.8, 1.0),
    "Expressed_in": (1.3, 0.7, 0.5, 1.0, 1.1),
    "Associated_with": (1.0, 1.0, 1.3, 0.9, 1.2),
    "Regulates": (1.4, 0.8, 0.7, 1.5, 1.3),
    "Occurs_in": (0.9, 0.8, 1.0, 1.2, 1.1),
}


def relation_weights(domain: Domain | None) -> dict[str, float]:
    """The weight map ``{relation type: w_r}`` for a domain; all 1.0 when ``domain`` is None."""
    column = list(Domain).index(domain) if domain is not None else None
    return {rel.value: (TABLE7[spec.family][column] if column is not None else DEFAULT_WEIGHT)
            for rel, spec in RELATION_SPECS.items()}


@dataclass(frozen=True)
class Triplet:
    """One region candidate: an edge in its stored direction with its weight and scores."""

    head_id: str
    head: str
    head_type: str
    relation: str
    tail_id: str
    tail: str
    tail_type: str
    weight: float
    similarity: float = 0.0
    mmr: float = 0.0

    @property
    def key(self) -> tuple[str, str, str]:
        return self.head_id, self.relation, self.tail_id

    def text(self) -> str:
        """The verbalised triplet (relation description map)."""
        spec = RELATION_SPECS.get(BioRel(self.relation)) if self.relation in BioRel.__members__ else None
        verb = spec.text if spec is not None else self.relation.lower().replace("_", " ")
        return f"{self.head} {verb} {self.tail}"


@dataclass(frozen=True)
class SeedReport:
    """How many edges a linked entity has and whether the candidate cap truncated them."""

    entity_id: str
    degree: int
    returned: int

    @property
    def truncated(self) -> bool:
        return self.degree > self.returned


@dataclass
class Candidates:
    """The candidate triplets T_cand around the expanded entity set."""

    triplets: list[Triplet]
    seeds: list[SeedReport]


@dataclass
class Region:
    """G_q = (V_q, E_q): the only knowledge reasoning may use for one sub-question."""

    question: str
    triplets: list[Triplet]
    seeds: list[SeedReport] = field(default_factory=list)
    candidates: int = 0

    @property
    def node_ids(self) -> set[str]:
        return {t.head_id for t in self.triplets} | {t.tail_id for t in self.triplets}

    @property
    def names(self) -> dict[str, str]:
        """Entity name (case-folded) -> id, for in-region checks of hypotheses."""
        out: dict[str, str] = {}
        for t in self.triplets:
            out[t.head.casefold()] = t.head_id
            out[t.tail.casefold()] = t.tail_id
        return out

    @property
    def relations(self) -> set[str]:
        return {t.relation for t in self.triplets}

    def lookup(self, entity_id: str) -> list[Triplet]:
        """Region-restricted lookup: the region's triplets that touch ``entity_id``."""
        return [t for t in self.triplets if entity_id in (t.head_id, t.tail_id)]


def collect_candidates(runner: QueryRunner, entity_ids: Sequence[str], weights: Mapping[str, float],
                       *, per_entity_limit: int = DEFAULT_PER_ENTITY_LIMIT) -> Candidates:
    """Run the weighted candidate query; duplicate edges (reached from two seeds) are merged."""
    if not entity_ids:
        return Candidates([], [])
    rows = runner.read("biomed/collect_region_candidates", entity_ids=list(entity_ids),
                       weights=dict(weights), default_weight=DEFAULT_WEIGHT,
                       per_entity_limit=per_entity_limit)
    seen: dict[tuple[str, str, str], Triplet] = {}
    per_seed: dict[str, list[int]] = {}
    for r in rows:
        t = Triplet(r["head_id"], r["head"], r["head_type"] or "", r["relation"], r["tail_id"],
                    r["tail"], r["tail_type"] or "", float(r["weight"]))
        seen.setdefault(t.key, t)
        per_seed.setdefault(r["seed_id"], [int(r["degree"]), 0])[1] += 1
    seeds = [SeedReport(e, d, n) for e, (d, n) in per_seed.items()]
    return Candidates(list(seen.values()), seeds)


def weighted_mmr(query_vec: Sequence[float], cand_vecs: np.ndarray, weights: Sequence[float], *,
                 k: int = DEFAULT_K, lam: float = DEFAULT_LAMBDA,
                 use_mmr: bool = True) -> list[tuple[int, float, float]]:
    """Select ``k`` indices by MMR(t) = λ·Sim(q,t)·w_r − (1−λ)·max_{t'∈S} Sim(t,t').

    With ``use_mmr`` False the ranking is λ·Sim·w_r alone (the "w/o MMR" ablation).
    Returns ``(index, similarity, score)`` in selection order. Vectors are L2-normalised.
    """
    n = cand_vecs.shape[0]
    if n == 0:
        return []
    q = np.asarray(query_vec, dtype=np.float32)
    sims = cand_vecs @ q
    rel = lam * sims * np.asarray(weights, dtype=np.float32)
    if not use_mmr:
        order = np.argsort(-rel, kind="stable")[:k]
        return [(int(i), float(sims[i]), float(rel[i])) for i in order]
    chosen: list[tuple[int, float, float]] = []
    max_red = np.full(n, -np.inf, dtype=np.float32)
    available = np.ones(n, dtype=bool)
    for _ in range(min(k, n)):
        red = np.where(np.isfinite(max_red), max_red, 0.0)
        score = np.where(available, rel - (1 - lam) * red, -np.inf)
        i = int(np.argmax(score))
        chosen.append((i, float(sims[i]), float(score[i])))
        available[i] = False
        max_red = np.maximum(max_red, cand_vecs @ cand_vecs[i])
    return chosen


def select_region(question: str, candidates: Candidates, embedder: Embedder, *,
                  k: int = DEFAULT_K, lam: float = DEFAULT_LAMBDA, use_mmr: bool = True,
                  use_weights: bool = True) -> Region:
    """Re-rank candidates against ``question`` and keep the top ``k`` as the region.

    ``use_weights`` False ranks by similarity alone (the unweighted vector top-k baseline when
    ``use_mmr`` is also False).
    """
    trips = candidates.triplets
    if not trips:
        return Region(question, [], candidates.seeds, 0)
    vecs = np.asarray(embedder.embed_documents([t.text() for t in trips]), dtype=np.float32)
    qv = embedder.embed_query(question)
    weights = [t.weight if use_weights else 1.0 for t in trips]
    picked = weighted_mmr(qv, vecs, weights, k=k, lam=lam, use_mmr=use_mmr)
    chosen = [Triplet(**{**trips[i].__dict__, "similarity": sim, "mmr": score})
              for i, sim, score in picked]
    return Region(question, chosen, candidates.seeds, len(trips))


def type_of_label(label: str) -> BioType | None:
    """The :class:`BioType` for a stored ``node_type`` value."""
    try:
        return BioType(label)
    except ValueError:
        return None
