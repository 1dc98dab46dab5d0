"""Sentence and passage lookups ask the approximate vector index for a wider pool than they keep."""

from __future__ import annotations

from typing import Any

from hopgraph.retrieval import find_anchor_sentences, find_passages
from hopgraph.retrieval._sentence import ANN_CANDIDATES, ann_candidates


class _Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def read(self, key: str, **params: Any) -> list[dict[str, Any]]:
        self.calls.append((key, params))
        return []


def test_the_index_is_asked_for_at_least_the_pool_and_k_are_kept() -> None:
    assert ann_candidates(10) == ANN_CANDIDATES >= 20
    assert ann_candidates(ANN_CANDIDATES + 5) == ANN_CANDIDATES + 5
    runner = _Recorder()
    find_anchor_sentences(runner, [0.1, 0.2], 10)
    find_passages(runner, [0.1, 0.2], 2)
    assert [(k, p["k"], p["candidates"]) for k, p in runner.calls] == [
        ("sentence/find_anchor_sentences", 10, ANN_CANDIDATES),
        ("sentence/find_passages", 2, ANN_CANDIDATES)]
