"""Evaluation metrics and the ablation runner against fakes."""

from __future__ import annotations

from datetime import date

import pytest

from hopgraph.agents.legal import Answer, LegalQA
from hopgraph.eval._legal_qa import (
    QAQuestion,
    _Judge,
    check_judge,
    citation_scores,
    judge,
    render_markdown,
    run_ablations,
    token_f1,
)
from tests.unit.agents.fakes import NEW, OLD, FakeChat, FakeRetriever


def test_token_f1_and_citation_scores() -> None:
    assert token_f1("70% chi phí", "70% chi phí") == 1.0
    assert token_f1("", "x") == 0.0
    assert 0 < token_f1("được thanh toán 70%", "70% chi phí điều trị") < 1
    assert citation_scores(["a", "b"], ["a", "c"]) == (0.5, 0.5)
    assert citation_scores([], ["a"]) == (0.0, 0.0)
    assert citation_scores([], []) == (1.0, 1.0)


def test_run_ablations_scores_every_row() -> None:
    questions = [
        QAQuestion(id="q", question="Mức thanh toán khi khám trái tuyến tại tuyến trung ương?",
                   as_of="2024-06-01", gold_unit_ids=[NEW.node_id, OLD.node_id],
                   answer="70% chi phí điều trị nội trú"),
        QAQuestion(id="u", question="Xin chào", answerable=False),
    ]
    qa = LegalQA(chat=FakeChat(['{"sentences": []}']), retriever=FakeRetriever(),
                 today=date(2025, 1, 1))
    rows = run_ablations(qa, questions, with_llm=True)
    names = [r.name for r in rows]
    assert names == ["retrieval_only", "retrieval_only_flat", "retrieval_only_reflective", "full", "reflective",
                     "no_interpreter", "no_auditor", "flat_retrieval"]
    ro = rows[0]
    assert ro.citation_recall == pytest.approx(1.0) and ro.abstention_unanswerable == 1.0
    assert rows[3].status.get("retrieval_only") == 1  # empty draft -> evidence fallback
    assert "| full | yes | 2 |" in render_markdown(rows, header="# t")


def test_run_ablations_reports_each_question_and_can_skip_retrieval_only_rows() -> None:
    questions = [
        QAQuestion(id="q", question="Mức thanh toán khi khám trái tuyến tại tuyến trung ương?",
                   as_of="2024-06-01", gold_unit_ids=[NEW.node_id], answer="70% chi phí"),
        QAQuestion(id="u", question="Xin chào", answerable=False),
    ]
    qa = LegalQA(chat=FakeChat(['{"sentences": []}']), retriever=FakeRetriever(),
                 today=date(2025, 1, 1))
    seen: list[tuple[str, dict[str, object]]] = []
    rows = run_ablations(qa, questions, with_llm=True, rows=["no_auditor"],
                         retrieval_only_rows=False,
                         on_question=lambda row, rec: seen.append((row, rec)))
    assert [r.name for r in rows] == ["no_auditor"]
    assert [(row, rec["id"]) for row, rec in seen] == [("no_auditor", "q"), ("no_auditor", "u")]
    assert [rec for _, rec in seen] == rows[0].per_question
    assert "citation_r" in seen[0][1] and isinstance(seen[0][1]["per_agent"], dict)


def test_judge_sends_its_reply_schema_and_still_validates_the_reply() -> None:
    question = QAQuestion(id="q", question="Mức thanh toán?", answer="70% chi phí")
    answer = Answer(question="Mức thanh toán?", text="70% chi phí điều trị", status="answered",
                    mode="llm", as_of=None, claims=[], citations=[], route=[], steps=[])
    chat = FakeChat(['{"score": 4}', '{"score": 9}'])
    assert judge(chat, question, answer) == 4
    assert judge(chat, question, answer) is None  # out of range: an endpoint may ignore schemas
    assert chat.schemas == [_Judge.model_json_schema()] * 2
    assert chat.schemas[0] is not None and chat.schemas[0]["required"] == ["score"]


def _grading_judge(messages: list[dict[str, str]]) -> str:
    # Scores 5 when the answer repeats the reference word for word, else 1.
    user = messages[-1]["content"]
    reference = user.split("\nReference: ")[1].split("\nAnswer: ")[0]
    return '{"score": 5}' if user.endswith("Answer: " + reference) else '{"score": 1}'


CHECK_QUESTIONS = [
    QAQuestion(id="a", question="Mức hưởng?", answer="80% chi phí", gold_unit_ids=["L:D1"]),
    QAQuestion(id="b", question="Thời hạn thẻ?", answer="12 tháng", gold_unit_ids=["L:D2"]),
    QAQuestion(id="c", question="Ai đóng?", answer="Người lao động và người sử dụng lao động",
               gold_unit_ids=["L:D3"]),
    QAQuestion(id="u", question="Thời tiết?", answerable=False),  # unanswerable: not a pair
]


def test_judge_check_accepts_a_judge_that_orders_matching_above_mismatched() -> None:
    chat = FakeChat([_grading_judge])
    check = check_judge(chat, CHECK_QUESTIONS)
    assert (check.pairs, check.usable) == (3, 3)
    assert (check.mean_matching, check.mean_mismatched, check.ordered) == (5.0, 1.0, 1.0)
    assert check.informative
    # each pair: the reference against itself, then against the next question's reference
    answers = [p[-1]["content"].split("Answer: ")[1] for p in chat.prompts]
    assert answers == ["80% chi phí", "12 tháng", "12 tháng",
                       "Người lao động và người sử dụng lao động",
                       "Người lao động và người sử dụng lao động", "80% chi phí"]
    assert "separates" in check.summary()


def test_judge_check_rejects_a_constant_or_unparsable_judge() -> None:
    constant = check_judge(FakeChat(['{"score": 1}']), CHECK_QUESTIONS)
    assert (constant.usable, constant.ordered) == (3, 0.0)
    assert not constant.informative
    assert "not informative" in constant.summary()
    broken = check_judge(FakeChat(["I think it is good"]), CHECK_QUESTIONS)
    assert (broken.pairs, broken.usable, broken.ordered) == (3, 0, None)
    assert not broken.informative
    assert "cannot be read" in broken.summary()
