"""Planning, modes, Reviewer and the pipeline with fakes (no database, no LLM server)."""

from __future__ import annotations

import json
from typing import Any

from hopgraph.agents.biomed import (
    EntityLinker,
    GraphVerifier,
    Hypothesis,
    LLMVerifier,
    Mode,
    Regram,
    RegramConfig,
    Reviewer,
    classify,
    decompose,
    mentions_of,
    mode_for,
)
from hopgraph.retrieval import Domain, Region, Triplet
from tests.unit.biomed._fakes import BagEmbedder, CountingEmbedder, FakeRunner
from tests.unit.chat_fakes import PromptChat

GRAPH = {  # id -> (name, type, aliases)
    "d:warfarin": ("Warfarin", "Drug", ["Coumadin"]),
    "g:vkorc1": ("VKORC1", "GeneProtein", []),
    "g:cyp2c9": ("CYP2C9", "GeneProtein", []),
    "x:af": ("atrial fibrillation", "Disease", ["AF"]),
}
EDGES = [("d:warfarin", "TARGET", "g:vkorc1"), ("d:warfarin", "ENZYME", "g:cyp2c9"),
         ("d:warfarin", "INDICATION", "x:af")]


def _search(p: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for m in p["mentions"]:
        for nid, (name, typ, aliases) in GRAPH.items():
            if m["mention"].lower() in [name.lower(), *(a.lower() for a in aliases)]:
                out.append({"mention": m["mention"], "id": nid, "name": name, "node_type": typ,
                            "aliases": aliases, "score": 1.0, "degree": 3})
    return out


def _cands(p: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for seed in p["entity_ids"]:
        for h, rel, t in EDGES:
            if seed in (h, t):
                rows.append({"seed_id": seed, "degree": 3, "head_id": h, "head": GRAPH[h][0],
                             "head_type": GRAPH[h][1], "relation": rel, "tail_id": t,
                             "tail": GRAPH[t][0], "tail_type": GRAPH[t][1],
                             "weight": p["weights"].get(rel, 1.0)})
    return rows[: p["per_entity_limit"] * len(p["entity_ids"])]


def _check(p: dict[str, Any]) -> list[dict[str, Any]]:
    ok = p["head_id"] in p["region_ids"] and p["tail_id"] in p["region_ids"]
    return [{"in_region": ok, "found": ok and (p["head_id"], p["relation"], p["tail_id"]) in EDGES}]


def _row(h: str, rel: str, t: str, weights: dict[str, float]) -> dict[str, Any]:
    return {"head_id": h, "head": GRAPH[h][0], "head_type": GRAPH[h][1], "relation": rel,
            "tail_id": t, "tail": GRAPH[t][0], "tail_type": GRAPH[t][1],
            "weight": weights.get(rel, 1.0)}


def _paths(p: dict[str, Any]) -> list[dict[str, Any]]:
    """Direct edges only (the sample graph has no two-edge path between distinct entities)."""
    return [{"letter": o["letter"], "option_id": o["id"], "stem_id": s,
             "score": p["weights"].get(rel, 1.0), "path": [_row(h, rel, t, p["weights"])]}
            for o in p["options"] for s in p["stem_ids"] for h, rel, t in EDGES
            if {h, t} == {o["id"], s}]


def _join(p: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for x in GRAPH:
        chain = []
        for c in p["constraints"]:
            hits = [(h, rel, t) for h, rel, t in EDGES if {h, t} == {x, c["anchor_id"]} and x != c["anchor_id"]
                    and (c["relations"] == [""] or rel in c["relations"])]
            if not hits:
                break
            chain.append(_row(*hits[0], p["weights"]))
        if len(chain) == len(p["constraints"]) and (p["answer_types"] == [""] or GRAPH[x][1] in p["answer_types"]):
            out.append({"id": x, "name": GRAPH[x][0], "node_type": GRAPH[x][1],
                        "score": sum(r["weight"] for r in chain), "chain": chain})
    return out


def _runner() -> FakeRunner:
    return FakeRunner({"biomed/search_entities": _search, "biomed/collect_region_candidates": _cands,
                       "biomed/check_region_triplet": _check, "biomed/score_option_paths": _paths,
                       "biomed/join_hop_constraints": _join})


def test_modes_follow_fact_counts() -> None:
    assert mode_for(15) is Mode.KG_STRICT and mode_for(10) is Mode.KG_STRICT
    assert mode_for(9) is Mode.HYBRID and mode_for(1) is Mode.HYBRID
    assert mode_for(0) is Mode.LLM_GUESS


def test_rules_typing_and_decomposition() -> None:
    assert classify("Which drug is indicated to treat asthma?", None).domain is Domain.DRUG_THERAPY
    assert classify("hello", None).domain is Domain.INTEGRATED
    plan = decompose("A man has chest pain. He smokes. He has diabetes. Which drug is best?", None)
    assert plan.source == "rules" and len(plan.hops) == 3 and plan.hops[-1] == "Which drug is best?"


def test_llm_typing_and_bad_json_fallback() -> None:
    good = PromptChat(lambda p: '{"category": "GENE_PROTEIN"}')
    assert classify("q", good).domain is Domain.GENE_PROTEIN
    assert classify("q", good).source == "llm"
    bad = PromptChat(lambda p: "I think it is about drugs")
    typed = classify("Which drug treats it?", bad)
    assert typed.source == "rules" and typed.domain is Domain.DRUG_THERAPY
    hops = PromptChat(lambda p: '{"hops": ["a?", "b?", "c?", "d?"]}')
    assert decompose("q", hops).hops == ("a?", "b?", "c?")


def test_typing_and_decomposition_send_the_reply_schemas() -> None:
    chat = PromptChat(lambda p: '{"category": "GENE_PROTEIN", "hops": ["a?"]}')
    classify("q", chat)
    decompose("q", chat)
    category, hops = chat.schemas
    assert category is not None and category["properties"]["category"]["enum"] == list(Domain)
    assert hops is not None and hops["properties"]["hops"]["maxItems"] == 3


def test_mentions_skip_stop_words() -> None:
    ms = mentions_of("Which drug treats atrial fibrillation?")
    assert "atrial fibrillation" in ms and "Which" not in ms and "treats atrial fibrillation" in ms


def test_linker_uses_fulltext_and_ratio_threshold() -> None:
    runner = _runner()
    linked = EntityLinker(runner).link("Is Coumadin used in atrial fibrillation?")
    assert {e.id for e in linked} == {"d:warfarin", "x:af"}
    assert runner.calls[0][0] == "biomed/search_entities"
    assert EntityLinker(runner).link("nothing here") == []


def _region() -> Region:
    return Region("q", [Triplet(h, GRAPH[h][0], GRAPH[h][1], r, t, GRAPH[t][0], GRAPH[t][1], 1.0)
                        for h, r, t in EDGES[:2]])


def test_reviewer_accepts_kg_facts_rejects_out_of_region_and_revises() -> None:
    region = _region()
    reviewer = Reviewer(GraphVerifier(_runner()))
    hyps = [Hypothesis("Warfarin", "TARGET", "VKORC1"),          # in KG
            Hypothesis("Warfarin", "TARGET", "Aspirin"),         # entity outside V_q
            Hypothesis("Warfarrin", "ENZYME", "CYP2C9")]          # typo: revised by snapping
    accepted, verdicts = reviewer.review(hyps, "q", region)
    assert Hypothesis("Warfarin", "TARGET", "VKORC1") in accepted
    assert Hypothesis("warfarin", "ENZYME", "cyp2c9") in accepted  # revised in round 1
    assert all(v.round <= 2 for v in verdicts)
    out = [v for v in verdicts if v.hypothesis.tail == "Aspirin"]
    assert out and not out[0].accepted and "not in the region" in out[0].reason


def test_llm_verifier_behind_protocol() -> None:
    llm = PromptChat(lambda p: json.dumps({"valid": "VKORC1" in p, "score": 0.9 if "VKORC1" in p else 0.1}))
    region = _region()
    v = LLMVerifier(llm)
    assert v.score(Hypothesis("Warfarin", "TARGET", "VKORC1"), "q", region)[0] == 0.9
    assert v.score(Hypothesis("Warfarin", "ENZYME", "CYP2C9"), "q", region)[0] == 0.0
    assert v.score(Hypothesis("Warfarin", "CURES", "VKORC1"), "q", region)[0] == 0.0


def test_pipeline_without_llm_is_labelled_kg_only() -> None:
    reg = Regram(_runner(), BagEmbedder(), EntityLinker(_runner()))
    ans = reg.ask("Which protein does Warfarin target?", {"A": "VKORC1", "B": "insulin"})
    assert ans.choice == "A" and ans.choice_source == "kg-paths" and ans.answer_source == "kg-only"
    assert [p.text() for p in ans.option_evidence["A"].paths] == ["Warfarin targets the protein VKORC1"]
    assert ans.option_evidence["B"].score == 0
    assert ans.hops[0].mode is Mode.HYBRID and ans.label == "grounded"
    assert ans.to_dict()["hops"][0]["region"][0]["weight"] > 0
    none = reg.ask("What is the meaning of life?")
    assert none.hops[0].mode is Mode.LLM_GUESS and none.answer_source == "none"
    assert none.label == "no-answer"


def test_pipeline_with_llm_hybrid_hypotheses_are_reviewed() -> None:
    def reply(p: str) -> str:
        if "Categories" in p:
            return '{"category": "DRUG_THERAPY"}'
        if "Decompose" in p:
            return '{"hops": ["Which protein does Warfarin target?"]}'
        if "Generate triplets" in p:
            return '{"triplets": [["Warfarin", "TARGET", "VKORC1"], ["Warfarin", "TARGET", "Unicorn"]]}'
        if "fact-checker" in p and "Correct" in p:
            return '{"revised_triplets": []}'
        if "Options" in p:
            return '{"answer": "A"}'
        return "VKORC1"
    llm = PromptChat(reply)
    reg = Regram(_runner(), BagEmbedder(), EntityLinker(_runner()), llm=llm)
    ans = reg.ask("Which protein does Warfarin target?", {"A": "VKORC1", "B": "insulin"})
    hop = ans.hops[0]
    assert hop.mode is Mode.HYBRID and hop.answer_source == "llm"
    assert [h.tail for h in hop.accepted_hypotheses] == ["VKORC1"]
    assert any(not v.accepted and "Unicorn" in v.hypothesis.tail for v in hop.verdicts)
    assert ans.choice == "A" and ans.choice_source == "llm"
    ablated = reg.with_config(RegramConfig(use_reviewer=False, use_multihop=False))
    assert ablated.ask("Which protein does Warfarin target?").plan.source == "single-hop"


def test_baseline_option_similarity_reuses_the_vectors_of_the_region() -> None:
    emb = CountingEmbedder()
    reg = Regram(_runner(), emb, EntityLinker(_runner()), config=RegramConfig(unweighted_vector_baseline=True))
    ans = reg.ask("Which protein does Warfarin target?", {"A": "VKORC1", "B": "insulin"})
    region = ans.hops[0].region
    assert ans.choice == "A" and region.triplets
    assert set(region.vectors) == {t.key for t in region.triplets}
    assert ans.choice_source == "similarity" and ans.label == "unsupported"
    # every region triplet was embedded once, for the region; MCQ scoring embedded nothing again
    assert sorted(emb.documents) == sorted({t.text() for t in region.triplets})
