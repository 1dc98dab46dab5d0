"""Fakes for the legal agents' unit tests: a scripted ChatModel and a dictionary retriever."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any

from hopgraph.agents import ChatResult
from hopgraph.core.errors import LLMError
from hopgraph.retrieval import (
    ChainStep,
    ContextItem,
    LegalContext,
    Provenance,
    RetrievalConfig,
    RetrievalFilters,
)

AS_OF = date(2024, 6, 1)


def item(node_id: str, text: str, *, applicable: bool = True, role: str = "seed",
         doc_type: str = "Nghị định", seed_id: str | None = None, note: str = "đang có hiệu lực",
         path: list[ChainStep] | None = None, rank: int = 1) -> ContextItem:
    doc_id = node_id.split("@")[0].split(":")[0]
    prov = Provenance(doc_id=doc_id, number=doc_id, doc_type=doc_type, title=None, issuer=None,
                      issue_date=None, effective_date=None, expiry_date=None, status=None,
                      position=node_id.split(":")[-1], citation=node_id)
    return ContextItem(node_id=node_id, text=text, citation=node_id, role=role,  # type: ignore[arg-type]
                       scores={"fused": 1.0}, path=path or [], valid_from=None, valid_to=None,
                       applicable=applicable, validity_note=note, provenance=prov,
                       seed_id=seed_id or node_id, rank=rank)


OLD = item("12/2016/NĐ-MAU:D3.K2",
           "2. Khám bệnh trái tuyến tại bệnh viện tuyến trung ương được thanh toán 40% chi phí "
           "điều trị nội trú.", applicable=False,
           note="đã được sửa đổi bởi Nghị định 40/2023/NĐ-MAU, hiệu lực từ 01/01/2023")
NEW = item("12/2016/NĐ-MAU:D3.K2@40/2023/NĐ-MAU",
           "2. Khám bệnh trái tuyến tại bệnh viện tuyến trung ương được thanh toán 70% chi phí "
           "điều trị nội trú.", role="successor", seed_id="12/2016/NĐ-MAU:D3.K2",
           note="đang áp dụng từ 01/01/2023",
           path=[ChainStep("AMENDS", "40/2023/NĐ-MAU:D1.K1", "12/2016/NĐ-MAU:D3.K2",
                           "khoản 1 Điều 1 Nghị định 40/2023/NĐ-MAU", date(2023, 1, 1))])
EVIDENCE = [OLD, NEW]


class FakeRetriever:
    """Returns the items registered for a query (or ``default``), recording every call."""

    def __init__(self, default: list[ContextItem] | None = None,
                 by_query: Mapping[str, list[ContextItem]] | None = None) -> None:
        self.default = EVIDENCE if default is None else default
        self.by_query = dict(by_query or {})
        self.calls: list[dict[str, Any]] = []

    def retrieve(self, question: str, *, k: int = 10, as_of: date | str | None = None,
                 filters: RetrievalFilters | Mapping[str, Any] | None = None,
                 config: RetrievalConfig | None = None) -> LegalContext:
        self.calls.append({"question": question, "k": k, "as_of": as_of, "filters": filters,
                           "config": config})
        items = self.by_query.get(question, self.default)
        day = as_of if isinstance(as_of, date) else AS_OF
        return LegalContext(question=question, as_of=day, items=list(items),
                            seeds=[i.node_id for i in items if i.role == "seed"],
                            reason_if_empty=None if items else "no legal unit matched",
                            round_trips=1, latency_ms=1.0)


class FakeChat:
    """A ChatModel whose replies are scripted: strings, exceptions, or a function of messages.

    Records every prompt and the JSON Schema sent with it (``None`` when none).
    """

    def __init__(self, replies: Sequence[str | Exception | Callable[[list[dict[str, str]]], str]]
                 ) -> None:
        self.replies = list(replies)
        self.prompts: list[list[dict[str, str]]] = []
        self.schemas: list[Mapping[str, Any] | None] = []

    @property
    def model(self) -> str:
        return "fake"

    def complete(self, messages: Sequence[dict[str, str]], *, max_tokens: int = 512,
                 temperature: float = 0.0, json_mode: bool = False,
                 schema: Mapping[str, Any] | None = None) -> ChatResult:
        self.prompts.append(list(messages))
        self.schemas.append(schema)
        reply = self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]
        if isinstance(reply, Exception):
            raise reply
        text = reply(list(messages)) if callable(reply) else reply
        return ChatResult(text=text, prompt_tokens=100, completion_tokens=20, latency_s=0.01,
                          model="fake")


DOWN = LLMError("LLM endpoint failed after 3 tries: connection refused")
