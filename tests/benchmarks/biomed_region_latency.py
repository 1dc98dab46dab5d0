"""Region construction latency with and without triplet embeddings stored at load time.

Starts its own Neo4j, loads the PrimeKG subset (``../shared/data/primekg``) without embeddings,
links the first 40 linkable questions of the seeded MIRAGE + AfrimedQA sample that
``biomed_eval`` uses, runs the loader's triplet-embedding pass (all-MiniLM-L6-v2) and times, per
seed set in one interleaved loop on the same server:

- plain one-hop (``biomed/match_neighbourhood``), the baseline;
- the region query without and with the stored vectors in its result;
- region + weighted MMR with stored vectors (only the question is embedded);
- region + weighted MMR computing every candidate's embedding at query time (the old path);
- region construction as the pipeline runs it once the entities are linked
  (``Regram.build_region(question, weights, linked)``: question embedding in a worker thread
  beside the region query, then weighted MMR over the stored vectors), with the default embedder
  (ONNX Runtime, threads sleeping between calls), and the same steps one after the other;
- in a second pass, so that their threads do not spin beside the default path: the same with
  ONNX Runtime threads that spin-wait between calls (ONNX Runtime's own default), and with torch;
- the region query + weighted MMR with the question vector already made (in the pipeline it is
  made while the entities are linked);
- the question embedding alone (both backends), and linking + region construction as
  ``Regram.build_region`` runs it (question embedded in a worker thread while linking runs)
  against the same steps one after the other.

The fast variants of the first pass run in a shuffled order (seeded) per seed set, so that none
always follows the same neighbour. It also checks that both MMR paths select the same triplets in
the same order for every seed set, records the largest difference between a stored and a query-time
vector, the load-time cost of the embedding pass and the store size before and after it.

Run: ``python -m tests.benchmarks.biomed_region_latency [--seed-sets 40 --rounds 3]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from hopgraph.agents.biomed import EntityLinker, Regram, build_nlp
from hopgraph.db import LocalInstance, Neo4jRunner, connect, free_port, install_schema
from hopgraph.eval.biomed import load_questions
from hopgraph.graph_models import encode_vector, triplet_embedding_key
from hopgraph.loaders.biomed import embed_triplets, load_primekg
from hopgraph.models import SentenceTransformerEmbedder, build_embedder
from hopgraph.retrieval import (
    Domain,
    Region,
    candidate_vectors,
    collect_candidates,
    relation_weights,
    select_region,
)

RESULTS = Path(__file__).parent / "results"
DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def store_bytes(root: Path) -> int:
    """Allocated bytes of the ``neo4j`` database's store files (server stopped, so flushed)."""
    total = 0
    for base in (root / "data" / "databases" / "neo4j", root / "data" / "transactions" / "neo4j"):
        for dirpath, _dirs, files in os.walk(base):
            total += sum(os.stat(os.path.join(dirpath, f)).st_blocks * 512 for f in files)
    return total


def restart_and_measure(inst: LocalInstance) -> int:
    inst.stop()
    size = store_bytes(inst.root)
    inst.start()
    return size


def p(values: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(values), q))


def summary(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "p50_ms": round(statistics.median(values), 2),
            "p95_ms": round(p(values, 95), 2), "mean_ms": round(statistics.fmean(values), 2)}


def timed(fn: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    t = time.perf_counter()
    out = fn(*args)
    return (time.perf_counter() - t) * 1000, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed-sets", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3, help="timed rounds of the fast variants")
    ap.add_argument("--compute-rounds", type=int, default=1,
                    help="timed rounds of region + MMR computing every embedding (slow)")
    ap.add_argument("--out", default="biomed_region_latency")
    ap.add_argument("--tsv", type=Path, default=DATA / "primekg" / "primekg_triples_subset.tsv",
                    help="triplet file to load (default: the PrimeKG subset)")
    args = ap.parse_args()
    import torch

    result: dict[str, Any] = {
        "date_utc": datetime.now(UTC).strftime("%Y-%m-%d %H:%M"),
        "machine": {"cpus": os.cpu_count(), "torch_threads": torch.get_num_threads(),
                    "uptime_start": uptime()},
        "load_avg_1m": {},
    }

    def mark(phase: str) -> None:
        result["load_avg_1m"][phase] = round(os.getloadavg()[0], 2)
        print(f"[{time.strftime('%H:%M:%S')}] {phase}: load {os.getloadavg()}", flush=True)

    mark("start")
    tmp = Path(tempfile.mkdtemp(prefix="hopgraph-bio-region-"))
    inst = LocalInstance(root=tmp / "neo4j", cache_root=Path.home() / ".local/share/hopgraph/cache",
                         bolt_port=free_port(), http_port=free_port(), heap="1g", pagecache="1g")
    inst.start()
    driver = None
    try:
        driver = connect(inst.uri, "neo4j", inst.password())
        install_schema(driver, "neo4j", dimension=384)
        runner = Neo4jRunner(driver, database="neo4j", timeout_s=600.0)
        report = load_primekg(runner, args.tsv)
        result["load_subset"] = {"file": str(args.tsv), "rows": report.rows_read, "seconds": round(report.seconds, 1),
                                 "rows_per_s": round(report.rows_per_s), "nodes": report.nodes_after,
                                 "edges": report.edges_after}
        mark("loaded")

        questions = load_questions(DATA / "medqa", per_dataset=34, seed=13)
        nlp = build_nlp()
        linker = EntityLinker(runner, nlp=nlp)
        seeds: list[tuple[str, list[str]]] = []
        linked_sets: dict[str, list[Any]] = {}  # question -> its linked entities (for build_region)
        for item in questions:
            linked = list(linker.link(item.question))
            ids = [e.id for e in linked]
            if ids:
                seeds.append((item.question, ids))
                linked_sets[item.question] = linked
            if len(seeds) == args.seed_sets:
                break
        result["seed_sets"] = {"count": len(seeds),
                               "entities_per_set_p50": statistics.median(len(i) for _, i in seeds),
                               "question_chars_p50": statistics.median(len(q) for q, _ in seeds)}
        mark("linked")

        # Uncached: the real cost at query time. The default backend (ONNX Runtime when it
        # loads) and torch's sentence-transformers path are both timed in this run.
        embedder = build_embedder("all-MiniLM-L6-v2")
        embedder.embed_query("warm-up")
        torch_embedder = build_embedder("all-MiniLM-L6-v2", backend="torch")
        torch_embedder.embed_query("warm-up")
        spinning_embedder = SentenceTransformerEmbedder("all-MiniLM-L6-v2", backend="onnx",
                                                        spinning=True)
        spinning_embedder.embed_query("warm-up")
        result["embedder"] = {"default": getattr(embedder, "backend_note", "?"),
                              "reference": getattr(torch_embedder, "backend_note", "?"),
                              "spinning": spinning_embedder.backend_note + ", threads spin"}
        driver.close()
        driver = None
        size_before = restart_and_measure(inst)
        driver = connect(inst.uri, "neo4j", inst.password())
        runner = Neo4jRunner(driver, database="neo4j", timeout_s=600.0)
        mark("embedding pass start")
        emb = embed_triplets(runner, embedder)
        mark("embedding pass end")
        driver.close()
        driver = None
        size_after = restart_and_measure(inst)
        driver = connect(inst.uri, "neo4j", inst.password())
        runner = Neo4jRunner(driver, database="neo4j", timeout_s=600.0)
        grown = size_after - size_before
        result["embedding_pass"] = {
            "key": emb.key, "triplets": emb.triplets, "pages": emb.pages,
            "seconds": round(emb.seconds, 1), "triplets_per_s": round(emb.triplets_per_s, 1),
            "model_s": round(emb.embed_s, 1), "read_s": round(emb.read_s, 1),
            "write_s": round(emb.write_s, 1),
            "over_load_seconds": round(emb.seconds / report.seconds, 2),
            "store_bytes_before": size_before, "store_bytes_after": size_after,
            "store_bytes_per_edge": round(grown / emb.triplets, 1) if emb.triplets else None,
            "float32_bytes_per_edge": embedder.dimension * 4,
            "stored_text_bytes_per_edge": len(encode_vector([0.0] * embedder.dimension)),
        }

        weights = relation_weights(Domain.INTEGRATED)
        key = triplet_embedding_key(embedder)
        linker = EntityLinker(runner, nlp=nlp)  # over the new connection
        regram = Regram(runner, embedder, linker)
        regram_torch = Regram(runner, torch_embedder, linker)
        regram_spinning = Regram(runner, spinning_embedder, linker)
        times: dict[str, list[float]] = {n: [] for n in (
            "plain_one_hop", "region_query", "region_query_with_vectors", "region_mmr_stored",
            "region_mmr_computed", "question_embedding", "link_then_region_sequential",
            "build_region_overlapped", "build_region_linked", "question_embedding_torch",
            "build_region_linked_torch", "region_mmr_qvec_ready", "build_region_linked_sequential",
            "question_embedding_spinning", "build_region_linked_spinning")}
        same_as_torch = 0
        max_query_vec_diff = 0.0
        identical = 0
        mismatches: list[str] = []
        max_vec_diff = 0.0
        max_mmr_diff = 0.0
        candidates: list[int] = []
        stored_by_q: dict[str, Region] = {}
        computed_by_q: dict[str, Region] = {}
        same_as_sequential = 0  # build_region (overlapped) against embed-then-query

        def region_query(ids: list[str], k: str | None) -> Any:
            return runner.read("biomed/collect_region_candidates", entity_ids=ids, weights=weights,
                               default_weight=1.0, per_entity_limit=60, embedding_key=k)

        for _q, ids in seeds:  # warm-up: query plans and page cache
            region_query(ids, None)
            region_query(ids, key)
            runner.read("biomed/match_neighbourhood", entity_ids=ids)
        mark("latency start")
        def plain(ids: list[str]) -> Any:
            return runner.read("biomed/match_neighbourhood", entity_ids=ids)

        def mmr_stored(q: str, ids: list[str]) -> Region:
            return select_region(q, collect_candidates(runner, ids, weights, embedder=embedder),
                                 embedder)

        def mmr_computed(q: str, ids: list[str]) -> Region:
            return select_region(q, collect_candidates(runner, ids, weights), embedder)

        def region_sequential(q: str, ids: list[str]) -> Region:
            qv = embedder.embed_query(q)  # first, then the region query and MMR
            return select_region(q, collect_candidates(runner, ids, weights, embedder=embedder),
                                 embedder, query_vec=qv)

        def link_then_region(q: str) -> Region:
            ids = [e.id for e in linker.link(q)]
            return mmr_stored(q, ids)

        def clock(name: str, fn: Callable[..., Any], *fn_args: Any) -> Any:
            ms, out = timed(fn, *fn_args)
            times[name].append(ms)
            return out

        rng = random.Random(7)  # the fast variants run in a shuffled order per seed set
        for rnd in range(max(args.rounds, args.compute_rounds)):
            for q, ids in seeds:
                if rnd < args.rounds:
                    qv = embedder.embed_query(q)  # untimed: made while linking in the pipeline
                    calls: list[tuple[str, Callable[[], Any]]] = [
                        ("plain_one_hop", lambda ids=ids: plain(ids)),
                        ("region_query", lambda ids=ids: region_query(ids, None)),
                        ("region_query_with_vectors", lambda ids=ids: region_query(ids, key)),
                        ("region_mmr_stored", lambda q=q, ids=ids: mmr_stored(q, ids)),
                        ("question_embedding", lambda q=q: embedder.embed_query(q)),
                        # Region construction proper, as the pipeline runs it after linking:
                        # the question vector was made while the entities were being linked.
                        ("region_mmr_qvec_ready", lambda q=q, ids=ids, qv=qv: select_region(
                            q, collect_candidates(runner, ids, weights, embedder=embedder),
                            embedder, query_vec=qv)),
                        # Region construction with the entities given: the question embedded
                        # in a worker thread beside the region query, then MMR.
                        ("build_region_linked", lambda q=q: regram.build_region(
                            q, weights, linked_sets[q])),
                        ("build_region_linked_sequential",
                         lambda q=q, ids=ids: region_sequential(q, ids)),
                    ]
                    rng.shuffle(calls)
                    outputs = {name: clock(name, fn) for name, fn in calls}
                    stored_by_q[q] = outputs["region_mmr_stored"]
                    overlapped = outputs["build_region_linked"][1]
                    in_turn = outputs["build_region_linked_sequential"]
                    same_as_sequential += ([t.key for t in overlapped.triplets]
                                           == [t.key for t in in_turn.triplets])
                if rnd < args.compute_rounds:
                    computed_by_q[q] = clock("region_mmr_computed", mmr_computed, q, ids)
                    clock("link_then_region_sequential", link_then_region, q)
                    clock("build_region_overlapped", regram.build_region, q, weights)
            mark(f"latency round {rnd + 1} end")
        # Second pass: the embedders whose threads stay busy after a call (ONNX Runtime with
        # spin-waiting threads; torch's OpenMP pool), kept apart from the default path above so
        # that they do not take its cores.
        for rnd in range(args.rounds):
            for q, ids in seeds:
                clock("question_embedding_spinning", spinning_embedder.embed_query, q)
                clock("build_region_linked_spinning", regram_spinning.build_region, q, weights,
                      linked_sets[q])
                clock("question_embedding_torch", torch_embedder.embed_query, q)
                _, via_torch = clock("build_region_linked_torch", regram_torch.build_region,
                                     q, weights, linked_sets[q])
                if rnd == 0:
                    _, via_default = regram.build_region(q, weights, linked_sets[q])
                    same_as_torch += ([t.key for t in via_default.triplets]
                                      == [t.key for t in via_torch.triplets])
                    max_query_vec_diff = max(max_query_vec_diff, float(np.max(np.abs(
                        np.asarray(embedder.embed_query(q))
                        - np.asarray(torch_embedder.embed_query(q))))))
                    stored, computed = stored_by_q[q], computed_by_q[q]
                    candidates.append(stored.candidates)
                    same = [t.key for t in stored.triplets] == [t.key for t in computed.triplets]
                    identical += same
                    if not same:
                        mismatches.append(q[:80])
                    max_mmr_diff = max(max_mmr_diff, *(abs(a.mmr - b.mmr) for a, b in zip(
                        stored.triplets, computed.triplets, strict=True)))
                    cands_s = collect_candidates(runner, ids, weights, embedder=embedder)
                    cands_c = collect_candidates(runner, ids, weights)
                    vs, n_stored = candidate_vectors(cands_s, embedder)
                    vc, _ = candidate_vectors(cands_c, embedder)
                    assert n_stored == len(cands_s.triplets)
                    max_vec_diff = max(max_vec_diff, float(np.max(np.abs(vs - vc))))
            mark(f"second pass round {rnd + 1} end")
        base = statistics.median(times["plain_one_hop"])
        result["latency"] = {name: summary(v) for name, v in times.items()}
        result["ratios_p50_over_plain"] = {
            name: round(statistics.median(v) / base, 2) for name, v in times.items()
            if name not in ("plain_one_hop", "link_then_region_sequential", "build_region_overlapped")}
        result["ratios_p50_over_plain"]["region_mmr_stored_minus_question_embedding"] = round(
            (statistics.median(times["region_mmr_stored"])
             - statistics.median(times["question_embedding"])) / base, 2)
        result["overlap_gain_p50"] = round(
            statistics.median(times["link_then_region_sequential"])
            / statistics.median(times["build_region_overlapped"]), 3)
        result["same_output"] = {
            "seed_sets": len(seeds), "same_triplets_same_order": identical,
            "mismatching_questions": mismatches, "max_abs_mmr_score_diff": max_mmr_diff,
            "max_abs_vector_component_diff": max_vec_diff,
            "region_same_as_torch_embedder": same_as_torch,
            "build_region_same_as_sequential_all_rounds": same_as_sequential,
            "max_abs_question_vector_diff_vs_torch": max_query_vec_diff,
            "candidates_per_set_p50": statistics.median(candidates) if candidates else 0,
            "candidates_per_set_max": max(candidates) if candidates else 0,
        }
        result["machine"]["uptime_end"] = uptime()
    finally:
        if driver is not None:
            driver.close()
        inst.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{args.out}.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
