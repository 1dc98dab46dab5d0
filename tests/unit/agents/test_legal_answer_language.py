"""What a reader of a legal answer sees is Vietnamese (issue 25 item 5): a named document's
status comes from the graph's validity, and the answer's footer says how it was made."""

from __future__ import annotations

import json
from datetime import date

from hopgraph.agents.legal import LegalQA, answer_footer
from tests.unit.agents.fakes import DOWN, NEW, OLD, FakeChat, FakeRetriever
from tests.unit.fakes import RecordingRunner

TODAY = date(2025, 1, 1)
Q03 = ("Nghị định 55/2030/NĐ-MAU đã áp dụng tỷ lệ thanh toán 100% tại mọi bệnh viện cho khám "
       "bệnh trái tuyến chưa (tính đến ngày 01/01/2027)?")
STATUS_LINE = ("Tình trạng Nghị định số 55/2030/NĐ-MAU tại ngày 01/01/2027: chưa có hiệu lực, "
               "từ 01/07/2031.")


class GraphRetriever(FakeRetriever):
    """A retriever whose evidence does not carry the named document, over a graph that holds
    it: the document's dates are only in the graph (as on the loaded samples, where the
    pending 55/2030 change hangs off a part of the article seed)."""

    def __init__(self, runner: RecordingRunner) -> None:
        super().__init__(default=[OLD, NEW])
        self.runner = runner


def _graph() -> RecordingRunner:
    rows = {"legal/list_named_documents": [
        {"id": "55/2030/NĐ-MAU", "number": "55/2030/NĐ-MAU", "doc_type": "Nghị định",
         "effective_date": date(2031, 7, 1), "expiry_date": None, "status": "in_force"}]}
    return RecordingRunner(rows, check_params=True)


def test_a_named_documents_status_is_read_from_the_graph_without_an_llm() -> None:
    runner = _graph()
    answer = LegalQA(retriever=GraphRetriever(runner), today=TODAY).ask(Q03)
    assert answer.mode == "retrieval_only"
    assert STATUS_LINE in answer.text.splitlines(), answer.text
    assert runner.params_of("legal/list_named_documents") == [{"names": ["55/2030/NĐ-MAU"]}]
    # without the graph's dates nothing in this evidence says when 55/2030 starts: no line
    bare = LegalQA(retriever=FakeRetriever(default=[OLD, NEW]), today=TODAY).ask(Q03)
    assert "55/2030" not in bare.text


def test_a_named_documents_status_leads_an_llm_answer_too() -> None:
    draft = json.dumps({"sentences": [{"text": "Đến 01/01/2027 khám trái tuyến tại bệnh viện "
                                               "tuyến trung ương được thanh toán 70% chi phí "
                                               "điều trị nội trú.", "evidence": ["E1"]}]},
                       ensure_ascii=False)
    answer = LegalQA(chat=FakeChat([draft]), retriever=GraphRetriever(_graph()),
                     today=TODAY).ask(Q03)
    assert answer.status == "answered", answer.text
    assert answer.text.splitlines()[0] == STATUS_LINE


def test_the_footer_is_vietnamese_and_says_why_no_llm() -> None:
    answer = LegalQA(retriever=FakeRetriever(), today=TODAY).ask(
        "Mức thanh toán khi khám trái tuyến tại tuyến trung ương?", as_of="2024-06-01")
    lines = answer_footer(answer)
    assert lines[0].startswith("Loại câu trả lời: trích xuất nguyên văn, không qua mô hình "
                               "ngôn ngữ; các bước: phân tích câu hỏi ")
    assert "→ tìm căn cứ " in lines[0]
    assert lines[1] == "Ghi chú: chưa cấu hình mô hình ngôn ngữ, chỉ trích xuất."
    down = LegalQA(chat=FakeChat([DOWN]), retriever=FakeRetriever(), today=TODAY).ask(
        "Mức thanh toán khi khám trái tuyến?")
    said = "\n".join(answer_footer(down))
    assert "mô hình ngôn ngữ không phản hồi" in said
    for english in ("retrieval_only", "interpreter", "pathfinder", "LLM unavailable", "note:"):
        assert english not in said, english
