"""The ONNX Runtime backend of the MiniLM embedder gives torch's vectors and fails safely."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hopgraph.core.errors import EmbeddingError
from hopgraph.models import SentenceTransformerEmbedder

TEXTS = [
    "Which drugs target the protein encoded by BRCA1?",
    "aspirin",
    "",
    "hypertension " * 300,  # longer than the model's 256 tokens: truncated the same way
]


@pytest.fixture(scope="module")
def onnx_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("onnx")


@pytest.fixture(scope="module")
def torch_embedder() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(backend="torch")


@pytest.fixture(scope="module")
def onnx_embedder(onnx_dir: Path) -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(backend="onnx", onnx_dir=onnx_dir)


@pytest.mark.slow  # these share one ONNX export of MiniLM per module (10-45 s)
def test_onnx_vectors_match_torch(onnx_embedder: SentenceTransformerEmbedder,
                                  torch_embedder: SentenceTransformerEmbedder) -> None:
    assert onnx_embedder.backend == "onnx"
    assert torch_embedder.backend == "torch"
    got = np.asarray(onnx_embedder.embed_documents(TEXTS))
    want = np.asarray(torch_embedder.embed_documents(TEXTS))
    assert got.shape == want.shape == (len(TEXTS), 384)
    assert np.all(np.sum(got * want, axis=1) > 0.99999)
    q = np.asarray(onnx_embedder.embed_query(TEXTS[0]))
    assert float(q @ want[0]) > 0.99999
    assert abs(float(np.linalg.norm(q)) - 1.0) < 1e-5


@pytest.mark.slow
def test_batch_order_is_kept(onnx_embedder: SentenceTransformerEmbedder) -> None:
    # The encoder sorts by length to pad less; results come back in input order.
    texts = ["a much longer sentence about pathways and genes", "gene", "a medium sentence"]
    batch = np.asarray(onnx_embedder.embed_documents(texts))
    one_by_one = np.asarray([onnx_embedder.embed_query(t) for t in texts])
    assert np.all(np.sum(batch * one_by_one, axis=1) > 0.99999)


@pytest.mark.slow
def test_export_is_cached(onnx_embedder: SentenceTransformerEmbedder, onnx_dir: Path) -> None:
    files = list(onnx_dir.glob("*.onnx"))
    assert [f.name.startswith("all-MiniLM-L6-v2-") for f in files] == [True]
    before = files[0].stat().st_mtime_ns
    again = SentenceTransformerEmbedder(backend="onnx", onnx_dir=onnx_dir)
    assert again.backend == "onnx"
    assert files[0].stat().st_mtime_ns == before
    assert not list(onnx_dir.glob("*.part"))


@pytest.mark.slow
def test_broken_cached_graph(onnx_embedder: SentenceTransformerEmbedder, tmp_path: Path) -> None:
    assert onnx_embedder._onnx is not None
    (tmp_path / onnx_embedder._onnx.path.name).write_bytes(b"not an onnx graph")
    with pytest.raises(EmbeddingError, match="cannot open ONNX graph"):
        SentenceTransformerEmbedder(backend="onnx", onnx_dir=tmp_path)
    fallback = SentenceTransformerEmbedder(backend="auto", onnx_dir=tmp_path)
    assert fallback.backend == "torch"
    assert "cannot open ONNX graph" in fallback.backend_note


def test_unknown_backend() -> None:
    with pytest.raises(EmbeddingError, match="backend must be one of"):
        SentenceTransformerEmbedder(backend="tensorrt")


@pytest.mark.slow
def test_threads_sleep_between_calls_unless_asked(onnx_embedder: SentenceTransformerEmbedder,
                                                  onnx_dir: Path) -> None:
    # Spin-waiting intra-op threads take the cores the database shares between calls; the
    # default lets them sleep, ``spinning=True`` restores ONNX Runtime's own default.
    def spinning_setting(embedder: SentenceTransformerEmbedder) -> str:
        assert embedder._onnx is not None
        options = embedder._onnx._session.get_session_options()
        return str(options.get_session_config_entry("session.intra_op.allow_spinning"))

    assert spinning_setting(onnx_embedder) == "0"
    spinning = SentenceTransformerEmbedder(backend="onnx", onnx_dir=onnx_dir, spinning=True)
    assert spinning_setting(spinning) == "1"
    text = TEXTS[0]
    assert float(np.asarray(spinning.embed_query(text)) @ np.asarray(onnx_embedder.embed_query(text))) > 0.99999


def test_loading_draws_no_weight_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    from transformers.utils import logging as hf_logging

    assert hf_logging.is_progress_bar_enabled()
    embedder = SentenceTransformerEmbedder(backend="torch")
    assert "Loading weights" not in capsys.readouterr().err
    assert hf_logging.is_progress_bar_enabled()  # the setting is restored
    assert len(embedder.embed_query("aspirin")) == 384
