"""Region construction: weight map, candidate handling, weighted MMR, region boundary."""

from __future__ import annotations

import numpy as np

from hopgraph.graph_models import BioRel
from hopgraph.retrieval import (
    Candidates,
    Domain,
    Triplet,
    collect_candidates,
    relation_weights,
    select_region,
    weighted_mmr,
)
from tests.unit.biomed._fakes import BagEmbedder, FakeRunner


def test_weight_map_covers_every_relation_and_follows_table7() -> None:
    drug = relation_weights(Domain.DRUG_THERAPY)
    assert set(drug) == {r.value for r in BioRel}
    assert drug["INDICATION"] == 1.5 and drug["PROTEIN_PROTEIN"] == 0.8
    assert relation_weights(Domain.GENE_PROTEIN)["PROTEIN_PROTEIN"] == 1.5
    assert set(relation_weights(None).values()) == {1.0}


def test_mmr_prefers_diverse_triplets() -> None:
    q = np.array([1.0, 0.0, 0.0])
    a = np.array([0.9, 0.436, 0.0])
    vecs = np.stack([a, a, np.array([0.8, 0.0, 0.6])]).astype(np.float32)
    picked = weighted_mmr(q, vecs, [1.0, 1.0, 1.0], k=2, lam=0.7)
    assert [i for i, *_ in picked] == [0, 2]  # the duplicate of 0 is penalised
    plain = weighted_mmr(q, vecs, [1.0, 1.0, 1.0], k=2, use_mmr=False)
    assert [i for i, *_ in plain] == [0, 1]


def test_weights_change_the_ranking() -> None:
    q = np.array([1.0, 0.0])
    vecs = np.array([[1.0, 0.0], [0.95, 0.312]], dtype=np.float32)
    assert weighted_mmr(q, vecs, [0.5, 1.5], k=1)[0][0] == 1
    assert weighted_mmr(q, vecs, [1.0, 1.0], k=1)[0][0] == 0


def _row(seed: str, h: str, rel: str, t: str, w: float, degree: int = 3) -> dict[str, object]:
    return {"seed_id": seed, "degree": degree, "head_id": h, "head": h, "head_type": "Drug",
            "relation": rel, "tail_id": t, "tail": t, "tail_type": "Disease", "weight": w}


def test_candidates_pass_weights_as_parameter_and_report_truncation() -> None:
    runner = FakeRunner({"biomed/collect_region_candidates": lambda p: [
        _row("a", "a", "INDICATION", "b", 1.5, degree=10_000), _row("b", "a", "INDICATION", "b", 1.5, degree=1)]})
    weights = relation_weights(Domain.DRUG_THERAPY)
    cands = collect_candidates(runner, ["a", "b"], weights, per_entity_limit=1)
    _key, params = runner.calls[0]
    assert params["weights"] == weights and params["per_entity_limit"] == 1
    assert len(cands.triplets) == 1  # the same edge reached from both seeds counts once
    seeds = {s.entity_id: s for s in cands.seeds}
    assert seeds["a"].truncated and not seeds["b"].truncated
    assert collect_candidates(runner, [], weights).triplets == []


def test_region_is_top_k_and_lookup_stays_inside() -> None:
    trips = [Triplet(f"d{i}", f"Drug{i}", "Drug", "INDICATION", "x", "asthma", "Disease", 1.0)
             for i in range(20)]
    region = select_region("which drug treats asthma", Candidates(trips, []), BagEmbedder(), k=15)
    assert len(region.triplets) == 15 and region.candidates == 20
    outside = next(t.head_id for t in trips if t.head_id not in region.node_ids)
    assert region.lookup(outside) == []
    assert all(t.mmr != 0.0 or t.similarity == 0.0 for t in region.triplets)
