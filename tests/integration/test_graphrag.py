"""neo4j-graphrag against a real Neo4j: ``GraphRAG`` over hopgraph's legal retriever, end to end.

The LLM is neo4j-graphrag's own ``OpenAILLM`` pointed at a real HTTP server started here (stdlib,
as in ``test_embedding_endpoint.py``): ``POST /v1/chat/completions`` echoes the prompt it got, so
the test sees what reached the LLM. The legal samples are loaded through the front door with a
neo4j-graphrag ``Embedder`` (hashed bag of words), which the front door wraps in hopgraph's port.
Skips without the ``graphrag`` extra.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

pytest.importorskip("neo4j_graphrag")

from neo4j_graphrag.embeddings.base import Embedder as GraphragEmbedderBase
from neo4j_graphrag.generation import GraphRAG
from neo4j_graphrag.llm import OpenAILLM

from hopgraph import Hopgraph
from hopgraph.db import Neo4jRunner
from hopgraph.integrations.graphrag import (
    GraphragChatModel,
    GraphragEmbedder,
    HopgraphBiomedRetriever,
    HopgraphLegalRetriever,
)
from hopgraph.loaders.biomed import SAMPLE_TRIPLETS
from hopgraph.loaders.legal import SAMPLES_DIR
from tests.retrieval_fixtures import HashEmbedder

from .conftest import TEST_DATABASE, Server
from .local_http import send_json, serve

pytestmark = pytest.mark.integration
QUESTION = "Mức hưởng bảo hiểm y tế khi khám trái tuyến?"


class HashGraphragEmbedder(GraphragEmbedderBase):
    """A neo4j-graphrag embedder (only ``embed_query``) with the hashed vectors of the tests."""

    def __init__(self) -> None:
        super().__init__()
        self._hash = HashEmbedder()
        self.calls = 0

    def embed_query(self, text: str) -> list[float]:
        self.calls += 1
        return self._hash.embed_query(text)


class _Chat(BaseHTTPRequestHandler):
    requests: list[dict[str, Any]] = []  # noqa: RUF012 (shared by the handler instances)

    def do_POST(self) -> None:
        body: dict[str, Any] = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path != "/v1/chat/completions":
            self.send_error(404)
            return
        self.requests.append(body)
        prompt = body["messages"][-1]["content"]
        reply = json.dumps({
            "id": "echo-1", "object": "chat.completion", "created": 0, "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": "ECHO " + prompt}}],
            "usage": {"prompt_tokens": len(prompt.split()), "completion_tokens": 1,
                      "total_tokens": len(prompt.split()) + 1}}).encode()
        send_json(self, reply)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture()
def chat_endpoint() -> Iterator[str]:
    _Chat.requests = []
    with serve(_Chat) as url:
        yield url


def test_graphrag_answers_from_hopgraphs_legal_evidence(runner: Neo4jRunner,
                                                        schema_installed: Server,
                                                        chat_endpoint: str) -> None:
    embedder = HashGraphragEmbedder()
    llm = OpenAILLM(model_name="echo", base_url=chat_endpoint, api_key="not-needed")
    with Hopgraph(schema_installed.driver, database=TEST_DATABASE, legal_embedder=embedder,
                  chat=llm) as hg:
        assert isinstance(hg.embedder("legal"), GraphragEmbedder)
        report = hg.load.legal(SAMPLES_DIR)  # passages embedded through the wrapped embedder
        assert "12/2016/NĐ-MAU" in report.documents and not report.skipped
        assert embedder.calls > len(report.documents)
        rows, _, _ = schema_installed.driver.execute_query(
            "MATCH (u:LegalUnit) WHERE u.embedding IS NOT NULL RETURN count(u) AS n, "
            "min(size(u.embedding)) AS dim", database_=TEST_DATABASE)
        assert rows[0]["n"] > 0 and rows[0]["dim"] == 384

        retriever = HopgraphLegalRetriever(hg, as_of="2024-06-01")
        rag = GraphRAG(retriever=retriever, llm=llm)
        result = rag.search(QUESTION, retriever_config={"top_k": 3}, return_context=True)

        assert result.retriever_result is not None
        items = result.retriever_result.items
        assert items and all(i.metadata and i.metadata["domain"] == "legal" for i in items)
        assert any("12/2016/NĐ-MAU" in (i.metadata or {}).get("citation", "") for i in items)
        expected = hg.legal.retrieve(QUESTION, as_of="2024-06-01", k=3).to_evidence()
        assert [i.metadata["id"] for i in items if i.metadata] == [e.id for e in expected]
        # The evidence reached the LLM's prompt: the server got it and echoed it back.
        prompt = _Chat.requests[-1]["messages"][-1]["content"]
        assert QUESTION in prompt
        for ev in expected:
            assert ev.render() in prompt and ev.text in result.answer
        assert result.answer.startswith("ECHO ")

        # The same neo4j-graphrag LLM serves as hopgraph's chat model.
        assert isinstance(hg.chat, GraphragChatModel)
        reply = hg.chat.complete([{"role": "system", "content": "Be brief."},
                                  {"role": "user", "content": "bảo hiểm y tế"}], max_tokens=16)
        assert reply.text == "ECHO bảo hiểm y tế" and reply.prompt_tokens == 4
        assert _Chat.requests[-1]["max_tokens"] == 16
        assert _Chat.requests[-1]["messages"][0] == {"role": "system", "content": "Be brief."}


def test_the_biomed_retriever_gives_the_region(runner: Neo4jRunner,
                                               schema_installed: Server) -> None:
    with Hopgraph(schema_installed.driver, database=TEST_DATABASE,
                  english_embedder=HashGraphragEmbedder(), use_llm=False) as hg:
        hg.load.primekg(SAMPLE_TRIPLETS)
        found = HopgraphBiomedRetriever(hg).search(query_text="Which drug targets ABL1?",
                                                   top_k=5)
        assert found.items and len(found.items) <= 5
        assert any("ABL1" in str(i.content) for i in found.items)
        assert all(i.metadata and i.metadata["role"] == "triplet" for i in found.items)
        assert found.metadata is not None and found.metadata["candidates"] >= len(found.items)
