"""An OpenAI-compatible embeddings endpoint as the embedder, loading and retrieving against a real
Neo4j. The endpoint is a real HTTP server started here (stdlib): ``POST /v1/embeddings`` returns
hashed bag-of-words vectors, so similar texts get similar vectors."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from hopgraph import Hopgraph
from hopgraph.core.errors import EmbeddingError
from hopgraph.core.settings import DEFAULT_EMBEDDING_DIM
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR

from .conftest import TEST_DATABASE, Server
from .local_http import send_json, serve

pytestmark = pytest.mark.integration


def _vector(text: str, dim: int) -> list[float]:
    vec = [0.0] * dim
    for word in text.lower().split():
        vec[int(hashlib.md5(word.encode()).hexdigest(), 16) % dim] += 1.0
    return vec


class _Endpoint(BaseHTTPRequestHandler):
    dim = DEFAULT_EMBEDDING_DIM
    batches: list[int] = []  # noqa: RUF012 (shared by the handler instances of one server)

    def do_POST(self) -> None:
        body: dict[str, Any] = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path != "/v1/embeddings":
            self.send_error(404)
            return
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        self.batches.append(len(texts))
        dim = self.dim - 1 if body["model"] == "wrong-size" else self.dim
        reply = json.dumps({"object": "list", "model": body["model"],
                            "data": [{"object": "embedding", "index": i,
                                      "embedding": _vector(t, dim)} for i, t in enumerate(texts)],
                            "usage": {"prompt_tokens": 0, "total_tokens": 0}}).encode()
        send_json(self, reply)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture()
def endpoint() -> Iterator[str]:
    _Endpoint.batches = []
    with serve(_Endpoint) as url:
        yield url


def _env(server: Server, base_url: str, model: str, home: Path) -> dict[str, str]:
    # A home of the test's own: the passage-vector cache must not answer for the endpoint.
    return {"HOPGRAPH_HOME": str(home), "NEO4J_URI": server.uri, "NEO4J_USER": server.user,
            "NEO4J_PASSWORD": server.password, "NEO4J_DATABASE": TEST_DATABASE,
            "HOPGRAPH_LEGAL_EMBEDDER": "openai", "HOPGRAPH_EMBED_BASE_URL": base_url,
            "HOPGRAPH_EMBED_MODEL": model, "HOPGRAPH_EMBED_DIMENSION": str(DEFAULT_EMBEDDING_DIM),
            "HOPGRAPH_EMBED_BATCH_SIZE": "16"}


def test_load_and_retrieve_through_the_endpoint(runner: Neo4jRunner, schema_installed: Server,
                                                endpoint: str, tmp_path: Path) -> None:
    with Hopgraph.from_env(_env(schema_installed, endpoint, "bow-384", tmp_path), use_llm=False) as hg:
        report = hg.load.legal(SAMPLES_DIR)
        assert report.documents and not report.skipped
        assert _Endpoint.batches and max(_Endpoint.batches) <= 16  # batched as configured
        rows, _, _ = schema_installed.driver.execute_query(
            "MATCH (u:LegalUnit) WHERE u.embedding IS NOT NULL RETURN count(u) AS n, "
            "min(size(u.embedding)) AS lo, max(size(u.embedding)) AS hi",
            database_=TEST_DATABASE)
        assert rows[0]["n"] > 0 and rows[0]["lo"] == rows[0]["hi"] == DEFAULT_EMBEDDING_DIM
        requests_before = len(_Endpoint.batches)
        ctx = hg.legal.retrieve("Mức hưởng bảo hiểm y tế khi khám trái tuyến?",
                                as_of="2024-06-01", k=3)
        assert len(_Endpoint.batches) == requests_before + 1  # the question, one request
        assert ctx.items and any("12/2016/NĐ-MAU" in it.citation for it in ctx.items)
        assert hg.embedder("legal").name == "endpoint:bow-384"


def test_a_vector_of_the_wrong_size_is_refused(runner: Neo4jRunner, schema_installed: Server,
                                               endpoint: str, tmp_path: Path) -> None:
    with Hopgraph.from_env(_env(schema_installed, endpoint, "wrong-size", tmp_path), use_llm=False) as hg:
        with pytest.raises(EmbeddingError, match=r"size 383 .* declare 384"):
            hg.embedder("legal").embed_query("bảo hiểm y tế")
        # A misconfigured endpoint is no document's fault: the load stops, saying why.
        with pytest.raises(EmbeddingError, match=r"size 383 .*\(HOPGRAPH_EMBED_DIMENSION\)"):
            hg.load.legal(SAMPLES_DIR)


def test_an_unreachable_endpoint_is_an_embedding_error(schema_installed: Server,
                                                       tmp_path: Path) -> None:
    env = _env(schema_installed, "http://127.0.0.1:9/v1", "bow-384", tmp_path)
    with Hopgraph.from_env(env, use_llm=False) as hg:
        embedder = hg.embedder("legal")
        with pytest.raises(EmbeddingError, match=r"127\.0\.0\.1:9/"):
            embedder.embed_documents(["một", "hai"])
