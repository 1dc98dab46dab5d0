"""Linking, region construction and the ReGraM pipeline on a real server with the sample graph."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hopgraph.agents.biomed import (
    EntityLinker,
    GraphVerifier,
    Hypothesis,
    Mode,
    Regram,
    RegramConfig,
    Reviewer,
)
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.biomed import SAMPLE_TRIPLETS, load_primekg
from hopgraph.retrieval import Domain, collect_candidates, relation_weights
from tests.integration.conftest import Server
from tests.unit.biomed._fakes import BagEmbedder

pytestmark = pytest.mark.integration


@pytest.fixture()
def sample(runner: Neo4jRunner) -> Neo4jRunner:
    load_primekg(runner, SAMPLE_TRIPLETS)
    return runner


def test_linking_via_fulltext_aliases_and_fuzzy(sample: Neo4jRunner) -> None:
    linked = EntityLinker(sample).link("Is aspirin safe in peptic ulcer diseases with HER2?")
    names = {e.name for e in linked}
    assert {"Acetylsalicylic acid", "peptic ulcer disease", "ERBB2"} <= names
    assert EntityLinker(sample).link("What is the capital of France?") == []


def test_domain_weights_reorder_candidates_in_cypher(sample: Neo4jRunner) -> None:
    ids = ["Drug:name:Warfarin"]
    drug = collect_candidates(sample, ids, relation_weights(Domain.DRUG_THERAPY), per_entity_limit=2)
    gene = collect_candidates(sample, ids, relation_weights(Domain.DISEASE_SYMPTOM), per_entity_limit=2)
    assert {t.relation for t in drug.triplets} <= {"INDICATION", "CONTRAINDICATION", "TARGET", "ENZYME", "CARRIER"}
    assert all(t.weight == 1.5 for t in drug.triplets)  # Treats/Targets rows of Table 7, DRUG_THERAPY
    assert all(t.weight == 1.2 for t in gene.triplets)  # Treats under DISEASE_SYMPTOM
    assert drug.seeds[0].truncated and drug.seeds[0].degree > 2


def test_region_lookup_and_reviewer_on_real_graph(sample: Neo4jRunner) -> None:
    regram = Regram(sample, BagEmbedder(), EntityLinker(sample))
    _, region = regram.build_region("Which enzyme metabolises warfarin?",
                                    relation_weights(Domain.DRUG_THERAPY))
    assert 0 < len(region.triplets) <= 15
    assert all("Drug:name:Warfarin" in (t.head_id, t.tail_id) for t in region.triplets)
    in_kg = next(t for t in region.triplets if t.relation == "ENZYME")
    accepted, verdicts = Reviewer(GraphVerifier(sample)).review(
        [Hypothesis(in_kg.head, "ENZYME", in_kg.tail), Hypothesis("Warfarin", "TARGET", "Imatinib")],
        "q", region)
    assert accepted == [Hypothesis(in_kg.head, "ENZYME", in_kg.tail)]
    assert any("not in the region" in v.reason for v in verdicts)


def test_pipeline_and_cli_without_llm(sample: Neo4jRunner, neo4j_server: Server,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    regram = Regram(sample, BagEmbedder(), EntityLinker(sample))
    ans = regram.ask("Which drug that targets ABL1 is used for chronic myeloid leukemia?",
                     {"A": "Imatinib", "B": "Warfarin", "C": "Metformin"})
    assert ans.choice == "A" and ans.answer_source == "kg-only" and ans.label == "grounded"
    assert ans.hops[0].mode in (Mode.KG_STRICT, Mode.HYBRID)
    empty = regram.ask("What is the capital of France?")
    assert [h.mode for h in empty.hops] == [Mode.LLM_GUESS] and empty.answer_source == "none"

    from hopgraph.cli import cli
    monkeypatch.setattr("hopgraph.cli._ask_bio.build_embedder", lambda *a, **k: BagEmbedder())
    result = CliRunner().invoke(cli, [
        "--uri", neo4j_server.uri, "ask-bio", "Which drug targets ABL1?",
        "--option", "A=Imatinib", "--option", "B=Metformin", "--json"],
        env={"NEO4J_PASSWORD": neo4j_server.password, "HOPGRAPH_LLM_BASE_URL": ""})
    assert result.exit_code == 0, result.output
    data = json.loads(result.output[result.output.index("{"):])
    assert data["choice"] == "A" and data["llm"] is None and data["hops"][0]["region"]
    assert data["option_evidence"]["A"]["direct"] > 0 and data["option_evidence"]["B"]["direct"] == 0
    plain = CliRunner().invoke(cli, [
        "--uri", neo4j_server.uri, "ask-bio", "Which drug targets ABL1?",
        "--option", "A=Imatinib", "--option", "B=Metformin"],
        env={"NEO4J_PASSWORD": neo4j_server.password, "HOPGRAPH_LLM_BASE_URL": ""})
    assert plain.exit_code == 0, plain.output
    assert "option A: direct facts" in plain.output and "label grounded" in plain.output
    bad = CliRunner().invoke(cli, ["--uri", neo4j_server.uri, "ask-bio", "q", "--option", "oops"],
                             env={"NEO4J_PASSWORD": neo4j_server.password})
    assert bad.exit_code != 0 and "LETTER=TEXT" in bad.output


def test_demo_two_hop_question_is_answered_by_the_join(sample: Neo4jRunner, neo4j_server: Server,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    regram = Regram(sample, BagEmbedder(), EntityLinker(sample))
    ans = regram.ask("Which drug that targets ABL1 is used for chronic myeloid leukemia?")
    chains = {j.name: {(t.head, t.relation, t.tail) for t in j.chain} for j in ans.joined}
    assert chains["Imatinib"] == {("Imatinib", "TARGET", "ABL1"),
                                  ("Imatinib", "INDICATION", "chronic myeloid leukemia")}
    # every joined entity satisfies both hops (the sample also has Dasatinib)
    assert all({r for _, r, _ in c} == {"TARGET", "INDICATION"} for c in chains.values())
    assert ans.answer_source == "kg-join" and "Imatinib" in ans.answer and ans.label == "grounded"
    # the same constraints with a relation the graph lacks: nothing joins, and it is not grounded
    none = regram.ask("Which drug that is metabolised by ABL1 is used for chronic myeloid leukemia?")
    assert none.joined == [] and none.label == "unsupported"

    from hopgraph.cli import cli
    monkeypatch.setattr("hopgraph.cli._ask_bio.build_embedder", lambda *a, **k: BagEmbedder())
    result = CliRunner().invoke(cli, [
        "--uri", neo4j_server.uri, "ask-bio",
        "Which drug that targets ABL1 is used for chronic myeloid leukemia?"],
        env={"NEO4J_PASSWORD": neo4j_server.password, "HOPGRAPH_LLM_BASE_URL": ""})
    assert result.exit_code == 0, result.output
    assert "Imatinib targets the protein ABL1; Imatinib is indicated for the treatment of chronic " \
           "myeloid leukemia" in result.output and "label grounded" in result.output


def test_option_paths_score_two_edge_paths_and_abstain_without_evidence(sample: Neo4jRunner) -> None:
    from hopgraph.retrieval import score_option_paths
    weights = relation_weights(Domain.DRUG_THERAPY)
    paths = score_option_paths(sample, {"A": ["Drug:name:Imatinib"], "B": ["Drug:name:Metformin"]},
                               ["Disease:name:chronic myeloid leukemia"], weights)
    direct = [p for p in paths["A"] if len(p.triplets) == 1]
    assert direct and direct[0].score == 1.5 and paths["A"][0] is direct[0]
    two = [p for p in paths["A"] if len(p.triplets) == 2]
    assert all(0 < p.score < 1.5 * 1.5 for p in two)  # divided by the middle entity's log-degree
    assert paths["B"] == []
    # Within two edges neither option reaches the question's entity: no evidence, no letter.
    two = Regram(sample, BagEmbedder(), EntityLinker(sample), config=RegramConfig(option_max_edges=2))
    ans = two.ask("Which drug is used for chronic myeloid leukemia?",
                  {"A": "Metformin", "B": "Warfarin"})
    assert ans.choice is None and ans.label == "no-answer"
    assert ans.choice_source == "abstain: no evidence"
    # Three edges (the default) reach it from Warfarin only, each extra edge discounted; an
    # option with indirect support only is chosen only when asked to (indirect_margin, issue 29)
    three = Regram(sample, BagEmbedder(), EntityLinker(sample),
                   config=RegramConfig(indirect_margin=1.0))
    ans = three.ask("Which drug is used for chronic myeloid leukemia?",
                    {"A": "Metformin", "B": "Warfarin"})
    far = ans.option_evidence["B"].paths
    assert ans.choice == "B" and ans.label == "indirect"
    assert far and all(len(p.triplets) == 3 for p in far)
    assert all(p.score < 1.5 ** 3 * 0.25 for p in far) and ans.option_evidence["A"].score == 0
    default = Regram(sample, BagEmbedder(), EntityLinker(sample)).ask(
        "Which drug is used for chronic myeloid leukemia?", {"A": "Metformin", "B": "Warfarin"})
    assert default.choice is None and default.choice_source == "abstain: indirect evidence only"


def test_a_differential_diagnosis_counts_the_facts_each_option_has(runner: Neo4jRunner,
                                                                   tmp_path: Path) -> None:
    # A graph with phenotype edges (the full PrimeKG has them; the shared subset does not): the
    # disease presenting with all three findings beats those presenting with one or two, a hub
    # with many other findings does not win by its size, and a question whose findings no option
    # presents with gives no letter.
    rows = [("lupus nephritis", "fever"), ("lupus nephritis", "malar rash"),
            ("lupus nephritis", "proteinuria"), ("dermatomyositis", "malar rash"),
            ("dermatomyositis", "fever"), ("minimal change disease", "proteinuria")]
    rows += [("sepsis", f"finding {i}") for i in range(40)] + [("sepsis", "fever")]
    tsv = tmp_path / "ddx.tsv"
    tsv.write_text("".join(f"{d}\tDISEASE_PHENOTYPE_POSITIVE\t{p}\n" for d, p in rows)
                   + "GENEX\tASSOCIATED_WITH\tsepsis\n", encoding="utf-8")
    load_primekg(runner, tsv)
    regram = Regram(runner, BagEmbedder(), EntityLinker(runner))
    options = {"A": "sepsis", "B": "dermatomyositis", "C": "lupus nephritis",
               "D": "minimal change disease"}
    ans = regram.ask("A woman presents with fever, malar rash and proteinuria. "
                     "What is the most likely diagnosis?", options)
    assert ans.choice == "C" and ans.label == "grounded"
    assert ans.option_evidence["C"].direct > ans.option_evidence["B"].direct > \
        ans.option_evidence["A"].direct > 0
    none = regram.ask("A man presents with hiccups. What is the most likely diagnosis?", options)
    assert none.choice is None and none.label == "no-answer"
