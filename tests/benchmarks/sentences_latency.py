"""Where the time of sentence-graph retrieval goes: round trips and time per query, per question.

Runs :meth:`SentenceReasoner.retrieve` (the product defaults, no LLM) on the shared HotpotQA
questions against a server that already holds the corpus's sentence graph (``--uri``; build it
with ``hopgraph load sentences`` or ``sentences_hotpotqa.py``), with the question vectors made
beforehand, and times every registered query it runs. Baseline in the same run: sentence
retrieval alone (``find_anchor_sentences`` with k = the evidence budget, one round trip), the
``sentence-ro`` system of the HotpotQA benchmark. Also timed in the same run: the graph with one
query per expansion hop (``expand_in_one_query=False``, the path before issue 29 folded the hops
into ``sentence/expand_paths``), and whether both give the same evidence. One warm-up pass, then
one measured pass of each, interleaved per question.

    python -m tests.benchmarks.sentences_latency --uri bolt://… --password-file FILE [--questions 100]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import time
from collections import defaultdict
from pathlib import Path
from statistics import mean, median
from typing import Any

from hopgraph.agents.sentences import SentenceReasoner
from hopgraph.db import Neo4jRunner, connect
from hopgraph.eval.sentences import read_questions
from hopgraph.models import build_embedder
from hopgraph.retrieval import find_anchor_sentences

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data" / "multihop"
RESULTS = Path(__file__).resolve().parent / "results"


class TimedRunner:
    """A query runner that times every read by query key (reads only: retrieval writes nothing)."""

    def __init__(self, inner: Neo4jRunner) -> None:
        self.inner = inner
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def read(self, key: str, **params: Any) -> list[dict[str, Any]]:
        started = time.perf_counter()
        try:
            return self.inner.read(key, **params)
        finally:
            self.seconds[key] += time.perf_counter() - started
            self.calls[key] += 1

    def reset(self) -> None:
        self.seconds.clear()
        self.calls.clear()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--uri", required=True, help="server holding the corpus's sentence graph")
    ap.add_argument("--password-file", type=Path, required=True, help="its password (user neo4j)")
    ap.add_argument("--questions", type=int, default=100)
    ap.add_argument("--embedding-cache", type=Path, default=None)
    ap.add_argument("--out", default="sentences_latency")
    args = ap.parse_args()
    driver = connect(args.uri, "neo4j", args.password_file.read_text().strip())
    runner = TimedRunner(Neo4jRunner(driver, database="neo4j", timeout_s=600.0))
    embedder = build_embedder("all-MiniLM-L6-v2", args.embedding_cache)
    questions = read_questions(DATA / "hotpotqa_train.json")[: args.questions]
    vectors = [embedder.embed_query(q.question) for q in questions]
    reasoner = SentenceReasoner(runner, embedder)  # type: ignore[arg-type]  # reads only
    per_hop_runner = TimedRunner(runner.inner)
    per_hop = SentenceReasoner(per_hop_runner, embedder).with_config(  # type: ignore[arg-type]
        expand_in_one_query=False)
    k = reasoner.config.max_evidence
    load_start = os.getloadavg()[0]
    for q, v in zip(questions, vectors, strict=True):  # warm-up: plans and page cache
        reasoner.retrieve(q.question, v)
        per_hop.retrieve(q.question, v)
        find_anchor_sentences(runner, v, k)  # type: ignore[arg-type]
    runner.reset()
    per_hop_runner.reset()
    graph_s: list[float] = []
    per_hop_s: list[float] = []
    ro_s: list[float] = []
    ro_query = 0.0
    same = 0
    for q, v in zip(questions, vectors, strict=True):
        started = time.perf_counter()
        result = reasoner.retrieve(q.question, v)
        graph_s.append(time.perf_counter() - started)
        started = time.perf_counter()
        reference = per_hop.retrieve(q.question, v)
        per_hop_s.append(time.perf_counter() - started)
        same += [(e.id, e.path) for e in result.evidence] == [(e.id, e.path) for e in reference.evidence]
        before = runner.seconds["sentence/find_anchor_sentences"]
        started = time.perf_counter()
        find_anchor_sentences(runner, v, k)  # type: ignore[arg-type]
        ro_s.append(time.perf_counter() - started)
        ro_query += runner.seconds["sentence/find_anchor_sentences"] - before
        runner.seconds["sentence/find_anchor_sentences"] = before  # keep the graph's own
        runner.calls["sentence/find_anchor_sentences"] -= 1
    n = len(questions)
    in_queries = sum(runner.seconds.values())
    out = {
        "questions": n,
        "graph_ms": {"mean": round(1000 * mean(graph_s), 1), "median": round(1000 * median(graph_s), 1)},
        "sentence_ro_ms": {"mean": round(1000 * mean(ro_s), 1), "median": round(1000 * median(ro_s), 1)},
        "ratio_mean": round(mean(graph_s) / mean(ro_s), 2),
        "ratio_median": round(median(graph_s) / median(ro_s), 2),
        "graph_per_hop_ms": {"mean": round(1000 * mean(per_hop_s), 1),
                             "median": round(1000 * median(per_hop_s), 1)},
        "per_hop_ratio_mean": round(mean(per_hop_s) / mean(ro_s), 2),
        "per_hop_ratio_median": round(median(per_hop_s) / median(ro_s), 2),
        "per_hop_round_trips_per_question": round(sum(per_hop_runner.calls.values()) / n, 2),
        "same_evidence_as_per_hop": same,
        "graph_round_trips_per_question": round(sum(runner.calls.values()) / n, 2),
        "graph_share_in_queries": round(in_queries / sum(graph_s), 3),
        "by_query": {key: {"calls_per_question": round(runner.calls[key] / n, 2),
                           "ms_per_question": round(1000 * runner.seconds[key] / n, 1),
                           "ms_per_call": round(1000 * runner.seconds[key] / runner.calls[key], 1),
                           "share_of_graph_time": round(runner.seconds[key] / sum(graph_s), 3)}
                     for key in sorted(runner.seconds, key=runner.seconds.__getitem__, reverse=True)},
        "host": {"load_avg_1m_start": load_start, "load_avg_1m_end": os.getloadavg()[0],
                 "date": time.strftime("%Y-%m-%d %H:%M"),
                 "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                          text=True, check=False).stdout.strip()},
    }
    driver.close()
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{args.out}.json").write_text(json.dumps(out, indent=1))
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
