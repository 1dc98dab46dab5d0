"""Join planning (constraints on the shared answer variable) and option choice without letter bias."""

from __future__ import annotations

from hopgraph.agents.biomed import EntityLinker, LinkedEntity, Regram, RegramConfig
from hopgraph.agents.biomed._joins import answer_types, plan_join, relation_cue
from hopgraph.agents.biomed._reasoner import OptionEvidence
from tests.unit.biomed._fakes import BagEmbedder
from tests.unit.biomed.test_reasoning import _runner

DEMO = "Which drug that targets ABL1 is used for chronic myeloid leukemia?"


def _e(eid: str, name: str, typ: str, mention: str, degree: int) -> LinkedEntity:
    return LinkedEntity(eid, name, typ, mention, name, 100.0, degree)


def test_cue_words_next_to_each_mention_pick_the_relations() -> None:
    others = ["chronic myeloid leukemia"]
    assert relation_cue(DEMO, "ABL1", others) == ("targets", ("TARGET", "DRUG_PROTEIN"))
    assert relation_cue(DEMO, "chronic myeloid leukemia", ["ABL1"]) == (
        "used for", ("INDICATION", "OFF_LABEL_USE"))
    assert relation_cue("Which drug is contraindicated in pregnancy?", "pregnancy")[1] == ("CONTRAINDICATION",)
    assert relation_cue("ABL1 is targeted by which drug?", "ABL1")[1] == ("TARGET", "DRUG_PROTEIN")
    assert relation_cue("Tell me about ABL1 and KIT", "ABL1", ["KIT"]) == ("", ())
    assert answer_types(DEMO) == ("Drug",)
    assert answer_types("What gene is associated with cystic fibrosis?") == ("GeneProtein",)
    assert answer_types("Tell me about ABL1") == ()


def test_plan_puts_the_rarest_anchor_first_and_merges_hops() -> None:
    hops = ["Which drugs target ABL1?", "Which of these drugs are used for CML?"]
    linked = [[_e("g:abl1", "ABL1", "GeneProtein", "ABL1", 9)],
              [_e("x:cml", "chronic myeloid leukemia", "Disease", "CML", 3),
               _e("g:abl1", "ABL1", "GeneProtein", "ABL1", 9)]]
    plan = plan_join(hops, EntityLinker(_runner()), linked)
    assert [(c.hop, c.anchor_id, c.relations) for c in plan.constraints] == [
        (2, "x:cml", ("INDICATION", "OFF_LABEL_USE")), (1, "g:abl1", ("TARGET", "DRUG_PROTEIN"))]
    assert plan.answer_types == ("Drug",)


def test_join_answers_name_the_entity_with_its_chain_and_label_grounded() -> None:
    reg = Regram(_runner(), BagEmbedder(), EntityLinker(_runner()))
    ans = reg.ask("Which drug targets VKORC1 and is used for atrial fibrillation?")
    assert [j.name for j in ans.joined] == ["Warfarin"]
    assert {t.relation for t in ans.joined[0].chain} == {"TARGET", "INDICATION"}
    assert ans.answer_source == "kg-join" and "Warfarin" in ans.answer and ans.label == "grounded"
    # a constraint nothing satisfies: no joined entity, never labelled grounded
    miss = reg.ask("Which drug is metabolised by VKORC1 and used for atrial fibrillation?")
    assert miss.joined == [] and miss.label == "unsupported" and "No entity satisfies" in miss.answer
    off = reg.with_config(RegramConfig(use_joins=False)).ask("Which drug targets VKORC1?")
    assert off.join is None and off.joined == []


def test_no_evidence_abstains_and_ties_pick_no_letter() -> None:
    choose = Regram._choose
    assert choose({"A": OptionEvidence(0.0), "B": OptionEvidence(0.0)}) == (None, "abstain: no evidence")
    assert choose({"A": OptionEvidence(1.5), "B": OptionEvidence(1.5)}) == (None, "abstain: tie")
    assert choose({"A": OptionEvidence(0.2), "B": OptionEvidence(1.5)}) == ("B", "kg-paths")
    reg = Regram(_runner(), BagEmbedder(), EntityLinker(_runner()))
    ans = reg.ask("What is the meaning of life?", {"A": "insulin", "B": "VKORC1"})
    assert ans.choice is None and ans.choice_source == "abstain: no evidence"
    assert ans.label == "no-answer" and ans.answer_source == "none"
