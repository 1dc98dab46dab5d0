"""ReGraM evaluation at subset scale: gold-entity coverage, MCQ accuracy, ablations, latency.

Starts its own Neo4j, loads the PrimeKG subset (``../shared/data/primekg``), then on a seeded
sample of MIRAGE + AfrimedQA questions runs ReGraM, its ablations (no domain prior, no multi-hop,
no MMR, no reviewer) and the unweighted vector top-15 baseline in one run (see
``hopgraph.eval.biomed``). It also times the weighted region query against a plain
one-hop neighbourhood query for the entities linked in those questions (same server, p50 ratio),
and the whole region construction (Cypher + MMR with all-MiniLM-L6-v2).

Run: ``python -m tests.benchmarks.biomed_eval [--per-dataset 34]``. With ``HOPGRAPH_LLM_BASE_URL``
set the configured LLM answers; without it the deterministic KG scorer does (stated in the output).
``--uri bolt://… --password-file FILE`` evaluates on a server already holding the subset (loaded
by ``load_primekg``; its node and edge counts are recorded) instead of starting and loading one.
``--ceiling`` also measures how many questions have an option within 1–3 edges of a question
entity at all (:func:`hopgraph.eval.biomed.evidence_ceiling`).
``--fraction F`` loads only a share F of the subset's rows (a seeded shuffle of its lines, so
each smaller graph is contained in every larger one): how accuracy grows with coverage.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process

from hopgraph.agents.biomed._build import build_nlp
from hopgraph.agents.biomed._linking import EntityLinker, option_form
from hopgraph.agents.biomed._reasoner import Regram
from hopgraph.core.settings import Settings
from hopgraph.db import Neo4jRunner, connect, free_port
from hopgraph.eval.biomed import (
    ABLATIONS,
    MemoEmbedder,
    MemoLinker,
    Question,
    evaluate,
    evidence_ceiling,
    load_mcq,
)
from hopgraph.loaders.biomed import load_primekg
from hopgraph.models._embedders import build_embedder
from hopgraph.models._llm import chat_model_from
from hopgraph.retrieval._biomed import Domain, collect_candidates, relation_weights, select_region
from tests.benchmarks._common import commit, local_neo4j

RESULTS = Path(__file__).parent / "results"
DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def latency(runner: Neo4jRunner, seed_sets: list[list[str]],
            questions: list[str]) -> dict[str, float]:
    weights = relation_weights(Domain.INTEGRATED)
    region_ms: list[float] = []
    plain_ms: list[float] = []
    full_ms: list[float] = []
    for ids in seed_sets:  # warm-up
        runner.read("biomed/collect_region_candidates", entity_ids=ids, weights=weights,
                    default_weight=1.0, per_entity_limit=60, embedding_key=None)
        runner.read("biomed/match_neighbourhood", entity_ids=ids)
    for _ in range(3):
        for ids in seed_sets:
            t = time.perf_counter()
            runner.read("biomed/collect_region_candidates", entity_ids=ids, weights=weights,
                        default_weight=1.0, per_entity_limit=60, embedding_key=None)
            region_ms.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            runner.read("biomed/match_neighbourhood", entity_ids=ids)
            plain_ms.append((time.perf_counter() - t) * 1000)
    embedder = build_embedder("all-MiniLM-L6-v2")  # uncached: the real cost of MMR
    for ids, q in zip(seed_sets, questions, strict=True):
        t = time.perf_counter()
        select_region(q, collect_candidates(runner, ids, weights), embedder)
        full_ms.append((time.perf_counter() - t) * 1000)
    return {"seed_sets": len(seed_sets), "region_query_p50_ms": round(statistics.median(region_ms), 2),
            "plain_one_hop_p50_ms": round(statistics.median(plain_ms), 2),
            "ratio_p50": round(statistics.median(region_ms) / statistics.median(plain_ms), 3),
            "region_with_mmr_p50_ms": round(statistics.median(full_ms), 1),
            "region_with_mmr_over_plain_p50": round(statistics.median(full_ms) / statistics.median(plain_ms), 2)}


def gold_name_similarity(questions: list[Question], tsv: Path) -> dict[str, Any]:
    """A linker-independent ceiling: for each gold option, the most similar entity name of the
    subset (rapidfuzz ``token_sort_ratio`` on :func:`option_form`, over every name in ``tsv``),
    counted at several thresholds. Yes/no/maybe options are counted apart (they name nothing)."""
    names: set[str] = set()
    with tsv.open(encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 3:
                names.update((parts[0], parts[2]))
    forms = sorted({option_form(n) for n in names} - {""})
    yes_no = {"yes", "no", "maybe"}
    best: list[float] = []
    for q in questions:
        gold = option_form(q.options[q.answer])
        if {option_form(t) for t in q.options.values()} <= yes_no:
            continue
        hit = process.extractOne(gold, forms, scorer=fuzz.token_sort_ratio)
        best.append(float(hit[1]) if hit else 0.0)
    return {"names": len(forms), "questions_with_named_options": len(best),
            "yes_no_questions": len(questions) - len(best),
            "gold_best_name_ratio_at_least": {str(t): sum(b >= t for b in best)
                                              for t in (70, 80, 90, 100)}}


def subset_fraction(path: Path, fraction: float, seed: int, tmp: Path) -> Path:
    """``path`` itself, or a file in ``tmp`` with the first ``fraction`` of its lines after a
    seeded shuffle (the same seed gives nested shares: 25 % within 50 % within 100 %)."""
    if fraction >= 1.0:
        return path
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    order = list(range(len(lines)))
    random.Random(seed).shuffle(order)
    keep = sorted(order[: round(fraction * len(lines))])
    out = tmp / f"subset_{fraction:g}.tsv"
    out.write_text("".join(lines[i] for i in keep), encoding="utf-8")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-dataset", type=int, default=None,
                    help="per set of a directory (default 34); of a file (default all)")
    ap.add_argument("--data", type=Path, default=DATA / "medqa",
                    help="MIRAGE/AfrimedQA directory or one MCQ file (JSON / JSONL)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--match", default=None,
                    help="only questions whose text matches this regular expression (before sampling)")
    ap.add_argument("--out", default="biomed_eval")
    ap.add_argument("--configs", default=",".join(ABLATIONS), help="comma-separated config names")
    ap.add_argument("--local-llm", action="store_true",
                    help="serve the bundled SmolLM2-135M (hopgraph llm serve) and answer with it")
    ap.add_argument("--skip-latency", action="store_true")
    ap.add_argument("--uri", default=None,
                    help="use this running server (already loaded with the subset) instead of "
                         "starting one")
    ap.add_argument("--password-file", type=Path, default=None,
                    help="file holding the password of --uri (user neo4j)")
    ap.add_argument("--ceiling", action="store_true",
                    help="also count questions with an option within 1-3 edges of a question entity")
    ap.add_argument("--fraction", type=float, default=1.0,
                    help="load only this share (0 < F <= 1) of the subset's rows, chosen by a "
                         "seeded shuffle (--fraction-seed): nested graphs of growing size")
    ap.add_argument("--fraction-seed", type=int, default=29)
    ap.add_argument("--compare-no-llm", action="store_true",
                    help="also run the configs without the LLM on the same questions (rows "
                         "'no_llm:<config>'), before the LLM rows")
    args = ap.parse_args()
    if not 0.0 < args.fraction <= 1.0:
        ap.error(f"--fraction must be in (0, 1], got {args.fraction}")
    if args.fraction < 1.0 and args.uri is not None:
        ap.error("--fraction loads its own graph: not with --uri")
    settings = Settings.from_env()
    configs = {n: ABLATIONS[n] for n in args.configs.split(",")}
    llm_server = None
    if args.local_llm:
        from hopgraph.models._llm_server import LocalLLMServer

        llm_server = LocalLLMServer(port=free_port(), threads=2, verbosity=0).start()
        settings = settings.replace(llm=dataclasses.replace(
            settings.llm, base_url=llm_server.base_url, model=llm_server.alias, timeout_s=120.0))
    tmp = Path(tempfile.mkdtemp(prefix="hopgraph-bio-eval-"))
    with contextlib.ExitStack() as stack:
        stack.callback(shutil.rmtree, tmp, True)
        if llm_server is not None:
            stack.callback(llm_server.stop)
        if args.uri is None:  # its own server, stopped and removed whatever happens
            runner = stack.enter_context(local_neo4j(
                "hopgraph-bio-eval-neo4j-", query_timeout_s=600.0, heap="1g",
                pagecache="1g")).runner
            source = subset_fraction(DATA / "primekg" / "primekg_triples_subset.tsv",
                                     args.fraction, args.fraction_seed, tmp)
            report = load_primekg(runner, source)
            loaded: dict[str, Any] = {
                "fraction": args.fraction, "fraction_seed": args.fraction_seed,
                "rows": report.rows_read, "seconds": round(report.seconds, 1),
                "rows_per_s": round(report.rows_per_s), "nodes": report.nodes_after,
                "edges": report.edges_after, "skipped": report.problems_by_reason}
        else:
            if args.password_file is None:
                ap.error("--uri needs --password-file")
            driver = connect(args.uri, "neo4j", args.password_file.read_text().strip())
            stack.callback(driver.close)
            runner = Neo4jRunner(driver, database="neo4j", timeout_s=600.0)
            counts = runner.read("biomed/count_graph")[0]
            loaded = {"server": args.uri, "nodes": counts["nodes"], "edges": counts["edges"],
                      "loaded_by": "load_primekg on the subset before this run"}
        questions = load_mcq(args.data, per_dataset=args.per_dataset, seed=args.seed,
                             match=args.match)
        linker = MemoLinker(EntityLinker(runner, nlp=build_nlp()))
        embedder = MemoEmbedder(build_embedder("all-MiniLM-L6-v2", settings.embedder.cache_dir))
        regram = Regram(runner, embedder, linker, llm=chat_model_from(settings.llm))
        RESULTS.mkdir(parents=True, exist_ok=True)
        partial = RESULTS / f"{args.out}.partial.jsonl"
        partial.write_text("")

        def checkpoint(prefix: str) -> Callable[[dict[str, Any]], None]:
            # One line per finished question, so a long LLM run keeps what it measured.
            def write(row: dict[str, Any]) -> None:
                with partial.open("a") as f:
                    f.write(json.dumps({"run": prefix, "load_avg_1m": os.getloadavg()[0], **row})
                            + "\n")
            return write

        started = time.perf_counter()
        load_start = os.getloadavg()[0]
        baseline: dict[str, Any] | None = None
        if args.compare_no_llm and regram.llm_model is not None:
            # The same questions, same graph, same linker and embedder, without the LLM.
            baseline = evaluate(Regram(runner, embedder, linker), questions, configs=configs,
                                on_item=checkpoint("no_llm"))
        result = evaluate(regram, questions, configs=configs,
                          on_item=checkpoint("llm" if regram.llm_model else "no_llm"))
        if baseline is not None:
            result["configs"].update({f"no_llm:{k}": v for k, v in baseline["configs"].items()})
            for row, base_row in zip(result["items"], baseline["items"], strict=True):
                row.update({f"no_llm:{k}": base_row[k] for k in configs})
        eval_s = time.perf_counter() - started
        seed_sets = []
        texts = []
        for q in questions:
            ids = [e.id for e in linker.link(q.question)]
            if ids:
                seed_sets.append(ids)
                texts.append(q.question)
        if not args.skip_latency:
            result["latency_subset"] = latency(runner, seed_sets[:40], texts[:40])
        if args.ceiling:
            result["ceiling"] = evidence_ceiling(runner, linker, questions)
            result["ceiling"]["gold_name_similarity"] = gold_name_similarity(
                questions, DATA / "primekg" / "primekg_triples_subset.tsv")
        result["load_subset"] = loaded
        result["sampling"] = {"data": str(args.data), "per_dataset": args.per_dataset, "seed": args.seed,
                              "match": args.match,
                              "questions": len(questions), "eval_seconds": round(eval_s, 1),
                              "llm": regram.llm_model,
                              "answerer": "configured LLM" if regram.llm_model else
                              "deterministic KG scorer (no LLM configured)",
                              "host_load_avg_1m": os.getloadavg()[0],
                              "host_load_avg_start_1m": load_start,
                              "commit": commit(),
                              "date": time.strftime("%Y-%m-%d %H:%M"),
                              "compare_no_llm": baseline is not None}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{args.out}.json").write_text(json.dumps(result, indent=2))
    print(json.dumps({k: v for k, v in result.items() if k != "items"}, indent=2))


if __name__ == "__main__":
    main()
