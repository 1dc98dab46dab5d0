"""How the question embedding (all-MiniLM-L6-v2 on ONNX Runtime) and a local Neo4j share 2 cores.

The side measurements behind two choices in region construction (``biomed_region_latency.md``):
ONNX Runtime's threads sleep between calls instead of spin-waiting, and ``Regram.build_region``
embeds the question beside the region query. Starts its own Neo4j, loads the PrimeKG subset
without triplet vectors, links the first 40 linkable questions of ``biomed_eval``'s seeded sample
(no spaCy), and times per seed set, variants in a shuffled order (seeded), 3 rounds:

- the plain one-hop query (the baseline of the region target) and the region query;
- the question embedding alone with three ONNX Runtime sessions over the same exported graph:
  2 threads spinning (ONNX Runtime's default), 2 threads sleeping (hopgraph's), 1 thread sleeping;
- the embedding right after a Neo4j query and right after a torch ``encode`` call;
- the embedding beside a 5 ms sleep, and beside the region query in four ways (per-call worker
  thread, persistent worker, persistent worker with the 1-thread session, spinning session),
  against embedding first and querying after.

Before the server starts, one 24-token question is timed alone on 1 and 2 threads.

Run: ``python -m tests.benchmarks.embedding_interference [--seed-sets 40 --rounds 3]``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from hopgraph.agents.biomed import EntityLinker
from hopgraph.eval.biomed import load_questions
from hopgraph.loaders.biomed import load_primekg
from hopgraph.models import SentenceTransformerEmbedder
from hopgraph.retrieval import Domain, relation_weights
from tests.benchmarks._common import local_neo4j
from tests.benchmarks.biomed_region_latency import uptime

RESULTS = Path(__file__).parent / "results"
DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
QUIET_QUESTION = ("Which drugs target the protein encoded by BRCA1 and are used to treat "
                  "hereditary breast cancer in young women?")
INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed-sets", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", default="embedding_interference")
    args = ap.parse_args()
    import onnxruntime as ort

    embedder = SentenceTransformerEmbedder("all-MiniLM-L6-v2", backend="onnx")
    torch_embedder = SentenceTransformerEmbedder("all-MiniLM-L6-v2", backend="torch")
    encoder = embedder._onnx
    assert encoder is not None
    tokenizer = encoder._tokenizer

    def session(threads: int, spinning: bool) -> Any:
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning",
                                         "1" if spinning else "0")
        return ort.InferenceSession(str(encoder.path), options,
                                    providers=["CPUExecutionProvider"])

    sessions = {"2t_spinning": session(2, True), "2t_sleeping": session(2, False),
                "1t_sleeping": session(1, False)}

    def embed(name: str, text: str) -> np.ndarray:
        enc = tokenizer([text], truncation=True, max_length=256, return_tensors="np")
        feed = {n: np.asarray(enc[n], dtype=np.int64) for n in INPUTS if n in enc}
        feed.setdefault("token_type_ids", np.zeros_like(feed["input_ids"]))
        return np.asarray(sessions[name].run(None, feed)[0])

    result: dict[str, Any] = {"date_utc": datetime.now(UTC).strftime("%Y-%m-%d %H:%M"),
                              "uptime_start": uptime(), "onnx_graph": encoder.path.name}
    # One short question, nothing else running: how much the second core buys.
    quiet: dict[str, float] = {}
    tokens = len(tokenizer(QUIET_QUESTION)["input_ids"])
    for name in sessions:
        embed(name, QUIET_QUESTION)
        runs = []
        for _ in range(200):
            t = time.perf_counter()
            embed(name, QUIET_QUESTION)
            runs.append((time.perf_counter() - t) * 1000)
        quiet[name] = round(statistics.median(runs), 3)
    result["quiet_one_question"] = {"tokens": tokens, "p50_ms": quiet}

    pool = ThreadPoolExecutor(max_workers=1)
    with contextlib.ExitStack() as stack:
        stack.callback(pool.shutdown)
        runner = stack.enter_context(local_neo4j(
            "hopgraph-embed-interference-", query_timeout_s=600.0, heap="1g",
            pagecache="1g")).runner
        load_primekg(runner, DATA / "primekg" / "primekg_triples_subset.tsv")
        linker = EntityLinker(runner, nlp=None)
        seeds: list[tuple[str, list[str]]] = []
        for item in load_questions(DATA / "medqa", per_dataset=34, seed=13):
            ids = [e.id for e in linker.link(item.question)]
            if ids:
                seeds.append((item.question, ids))
            if len(seeds) == args.seed_sets:
                break
        result["seed_sets"] = len(seeds)
        result["question_tokens_p50"] = statistics.median(
            len(tokenizer(q)["input_ids"]) for q, _ in seeds)
        weights = relation_weights(Domain.INTEGRATED)

        def plain(ids: list[str]) -> Any:
            return runner.read("biomed/match_neighbourhood", entity_ids=ids)

        def region(ids: list[str]) -> Any:
            return runner.read("biomed/collect_region_candidates", entity_ids=ids,
                               weights=weights, default_weight=1.0, per_entity_limit=60,
                               embedding_key=None)

        for _q, ids in seeds:  # warm-up: plans and page cache
            plain(ids)
            region(ids)

        def beside(name: str, q: str, work: Callable[[], Any], worker: str) -> None:
            if worker == "per_call":
                with ThreadPoolExecutor(max_workers=1) as own:
                    future = own.submit(embed, name, q)
                    work()
                    future.result()
            else:
                future = pool.submit(embed, name, q)
                work()
                future.result()

        def variants(q: str, ids: list[str]) -> dict[str, Callable[[], Any]]:
            out: dict[str, Callable[[], Any]] = {
                f"embed_alone_{n}": (lambda n=n: embed(n, q)) for n in sessions}
            out["embed_after_query_2t_sleeping"] = lambda: embed("2t_sleeping", q)
            out["embed_after_torch_2t_sleeping"] = lambda: embed("2t_sleeping", q)
            out["embed_beside_5ms_sleep_2t_sleeping"] = lambda: beside(
                "2t_sleeping", q, lambda: time.sleep(0.005), "persistent")
            out["embed_then_region_2t_sleeping"] = lambda: (embed("2t_sleeping", q), region(ids))
            out["embed_beside_region_per_call_thread_2t_sleeping"] = lambda: beside(
                "2t_sleeping", q, lambda: region(ids), "per_call")
            out["embed_beside_region_persistent_thread_2t_sleeping"] = lambda: beside(
                "2t_sleeping", q, lambda: region(ids), "persistent")
            out["embed_beside_region_persistent_thread_1t_sleeping"] = lambda: beside(
                "1t_sleeping", q, lambda: region(ids), "persistent")
            out["embed_beside_region_per_call_thread_2t_spinning"] = lambda: beside(
                "2t_spinning", q, lambda: region(ids), "per_call")
            return out

        # What runs just before a timed call (untimed): a Neo4j query, or a torch encode.
        before: dict[str, Callable[[str, list[str]], Any]] = {
            "embed_after_query_2t_sleeping": lambda q, ids: plain(ids),
            "embed_after_torch_2t_sleeping": lambda q, ids: torch_embedder.embed_query(q),
        }
        times: dict[str, list[float]] = {"plain_one_hop": [], "region_query": []}
        rng = random.Random(7)
        for _ in range(args.rounds):
            for q, ids in seeds:
                calls = list(variants(q, ids).items())
                calls += [("plain_one_hop", lambda ids=ids: plain(ids)),
                          ("region_query", lambda ids=ids: region(ids))]
                rng.shuffle(calls)
                for name, fn in calls:
                    if name in before:
                        before[name](q, ids)
                    t = time.perf_counter()
                    fn()
                    times.setdefault(name, []).append((time.perf_counter() - t) * 1000)
        base = statistics.median(times["plain_one_hop"])
        result["latency"] = {
            name: {"n": len(v), "p50_ms": round(statistics.median(v), 2),
                   "p95_ms": round(float(np.percentile(v, 95)), 2),
                   "p50_over_plain_one_hop": round(statistics.median(v) / base, 2)}
            for name, v in times.items()}
        result["uptime_end"] = uptime()
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{args.out}.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
