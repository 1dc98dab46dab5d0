"""A load embeds its units in chunks (issue 26: a corpus takes hours on CPU cores): the operator
sees the embedding advance, and a vector cache holds every chunk done when the load stops, so
the next load embeds only the rest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hopgraph.loaders.legal import SAMPLES_DIR, _loader, load_legal
from hopgraph.models import CachedEmbedder
from tests.unit.fakes import RecordingRunner


class CountingEmbedder:
    """Unit vectors from the text's length; fails on call ``fail_at`` (1-based) when set."""

    name = "counting"
    dimension = 4

    def __init__(self, fail_at: int | None = None) -> None:
        self.calls: list[int] = []
        self.fail_at = fail_at

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(len(texts))
        if self.fail_at is not None and len(self.calls) == self.fail_at:
            raise RuntimeError("stopped half-way")
        return [[1.0, 0.0, 0.0, float(len(t) % 7)] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return [1.0, 0.0, 0.0, 0.0]


def _runner() -> RecordingRunner:
    def answer(key: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        return []

    return RecordingRunner(answer, check_params=True, refuse={"write", "read_transaction"})


def test_units_are_embedded_in_chunks_and_each_gets_its_own_vector(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(_loader, "EMBED_CHUNK", 16)
    embedder = CountingEmbedder()
    report = load_legal(_runner(), embedder, [SAMPLES_DIR], segmenter=lambda t: t,  # type: ignore[arg-type]
                        incremental=False, progress=True)
    assert report.embedded > 16 and sum(embedder.calls) == report.embedded
    assert max(embedder.calls) == 16 and len(embedder.calls) == -(-report.embedded // 16)
    assert "embedding passages" in capsys.readouterr().err


def test_a_load_stopped_while_embedding_keeps_the_chunks_done_in_the_cache(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(_loader, "EMBED_CHUNK", 16)
    first = CountingEmbedder(fail_at=3)
    with pytest.raises(RuntimeError, match="half-way"):
        load_legal(_runner(), CachedEmbedder(first, tmp_path), [SAMPLES_DIR],  # type: ignore[arg-type]
                   segmenter=lambda t: t, incremental=False)
    again = CountingEmbedder()
    cached = CachedEmbedder(again, tmp_path)  # type: ignore[arg-type]
    report = load_legal(_runner(), cached, [SAMPLES_DIR], segmenter=lambda t: t,
                        incremental=False)
    # the two chunks done before the stop come from the cache (texts repeated within the
    # samples are embedded once, so the cache saved at least one chunk's worth)
    assert cached.hits >= 16 and sum(again.calls) <= report.embedded - 16
