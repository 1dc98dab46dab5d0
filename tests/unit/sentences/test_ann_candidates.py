"""Sentence and passage lookups ask the approximate vector index for a wider pool than they keep."""

from __future__ import annotations

from hopgraph.retrieval import find_anchor_sentences, find_passages
from hopgraph.retrieval._sentence import ANN_CANDIDATES, ann_candidates
from tests.unit.sentences.fakes import RecordingRunner


def test_the_index_is_asked_for_at_least_the_pool_and_k_are_kept() -> None:
    assert ann_candidates(10) == ANN_CANDIDATES >= 20
    assert ann_candidates(ANN_CANDIDATES + 5) == ANN_CANDIDATES + 5
    runner = RecordingRunner()
    find_anchor_sentences(runner, [0.1, 0.2], 10)
    find_passages(runner, [0.1, 0.2], 2)
    assert [(k, p["k"], p["candidates"]) for k, p in runner.calls] == [
        ("sentence/find_anchor_sentences", 10, ANN_CANDIDATES),
        ("sentence/find_passages", 2, ANN_CANDIDATES)]
