"""One legal ``ask`` against the real server with an OpenTelemetry tracer provider (the SDK's
in-memory exporter): the spans show the embedding, each Cypher call and the LLM call
(issue 25 item 6). Skips without opentelemetry-sdk."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

import pytest

from hopgraph import Hopgraph
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal
from tests.unit.agents.fakes import FakeChat

pytestmark = pytest.mark.integration
QUESTION = ("Theo Nghị định 12/2016/NĐ-MAU, khi khám bệnh trái tuyến tại bệnh viện tuyến trung "
            "ương thì được thanh toán bao nhiêu phần trăm chi phí điều trị nội trú?")


class HashEmbedder:
    """Deterministic 384-dimensional vectors (the schema's dimension); no model is loaded."""

    name = "hash-384"
    dimension = 384

    def embed_query(self, text: str) -> list[float]:
        digest = hashlib.sha256(text.encode()).digest()
        return [((digest[i % 32] + i) % 17 - 8) / 8.0 for i in range(self.dimension)]

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.embed_query(t) for t in texts]


def test_one_ask_shows_embedding_cypher_and_llm_spans(runner: Neo4jRunner) -> None:
    sdk = pytest.importorskip("opentelemetry.sdk.trace")
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    load_legal(runner, None, [SAMPLES_DIR])
    exporter = InMemorySpanExporter()
    provider = sdk.TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    draft = json.dumps({"sentences": [{"text": "Được thanh toán 70% chi phí điều trị nội trú.",
                                       "evidence": ["E1"]}]}, ensure_ascii=False)
    hg = Hopgraph(runner, legal_embedder=HashEmbedder(), chat=FakeChat([lambda _m: draft]),
                  tracer_provider=provider)
    answer = hg.legal.ask(QUESTION, as_of="2024-06-01")
    assert "writer" in answer.route, answer.text
    spans = exporter.get_finished_spans()
    kinds = {s.name for s in spans}
    assert {"hopgraph.embed", "hopgraph.cypher", "hopgraph.llm"} <= kinds, kinds
    cypher = [s.attributes["db.operation.name"] for s in spans if s.name == "hopgraph.cypher"]
    assert "legal/retrieve_context" in cypher
    assert all(s.attributes["db.system.name"] == "neo4j" for s in spans
               if s.name == "hopgraph.cypher")
    assert all(s.end_time >= s.start_time for s in spans)
