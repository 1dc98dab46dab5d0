"""The retrieval-only abstention rule: signals, decision, reason, calibration, Conductor switch."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hopgraph.agents.legal import LegalQA, QAOptions
from hopgraph.agents.legal._abstention import (
    AbstentionRule,
    EvidenceSignals,
    calibrate,
    content_words,
    measure,
)
from tests.unit.agents.fakes import NEW, FakeRetriever, item

ON_TOPIC = "Khám bệnh trái tuyến tại bệnh viện tuyến trung ương được thanh toán bao nhiêu?"
OFF_TOPIC = "Thủ tục đăng ký kết hôn với người nước ngoài gồm những giấy tờ gì?"
UNIT = item("12/2016/NĐ-MAU:D3.K2",
            "2. Khám bệnh trái tuyến tại bệnh viện tuyến trung ương được thanh toán 40% chi phí "
            "điều trị nội trú.")


def _with_dense(it: object, dense: float) -> object:
    return replace(it, scores={"fused": 1.0, "dense": dense})  # type: ignore[type-var]


def test_content_words_leave_out_stop_and_question_form_words() -> None:
    words = content_words(OFF_TOPIC)
    assert {"dang", "ky", "ket", "hon", "nuoc", "ngoai", "giay"} <= set(words)
    assert not {"thu", "tuc", "gi", "nhung", "voi"} & set(words)


def test_signals_are_raw_dense_and_best_single_item_coverage() -> None:
    prov = replace(UNIT, node_id="12/2016/NĐ-MAU:D3", role="provenance",
                   text="Khám bệnh trái tuyến kết hôn nước ngoài giấy tờ")
    s = measure(ON_TOPIC, [_with_dense(UNIT, 0.81), prov])  # type: ignore[list-item]
    assert s.coverage == 1.0 and s.best_item == UNIT.node_id
    assert s.dense == pytest.approx(0.81)
    off = measure(OFF_TOPIC, [_with_dense(UNIT, 0.79), prov])  # type: ignore[list-item]
    assert off.coverage < 0.2  # provenance items never count as evidence
    assert measure(OFF_TOPIC, [UNIT]).dense is None  # no seed came from the vector index


def test_rule_abstains_only_when_both_signals_are_low_and_says_why() -> None:
    rule = AbstentionRule(min_coverage=0.5, min_dense=0.85)
    reason = rule.reason_to_abstain(OFF_TOPIC, [_with_dense(UNIT, 0.80)])  # type: ignore[list-item]
    assert reason is not None and "covers 0% of the question's content words" in reason
    assert "dense similarity 0.800 (< 0.850)" in reason
    # a high raw similarity keeps the answer (paraphrase), as does a high coverage
    assert rule.reason_to_abstain(OFF_TOPIC, [_with_dense(UNIT, 0.90)]) is None  # type: ignore[list-item]
    assert rule.reason_to_abstain(ON_TOPIC, [_with_dense(UNIT, 0.70)]) is None  # type: ignore[list-item]
    # a question with no content word is not judged
    assert rule.reason_to_abstain("Là gì?", [_with_dense(UNIT, 0.1)]) is None  # type: ignore[list-item]


def test_calibration_separates_the_two_kinds_with_the_lowest_thresholds() -> None:
    def sig(coverage: float, dense: float) -> EvidenceSignals:
        return EvidenceSignals(coverage, dense, ("x",), "u")

    signals = [sig(0.9, 0.86), sig(0.6, 0.83), sig(0.7, 0.88), sig(0.2, 0.80), sig(0.3, 0.82)]
    rule, scores = calibrate(signals, [True, True, True, False, False])
    assert scores == {"balanced_accuracy": 1.0, "false_abstention": 0.0,
                      "abstention_unanswerable": 1.0}
    # the lowest cuts that separate: midway between 0.3 and 0.6, and between 0.82 and 0.83
    assert rule == AbstentionRule(min_coverage=0.45, min_dense=0.825)
    with pytest.raises(ValueError, match="answerable and unanswerable"):
        calibrate(signals[:3], [True, True, True])


def test_conductor_abstains_with_the_reason_and_the_switch_turns_it_off() -> None:
    retriever = FakeRetriever(default=[_with_dense(UNIT, 0.78)])  # type: ignore[list-item]
    answer = LegalQA(retriever=retriever).ask(OFF_TOPIC, use_llm=False)
    assert answer.status == "abstained" and answer.citations == []
    assert answer.fallback_reason is not None
    assert "retrieval-only abstention" in answer.fallback_reason
    assert "chỉ khớp 0% nội dung câu hỏi" in answer.text  # the answer states the reason
    # the related units are still shown, not cited
    assert "Khoản 2 Điều 3 Nghị định số 12/2016/NĐ-MAU" in answer.text
    kept = LegalQA(retriever=retriever, options=QAOptions(abstention=None)).ask(
        OFF_TOPIC, use_llm=False)
    assert kept.status == "retrieval_only" and kept.citations
    on_topic = LegalQA(retriever=retriever).ask(ON_TOPIC, use_llm=False)
    assert on_topic.status == "retrieval_only"
    assert [c.node_id for c in on_topic.citations] == [UNIT.node_id]


def test_a_named_document_missing_from_the_evidence_makes_it_abstain() -> None:
    rule = AbstentionRule(named_documents=True)
    question = "Theo Thông tư 43/2025/TT-BYT, khám bệnh trái tuyến được thanh toán bao nhiêu?"
    on_topic = [_with_dense(UNIT, 0.97)]  # covers every content word, high similarity
    s = measure(question, on_topic)  # type: ignore[arg-type]
    assert s.missing_documents == ("43/2025/TT-BYT",)
    reason = rule.reason_to_abstain(question, on_topic)  # type: ignore[arg-type]
    assert reason is not None and "names 43/2025/TT-BYT" in reason
    assert AbstentionRule().reason_to_abstain(question, on_topic) is None  # type: ignore[arg-type]
    # the named document is in the evidence (case of the code ignored): no abstention
    named = question.replace("Thông tư 43/2025/TT-BYT", "Nghị định 12/2016/NĐ-MAU")
    assert measure(named, on_topic).missing_documents == ()  # type: ignore[arg-type]
    assert rule.reason_to_abstain(named, on_topic) is None  # type: ignore[arg-type]


def test_an_amending_document_counts_through_its_version_or_chain() -> None:
    question = "Theo Nghị định 40/2023/NĐ-MAU, khám trái tuyến được thanh toán bao nhiêu?"
    assert measure(question, [NEW]).missing_documents == ()  # version ...@40/2023/NĐ-MAU
    chained = replace(NEW, node_id="12/2016/NĐ-MAU:D3.K2")
    assert measure(question, [chained]).missing_documents == ()  # AMENDS step from 40/2023
    assert measure(question, [UNIT]).missing_documents == ("40/2023/NĐ-MAU",)


def test_calibration_turns_the_named_document_check_off_when_it_costs_answers() -> None:
    ok = EvidenceSignals(0.9, 0.96, ("x",), "u", missing_documents=("20/2018/NĐ-MAU",))
    off = EvidenceSignals(0.2, 0.90, ("x",), "u")
    rule, scores = calibrate([ok, EvidenceSignals(0.8, 0.95, ("x",), "u"), off],
                             [True, True, False])
    assert rule.named_documents is False and scores["false_abstention"] == 0.0
