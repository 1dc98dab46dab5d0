"""Region construction for ReGraM: weighted candidate triplets (Cypher) and weighted MMR.

:func:`collect_candidates` runs ``biomed/collect_region_candidates`` with the domain's relation
weight map as a parameter (paper Table 7, extended to every :class:`BioRel` through its family);
:func:`select_region` re-ranks the candidates with weighted MMR (Eq. 1, λ = 0.7, K = 15) and
returns a :class:`Region`, the hard boundary G_q = (V_q, E_q) that later lookups are held to.

MMR needs one vector per candidate triplet, the embedding of its verbalised text
(:func:`~hopgraph.graph_models.triplet_text`). The loader can precompute them (``hopgraph load
primekg --embed-triplets``): each edge then carries ``embedding`` (base64 text of float32
little-endian values, :func:`~hopgraph.graph_models.encode_vector`) and ``embedding_key``
(:func:`~hopgraph.graph_models.triplet_embedding_key`: model, dimension and a fingerprint of the
verbalisation; the stored form lives in ``graph_models`` so that the loader shares it). :func:`collect_candidates` returns a stored vector only when its key is the
embedder's, and :func:`select_region` embeds at query time only the candidates without one, so the
selection is the same with or without stored vectors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
from numpy.typing import NDArray

from hopgraph.core.errors import RetrievalError
from hopgraph.core.ports import Embedder
from hopgraph.db import QueryRunner
from hopgraph.graph_models import (
    RELATION_SPECS,
    BioType,
    decode_vector,
    triplet_embedding_key,
    triplet_text,
)

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
        return triplet_text(self.head, self.relation, self.tail)


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
    """The candidate triplets T_cand around the expanded entity set.

    ``vectors`` holds the stored embeddings found for some triplets (by :attr:`Triplet.key`),
    made with ``embedding_key``; empty when none were asked for or stored.
    """

    triplets: list[Triplet]
    seeds: list[SeedReport]
    vectors: dict[tuple[str, str, str], NDArray[np.float32]] = field(default_factory=dict)
    embedding_key: str | None = None


@dataclass
class Region:
    """G_q = (V_q, E_q): the only knowledge reasoning may use for one sub-question."""

    question: str
    triplets: list[Triplet]
    seeds: list[SeedReport] = field(default_factory=list)
    candidates: int = 0
    stored_vectors: int = 0  # candidates whose vector came from the graph, not the embedder
    vectors: dict[tuple[str, str, str], NDArray[np.float32]] = field(default_factory=dict, repr=False)
    """The vector MMR used for each chosen triplet (by :attr:`Triplet.key`), for later scoring."""

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
                       *, per_entity_limit: int = DEFAULT_PER_ENTITY_LIMIT,
                       embedder: Embedder | None = None) -> Candidates:
    """Run the weighted candidate query; duplicate edges (reached from two seeds) are merged.

    Args:
        runner: query runner over the biomedical graph.
        entity_ids: linked (and expanded) entity ids.
        weights: relation type -> w_r.
        per_entity_limit: at most this many candidate edges per entity.
        embedder: when given, also return the stored triplet vectors made for this embedder
            (see :func:`triplet_embedding_key`); edges without one are embedded later by
            :func:`select_region`.

    Raises:
        RetrievalError: a stored vector with the embedder's key has the wrong size.
    """
    key = triplet_embedding_key(embedder) if embedder is not None else None
    if not entity_ids:
        return Candidates([], [], embedding_key=key)
    rows = runner.read("biomed/collect_region_candidates", entity_ids=list(entity_ids),
                       weights=dict(weights), default_weight=DEFAULT_WEIGHT,
                       per_entity_limit=per_entity_limit, embedding_key=key)
    seen: dict[tuple[str, str, str], Triplet] = {}
    vectors: dict[tuple[str, str, str], NDArray[np.float32]] = {}
    per_seed: dict[str, list[int]] = {}
    dimension = embedder.dimension if embedder is not None else 0
    for r in rows:
        t = Triplet(r["head_id"], r["head"], r["head_type"] or "", r["relation"], r["tail_id"],
                    r["tail"], r["tail_type"] or "", float(r["weight"]))
        seen.setdefault(t.key, t)
        raw = r.get("embedding")
        if raw is not None and embedder is not None and t.key not in vectors:
            vectors[t.key] = decode_vector(raw, dimension, what=f"edge {t.key}")
        per_seed.setdefault(r["seed_id"], [int(r["degree"]), 0])[1] += 1
    seeds = [SeedReport(e, d, n) for e, (d, n) in per_seed.items()]
    return Candidates(list(seen.values()), seeds, vectors, key)


def candidate_vectors(candidates: Candidates, embedder: Embedder) -> tuple[NDArray[np.float32], int]:
    """One float32 row per candidate triplet: the stored vector if it was made for ``embedder``,
    else ``embedder``'s embedding of :meth:`Triplet.text` (only those texts are embedded).

    Returns the matrix and how many rows were stored vectors.
    """
    trips = candidates.triplets
    usable = candidates.vectors if candidates.embedding_key == triplet_embedding_key(embedder) else {}
    missing = [i for i, t in enumerate(trips) if t.key not in usable]
    out = np.empty((len(trips), embedder.dimension), dtype=np.float32)
    if missing:
        made = np.asarray(embedder.embed_documents([trips[i].text() for i in missing]),
                          dtype=np.float32)
        if made.shape != (len(missing), embedder.dimension):
            raise RetrievalError(f"embedder {embedder.name!r} returned vectors of shape "
                                 f"{made.shape}, expected ({len(missing)}, {embedder.dimension})")
        out[missing] = made
    for i, t in enumerate(trips):
        if t.key in usable:
            out[i] = usable[t.key]
    return out, len(trips) - len(missing)


def weighted_mmr(query_vec: Sequence[float], cand_vecs: NDArray[np.float32], weights: Sequence[float], *,
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
                  use_weights: bool = True, query_vec: Sequence[float] | None = None) -> Region:
    """Re-rank candidates against ``question`` and keep the top ``k`` as the region.

    ``use_weights`` False ranks by similarity alone (the unweighted vector top-k baseline when
    ``use_mmr`` is also False). Stored triplet vectors made for ``embedder`` are used as they
    are; only the other candidates are embedded (:func:`candidate_vectors`). ``query_vec`` is
    ``embedder.embed_query(question)`` when the caller already has it (computed while linking).
    """
    trips = candidates.triplets
    if not trips:
        return Region(question, [], candidates.seeds, 0)
    vecs, stored = candidate_vectors(candidates, embedder)
    qv = embedder.embed_query(question) if query_vec is None else query_vec
    weights = [t.weight if use_weights else 1.0 for t in trips]
    picked = weighted_mmr(qv, vecs, weights, k=k, lam=lam, use_mmr=use_mmr)
    chosen = [Triplet(**{**trips[i].__dict__, "similarity": sim, "mmr": score})
              for i, sim, score in picked]
    return Region(question, chosen, candidates.seeds, len(trips), stored,
                  {trips[i].key: vecs[i] for i, _, _ in picked})


def type_of_label(label: str) -> BioType | None:
    """The :class:`BioType` for a stored ``node_type`` value."""
    try:
        return BioType(label)
    except ValueError:
        return None


DEFAULT_JOIN_LIMIT = 20
DEFAULT_MAX_PATHS = 3
DEFAULT_HOP_DECAY = 0.5  # per edge after the first: a one-edge path counts twice a two-edge one
DEFAULT_MAX_EDGES = 3


@dataclass(frozen=True)
class HopConstraint:
    """One hop of a decomposed question as a constraint on the shared answer variable x:
    ``(x)-[r]-(anchor)`` with ``type(r)`` in ``relations`` (empty: any relation type)."""

    hop: int
    anchor_id: str
    anchor: str
    relations: tuple[str, ...] = ()
    cue: str = ""
    negated: bool = False  # a negation or "except" turned the cue to the opposite relation

    def describe(self) -> str:
        rels = "|".join(self.relations) or "any relation"
        turned = f" (negated: {self.cue})" if self.negated else ""
        return f"hop {self.hop}: ?x -[{rels}]- {self.anchor}{turned}"


@dataclass(frozen=True)
class JoinedEntity:
    """An entity that satisfies every hop constraint, with the chain of triplets proving it
    (one per constraint, in hop order) and the chain's summed domain weight."""

    id: str
    name: str
    node_type: str
    score: float
    chain: tuple[Triplet, ...]

    def text(self) -> str:
        return f"{self.name}: " + "; ".join(t.text() for t in self.chain)


def _triplet(row: Mapping[str, object]) -> Triplet:
    return Triplet(str(row["head_id"]), str(row["head"]), str(row["head_type"] or ""),
                   str(row["relation"]), str(row["tail_id"]), str(row["tail"]),
                   str(row["tail_type"] or ""), float(row["weight"]))  # type: ignore[arg-type]


def join_hops(runner: QueryRunner, constraints: Sequence[HopConstraint], weights: Mapping[str, float],
              *, answer_types: Sequence[str] = (), limit: int = DEFAULT_JOIN_LIMIT) -> list[JoinedEntity]:
    """The entities joined to every constraint's anchor (``biomed/join_hop_constraints``).

    Args:
        runner: query runner over the biomedical graph.
        constraints: the hops' constraints on the shared variable; the one listed first drives
            the expansion, so callers put the rarest anchor first.
        weights: relation type -> w_r (ranks the chains and picks each hop's edge).
        answer_types: node types the answer may have; empty for any.
        limit: at most this many entities, best chain first.

    Returns:
        The joined entities, each with one triplet per constraint; empty when no entity satisfies
        every constraint or there are no constraints.
    """
    if not constraints:
        return []
    rows = runner.read(
        "biomed/join_hop_constraints",
        constraints=[{"hop": c.hop, "anchor_id": c.anchor_id, "relations": list(c.relations) or [""]}
                     for c in constraints],
        answer_types=list(answer_types) or [""], weights=dict(weights),
        default_weight=DEFAULT_WEIGHT, limit=limit)
    return [JoinedEntity(str(r["id"]), str(r["name"]), str(r["node_type"] or ""), float(r["score"]),
                         tuple(_triplet(t) for t in r["chain"])) for r in rows]


@dataclass(frozen=True)
class OptionPath:
    """A path of one to three edges joining an option's entity to a question entity."""

    letter: str
    option_id: str
    stem_id: str
    score: float
    triplets: tuple[Triplet, ...]

    def text(self) -> str:
        return "; ".join(t.text() for t in self.triplets)

    @property
    def relations(self) -> tuple[str, ...]:
        """The relation types along the path, option end first."""
        return tuple(t.relation for t in self.triplets)


def score_option_paths(runner: QueryRunner, option_ids: Mapping[str, Sequence[str]],
                       stem_ids: Sequence[str], weights: Mapping[str, float], *,
                       max_paths: int = DEFAULT_MAX_PATHS, hop_decay: float = DEFAULT_HOP_DECAY,
                       max_edges: int = DEFAULT_MAX_EDGES) -> dict[str, list[OptionPath]]:
    """The weighted paths (``biomed/score_option_paths``) from each option's entities to the
    question's entities, by option letter (best first); an option without one maps to ``[]``.

    A path scores the product of its weights, times ``hop_decay`` per edge after the first,
    divided by the log-degree of each middle entity; ``max_edges`` (2 or 3) bounds its length.
    """
    out: dict[str, list[OptionPath]] = {letter: [] for letter in option_ids}
    pairs = [{"letter": letter, "id": i} for letter, ids in option_ids.items() for i in ids]
    if not pairs or not stem_ids:
        return out
    rows = runner.read("biomed/score_option_paths", options=pairs, stem_ids=list(stem_ids),
                       weights=dict(weights), default_weight=DEFAULT_WEIGHT, max_paths=max_paths,
                       hop_decay=float(hop_decay), max_edges=int(max_edges))
    for r in rows:
        out[str(r["letter"])].append(OptionPath(
            str(r["letter"]), str(r["option_id"]), str(r["stem_id"]), float(r["score"]),
            tuple(_triplet(t) for t in r["path"])))
    for paths in out.values():
        paths.sort(key=lambda p: -p.score)
    return out
