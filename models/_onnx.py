"""ONNX Runtime backend for sentence-transformers models with mean pooling.

A short question through sentence-transformers' ``encode`` pays for torch's per-call dispatch
and the library's batching bookkeeping: ~33 ms for all-MiniLM-L6-v2 on this project's 2-core
machine, most of ReGraM's region construction time (biomed_region_latency.md). The same network
run by ONNX Runtime answers in a fraction of that.

The ONNX graph is exported once per machine from the locally installed weights (no download):
transformer, attention-masked mean pooling and L2 normalisation in one graph, dynamic batch and
sequence axes. It is written to a cache folder under a key made of the model files' sizes and
modification times and the torch version, atomically (write then rename), and checked against
the torch path on probe texts before first use: a cosine below ``MIN_PROBE_COSINE`` rejects it,
and the caller keeps the torch path.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hopgraph.errors import EmbeddingError

MIN_PROBE_COSINE = 0.99999
_PROBES = (
    "Which drugs target the protein encoded by BRCA1?",
    "x",
    "Marfan syndrome is associated with aortic root dilation, lens dislocation and tall stature, "
    "and it is caused by mutations in FBN1, the gene for fibrillin-1.",
)
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def onnx_available() -> str | None:
    """None when ONNX export and inference can run here; else why not."""
    for module in ("onnxruntime", "onnx"):
        try:
            __import__(module)
        except ImportError:
            return f"the package {module} is not installed"
    return None


def _model_key(model_path: str, st_model: Any) -> str:
    """Changes whenever the weights, their files or the exporting torch change."""
    import torch

    h = hashlib.sha256(torch.__version__.encode())
    root = Path(model_path)
    files = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else []
    for p in files:
        st = p.stat()
        h.update(f"{p.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}".encode())
    h.update(str(st_model.max_seq_length).encode())
    return h.hexdigest()[:16]


def _check_pipeline(st_model: Any) -> None:
    """The export reproduces Transformer → mean Pooling → Normalize only."""
    names = [type(m).__name__ for m in st_model]
    if names[:2] != ["Transformer", "Pooling"] or any(n != "Normalize" for n in names[2:]):
        raise EmbeddingError(f"ONNX backend supports Transformer+Pooling(+Normalize), got {names}")
    pooling = st_model[1]
    # sentence-transformers 6 names the mode ``pooling_mode``; older releases have the getter.
    mode = getattr(pooling, "pooling_mode", None)
    if mode is None and hasattr(pooling, "get_pooling_mode_str"):
        mode = pooling.get_pooling_mode_str()
    if mode != "mean":
        raise EmbeddingError(f"ONNX backend supports mean pooling only, got {mode!r}")


def _export(st_model: Any, target: Path) -> None:
    import torch

    transformer = st_model[0].auto_model

    class _Pooled(torch.nn.Module):
        def __init__(self, inner: torch.nn.Module) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                    token_type_ids: torch.Tensor) -> torch.Tensor:
            hidden = self.inner(input_ids=input_ids, attention_mask=attention_mask,
                                token_type_ids=token_type_ids).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            mean = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, dim=-1)

    enc = st_model.tokenizer(["an export probe"], return_tensors="pt")
    args = tuple(enc.get(n, torch.zeros_like(enc["input_ids"])) for n in _INPUTS)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=target.name, suffix=".part", dir=target.parent)
    os.close(fd)
    try:
        # The tracer warns about Python control flow on shapes that it records as constants of
        # the probe; none of it changes the graph's result (checked on probes after export).
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                _Pooled(transformer).eval(), args, tmp, input_names=list(_INPUTS),
                output_names=["embedding"], opset_version=17, dynamo=False,
                dynamic_axes={**{n: {0: "batch", 1: "seq"} for n in _INPUTS},
                              "embedding": {0: "batch"}},
            )
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


class OnnxSentenceEncoder:
    """Runs an exported sentence-transformers model with ONNX Runtime; safe across threads.

    Args:
        st_model: the loaded ``SentenceTransformer`` (its tokenizer is reused; its torch path
            is the reference the export is checked against).
        model_path: where its weights live (part of the cache key).
        name: the model's name, for the cached file's name.
        cache_dir: folder for exported graphs.
        threads: ONNX Runtime intra-op threads; all cores when None.
        spinning: let the intra-op threads spin-wait for work after a call (ONNX Runtime's
            default) instead of sleeping. Off by default: the database server shares these cores,
            and spinning threads take them from it between calls (question embedding p50 11.1 ms
            without spinning against 12.8 ms with it, beside a Neo4j server;
            ``embedding_interference.md``).

    Raises:
        EmbeddingError: the pipeline is not Transformer+mean Pooling(+Normalize), the export
            fails, or the exported graph does not reproduce the torch vectors.
    """

    def __init__(self, st_model: Any, model_path: str, cache_dir: Path, *, name: str = "model",
                 threads: int | None = None, spinning: bool = False) -> None:
        reason = onnx_available()
        if reason:
            raise EmbeddingError(f"ONNX backend unavailable: {reason}")
        _check_pipeline(st_model)
        import onnxruntime as ort

        self._tokenizer = st_model.tokenizer
        self._max_len = int(st_model.max_seq_length)
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "model"
        self.path = cache_dir / f"{stem}-{_model_key(model_path, st_model)}.onnx"
        if not self.path.exists():
            try:
                _export(st_model, self.path)
            except Exception as e:  # the exporter raises many unrelated types
                raise EmbeddingError(f"ONNX export of {model_path} failed: {e}") from e
        # All cores by default, also for a single question: on 2 cores a 33-token question took
        # 5.3 ms with 2 threads against 9.2 ms with one (and 12-24 ms through torch).
        self.spinning = spinning
        self._session = self._open(ort, threads or os.cpu_count() or 1)
        self._names = {i.name for i in self._session.get_inputs()}
        reference = np.asarray(st_model.encode(list(_PROBES), normalize_embeddings=True,
                                               show_progress_bar=False), dtype=np.float32)
        got = self.encode(_PROBES)  # padded batch
        one = self.encode(_PROBES[:1])  # single text
        cos = float(min(np.min(np.sum(reference * got, axis=1)), float(one[0] @ reference[0])))
        if cos < MIN_PROBE_COSINE:
            raise EmbeddingError(f"ONNX graph {self.path} differs from torch (cosine {cos:.6f})")
        self.probe_cosine = cos

    def _open(self, ort: Any, threads: int) -> Any:
        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, threads)
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning",
                                         "1" if self.spinning else "0")
        try:
            return ort.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
        except Exception as e:  # a truncated or foreign file
            raise EmbeddingError(f"cannot open ONNX graph {self.path}: {e}") from e

    def encode(self, texts: Sequence[str], batch_size: int = 64) -> np.ndarray[Any, Any]:
        """L2-normalised float32 vectors, one row per text, in input order."""
        out: list[np.ndarray[Any, Any]] = []
        # Batches of similar length pad less; the order is restored at the end.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), batch_size):
            chunk = [texts[i] for i in order[start:start + batch_size]]
            enc = self._tokenizer(chunk, padding=True, truncation=True, max_length=self._max_len,
                                  return_tensors="np")
            feed = {n: np.asarray(enc[n], dtype=np.int64) for n in _INPUTS if n in self._names}
            if "token_type_ids" in self._names and "token_type_ids" not in enc:
                feed["token_type_ids"] = np.zeros_like(feed["input_ids"])
            # InferenceSession.run is thread-safe and releases the GIL.
            out.append(self._session.run(None, feed)[0])
        result = np.empty((len(texts), out[0].shape[1] if out else 0), dtype=np.float32)
        if out:
            result[order] = np.concatenate(out)
        return result
