"""Fakes for the sentence-graph unit tests: embedder, tagger, recording runner.

The chat model is ``tests/unit/chat_fakes.PromptChat``, shared with the other pipelines.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest

Record = dict[str, Any]


class FakeEmbedder:
    """Bag-of-words hashing vectors: texts sharing words are similar; deterministic."""

    name = "fake-bow"
    dimension = 64

    def _vec(self, text: str) -> list[float]:
        v = np.zeros(self.dimension, dtype=np.float32)
        for word in text.lower().replace(".", " ").replace(",", " ").split():
            v[int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dimension] += 1.0
        n = float(np.linalg.norm(v)) or 1.0
        return (v / n).tolist()

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._vec(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vec(text)


class FakeTagger:
    """Capitalised words after the first word are 'entities'."""

    def tag(self, sentences: Sequence[str]) -> list[list[tuple[str, str]]]:
        out = []
        for s in sentences:
            words = [w.strip(".,") for w in s.split()[1:]]
            out.append([(w, "PERSON") for w in words if w[:1].isupper()])
        return out


class RecordingRunner:
    """Records (key, params); read results come from a function of (key, params)."""

    def __init__(self, reads: Callable[[str, Mapping[str, Any]], list[Record]] | None = None) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self._reads = reads or (lambda key, params: [])

    def read(self, key: str, **params: Any) -> list[Record]:
        self.calls.append((key, params))
        return self._reads(key, params)

    def write(self, key: str, **params: Any) -> list[Record]:
        self.calls.append((key, params))
        return [{"bridges": 0}] if key == "sentence/rebuild_bridges" else []

    def write_transaction(self, steps: Sequence[tuple[str, Mapping[str, Any]]]) -> list[list[Record]]:
        for key, params in steps:
            self.calls.append((key, dict(params)))
        return [[] for _ in steps]

    def params_of(self, key: str) -> list[dict[str, Any]]:
        return [p for k, p in self.calls if k == key]


def patch_load_sentences(monkeypatch: pytest.MonkeyPatch, embedder: Callable[..., FakeEmbedder]) -> None:
    """Fake models and runner in the module of ``hopgraph load sentences``: ``embedder`` builds
    the embedder (in place of ``embedder_from_settings``), spaCy's tagger is :class:`FakeTagger`
    and the runner a :class:`RecordingRunner`."""
    from hopgraph.cli import load

    module = importlib.import_module(load.lazy["sentences"][0].partition(":")[0])

    @contextmanager
    def open_runner(settings: object, **kwargs: Any) -> Iterator[tuple[RecordingRunner, None]]:
        yield RecordingRunner(), None

    monkeypatch.setattr(module, "embedder_from_settings", embedder)
    monkeypatch.setattr(module.SpacyTagger, "load", classmethod(lambda cls: FakeTagger()))
    monkeypatch.setattr(module, "open_runner", open_runner)
