"""The int8 ONNX graph is checked against fp32 at first use; batches are bucketed by token count."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from hopgraph.core.errors import ConfigError
from hopgraph.core.settings import Settings
from hopgraph.models import SentenceTransformerEmbedder, _onnx

TEXTS = [
    "Which drugs target the protein encoded by BRCA1?",
    "aspirin",
    "Người lao động được nghỉ hằng năm 12 ngày làm việc đối với người làm công việc bình thường.",
    "",
    "hypertension " * 300,
    "a medium sentence about genes",
]


@pytest.fixture(scope="module")
def onnx_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("onnx")


@pytest.fixture(scope="module")
def fp32(onnx_dir: Path) -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(backend="onnx", onnx_dir=onnx_dir, threads=1)


@pytest.fixture(scope="module")
def int8(onnx_dir: Path, fp32: SentenceTransformerEmbedder) -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(backend="onnx", onnx_dir=onnx_dir, threads=1,
                                       precision="int8")


@pytest.mark.slow  # one MiniLM export and one quantisation per module (20-60 s)
def test_int8_is_close_to_fp32_and_cached(int8: SentenceTransformerEmbedder,
                                          fp32: SentenceTransformerEmbedder,
                                          onnx_dir: Path) -> None:
    assert int8.precision == "int8" and fp32.precision == "fp32"
    assert int8.name == "all-MiniLM-L6-v2-int8" and fp32.name == "all-MiniLM-L6-v2"
    got = np.asarray(int8.embed_documents(TEXTS))
    want = np.asarray(fp32.embed_documents(TEXTS))
    cos = np.sum(got * want, axis=1)
    assert cos.min() >= _onnx.MIN_INT8_COSINE
    assert cos.max() < 0.99999  # really the quantised weights, not the fp32 graph again
    cached = [p.name for p in onnx_dir.glob("*.onnx")]
    quantised = [n for n in cached if n.endswith(".int8.onnx")]
    assert len(cached) == 2 and len(quantised) == 1
    # A second embedder reuses the cached file: same bytes on disk, same vectors.
    stamp = (onnx_dir / quantised[0]).stat().st_mtime_ns
    again = SentenceTransformerEmbedder(backend="onnx", onnx_dir=onnx_dir, threads=1,
                                        precision="int8")
    assert (onnx_dir / quantised[0]).stat().st_mtime_ns == stamp
    assert np.allclose(np.asarray(again.embed_documents(TEXTS)), got, atol=1e-6)


@pytest.mark.slow
def test_int8_too_far_from_fp32_falls_back_with_one_warning(
        fp32: SentenceTransformerEmbedder, onnx_dir: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(_onnx, "MIN_INT8_COSINE", 1.01)  # no quantised graph reaches it
    with caplog.at_level(logging.WARNING, logger="hopgraph.models"):
        emb = SentenceTransformerEmbedder(backend="onnx", onnx_dir=onnx_dir, threads=1,
                                          precision="int8")
    assert emb.precision == "fp32" and emb.name == "all-MiniLM-L6-v2"
    lines = [r.getMessage() for r in caplog.records if r.name == "hopgraph.models"]
    assert len(lines) == 1 and "differs from fp32" in lines[0] and "embedding in fp32" in lines[0]
    vectors = np.asarray(emb.embed_documents(TEXTS))
    assert np.allclose(vectors, np.asarray(fp32.embed_documents(TEXTS)), atol=1e-6)


@pytest.mark.slow
def test_batches_are_bucketed_by_token_count(fp32: SentenceTransformerEmbedder) -> None:
    encoder = fp32._onnx
    assert encoder is not None
    encoder.token_budget = 600
    try:
        batches = encoder.batches(TEXTS, batch_size=4)
        widths = [int(feed["attention_mask"].sum(1).max()) for _, feed in batches]
        lengths = [feed["attention_mask"].sum(1).tolist() for _, feed in batches]
        flat = [n for group in lengths for n in group]
        assert flat == sorted(flat)  # sorted by token count
        assert sorted(i for group, _ in batches for i in group) == list(range(len(TEXTS)))
        for (group, feed), width in zip(batches, widths, strict=True):
            assert len(group) <= 4
            assert feed["input_ids"].shape == (len(group), width)  # padded to its own longest
            assert len(group) == 1 or len(group) * width <= 600
        plain = encoder.batches(TEXTS, batch_size=4, bucketed=False)
        assert [g for g, _ in plain] == [[0, 1, 2, 3], [4, 5]]
        # Same vectors, in input order, however the texts were batched.
        a = encoder.encode(TEXTS, batch_size=4)
        b = encoder.encode(TEXTS, batch_size=4, bucketed=False)
        assert np.all(np.sum(a * b, axis=1) > 0.99999)
    finally:
        encoder.token_budget = _onnx.DEFAULT_TOKEN_BUDGET


def test_unknown_precision_is_one_clear_error() -> None:
    with pytest.raises(ConfigError, match="HOPGRAPH_EMBED_PRECISION must be one of"):
        Settings.from_env({"HOPGRAPH_EMBED_PRECISION": "int4"})
    assert Settings.from_env({"HOPGRAPH_EMBED_PRECISION": "int8"}).embedder.precision == "int8"
    assert Settings.from_env({}).embedder.precision == "fp32"
