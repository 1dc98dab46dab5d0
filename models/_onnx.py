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

``precision="int8"`` adds a second graph made from the first by ONNX Runtime's dynamic
quantiser (int8 weights, activations quantised per call), cached beside it and checked the same
way against the fp32 graph: below ``MIN_INT8_COSINE`` on any probe it is dropped, the fp32 graph
embeds and one warning line says why. Texts are tokenised once, sorted by token count and cut into
batches under a token budget, each padded only to its own longest text.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import tempfile
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from hopgraph.core.errors import EmbeddingError

MIN_PROBE_COSINE = 0.99999
# int8 against fp32, lowest cosine over the probes. all-MiniLM-L6-v2 quantised as below: 0.985 on
# the probes, 0.982 at worst and 0.992 on average over 1,000 ALQAC article openings; Hit@1/5/10
# of 100 ALQAC questions 49/73/76 against fp32's 50/75/78 (embed_throughput.md). A graph with
# wrong weights or scales lands far below (< 0.9). 0.97 accepts the first and refuses the second.
MIN_INT8_COSINE = 0.97
PRECISIONS = ("fp32", "int8")
# Tokens per batch (texts x longest text): large enough for full GEMMs, small enough that one
# batch of 512-token texts stays a few MB of activations.
DEFAULT_TOKEN_BUDGET = 8192
log = logging.getLogger("hopgraph.models")
_PROBES = (
    "Which drugs target the protein encoded by BRCA1?",
    "x",
    "Marfan syndrome is associated with aortic root dilation, lens dislocation and tall stature, "
    "and it is caused by mutations in FBN1, the gene for fibrillin-1.",
)
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")



@contextmanager
def written_then_renamed(target: Path) -> Iterator[str]:
    """A temporary path beside ``target`` to write into; renamed onto ``target`` when the block
    ends without an error, removed otherwise: a reader never sees a half-written file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=target.name, suffix=".part", dir=target.parent)
    os.close(fd)
    try:
        yield tmp
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def quantise_quietly(source: Path, target: str, **options: Any) -> None:
    """ONNX Runtime's ``quantize_dynamic`` of ``source`` into ``target`` with int8 weights
    (``options`` passed on); the quantiser logs advice on the root logger at every call, which is
    silenced while it runs."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        quantize_dynamic(str(source), target, weight_type=QuantType.QInt8, **options)
    finally:
        root.setLevel(level)


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
    # The tracer warns about Python control flow on shapes that it records as constants of the
    # probe; none of it changes the graph's result (checked on probes after export).
    with written_then_renamed(target) as tmp, torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            _Pooled(transformer).eval(), args, tmp, input_names=list(_INPUTS),
            output_names=["embedding"], opset_version=17, dynamo=False,
            dynamic_axes={**{n: {0: "batch", 1: "seq"} for n in _INPUTS},
                          "embedding": {0: "batch"}},
        )


def _quantise(source: Path, target: Path) -> None:
    """int8 weights by ONNX Runtime's dynamic quantiser; written then renamed, like the export."""
    # The projections only (MatMul; the embedding table stays fp32), signed int8 weights per
    # output channel in 7 bits: the u8s8 kernels of AVX2 without VNNI saturate on 8 bits.
    # Probe cosine 0.9795 against 0.9765 with 8 bits and 0.9778 with every op quantised.
    with written_then_renamed(target) as tmp:
        quantise_quietly(source, tmp, per_channel=True, reduce_range=True,
                         op_types_to_quantize=["MatMul"])

def min_cosine(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> float:
    return float(np.min(np.sum(a * b, axis=1)))


class OnnxSentenceEncoder:
    """Runs an exported sentence-transformers model with ONNX Runtime; safe across threads.

    Args:
        st_model: the loaded ``SentenceTransformer`` (its tokenizer is reused; its torch path
            is the reference the export is checked against).
        model_path: where its weights live (part of the cache key).
        name: the model's name, for the cached file's name.
        cache_dir: folder for exported graphs.
        threads: ONNX Runtime intra-op threads; all cores when None.
        precision: ``"fp32"`` (the exported graph) or ``"int8"`` (its dynamically quantised
            copy, checked against fp32 on the probes; fp32 with one warning line when it is
            not close enough). :attr:`precision` says which one embeds.
        token_budget: the most tokens (texts x longest text) one batch holds.
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
                 threads: int | None = None, spinning: bool = False, precision: str = "fp32",
                 token_budget: int = DEFAULT_TOKEN_BUDGET) -> None:
        if precision not in PRECISIONS:
            raise EmbeddingError(f"embedding precision must be one of {PRECISIONS}, "
                                 f"got {precision!r}")
        reason = onnx_available()
        if reason:
            raise EmbeddingError(f"ONNX backend unavailable: {reason}")
        _check_pipeline(st_model)
        import onnxruntime as ort

        self._tokenizer = st_model.tokenizer
        self._pad_id = int(getattr(self._tokenizer, "pad_token_id", None) or 0)
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
        self.token_budget = max(1, token_budget)
        n_threads = threads or os.cpu_count() or 1
        self._session = self._open(ort, self.path, n_threads)
        self._names = {i.name for i in self._session.get_inputs()}
        reference = np.asarray(st_model.encode(list(_PROBES), normalize_embeddings=True,
                                               show_progress_bar=False), dtype=np.float32)
        got = self.encode(_PROBES)  # padded batch
        one = self.encode(_PROBES[:1])  # single text
        cos = min(min_cosine(reference, got), float(one[0] @ reference[0]))
        if cos < MIN_PROBE_COSINE:
            raise EmbeddingError(f"ONNX graph {self.path} differs from torch (cosine {cos:.6f})")
        self.probe_cosine = cos
        self.precision = "fp32"
        self.int8_cosine: float | None = None
        if precision == "int8":
            self._use_int8(ort, n_threads, got)

    def _use_int8(self, ort: Any, threads: int, fp32: np.ndarray[Any, Any]) -> None:
        """Switch to the int8 copy when it reproduces the fp32 probes; else warn and keep fp32."""
        path = self.path.with_suffix(".int8.onnx")
        try:
            if not path.exists():
                _quantise(self.path, path)
            session = self._open(ort, path, threads)
        except Exception as e:  # the quantiser raises many unrelated types
            log.warning("int8 embedding model unavailable (%s); embedding in fp32", e)
            return
        fp32_session, self._session = self._session, session
        self.int8_cosine = cos = min_cosine(fp32, self.encode(_PROBES))
        if cos < MIN_INT8_COSINE:
            self._session = fp32_session
            log.warning("int8 embedding model %s differs from fp32 (probe cosine %.4f < %.2f); "
                        "embedding in fp32", path.name, cos, MIN_INT8_COSINE)
            return
        self.path, self.precision = path, "int8"

    def _open(self, ort: Any, path: Path, threads: int) -> Any:
        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, threads)
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning",
                                         "1" if self.spinning else "0")
        try:
            return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as e:  # a truncated or foreign file
            raise EmbeddingError(f"cannot open ONNX graph {path}: {e}") from e

    def batches(self, texts: Sequence[str], batch_size: int = 64,
                bucketed: bool = True) -> list[tuple[list[int], dict[str, Any]]]:
        """The batches :meth:`encode` runs: (positions of the texts, padded model inputs).

        Bucketed (the default): the texts are tokenised once, sorted by token count and cut into
        batches of at most ``batch_size`` texts and :attr:`token_budget` padded tokens, each
        padded to its own longest text. Not bucketed: input order, ``batch_size`` texts a batch.
        """
        ids = self._tokenizer(list(texts), truncation=True, max_length=self._max_len)["input_ids"]
        order = (sorted(range(len(ids)), key=lambda i: len(ids[i])) if bucketed
                 else list(range(len(ids))))
        groups: list[list[int]] = []
        for i in order:
            group = groups[-1] if groups else None
            longest = max([len(ids[j]) for j in group] + [len(ids[i])]) if group else 0
            if (group is None or len(group) >= batch_size
                    or (bucketed and longest * (len(group) + 1) > self.token_budget)):
                groups.append([i])
            else:
                group.append(i)
        out = []
        for group in groups:
            width = max(len(ids[i]) for i in group)
            input_ids = np.full((len(group), width), self._pad_id, dtype=np.int64)
            mask = np.zeros((len(group), width), dtype=np.int64)
            for row, i in enumerate(group):
                input_ids[row, :len(ids[i])] = ids[i]
                mask[row, :len(ids[i])] = 1
            feed = {"input_ids": input_ids, "attention_mask": mask,
                    "token_type_ids": np.zeros_like(input_ids)}
            out.append((group, {n: v for n, v in feed.items() if n in self._names}))
        return out

    def encode(self, texts: Sequence[str], batch_size: int = 64,
               bucketed: bool = True) -> np.ndarray[Any, Any]:
        """L2-normalised float32 vectors, one row per text, in input order (see :meth:`batches`)."""
        result: np.ndarray[Any, Any] | None = None
        for group, feed in self.batches(texts, batch_size, bucketed):
            # InferenceSession.run is thread-safe and releases the GIL.
            vectors = self._session.run(None, feed)[0]
            if result is None:
                result = np.empty((len(texts), vectors.shape[1]), dtype=np.float32)
            result[group] = vectors
        return result if result is not None else np.empty((0, 0), dtype=np.float32)
