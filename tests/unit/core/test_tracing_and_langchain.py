"""Where engineers plug in (issue 25 item 6): OpenTelemetry spans around each Cypher call,
embedding and LLM call, off unless configured; a LangChain retriever over the shared evidence
shape. Each part skips when its optional package is absent."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from hopgraph import Hopgraph
from tests.unit.agents.fakes import FakeChat
from tests.unit.core.test_results import AS_OF, _context
from tests.unit.fakes import RecordingRunner
from tests.unit.sentences.fakes import FakeEmbedder


def _exporter() -> tuple[Any, Any]:
    sdk = pytest.importorskip("opentelemetry.sdk.trace")
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = sdk.TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter


def test_tracing_is_off_unless_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    from hopgraph._tracing import tracer_for

    monkeypatch.delenv("HOPGRAPH_OTEL", raising=False)
    runner, embedder, chat = RecordingRunner(), FakeEmbedder(), FakeChat(["x"])
    hg = Hopgraph(runner, legal_embedder=embedder, chat=chat)
    # nothing wrapped: the front door hands out what it was given
    assert hg.runner is runner and hg.embedder("legal") is embedder and hg.chat is chat
    assert tracer_for(env={"HOPGRAPH_OTEL": "0"}) is None
    pytest.importorskip("opentelemetry.sdk.trace")
    assert tracer_for(env={"HOPGRAPH_OTEL": "1"}) is not None


def test_each_cypher_call_embedding_and_llm_call_is_a_span() -> None:
    provider, exporter = _exporter()
    runner = RecordingRunner({"legal/list_document_ids": [{"id": "12/2016/NĐ-MAU"}]})
    hg = Hopgraph(runner, legal_embedder=FakeEmbedder(), chat=FakeChat(["{}"]),
                  tracer_provider=provider)
    assert hg.legal.document_ids() == ["12/2016/NĐ-MAU"]
    hg.embedder("legal").embed_query("mức hưởng")
    hg.embedder("legal").embed_documents(["a", "b"])
    assert hg.chat is not None
    hg.chat.complete([{"role": "user", "content": "hi"}], json_mode=True)
    spans = {(s.name, s.attributes.get("db.operation.name") or s.attributes.get(
        "hopgraph.embed.kind") or s.attributes.get("gen_ai.request.model")): s
        for s in exporter.get_finished_spans()}
    assert set(spans) == {("hopgraph.cypher", "legal/list_document_ids"),
                          ("hopgraph.embed", "query"), ("hopgraph.embed", "documents"),
                          ("hopgraph.llm", "fake")}
    assert spans[("hopgraph.cypher", "legal/list_document_ids")].attributes[
        "db.response.returned_rows"] == 1
    llm = spans[("hopgraph.llm", "fake")].attributes
    assert (llm["gen_ai.usage.input_tokens"], llm["gen_ai.usage.output_tokens"]) == (100, 20)
    # a failing call is recorded on its span and raised as it was
    failing = Hopgraph(RecordingRunner(lambda k, p: (_ for _ in ()).throw(RuntimeError("down"))),
                       tracer_provider=provider, use_llm=False)
    with pytest.raises(RuntimeError, match="down"):
        failing.runner.read("legal/list_document_ids")
    assert exporter.get_finished_spans()[-1].status.status_code.name == "ERROR"


def test_the_langchain_retriever_gives_one_document_per_evidence() -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever

    from hopgraph.integrations.langchain import HopgraphRetriever

    calls: list[dict[str, Any]] = []

    def retrieve(question: str, **kw: Any) -> Any:
        calls.append({"question": question, **kw})
        return _context()

    hg = SimpleNamespace(legal=SimpleNamespace(retrieve=retrieve))
    retriever = HopgraphRetriever(hg=hg, as_of="2024-06-01", k=3)
    assert isinstance(retriever, BaseRetriever)
    docs = retriever.invoke("Mức hưởng?")
    assert all(isinstance(d, Document) for d in docs)
    assert [d.metadata["id"] for d in docs] == ["D:A3.K1", "D:A3.K1@X", "D:A5"]
    assert docs[0].page_content.startswith("[D:A3.K1] ") and "wording of D:A3.K1" in \
        docs[0].page_content
    assert docs[0].metadata["validity"] == "not_in_force"
    assert docs[0].metadata["citation_id"] == f"vn/id/D/x_A3/khoan_1@{AS_OF.isoformat()}"
    assert calls == [{"question": "Mức hưởng?", "k": 3, "as_of": "2024-06-01", "filters": None}]
    only = HopgraphRetriever(hg=hg, applicable_only=True).invoke("Mức hưởng?")
    assert [d.metadata["id"] for d in only] == ["D:A3.K1@X", "D:A5"]
