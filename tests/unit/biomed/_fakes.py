"""Fakes for the biomedical unit tests: a recording query runner and embedders.

The chat model is ``tests/unit/chat_fakes.PromptChat``, shared with the other pipelines.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np


class FakeRunner:
    """Records (key, params); answers reads with a handler per key."""

    def __init__(self, handlers: Mapping[str, Callable[[dict[str, Any]], list[dict[str, Any]]]] | None = None) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.handlers = dict(handlers or {})

    def read(self, key: str, **params: Any) -> list[dict[str, Any]]:
        self.calls.append((key, params))
        return self.handlers[key](params) if key in self.handlers else []

    def write(self, key: str, **params: Any) -> list[dict[str, Any]]:
        self.calls.append((key, params))
        return self.handlers[key](params) if key in self.handlers else []

    def write_transaction(self, steps: Sequence[tuple[str, Mapping[str, Any]]]) -> list[list[dict[str, Any]]]:
        return [self.write(k, **dict(p)) for k, p in steps]


class BagEmbedder:
    """Deterministic bag-of-words hashing embedder (shared words -> similar vectors)."""

    name = "bag"
    dimension = 64

    def _vec(self, text: str) -> list[float]:
        v = np.zeros(self.dimension, dtype=np.float32)
        for w in text.lower().split():
            v[int(hashlib.md5(w.strip(".,?").encode()).hexdigest(), 16) % self.dimension] += 1.0
        n = float(np.linalg.norm(v)) or 1.0
        return (v / n).tolist()

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._vec(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vec(text)


class CountingEmbedder(BagEmbedder):
    """BagEmbedder that records every text it embeds."""

    def __init__(self, name: str = "bag") -> None:
        self.name = name
        self.documents: list[str] = []
        self.queries: list[str] = []

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        self.documents.extend(texts)
        return super().embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return super().embed_query(text)
