"""Scoring MCQ options by graph evidence: hub normalisation, link confidence, ties and
abstention (pure functions and the reasoner with a fake runner; no database)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hopgraph.agents.biomed import EntityLinker, LinkedEntity, Regram, RegramConfig
from hopgraph.agents.biomed._linking import (
    _CHEMICAL_WORD,
    long_mentions,
    lucene_phrase,
    mentions_of,
    option_form,
)
from hopgraph.agents.biomed._options import (
    OFF_CUE_FACTOR,
    asks_for_exception,
    choose_option,
    hub_discount,
    option_score,
    option_strength,
)
from hopgraph.eval.biomed import compare, load_questions
from hopgraph.retrieval._biomed import OptionPath, Triplet
from tests.unit.biomed._fakes import BagEmbedder, FakeRunner

_T = Triplet("o", "O", "Drug", "TARGET", "s", "S", "GeneProtein", 1.0)


def _entity(eid: str, degree: int, mention: str = "metoprolol", ratio: float = 100.0) -> LinkedEntity:
    return LinkedEntity(eid, mention, "Drug", mention, mention, ratio, degree)


def _path(option_id: str, stem_id: str, score: float, edges: int = 1,
          relation: str = "TARGET") -> OptionPath:
    return OptionPath("A", option_id, stem_id, score,
                      tuple(Triplet("o", "O", "", relation, "s", "S", "", 1.0) for _ in range(edges)))


def test_a_hub_option_scores_less_than_a_specific_one_with_the_same_path() -> None:
    hub = option_score([_path("h", "s", 1.0)], [_entity("h", 800)], "metoprolol")
    specific = option_score([_path("x", "s", 1.0)], [_entity("x", 5)], "metoprolol")
    assert 0 < hub < specific
    assert hub_discount(800) < hub_discount(5) <= 1.0


def test_each_question_entity_counts_once_with_its_best_path() -> None:
    e = _entity("x", 5)
    one = option_score([_path("x", "s1", 0.8)], [e], "metoprolol")
    many = option_score([_path("x", "s1", 0.8), _path("x", "s1", 0.5), _path("x", "s1", 0.7)],
                        [e], "metoprolol")
    two = option_score([_path("x", "s1", 0.8), _path("x", "s2", 0.8)], [e], "metoprolol")
    assert many == one and two == 2 * one


def test_a_name_inside_a_longer_option_is_weaker_evidence_and_unknown_entities_are_ignored() -> None:
    whole = option_score([_path("x", "s", 1.0)], [_entity("x", 5)], "Metoprolol")
    inside = option_score([_path("x", "s", 1.0)], [_entity("x", 5)],
                          "Switch to metoprolol at night")
    assert 0 < inside < whole
    assert option_score([_path("other", "s", 1.0)], [_entity("x", 5)], "metoprolol") == 0.0
    assert option_score([], [_entity("x", 5)], "metoprolol") == 0.0


def test_choice_abstains_without_evidence_and_on_ties() -> None:
    assert choose_option({}) == (None, "abstain: no options")
    assert choose_option({"A": 0.0, "B": 0.0}) == (None, "abstain: no evidence")
    assert choose_option({"A": 0.4, "B": 0.4, "C": 0.1}) == (None, "abstain: tie")
    assert choose_option({"A": 0.1 + 0.2, "B": 0.3}) == (None, "abstain: tie")  # float noise
    assert choose_option({"A": 0.1, "B": 0.3}) == ("B", "evidence")
    # The letter never decides: the same scores under other letters give the same verdict.
    assert choose_option({"D": 0.3, "A": 0.1}) == ("D", "evidence")


def test_option_form_drops_parentheses_zero_width_and_possessives() -> None:
    assert option_form("Patent ductus arteriosus (PDA)") == "patent ductus arteriosus"
    assert option_form("\u200bTakayasu's arteritis.") == "takayasu arteritis"
    assert option_form("Meckel\u2019s diverticulum") == "meckel diverticulum"


GRAPH = {"d:a": ("Drugone", "Drug", 4), "d:b": ("Drugtwo", "Drug", 4),
         "g:t": ("TARGETGENE", "GeneProtein", 2), "x:hub": ("Hubdisease", "Disease", 900),
         "x:rare": ("Raredisease", "Disease", 3), "g:clasrp": ("CLASRP", "GeneProtein", 1)}


def _search(p: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"mention": m["mention"], "id": nid, "name": name, "node_type": typ, "aliases": [],
             "score": 1.0, "degree": deg}
            for m in p["mentions"] for nid, (name, typ, deg) in GRAPH.items()
            if name.lower() in m["mention"].lower() or m["mention"].lower() in name.lower()]


def _paths(edges: dict[tuple[str, str], float]) -> Any:
    def handler(p: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"letter": o["letter"], "option_id": o["id"], "stem_id": s, "score": score,
                 "path": [{"head_id": o["id"], "head": GRAPH[o["id"]][0], "head_type": "",
                           "relation": "TARGET", "tail_id": s, "tail": GRAPH[s][0],
                           "tail_type": "", "weight": 1.0}]}
                for o in p["options"] for s in p["stem_ids"]
                for (a, b), score in edges.items() if (a, b) == (o["id"], s)]
    return handler


def _regram(edges: dict[tuple[str, str], float]) -> tuple[Regram, FakeRunner]:
    runner = FakeRunner({"biomed/search_entities": _search,
                         "biomed/score_option_paths": _paths(edges)})
    return Regram(runner, BagEmbedder(), EntityLinker(runner)), runner


def test_reasoner_abstains_on_a_tie_and_without_evidence() -> None:
    q = "Which drug binds TARGETGENE?"
    tie, _ = _regram({("d:a", "g:t"): 1.0, ("d:b", "g:t"): 1.0})
    ans = tie.ask(q, {"A": "Drugone", "B": "Drugtwo"})
    assert ans.choice is None and ans.choice_source == "abstain: tie" and ans.label == "no-answer"
    none, _ = _regram({})
    ans = none.ask(q, {"A": "Drugone", "B": "Drugtwo"})
    assert ans.choice is None and ans.choice_source == "abstain: no evidence"
    one, runner = _regram({("d:b", "g:t"): 1.0})
    ans = one.ask(q, {"A": "Drugone", "B": "Drugtwo"})
    assert ans.choice == "B" and ans.label == "grounded"
    sent = next(p for k, p in runner.calls if k == "biomed/score_option_paths")
    assert sent["max_edges"] == 3 and sent["hop_decay"] == 0.5


def test_a_question_asking_for_the_exception_abstains() -> None:
    assert asks_for_exception("MEN 2B includes the following except")
    assert asks_for_exception("A man has fever. He does not smoke. Which is NOT a cause of this?")
    assert not asks_for_exception("He does not smoke. Which drug binds TARGETGENE?")
    reg, _ = _regram({("d:b", "g:t"): 1.0})
    ans = reg.ask("All of the following bind TARGETGENE except", {"A": "Drugone", "B": "Drugtwo"})
    assert ans.choice is None and ans.choice_source == "abstain: asks for an exception"
    assert ans.option_evidence["B"].score > 0  # the evidence is kept, only the letter is withheld


def test_reasoner_prefers_the_specific_option_over_the_hub_with_the_same_path() -> None:
    reg, _ = _regram({("x:hub", "g:t"): 1.0, ("x:rare", "g:t"): 1.0})
    ans = reg.ask("Which disease involves TARGETGENE?", {"A": "Hubdisease", "B": "Raredisease"})
    assert ans.choice == "B"
    assert ans.option_evidence["A"].score < ans.option_evidence["B"].score


def test_short_mentions_link_only_to_an_identical_name() -> None:
    runner = FakeRunner({"biomed/search_entities": lambda p: [
        {"mention": m["mention"], "id": "g:clasrp", "name": "CLASRP", "node_type": "GeneProtein",
         "aliases": [], "score": 1.0, "degree": 1} for m in p["mentions"]]})
    linker = EntityLinker(runner)
    assert linker.link_option("clasp") == [] and linker.link("Kroll designed the clasp") == []
    assert [e.id for e in linker.link_option("CLASRP")] == ["g:clasrp"]


def test_afrimed_options_lose_their_repeated_letter(tmp_path: Path) -> None:
    (tmp_path / "benchmark.json").write_text("{}")
    (tmp_path / "AfrimedQA_mcq_expert.json").write_text(json.dumps({"mcq_expert": {"0": {
        "query": "Causes of blood in stools?\n A: A.\u200bNecrotising enterocolitis\n"
                 " B: B.\u200bC. difficile colitis\n C: C) Pyloric stenosis\n", "answer": "C"}}}))
    (q,) = load_questions(tmp_path, per_dataset=5)
    assert q.options == {"A": "Necrotising enterocolitis", "B": "C. difficile colitis",
                         "C": "Pyloric stenosis"}


def test_compare_reports_answered_questions_against_the_majority_letter_and_splits() -> None:
    rows = [{"dataset": ds, "baseline_vector_top15": {"choice": "A", "correct": g == "A"},
             "regram": {"choice": c, "correct": c == g}}
            for ds, c, g in [("medqa", "B", "B"), ("medqa", None, "A"), ("afrimedqa", "A", "A"),
                             ("afrimedqa", None, "A")]]
    out = compare(rows, ["regram", "baseline_vector_top15"], ["B", "A", "A", "A"])
    r = out["regram"]
    assert out["majority_letter"] == {"letter": "A", "accuracy": 0.75}
    assert r["answered"] == 2 and r["accuracy_answered"]["mean"] == 1.0
    assert r["majority_letter_on_answered"]["mean"] == 0.5
    assert r["by_split"]["mirage"]["questions"] == 2 and r["by_split"]["afrimedqa"]["correct"] == 1
    assert "vs_baseline_vector_top15" in r


def test_evidence_ceiling_counts_links_and_distances() -> None:
    from hopgraph.eval.biomed import Question, evidence_ceiling

    runner = FakeRunner({"biomed/search_entities": _search,
                         "biomed/measure_pair_distances": lambda p: [
                             {**pair, "edges": 2 if pair["option_id"] == "d:b" else None}
                             for pair in p["pairs"]]})
    qs = [Question("medqa", "1", "Which drug binds TARGETGENE?",
                   {"A": "Drugone", "B": "Drugtwo", "C": "nothing"}, "B"),
          Question("afrimedqa", "2", "What is the pH of water?", {"A": "7", "B": "3"}, "A")]
    out = evidence_ceiling(runner, EntityLinker(runner), qs)
    c = out["counts"]
    assert (c["question_entity_linked"], c["some_option_linked"], c["gold_option_linked"]) == (1, 1, 1)
    assert (c["some_option_within_1"], c["gold_within_2"], c["gold_within_3"]) == (0, 1, 1)
    assert out["by_split"] == {"afrimedqa": {"questions": 1, "gold_within_3": 0},
                               "mirage": {"questions": 1, "gold_within_3": 1}}
    assert out["items"][0]["nearest_edges"] == {"A": None, "B": 2, "C": None}


def test_direct_facts_outrank_indirect_paths_whatever_the_degrees() -> None:
    # "Which disease is associated with GENE and treated with DRUG?": the hub disease has both
    # facts; the rare one has the gene fact and only a two-edge path to the drug.
    both = option_strength([_path("hub", "gene", 1.0), _path("hub", "drug", 1.0)],
                           [_entity("hub", 900)], "metoprolol")
    partial = option_strength([_path("rare", "gene", 1.0), _path("rare", "drug", 0.9, edges=2)],
                              [_entity("rare", 3)], "metoprolol")
    assert both.direct == 2.0 and partial.direct == 1.0 and partial.indirect > 0
    assert partial.total > both.total  # the summed, hub-discounted score alone would pick it
    assert choose_option({"A": both.key, "B": partial.key}) == ("A", "evidence")
    # a question entity reached directly adds nothing from its longer paths
    again = option_strength([_path("x", "gene", 1.0), _path("x", "gene", 0.9, edges=2)],
                            [_entity("x", 3)], "metoprolol")
    assert again.indirect == 0.0 and again.direct == 1.0


def test_a_fact_of_another_relation_than_the_cue_asks_for_counts_half() -> None:
    cues = {"drug": ("INDICATION", "OFF_LABEL_USE")}
    treated = option_strength([_path("x", "drug", 1.0, relation="INDICATION")], [_entity("x", 5)],
                              "metoprolol", cues)
    target = option_strength([_path("y", "drug", 1.0, relation="TARGET")],
                             [_entity("y", 5)], "metoprolol", cues)
    assert target.direct == OFF_CUE_FACTOR * treated.direct
    assert treated.asked == 1.0 and target.asked == 0.0
    assert choose_option({"A": target.key, "B": treated.key}) == ("B", "evidence")
    # the opposite relation (a contraindication where a treatment is asked) is evidence against:
    # nothing, and its longer paths to that entity nothing either (half, the rule before issue 29)
    contra_paths = [_path("y", "drug", 1.0, relation="CONTRAINDICATION"),
                    _path("y", "drug", 0.9, edges=2)]
    contra = option_strength(contra_paths, [_entity("y", 5)], "metoprolol", cues)
    assert contra.direct == 0.0 and contra.indirect == 0.0 and contra.total == 0.0
    before = option_strength(contra_paths, [_entity("y", 5)], "metoprolol", cues,
                             opposite_factor=OFF_CUE_FACTOR)
    assert before.direct == OFF_CUE_FACTOR * treated.direct
    # no cue at that entity: any relation is what is asked
    assert option_strength([_path("y", "drug", 1.0, relation="CONTRAINDICATION")],
                           [_entity("y", 5)], "metoprolol").direct == 1.0


def test_choose_option_compares_tuples_in_order_and_abstains_on_a_full_tie() -> None:
    assert choose_option({"A": (1.0, 0.2), "B": (1.0, 0.5)}) == ("B", "evidence")
    assert choose_option({"A": (2.0, 0.1), "B": (1.0, 0.9)}) == ("A", "evidence")
    assert choose_option({"A": (1.0, 0.3), "B": (1.0, 0.1 + 0.2)}) == (None, "abstain: tie")
    assert choose_option({"A": (0.0, 0.0), "B": (0.0, 0.0)}) == (None, "abstain: no evidence")
    # float noise in the first component does not hide the second
    assert choose_option({"A": (0.1 + 0.2, 0.1), "B": (0.3, 0.5)}) == ("B", "evidence")


def test_an_option_names_every_entity_at_the_best_similarity_its_own_name_first() -> None:
    rows = [("d:paren", "osteopetrosis (disease)", 3), ("d:plain", "osteopetrosis", 4),
            ("d:other", "osteopetrosis, autosomal recessive 1", 2)]
    runner = FakeRunner({"biomed/search_entities": lambda p: [
        {"mention": p["mentions"][0]["mention"], "id": i, "name": n, "node_type": "Disease",
         "aliases": [], "score": 1.0, "degree": d} for i, n, d in rows]})
    linked = EntityLinker(runner).link_option("Osteopetrosis")
    assert [e.id for e in linked] == ["d:plain", "d:paren"]


def test_systematic_chemical_names_are_whole_mentions() -> None:
    q = "(2R)-1-(2,6-dimethylphenoxy)propan-2-amine acts on which of the following genes?"
    assert "(2R)-1-(2,6-dimethylphenoxy)propan-2-amine" in mentions_of(q)
    two = "Which protein does 3,4-dihydro-2H-1,2-benzothiazine 1,1-dioxide target?"
    assert "3,4-dihydro-2H-1,2-benzothiazine 1,1-dioxide" in mentions_of(two)
    # vignette numbers are not chemical names: no whole-word mention beyond the n-grams
    vignette = "A 45-year-old man (BP 150/88, 1,000 mg) takes aspirin"
    assert not [w for w in vignette.split() if _CHEMICAL_WORD.search(w)]


def test_names_of_five_to_eight_tokens_are_exact_phrase_mentions() -> None:
    q = "A patient is diagnosed with malignant epithelial tumor of ovary. Which drug is approved?"
    assert "malignant epithelial tumor of ovary" in long_mentions(q)
    assert "malignant epithelial tumor of ovary" not in mentions_of(q)  # five tokens
    assert not any(m.split()[0].lower() in {"a", "with", "of"} for m in long_mentions(q))
    assert lucene_phrase("tumor of ovary", fuzzy=False) == '"tumor of ovary"'
    runner = FakeRunner({"biomed/search_entities": lambda p: [
        {"mention": m["mention"], "id": "d:1", "name": "malignant epithelial tumor of ovary",
         "node_type": "Disease", "aliases": [], "score": 1.0, "degree": 4}
        for m in p["mentions"] if m["mention"] == "malignant epithelial tumor of ovary"]})
    linked = EntityLinker(runner).link(q)
    assert [e.id for e in linked] == ["d:1"]
    queries = {m["mention"]: m["lucene"] for m in runner.calls[0][1]["mentions"]}
    assert queries["malignant epithelial tumor of ovary"] == '"malignant epithelial tumor of ovary"'


def test_an_option_with_a_possessive_is_searched_as_written_too() -> None:
    runner = FakeRunner({"biomed/search_entities": lambda p: [
        {"mention": m["mention"], "id": "d:ks", "name": "Kaposi's sarcoma (disease)",
         "node_type": "Disease", "aliases": [], "score": 1.0, "degree": 7}
        for m in p["mentions"] if "'" in m["mention"]]})  # the index keeps "kaposi's" whole
    linked = EntityLinker(runner).link_option("Kaposi\u2019s sarcoma (disease)")
    assert [e.id for e in linked] == ["d:ks"] and linked[0].ratio == 100.0
    assert [m["mention"] for m in runner.calls[0][1]["mentions"]] == ["kaposi sarcoma",
                                                                      "Kaposi's sarcoma"]


def test_an_option_reached_only_by_longer_paths_is_labelled_indirect_not_grounded() -> None:
    def two_edges(p: dict[str, Any]) -> list[dict[str, Any]]:
        hop = {"head_id": "m", "head": "Middle", "head_type": "", "relation": "TARGET",
               "tail_id": "g:t", "tail": "TARGETGENE", "tail_type": "", "weight": 1.0}
        return [{"letter": o["letter"], "option_id": o["id"], "stem_id": "g:t", "score": 0.3,
                 "path": [{**hop, "head_id": o["id"], "tail_id": "m"}, hop]}
                for o in p["options"] if o["id"] == "d:b"]
    runner = FakeRunner({"biomed/search_entities": _search, "biomed/score_option_paths": two_edges})
    reg = Regram(runner, BagEmbedder(), EntityLinker(runner),
                 config=RegramConfig(indirect_margin=1.0))  # any strict winner is chosen
    ans = reg.ask("Which drug binds TARGETGENE?", {"A": "Drugone", "B": "Drugtwo"})
    assert ans.choice == "B" and ans.label == "indirect"
    assert ans.option_evidence["B"].direct == 0.0 and ans.option_evidence["B"].score > 0
    # by default an option with indirect support only is not chosen over abstaining
    default = Regram(runner, BagEmbedder(), EntityLinker(runner)).ask(
        "Which drug binds TARGETGENE?", {"A": "Drugone", "B": "Drugtwo"})
    assert default.choice is None and default.choice_source == "abstain: indirect evidence only"
    assert default.label == "no-answer"
    direct, _ = _regram({("d:b", "g:t"): 1.0})
    assert direct.ask("Which drug binds TARGETGENE?", {"A": "Drugone", "B": "Drugtwo"}).label == "grounded"
