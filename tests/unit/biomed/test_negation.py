"""Negation and comparison in biomedical questions (issue 29), on hand-written questions.

"not", "should not (be treated with)", "contraindicated" and "except" ask for the relation
opposite to the treatment word next to them (contraindication facts, not indications); a negated
treatment word is not an exception; a tie between two options' direct facts is never labelled
grounded; an option with indirect support only is not chosen over abstaining by default.
"""

from __future__ import annotations

from typing import Any

import pytest

from hopgraph.agents.biomed import EntityLinker, Regram, RegramConfig
from hopgraph.agents.biomed._joins import opposite_relations, relation_cue
from hopgraph.agents.biomed._options import asks_for_exception
from tests.unit.biomed._fakes import BagEmbedder, FakeRunner

CONTRA = ("CONTRAINDICATION",)
TREAT = ("INDICATION", "OFF_LABEL_USE")


@pytest.mark.parametrize(("question", "mention", "relations"), [
    ("Which drug should not be used to treat glaucoma?", "glaucoma", CONTRA),
    ("Patients with glaucoma should not be treated with which drug?", "glaucoma", CONTRA),
    ("Glaucoma shouldn't be treated with which of the following?", "Glaucoma", CONTRA),
    ("Which drug must never be given to patients with glaucoma?", "glaucoma", CONTRA),
    ("Which of the following is not indicated for glaucoma?", "glaucoma", CONTRA),
    ("Which drug is contraindicated in glaucoma?", "glaucoma", CONTRA),
    ("All of the following drugs are used to treat glaucoma except:", "glaucoma", CONTRA),
    ("Which drug is not contraindicated in glaucoma?", "glaucoma", TREAT),
    ("Which drug is used to treat glaucoma?", "glaucoma", TREAT),
    # a negation outside the cue's clause does not turn it
    ("Which drug, not an antibiotic, is used for glaucoma?", "glaucoma", TREAT),
    # relations without an opposite stay as they are
    ("Which protein does Drugone not target?", "Drugone", ("TARGET", "DRUG_PROTEIN")),
])
def test_negations_and_except_turn_treatment_into_contraindication(
        question: str, mention: str, relations: tuple[str, ...]) -> None:
    assert relation_cue(question, mention)[1] == relations


def test_the_rule_before_issue_29_reads_the_cue_word_alone() -> None:
    q = "Patients with glaucoma should not be treated with which drug?"
    assert relation_cue(q, "glaucoma", negation=False) == ("treated", TREAT)
    assert relation_cue(q, "glaucoma") == ("not treated", CONTRA)
    assert opposite_relations(TREAT) == CONTRA and opposite_relations(CONTRA) == TREAT
    assert opposite_relations(("INDICATION",)) == CONTRA


def test_a_negated_treatment_word_is_not_an_exception() -> None:
    assert not asks_for_exception("A patient with glaucoma should not be treated with which drug?")
    assert not asks_for_exception("Which of the following is not indicated in glaucoma?")
    assert not asks_for_exception("Which drug is contraindicated in glaucoma?")
    assert asks_for_exception("Which of the following is not a feature of Marfan syndrome?")
    assert asks_for_exception("All of the following drugs are used to treat glaucoma except:")
    assert asks_for_exception("Which is the least likely cause of this finding?")
    # the rule before: every "not" asked for the exception
    assert asks_for_exception("A patient with glaucoma should not be treated with which drug?",
                              negated_relations=False)


GRAPH = {"d:a": ("Drugone", "Drug", 4), "d:b": ("Drugtwo", "Drug", 4),
         "d:c": ("Drugthree", "Drug", 4), "d:d": ("Drugfour", "Drug", 40),
         "x:g": ("Glaucoma", "Disease", 6)}


def _search(p: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"mention": m["mention"], "id": nid, "name": name, "node_type": typ, "aliases": [],
             "score": 1.0, "degree": deg}
            for m in p["mentions"] for nid, (name, typ, deg) in GRAPH.items()
            if name.lower() == m["mention"].lower()]


def _regram(facts: dict[str, str], config: RegramConfig | None = None) -> Regram:
    """Options' facts with Glaucoma: option entity id -> relation (one edge, weight 1)."""
    def paths(p: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"letter": o["letter"], "option_id": o["id"], "stem_id": "x:g", "score": 1.0,
                 "path": [{"head_id": o["id"], "head": GRAPH[o["id"]][0], "head_type": "Drug",
                           "relation": facts[o["id"]], "tail_id": "x:g", "tail": "Glaucoma",
                           "tail_type": "Disease", "weight": 1.0}]}
                for o in p["options"] if o["id"] in facts and "x:g" in p["stem_ids"]]
    runner = FakeRunner({"biomed/search_entities": _search, "biomed/score_option_paths": paths})
    return Regram(runner, BagEmbedder(), EntityLinker(runner), config=config)


OPTIONS = {"A": "Drugone", "B": "Drugtwo", "C": "Drugthree"}


def test_should_not_be_treated_with_picks_the_contraindication_not_the_indication() -> None:
    facts = {"d:a": "INDICATION", "d:b": "CONTRAINDICATION"}
    q = "A patient with glaucoma should not be treated with which of the following?"
    ans = _regram(facts).ask(q, OPTIONS)
    assert ans.choice == "B" and ans.label == "grounded" and ans.choice_source == "kg-paths"
    assert ans.option_evidence["A"].direct == 0.0  # an indication is evidence against here
    assert ans.join is not None and ans.join.constraints[0].negated
    assert ans.join.constraints[0].relations == CONTRA
    # the same question asked positively picks the indication
    pos = _regram(facts).ask("A patient with glaucoma should be treated with which of the "
                             "following?", OPTIONS)
    assert pos.choice == "A" and pos.label == "grounded"
    # before issue 29: "not" tripped the exception abstention
    before = _regram(facts, RegramConfig(negation_cues=False, indirect_margin=1.0)).ask(q, OPTIONS)
    assert before.choice is None and before.choice_source == "abstain: asks for an exception"


def test_except_is_answered_by_the_option_with_the_contraindication_fact() -> None:
    q = "All of the following drugs are used to treat glaucoma except:"
    ans = _regram({"d:a": "INDICATION", "d:b": "INDICATION", "d:c": "CONTRAINDICATION"}).ask(
        q, OPTIONS)
    assert ans.choice == "C" and ans.label == "grounded"
    # no option holds the asked fact: the exception is only what the graph lacks -> no letter
    # (the indications are evidence against A and B, not for C)
    lacking = _regram({"d:a": "INDICATION", "d:b": "INDICATION"}).ask(q, OPTIONS)
    assert lacking.choice is None and lacking.choice_source == "abstain: no evidence"
    # an option holding another fact (half weight, not the asked relation) is not the exception
    off = _regram({"d:a": "INDICATION", "d:c": "TARGET"}).ask(q, OPTIONS)
    assert off.choice is None and off.choice_source == "abstain: asks for an exception"
    # an exception without a relation cue abstains as before
    other = _regram({"d:a": "CONTRAINDICATION"}).ask(
        "Which of the following is not a feature of glaucoma?", OPTIONS)
    assert other.choice is None and other.choice_source == "abstain: asks for an exception"


def test_a_tie_between_direct_facts_is_never_labelled_grounded() -> None:
    # both have the asked fact; the less connected entity wins the tie-break, which is not a fact
    ans = _regram({"d:a": "INDICATION", "d:d": "INDICATION"}).ask(
        "Which drug is used to treat glaucoma?", {"A": "Drugone", "B": "Drugfour"})
    assert ans.choice == "A" and ans.label == "tie-broken"
    assert ans.option_evidence["A"].direct == ans.option_evidence["B"].direct
    alone = _regram({"d:a": "INDICATION"}).ask("Which drug is used to treat glaucoma?",
                                               {"A": "Drugone", "B": "Drugfour"})
    assert alone.choice == "A" and alone.label == "grounded"
