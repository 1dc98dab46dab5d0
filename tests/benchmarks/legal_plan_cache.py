"""How often the legal retrieval query is planned, with and without size-keyed plan caching.

Neo4j caches a query's plan under its text and its parameters' types and, by default
(``internal.cypher.use_parameter_size=true``), the sizes of its list and string parameters, so a
question of a new length can be planned again. ``legal/retrieve_context`` takes seconds to plan
on 2 cores. This script starts two local servers in turn, one with Neo4j's default and one with
hopgraph's setting (``false``), loads the shipped sample regulations into each, and asks the
same questions twice in the same order (the samples' 12 questions and the 6 hand-written
unanswerable ones: 18 questions of 15 different lengths). A call slower than ``PLANNED_MS`` is counted as planned (the
query itself runs in tens of ms on this graph).

Run: ``python -m tests.benchmarks.legal_plan_cache``; writes results/legal_plan_cache.{md,json}.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests.*

from hopgraph.loaders.legal import load_legal
from hopgraph.retrieval import LegalRetriever
from tests.benchmarks._common import local_neo4j, machine_load
from tests.retrieval_fixtures import HashEmbedder

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "loaders" / "legal" / "samples"
RESULTS = Path(__file__).parent / "results"
PLANNED_MS = 500.0


def questions() -> list[str]:
    sample = json.loads((SAMPLES / "questions.json").read_text(encoding="utf-8"))["questions"]
    other = json.loads((Path(__file__).parent / "legal_qa_unanswerable.json")
                       .read_text(encoding="utf-8"))["questions"]
    return [q["question"] for q in sample + other]


def run(size_hints: bool, qs: list[str]) -> dict[str, Any]:
    with local_neo4j("hopgraph-plan-cache-", dimension=384, query_timeout_s=120.0, heap="1g",
                     pagecache="512m", size_hinted_plans=size_hints) as server:
        runner = server.runner
        load_legal(runner, HashEmbedder(), [SAMPLES])
        retriever = LegalRetriever(runner, HashEmbedder())
        passes: list[list[float]] = []
        for _ in range(2):
            times = []
            for q in qs:
                retriever._embed(q)  # the embedding is not what is measured
                t = time.perf_counter()
                retriever.retrieve(q, k=5, as_of="2024-01-01")
                times.append((time.perf_counter() - t) * 1000)
            passes.append(times)
    first, second = passes
    return {
        "internal.cypher.use_parameter_size": size_hints,
        "planned_first_pass": sum(t > PLANNED_MS for t in first),
        "planned_second_pass": sum(t > PLANNED_MS for t in second),
        "first_pass_ms": {"p50": round(statistics.median(first), 1),
                          "max": round(max(first), 1), "total": round(sum(first))},
        "second_pass_ms": {"p50": round(statistics.median(second), 1),
                           "max": round(max(second), 1)},
        "planned_ms_median": round(statistics.median([t for t in first if t > PLANNED_MS]), 1)
        if any(t > PLANNED_MS for t in first) else None,
        "first_pass_each_ms": [round(t, 1) for t in first],
    }


def main() -> None:
    qs = questions()
    result: dict[str, Any] = {
        "date_utc": datetime.now(UTC).strftime("%Y-%m-%d %H:%M"), "questions": len(qs),
        "distinct_lengths": len({len(q) for q in qs}), "load_avg_start": machine_load(),
        "runs": [run(True, qs), run(False, qs)],
    }
    result["load_avg_end"] = machine_load()
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "legal_plan_cache.json").write_text(json.dumps(result, indent=2))
    print(json.dumps({k: v for k, v in result.items() if k != "runs"}, indent=2))
    for r in result["runs"]:
        print(json.dumps({k: v for k, v in r.items() if k != "first_pass_each_ms"}))


if __name__ == "__main__":
    main()
