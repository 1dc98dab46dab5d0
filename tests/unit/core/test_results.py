"""The shared evidence shape: each domain's result converts what it holds (no database)."""

from __future__ import annotations

from datetime import date

import hopgraph
from hopgraph.agents.biomed import BioAnswer, HopResult, Hypothesis, Plan, Typed, Verdict
from hopgraph.agents.biomed._reasoner import Mode, OptionEvidence
from hopgraph.agents.legal import Answer, EvidenceSet
from hopgraph.agents.sentences import EvidenceSentence, SentenceAnswer, SentenceRetrieval
from hopgraph.core.citations import citation_id
from hopgraph.core.results import Evidence, EvidenceResult, Validity
from hopgraph.core.vocabulary import AnswerMode, AnswerStatus
from hopgraph.retrieval import (
    ContextItem,
    Domain,
    JoinedEntity,
    LegalContext,
    OptionPath,
    Provenance,
    Region,
    Triplet,
)

AS_OF = date(2024, 6, 1)


def _prov(doc_id: str = "12/2016/NĐ-MAU") -> Provenance:
    return Provenance(doc_id=doc_id, number=doc_id, doc_type="Nghị định", title="Mẫu",
                      issuer=None, issue_date=None, effective_date=None, expiry_date=None,
                      status=None, position="Điều 3 › Khoản 1", citation="khoản 1 Điều 3")


def _item(node_id: str, role: str, *, applicable: bool = True, date_unknown: bool = False,
          scores: dict[str, float] | None = None) -> ContextItem:
    return ContextItem(node_id=node_id, text=f"wording of {node_id}",
                       citation=f"khoản 1 Điều 3 ({node_id})", role=role,  # type: ignore[arg-type]
                       scores=scores or {}, path=[], valid_from=None, valid_to=None,
                       applicable=applicable, validity_note="in force at 2024-06-01"
                       if applicable else "superseded at 2024-06-01", provenance=_prov(),
                       seed_id=node_id, date_unknown=date_unknown,
                       not_before=date(2023, 1, 2) if date_unknown else None)


def _context() -> LegalContext:
    items = [
        _item("D:A3.K1", "seed", applicable=False, scores={"fused": 0.7, "rerank": 0.9}),
        _item("D:A3.K1@X", "successor", date_unknown=True),
        _item("D:A5", "reference", scores={"fused": 0.4}),
    ]
    return LegalContext(question="q", as_of=AS_OF, items=items, seeds=["D:A3.K1"],
                        reason_if_empty=None, round_trips=1, latency_ms=1.0)


def test_legal_items_say_id_text_role_score_validity_and_provenance() -> None:
    seed, successor, reference = _context().to_evidence()
    assert seed == Evidence(domain="legal", id="D:A3.K1", text="wording of D:A3.K1", role="seed",
                            score=0.9, citation="khoản 1 Điều 3 (D:A3.K1)",
                            validity=Validity.NOT_IN_FORCE,
                            validity_note="superseded at 2024-06-01",
                            provenance="12/2016/NĐ-MAU Điều 3 › Khoản 1",
                            citation_id=citation_id("D:A3.K1", AS_OF))
    assert seed.citation_id == f"vn/id/D/x_A3/khoan_1@{AS_OF.isoformat()}"
    assert successor.citation_id == seed.citation_id  # the same unit, the same date
    assert successor.validity is Validity.IN_FORCE_DATE_UNKNOWN and successor.score is None
    assert successor.validity_note is not None and "02/01/2023" in successor.validity_note
    assert reference.role == "reference" and reference.score == 0.4
    assert reference.validity is Validity.IN_FORCE
    assert isinstance(_context(), EvidenceResult)


def test_the_legal_answer_gives_its_retrieved_items_once() -> None:
    ctx = _context()
    twice = [EvidenceSet("a", "a", ctx), EvidenceSet("b", "b", ctx)]
    answer = Answer(question="q", text="t", status=AnswerStatus.RETRIEVAL_ONLY,
                    mode=AnswerMode.RETRIEVAL_ONLY, as_of=AS_OF, claims=[], citations=[],
                    route=[], steps=[], evidence=twice)
    assert [e.id for e in answer.to_evidence()] == ["D:A3.K1", "D:A3.K1@X", "D:A5"]
    assert answer.evidence is twice  # the field is unchanged


def test_dict_metadata_and_prompt_block() -> None:
    ev = _context().to_evidence()[0]
    assert ev.to_dict()["validity"] == "not_in_force"
    meta = ev.metadata()
    assert "text" not in meta and meta["id"] == "D:A3.K1" and meta["score"] == 0.9
    assert ev.render() == ("[D:A3.K1] khoản 1 Điều 3 (D:A3.K1) (superseded at 2024-06-01)\n"
                           "wording of D:A3.K1")
    bare = Evidence(domain="sentences", id="s1", text="A sentence.", role="anchor")
    assert bare.render() == "[s1]\nA sentence." and set(bare.metadata()) == {"domain", "id", "role"}


def _triplet(head: str, rel: str, tail: str, mmr: float) -> Triplet:
    return Triplet(f"id:{head}", head, "Drug", rel, f"id:{tail}", tail, "GeneProtein", 1.0,
                   similarity=0.5, mmr=mmr)


def test_biomed_answer_gives_triplets_hypotheses_joins_and_option_paths() -> None:
    t1 = _triplet("Warfarin", "TARGET", "VKORC1", 0.8)
    t2 = _triplet("Warfarin", "ENZYME", "CYP2C9", 0.0)
    hyp = Hypothesis("Warfarin", "TARGET", "VKORC1")
    hops = [
        HopResult("Which protein does Warfarin target?", Mode.HYBRID, [],
                  Region("Which protein does Warfarin target?", [t1, t2]), "VKORC1", "llm",
                  accepted_hypotheses=[hyp],
                  verdicts=[Verdict(hyp, 0.9, True, "in graph", "graph", 1)]),
        HopResult("second", Mode.HYBRID, [], Region("second", [t1]), "x", "kg-only"),
    ]
    answer = BioAnswer(
        question="q", options={"A": "VKORC1"}, domain=Typed(Domain.DRUG_THERAPY, "rules"),
        plan=Plan(("a", "b"), "rules"), hops=hops, answer="VKORC1", answer_source="llm",
        choice="A", choice_source="kg-paths", label="grounded", llm_model=None, seconds=0.1,
        joined=[JoinedEntity("id:VKORC1", "VKORC1", "GeneProtein", 2.0, (t1,))],
        option_evidence={"A": OptionEvidence(1.0, (OptionPath("A", "id:VKORC1", "id:Warfarin",
                                                               1.0, (t1,)),))})
    evidence = answer.to_evidence()
    assert [e.role for e in evidence] == ["triplet", "triplet", "hypothesis", "joined",
                                          "option_path"]
    first, second = evidence[:2]
    assert first.id == "id:Warfarin-[TARGET]->id:VKORC1" and first.text == t1.text()
    assert first.score == 0.8 and first.provenance == (
        "hop 1 region: Which protein does Warfarin target?")
    assert second.score == 0.5  # no MMR score: the similarity
    assert evidence[2].score == 0.9 and evidence[2].text == hyp.text()
    assert evidence[3].id == "id:VKORC1" and evidence[3].score == 2.0
    assert evidence[4].text == t1.text() and all(e.domain == "biomed" for e in evidence)
    assert all(e.validity is None for e in evidence)


def test_sentence_results_give_anchors_and_expansions_with_passage_titles() -> None:
    ev = [EvidenceSentence("p1#s0", "p1", 0, "Babbage designed it.", 0.9, ("p1#s0",), ()),
          EvidenceSentence("p2#s3", "p2", 3, "He died in Marylebone.", 0.6,
                           ("p1#s0", "p2#s3"), ("ELABORATION",))]
    retrieval = SentenceRetrieval("q", [], ["p1#s0"], False, "heuristic", ev)
    plain = retrieval.to_evidence()
    assert [(e.id, e.role, e.score) for e in plain] == [("p1#s0", "anchor", 0.9),
                                                        ("p2#s3", "expansion", 0.6)]
    assert plain[1].provenance == "passage p2, sentence 3" and plain[1].citation is None
    answer = SentenceAnswer("q", None, AnswerMode.RETRIEVAL_ONLY, retrieval,
                            [("Charles Babbage", "p1", 0), ("London", "p2", 3)])
    assert [e.citation for e in answer.to_evidence()] == ["Charles Babbage", "London"]
    assert retrieval.evidence is ev  # the field is unchanged


def test_the_package_exports_the_result_types() -> None:
    for name in ("Evidence", "Validity", "LegalContext", "Answer", "BioAnswer",
                 "SentenceRetrieval", "SentenceAnswer"):
        assert name in hopgraph.__all__ and getattr(hopgraph, name).__name__ == name
    assert hopgraph.Evidence is Evidence


def test_a_dict_reads_back() -> None:
    for ev in _context().to_evidence():
        assert Evidence.from_dict(ev.to_dict()) == ev
