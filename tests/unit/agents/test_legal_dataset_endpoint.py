"""The ViHERMES builder's generation step through a fake OpenAI-compatible endpoint
(``tests/integration/local_http.py``) that answers each tuple with a scripted reply: well-formed
instances are accepted, and each malformed one is rejected with its own reason and recorded."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from hopgraph.eval.dataset import Context, Tuple, generate
from hopgraph.models import OpenAIChatModel
from tests.integration.local_http import send_json, serve

A = Context("A:D1", "Luật A", "Điều 1. Người bệnh được khám miễn phí tại trạm y tế xã.")
B = Context("B:D2", "Luật B", "Điều 2. Trạm y tế xã mở cửa từ bảy giờ sáng mỗi ngày.")
C = Context("C:D3", "Luật C", "Điều 3. Trạm y tế xã có một bác sĩ trực vào ban đêm.")
GOOD = [{"context": "context_1", "span": "khám miễn phí tại trạm y tế xã"},
        {"context": "Context_2", "span": "mở cửa từ bảy giờ  sáng"}]


def _reply(answer: str = "Khám miễn phí tại trạm y tế xã, từ bảy giờ sáng.",
           evidence: list[dict[str, str]] | None = None, **drop: bool) -> str:
    body = {"question": "Khám miễn phí ở đâu và từ mấy giờ?", "answer": answer,
            "reasoning": "context_1 cho nơi khám, context_2 cho giờ mở cửa.",
            "evidence": GOOD if evidence is None else evidence}
    return json.dumps({k: v for k, v in body.items() if not drop.get(k)}, ensure_ascii=False)


# The tuple's marker (its first context's text, which the prompt carries) -> the scripted reply;
# "HTTP 500" answers with a server error.
SCRIPT = {
    "good": _reply(),
    "good fenced": "Đây là kết quả:\n```json\n" + _reply() + "\n```",
    "not json": "Câu hỏi: khám ở đâu? Trả lời: trạm y tế xã.",
    "no evidence": _reply(evidence=[]),
    "missing answer": _reply(answer=""),
    "one hop uncited": _reply(evidence=GOOD[:1]),
    "unknown context": _reply(evidence=[*GOOD, {"context": "context_9", "span": "bảy giờ"}]),
    "span not in context": _reply(evidence=[GOOD[0], {"context": "context_2",
                                                      "span": "đóng cửa lúc nửa đêm"}]),
    "short span": _reply(evidence=[GOOD[0], {"context": "context_2", "span": "y tế"}]),
    "one context answers": _reply(answer="Người bệnh được khám miễn phí tại trạm y tế xã."),
    "HTTP 500": "",
}
_MARK = re.compile(r"\[\[(.+?)\]\]")


class _Scripted(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body: dict[str, Any] = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        case = _MARK.search(body["messages"][-1]["content"])
        name = case.group(1) if case else "good"
        if name == "HTTP 500":
            self.send_response(500)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        send_json(self, json.dumps({
            "id": "x", "object": "chat.completion", "created": 0, "model": "fake-qa",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": SCRIPT[name]}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}},
            ensure_ascii=False).encode())

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture()
def endpoint() -> Iterator[str]:
    with serve(_Scripted) as url:
        yield url


def _tuple(case: str, hops: int = 2) -> Tuple:
    first = Context(A.id, A.title, f"{A.text} [[{case}]]")
    return Tuple((first, B, C)[:hops], "semantic", 0)


def test_generation_accepts_good_replies_and_rejects_each_fault_with_its_reason(
        endpoint: str) -> None:
    chat = OpenAIChatModel(base_url=endpoint, model="fake-qa", max_retries=0, timeout_s=10)
    cases = list(SCRIPT)
    tuples = [_tuple(c) for c in cases] + [_tuple("good", hops=3)]
    accepted, rejected, records = generate(tuples, chat)
    chat.close()
    assert [i.context_ids for i in accepted] == [["A:D1", "B:D2"]] * 2
    for inst in accepted:
        assert inst.generator == "fake-qa" and inst.hops == 2 and inst.kind == "semantic"
        assert [e["context_id"] for e in inst.evidence] == ["A:D1", "B:D2"]
        assert inst.query and inst.answer and inst.reasoning
    assert sum(rejected.values()) == len(records) == len(tuples) - 2
    reasons = [r["reason"] for r in records]
    assert reasons[0].startswith("reply not in the schema")  # not JSON
    assert reasons[1] == "not every hop's context is cited by an evidence span"  # evidence []
    assert reasons[2] == "empty question, answer or reasoning"
    assert reasons[3] == "not every hop's context is cited by an evidence span"
    assert reasons[4] == "evidence cites a context that was not given"
    assert reasons[5] == "an evidence span does not occur in its context"
    assert reasons[6] == "an evidence span is shorter than 8 characters"
    assert reasons[7].startswith("answerable from one context alone")
    assert reasons[8].startswith("LLM call failed")
    # a 3-hop tuple answered with two spans leaves its third context uncited
    assert reasons[9] == "not every hop's context is cited by an evidence span"
    assert records[9]["hops"] == 3 and records[0]["kind"] == "semantic"
