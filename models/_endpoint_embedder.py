"""An :class:`~hopgraph.agents.Embedder` over an OpenAI-compatible ``/v1/embeddings`` endpoint.

A GPU embedding server (vLLM, Text Embeddings Inference, Ollama, a hosted API) then embeds what
hopgraph loads and asks. Texts go in batches of ``batch_size``; every returned vector must have
the declared dimension (the vector indexes are created with it), and vectors are L2-normalised
here like the local models'.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from hopgraph.core.errors import EmbeddingError
from hopgraph.core.settings import DEFAULT_ENDPOINT_BATCH_SIZE, DEFAULT_ENDPOINT_TIMEOUT_S

Vector = list[float]


class EndpointEmbedder:
    """Embeds through an OpenAI-compatible embeddings endpoint.

    Args:
        base_url: the endpoint's base URL, e.g. ``http://127.0.0.1:8000/v1``.
        model: the model name the server expects.
        dimension: the vector size the server returns; any other size is an error.
        batch_size: texts per request.
        api_key: bearer key, when the server wants one.
        timeout_s: per-request timeout.
        max_retries: retries of connection errors, timeouts, 429 and 5xx (embedding is
            idempotent); the client backs off between them.
        query_prefix: prepended to queries (e.g. ``"query: "`` for E5 models).
        document_prefix: prepended to passages (e.g. ``"passage: "``).

    Raises:
        EmbeddingError: a bad dimension or batch size.
    """

    def __init__(self, *, base_url: str, model: str, dimension: int,
                 batch_size: int = DEFAULT_ENDPOINT_BATCH_SIZE, api_key: str | None = None,
                 timeout_s: float = DEFAULT_ENDPOINT_TIMEOUT_S, max_retries: int = 2,
                 query_prefix: str = "", document_prefix: str = "") -> None:
        if dimension < 1:
            raise EmbeddingError(f"embedding endpoint dimension must be >= 1, got {dimension}")
        if batch_size < 1:
            raise EmbeddingError(f"embedding endpoint batch size must be >= 1, got {batch_size}")
        from openai import OpenAI

        self._client = OpenAI(base_url=base_url, api_key=api_key or "not-needed",
                              timeout=timeout_s, max_retries=max_retries)
        self._base_url = base_url
        self._model = model
        self._dimension = dimension
        self.batch_size = batch_size
        self._query_prefix = query_prefix
        self._document_prefix = document_prefix
        self._lock = threading.Lock()
        self.requests = 0
        """Requests sent so far (one per batch)."""

    @property
    def name(self) -> str:
        # Part of cache keys: vectors of one model on one server are not another's.
        return f"endpoint:{self._model}"

    @property
    def dimension(self) -> int:
        return self._dimension

    def close(self) -> None:
        """Close the HTTP connections."""
        self._client.close()

    def embed_documents(self, texts: Sequence[str]) -> list[Vector]:
        out: list[Vector] = []
        items = [self._document_prefix + t for t in texts]
        for start in range(0, len(items), self.batch_size):
            out.extend(self._embed(items[start:start + self.batch_size]))
        return out

    def embed_query(self, text: str) -> Vector:
        return self._embed([self._query_prefix + text])[0]

    def _embed(self, batch: list[str]) -> list[Vector]:
        if not batch:
            return []
        import openai

        # An empty string is refused by several servers; one space embeds as "nothing".
        inputs = [t if t.strip() else " " for t in batch]
        try:
            with self._lock:
                self.requests += 1
            response = self._client.embeddings.create(input=inputs, model=self._model,
                                                      encoding_format="float")
        except openai.APIError as e:
            raise EmbeddingError(f"embedding endpoint {self._base_url} ({self._model}) "
                                 f"failed: {e}") from e
        data: list[Any] = sorted(getattr(response, "data", None) or [],
                                 key=lambda d: getattr(d, "index", 0))
        if len(data) != len(inputs):
            raise EmbeddingError(f"embedding endpoint {self._base_url} returned {len(data)} "
                                 f"vectors for {len(inputs)} texts")
        vectors = []
        for i, item in enumerate(data):
            vec = getattr(item, "embedding", None)
            if not isinstance(vec, list) or len(vec) != self._dimension:
                size = len(vec) if isinstance(vec, list) else type(vec).__name__
                raise EmbeddingError(
                    f"embedding endpoint {self._base_url} ({self._model}) returned a vector of "
                    f"size {size} for text {i + 1} of the batch; the settings declare "
                    f"{self._dimension} (HOPGRAPH_EMBED_DIMENSION)")
            vectors.append(vec)
        arr = np.asarray(vectors, dtype=np.float32)
        if not np.isfinite(arr).all():
            raise EmbeddingError(f"embedding endpoint {self._base_url} returned non-finite values")
        norms = np.linalg.norm(arr, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return [row.tolist() for row in arr / norms]
