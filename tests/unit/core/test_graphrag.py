"""neo4j-graphrag adapters with small fakes (no database, no network); skips without the extra."""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("neo4j_graphrag")

from neo4j_graphrag.embeddings.base import Embedder as GREmbedder
from neo4j_graphrag.exceptions import EmbeddingsGenerationError, LLMGenerationError
from neo4j_graphrag.generation import GraphRAG
from neo4j_graphrag.llm.base import LLMInterface, LLMInterfaceV2
from neo4j_graphrag.llm.types import LLMResponse, LLMUsage
from neo4j_graphrag.retrievers.base import Retriever

from hopgraph import Hopgraph
from hopgraph.core.errors import EmbeddingError, LLMError, RetrievalError
from hopgraph.core.ports import ChatModel, Embedder
from hopgraph.integrations.graphrag import (
    GraphragChatModel,
    GraphragEmbedder,
    HopgraphEmbedder,
    HopgraphLegalRetriever,
    HopgraphSentenceRetriever,
    as_chat_model,
    as_embedder,
)
from tests.unit.core.test_results import _context


class VectorEmbedder(GREmbedder):
    """A neo4j-graphrag embedder: ``[3, 4]`` for every text (``[3, 4, 0]`` for 'long')."""

    model = "fixed-2"

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def embed_query(self, text: str) -> list[float]:
        self.calls.append(text)
        if text == "broken":
            raise EmbeddingsGenerationError("server said no")
        return [3.0, 4.0, 0.0] if text == "long" else [3.0, 4.0]


class V2LLM(LLMInterfaceV2):
    """Records every call; replies with the last message's content, reversed."""

    supports_structured_output = True

    def __init__(self) -> None:
        super().__init__(model_name="fake-v2")
        self.calls: list[tuple[Any, dict[str, Any]]] = []

    def invoke(self, input: Any, *, response_format: Any = None, **kwargs: Any) -> LLMResponse:
        self.calls.append((input, {"response_format": response_format, **kwargs}))
        if input[-1]["content"] == "fail":
            raise LLMGenerationError("endpoint down")
        return LLMResponse(content=input[-1]["content"][::-1],
                           usage=LLMUsage(request_tokens=7, response_tokens=3, total_tokens=10))

    async def ainvoke(self, input: Any, *, response_format: Any = None,
                      **kwargs: Any) -> LLMResponse:
        return self.invoke(input, response_format=response_format, **kwargs)


class V1LLM(LLMInterface):
    """The older interface: a string input, history and a system instruction."""

    def __init__(self) -> None:
        super().__init__(model_name="fake-v1")
        self.calls: list[tuple[str, Any, Any]] = []

    def invoke(self, input: str, message_history: Any = None,
               system_instruction: str | None = None) -> LLMResponse:
        self.calls.append((input, message_history, system_instruction))
        return LLMResponse(content=f"v1:{input}")

    async def ainvoke(self, input: str, message_history: Any = None,
                      system_instruction: str | None = None) -> LLMResponse:
        return self.invoke(input, message_history, system_instruction)


class HashingPort:
    """A hopgraph embedder (the port)."""

    name = "port"
    dimension = 2

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0, 0.0] for _ in texts]

    def embed_query(self, text: str) -> list[float]:
        return [0.0, 1.0]


def test_a_graphrag_embedder_is_hopgraphs_embedder_port() -> None:
    inner = VectorEmbedder()
    emb = GraphragEmbedder(inner)
    assert isinstance(emb, Embedder) and emb.name == "graphrag:VectorEmbedder:fixed-2"
    assert emb.embed_query("q") == pytest.approx([0.6, 0.8])  # L2-normalised
    assert emb.dimension == 2 and inner.calls == ["dimension probe", "q"]  # probed once
    assert emb.embed_documents(["a", "b"]) == [pytest.approx([0.6, 0.8])] * 2
    with pytest.raises(EmbeddingError, match=r"size 3, but its dimension is 2"):
        emb.embed_query("long")
    with pytest.raises(EmbeddingError, match="server said no"):
        emb.embed_query("broken")
    declared = GraphragEmbedder(VectorEmbedder(), dimension=3, name="mine")
    with pytest.raises(EmbeddingError, match=r"mine returned a vector of size 2, but its dimension is 3"):
        declared.embed_documents(["x"])
    with pytest.raises(EmbeddingError, match="dimension must be >= 1"):
        GraphragEmbedder(VectorEmbedder(), dimension=0)


def test_hopgraphs_embedder_is_a_graphrag_embedder_and_unwraps() -> None:
    port = HashingPort()
    wrapped = HopgraphEmbedder(port)
    assert isinstance(wrapped, GREmbedder)
    assert wrapped.embed_query("q") == [0.0, 1.0] and wrapped.embed_documents(["a"]) == [[1.0, 0.0]]
    assert as_embedder(wrapped) is port and as_embedder(port) is port
    assert isinstance(as_embedder(VectorEmbedder()), GraphragEmbedder)


def test_a_v2_llm_is_hopgraphs_chat_model() -> None:
    llm = V2LLM()
    chat = GraphragChatModel(llm)
    assert isinstance(chat, ChatModel) and chat.model == "fake-v2"
    messages = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "abc"}]
    result = chat.complete(messages, max_tokens=64, temperature=0.2, json_mode=True)
    assert (result.text, result.prompt_tokens, result.completion_tokens) == ("cba", 7, 3)
    sent, params = llm.calls[-1]
    assert sent == messages
    assert params == {"response_format": {"type": "json_object"}, "max_tokens": 64,
                      "temperature": 0.2}
    chat.complete(messages, schema={"type": "object"})
    assert llm.calls[-1][1]["response_format"]["json_schema"]["schema"] == {"type": "object"}
    GraphragChatModel(llm, forward_params=False).complete(messages, json_mode=True)
    assert llm.calls[-1][1] == {"response_format": None}
    with pytest.raises(LLMError, match=r"fake-v2 failed: .*endpoint down"):
        chat.complete([{"role": "user", "content": "fail"}])
    with pytest.raises(LLMError, match="no messages"):
        chat.complete([])


def test_a_v1_llm_gets_input_history_and_system_instruction() -> None:
    llm = V1LLM()
    chat = as_chat_model(llm)
    assert isinstance(chat, GraphragChatModel)
    result = chat.complete([{"role": "system", "content": "S"}, {"role": "user", "content": "one"},
                            {"role": "assistant", "content": "two"},
                            {"role": "user", "content": "three"}])
    assert result.text == "v1:three" and result.prompt_tokens == 0
    assert llm.calls == [("three", [{"role": "user", "content": "one"},
                                    {"role": "assistant", "content": "two"}], "S")]
    with pytest.raises(LLMError, match="only system messages"):
        chat.complete([{"role": "system", "content": "S"}])


def test_the_front_door_wraps_graphrag_objects() -> None:
    llm = V2LLM()
    hg = Hopgraph("bolt://127.0.0.1:9", legal_embedder=VectorEmbedder(),
                  english_embedder=HopgraphEmbedder(HashingPort()), chat=llm)
    assert isinstance(hg.embedder("legal"), GraphragEmbedder)
    assert isinstance(hg.embedder("english"), HashingPort)  # unwrapped
    assert isinstance(hg.chat, GraphragChatModel) and hg.chat.llm is llm
    port = HashingPort()
    assert Hopgraph("bolt://127.0.0.1:9", legal_embedder=port).embedder("legal") is port


def _fake_hg(ctx: Any = None, sentences: Any = None) -> Any:
    return SimpleNamespace(legal=SimpleNamespace(retrieve=lambda q, **kw: ctx),
                           sentences=SimpleNamespace(retrieve=lambda q, **kw: sentences))


def test_the_legal_retriever_gives_one_item_per_evidence() -> None:
    retriever = HopgraphLegalRetriever(_fake_hg(_context()))
    assert isinstance(retriever, Retriever)
    result = retriever.search(query_text="q", top_k=3)
    assert [i.metadata["id"] for i in result.items if i.metadata] == ["D:A3.K1", "D:A3.K1@X", "D:A5"]
    first = result.items[0]
    assert first.content.startswith("[D:A3.K1] ") and "wording of D:A3.K1" in first.content
    assert first.metadata == {"domain": "legal", "id": "D:A3.K1", "role": "seed", "score": 0.9,
                              "citation": "khoản 1 Điều 3 (D:A3.K1)", "validity": "not_in_force",
                              "validity_note": "superseded at 2024-06-01",
                              "provenance": "12/2016/NĐ-MAU Điều 3 › Khoản 1",
                              "citation_id": "vn/id/D/x_A3/khoan_1@2024-06-01"}
    assert result.metadata is not None and result.metadata["as_of"] == "2024-06-01"
    assert result.metadata["__retriever"] == "HopgraphLegalRetriever"
    only = HopgraphLegalRetriever(_fake_hg(_context()), applicable_only=True).search(query_text="q")
    assert [i.metadata["id"] for i in only.items if i.metadata] == ["D:A3.K1@X", "D:A5"]
    tool = retriever.convert_to_tool("legal", "Vietnamese regulations in force")  # for agents
    assert tool.get_parameters()["properties"]["top_k"]["type"] == "integer"
    custom = HopgraphLegalRetriever(_fake_hg(_context()),
                                    result_formatter=lambda r: type(first)(content=r["citation"]))
    assert custom.search(query_text="q").items[0].content == "khoản 1 Điều 3 (D:A3.K1)"
    with pytest.raises(RetrievalError, match="top_k"):
        retriever.search(query_text="q", top_k=0)


def test_graphrag_sends_the_evidence_to_the_llm() -> None:
    from hopgraph.agents.sentences import EvidenceSentence, SentenceRetrieval

    found = SentenceRetrieval("q", [], [], False, "off", [
        EvidenceSentence("p#s0", "p", 0, "Babbage died in Marylebone.", 0.9, ("p#s0",), ())])
    llm = V2LLM()
    rag = GraphRAG(retriever=HopgraphSentenceRetriever(_fake_hg(sentences=found)), llm=llm)
    answer = rag.search("Where did Babbage die?", return_context=True)
    prompt = llm.calls[-1][0][-1]["content"]
    assert "[p#s0]\nBabbage died in Marylebone." in prompt and answer.answer == prompt[::-1]
    assert answer.retriever_result is not None and len(answer.retriever_result.items) == 1
