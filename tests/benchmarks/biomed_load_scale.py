"""Full-PrimeKG-scale load and region-latency benchmark on a server of its own.

Generates a synthetic ``kg.csv`` with PrimeKG's shape (≈129k nodes over 10 types, relation mix
close to PrimeKG's, every edge listed in both directions like the real file: ≈8.1M rows, ≈4.05M
distinct edges), loads it with ``hopgraph.loaders.biomed.load_primekg`` (10k rows per batch) into
a fresh local Neo4j (heap 4g, page cache 4g) and reports time and rows/s. The load stops at a time
budget; then the figures are for the rows loaded and the full-size time is extrapolated (stated
as such). Afterwards it times the weighted region query against a plain one-hop neighbourhood
query on the same server for the same seed entities (p50 ratio).

Run: ``python -m tests.benchmarks.biomed_load_scale [--rows 8100000] [--budget-s 1200]``.

With ``--bulk`` the full file is loaded by the bulk importer (``--bulk-import``): first the
transactional loader loads a prefix of the same file (``--baseline-rows``) on the fresh server as
the same-run baseline, then the bulk import replaces the database with the whole file; the
region query is then timed at full size. Results go to ``biomed_load_scale_bulk.{json,md}``.
``--skip-baseline`` leaves the transactional prefix out.

With ``--region-mmr`` it also times region construction with weighted MMR at full size. The
triplets those seed sets can select (their region candidates) get stored vectors first — the
vectors the full embedding pass would store on those edges, made by the same embedder and text;
the pass over all ~3.4M edges would take ~3 h here and the queries timed read no other edge's
vector. Each seed set gets a generated question naming its entities (~150 characters, the
median of the subset benchmark's questions), in the same results file under ``region_mmr``.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from hopgraph.db import LocalInstance, Neo4jRunner, connect, free_port, install_schema
from hopgraph.graph_models import encode_vector, triplet_embedding_key, triplet_text
from hopgraph.loaders.biomed import bulk_import_primekg, load_primekg
from hopgraph.retrieval import Domain, collect_candidates, relation_weights, select_region

RESULTS = Path(__file__).parent / "results"
# PrimeKG node counts per type (Chandak et al. 2023), scaled by --nodes.
NODE_TYPES = {"gene/protein": 27671, "drug": 7957, "disease": 17080, "effect/phenotype": 15311,
              "biological_process": 28642, "molecular_function": 11169,
              "cellular_component": 4176, "pathway": 2516, "anatomy": 14035, "exposure": 818}
# (relation, x_type, y_type, share of rows) — PrimeKG's relation mix, rounded.
RELATIONS = [
    ("anatomy_protein_present", "anatomy", "gene/protein", 0.372),
    ("drug_drug", "drug", "drug", 0.330),
    ("protein_protein", "gene/protein", "gene/protein", 0.079),
    ("disease_phenotype_positive", "disease", "effect/phenotype", 0.037),
    ("bioprocess_protein", "biological_process", "gene/protein", 0.036),
    ("cellcomp_protein", "cellular_component", "gene/protein", 0.021),
    ("disease_protein", "disease", "gene/protein", 0.020),
    ("molfunc_protein", "molecular_function", "gene/protein", 0.017),
    ("drug_effect", "drug", "effect/phenotype", 0.016),
    ("bioprocess_bioprocess", "biological_process", "biological_process", 0.013),
    ("pathway_protein", "pathway", "gene/protein", 0.011),
    ("disease_disease", "disease", "disease", 0.008),
    ("contraindication", "drug", "disease", 0.008),
    ("drug_protein", "drug", "gene/protein", 0.006),
    ("anatomy_protein_absent", "anatomy", "gene/protein", 0.005),
    ("phenotype_phenotype", "effect/phenotype", "effect/phenotype", 0.005),
    ("anatomy_anatomy", "anatomy", "anatomy", 0.004),
    ("molfunc_molfunc", "molecular_function", "molecular_function", 0.003),
    ("indication", "drug", "disease", 0.002),
    ("cellcomp_cellcomp", "cellular_component", "cellular_component", 0.001),
    ("phenotype_protein", "effect/phenotype", "gene/protein", 0.001),
    ("off-label use", "drug", "disease", 0.001),
    ("pathway_pathway", "pathway", "pathway", 0.001),
    ("exposure_disease", "exposure", "disease", 0.001),
]


def generate_kg_csv(path: Path, rows: int, node_scale: float, seed: int = 7) -> dict[str, int]:
    """Write ``rows`` kg.csv rows (each edge twice, both directions); skewed endpoints (hubs)."""
    rng = random.Random(seed)
    counts = {t: max(10, int(n * node_scale)) for t, n in NODE_TYPES.items()}
    weights = [share for *_, share in RELATIONS]
    with path.open("w") as out:
        out.write("relation,display_relation,x_index,x_id,x_type,x_name,x_source,"
                  "y_index,y_id,y_type,y_name,y_source\n")
        written = 0
        while written < rows:
            rel, xt, yt, _ = rng.choices(RELATIONS, weights)[0]
            # A heavy tail on the x side makes a few low-index nodes hubs with thousands of edges.
            if rng.random() < 0.3:
                xi = min(counts[xt] - 1, int(rng.paretovariate(1.0)) - 1)
            else:
                xi = rng.randrange(counts[xt])
            yi = rng.randrange(counts[yt])
            x = f"{xi},{xt}-{xi},{xt},{xt} entity {xi},SRC"
            y = f"{yi},{yt}-{yi},{yt},{yt} entity {yi},SRC"
            if xt == yt and xi == yi:
                continue
            out.write(f"{rel},{rel},{x},{y}\n{rel},{rel},{y},{x}\n")
            written += 2
    return counts


class _Budget(Exception):
    pass


def p50(values: list[float]) -> float:
    return statistics.median(values)


def time_queries(runner: Neo4jRunner, seeds: list[list[str]], repeats: int = 3) -> dict[str, float]:
    """p50 latency (ms) of the weighted region query and the plain one-hop query, same seeds."""
    weights = relation_weights(Domain.DRUG_THERAPY)
    region_ms: list[float] = []
    plain_ms: list[float] = []
    for ids in seeds:  # warm-up
        runner.read("biomed/collect_region_candidates", entity_ids=ids, weights=weights,
                    default_weight=1.0, per_entity_limit=60, embedding_key=None)
        runner.read("biomed/match_neighbourhood", entity_ids=ids)
    for _ in range(repeats):
        for ids in seeds:
            t = time.perf_counter()
            runner.read("biomed/collect_region_candidates", entity_ids=ids, weights=weights,
                        default_weight=1.0, per_entity_limit=60, embedding_key=None)
            region_ms.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            runner.read("biomed/match_neighbourhood", entity_ids=ids)
            plain_ms.append((time.perf_counter() - t) * 1000)
    return {"region_p50_ms": p50(region_ms), "plain_p50_ms": p50(plain_ms),
            "ratio_p50": p50(region_ms) / p50(plain_ms), "queries": len(region_ms)}


def region_mmr(runner: Neo4jRunner, seeds: list[list[str]], rounds: int = 3) -> dict[str, object]:
    """Store the candidates' vectors, then time region construction against the plain one-hop."""
    from hopgraph.models import build_embedder

    embedder = build_embedder("all-MiniLM-L6-v2")
    key = triplet_embedding_key(embedder)
    weights = relation_weights(Domain.INTEGRATED)
    t0 = time.perf_counter()
    trips = {t.key: t for ids in seeds for t in collect_candidates(runner, ids, weights).triplets}
    rows = runner.run_admin(lambda s: s.run(
        "UNWIND $trips AS t MATCH (h:BioEntity {id: t.h})-[r]->(x:BioEntity {id: t.t}) "
        "WHERE type(r) = t.rel RETURN elementId(r) AS edge_id, h.name AS head, "
        "type(r) AS relation, x.name AS tail",
        trips=[{"h": k[0], "rel": k[1], "t": k[2]} for k in trips]).data())
    vectors = embedder.embed_documents([triplet_text(r["head"], r["relation"], r["tail"])
                                        for r in rows])
    for start in range(0, len(rows), 500):
        runner.write("biomed/set_triplet_embeddings", embedding_key=key, rows=[
            {"edge_id": r["edge_id"], "embedding": encode_vector(v)}
            for r, v in zip(rows[start:start + 500], vectors[start:start + 500], strict=True)])
    stored_s = time.perf_counter() - t0
    names = runner.run_admin(lambda s: {r["id"]: r["name"] for r in s.run(
        "UNWIND $ids AS id MATCH (n:BioEntity {id: id}) RETURN n.id AS id, n.name AS name",
        ids=sorted({i for ids in seeds for i in ids})).data()})
    questions = [f"How are {', '.join(names.get(i, i) for i in ids)} related, and which drugs, "
                 "genes or phenotypes take part in the mechanism that links them?" for ids in seeds]
    times: dict[str, list[float]] = {n: [] for n in (
        "plain_one_hop", "region_query_with_vectors", "region_mmr_qvec_ready",
        "region_mmr_with_question_embedding", "question_embedding")}

    def clock(name: str, fn: object, *a: object) -> object:
        t = time.perf_counter()
        out = fn(*a)  # type: ignore[operator]
        times[name].append((time.perf_counter() - t) * 1000)
        return out

    same = 0
    for q, ids in zip(questions, seeds, strict=True):  # warm-up + same-selection check
        runner.read("biomed/match_neighbourhood", entity_ids=ids)
        qv = embedder.embed_query(q)
        stored = select_region(q, collect_candidates(runner, ids, weights, embedder=embedder),
                               embedder, query_vec=qv)
        computed = select_region(q, collect_candidates(runner, ids, weights), embedder,
                                 query_vec=qv)
        same += [t.key for t in stored.triplets] == [t.key for t in computed.triplets]
    for _ in range(rounds):
        for q, ids in zip(questions, seeds, strict=True):
            clock("plain_one_hop", lambda ids=ids: runner.read("biomed/match_neighbourhood",
                                                               entity_ids=ids))
            clock("region_query_with_vectors", lambda ids=ids: collect_candidates(
                runner, ids, weights, embedder=embedder))
            qv = clock("question_embedding", embedder.embed_query, q)
            clock("region_mmr_qvec_ready", lambda q=q, ids=ids, qv=qv: select_region(
                q, collect_candidates(runner, ids, weights, embedder=embedder), embedder,
                query_vec=qv))
            clock("region_mmr_with_question_embedding", lambda q=q, ids=ids: select_region(
                q, collect_candidates(runner, ids, weights, embedder=embedder), embedder))
    base = p50(times["plain_one_hop"])
    return {"embedder": getattr(embedder, "backend_note", "?"), "candidate_triplets": len(trips),
            "edges_given_vectors": len(rows), "vectors_stored_s": round(stored_s, 1),
            "question_chars_p50": statistics.median(len(q) for q in questions),
            "same_selection_stored_vs_computed": f"{same}/{len(seeds)}",
            "latency_p50_ms": {k: round(p50(v), 2) for k, v in times.items()},
            "latency_p95_ms": {k: round(statistics.quantiles(v, n=20)[-1], 2)
                               for k, v in times.items()},
            "ratio_p50_over_plain": {k: round(p50(v) / base, 2) for k, v in times.items()},
            "queries_per_variant": len(times["plain_one_hop"])}


def _bulk(args: argparse.Namespace, inst: LocalInstance, runner: Neo4jRunner, csv: Path,
          result: dict[str, object]) -> None:
    """Baseline (unless skipped): transactional load of a prefix; then bulk import of the
    whole file."""
    base = None if args.skip_baseline else _baseline(args, runner, csv, result)
    bulk = bulk_import_primekg(inst, csv, dimension=384, replace=True,
                               work_dir=csv.parent / "import")
    print(bulk.summary(), flush=True)
    result["bulk"] = {"rows": bulk.rows_read, "seconds": round(bulk.seconds, 1),
                      "rows_per_s": round(bulk.rows_per_s), "nodes": bulk.nodes,
                      "edges": bulk.edges, "duplicate_rows": bulk.duplicate_rows,
                      "skipped": bulk.problems_by_reason,
                      "phases_s": {"read_and_write_csv": round(bulk.prepare_s, 1),
                                   "stop": round(bulk.stop_s, 1),
                                   "import": round(bulk.import_s, 1),
                                   "start": round(bulk.start_s, 1),
                                   "schema_and_indexes": round(bulk.schema_s, 1)},
                      "importer": bulk.importer_summary}
    result["ratio_rows_per_s_bulk_over_transactional"] = round(
        bulk.rows_per_s / base.rows_per_s, 2) if base is not None and base.rows_per_s else None
    result["complete"] = True


def _baseline(args: argparse.Namespace, runner: Neo4jRunner, csv: Path,
              result: dict[str, object]) -> Any:
    prefix = csv.with_name("kg_prefix.csv")
    with csv.open(encoding="utf-8") as src, prefix.open("w", encoding="utf-8") as dst:
        for i, line in enumerate(src):
            if i > args.baseline_rows:
                break
            dst.write(line)
    base = load_primekg(runner, prefix, batch_size=args.batch_size)
    result["baseline"] = {"loader": "load_primekg (transactional MERGE)", "rows": base.rows_read,
                          "seconds": round(base.seconds, 1), "rows_per_s": round(base.rows_per_s),
                          "edges": base.edges_after}
    print(f"baseline: {base.rows_read} rows in {base.seconds:.1f}s", flush=True)
    return base


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=8_100_000)
    ap.add_argument("--node-scale", type=float, default=1.0)
    ap.add_argument("--budget-s", type=float, default=1200.0)
    ap.add_argument("--batch-size", type=int, default=10_000)
    ap.add_argument("--out", default=None)
    ap.add_argument("--bulk", action="store_true", help="bulk import (see the module doc)")
    ap.add_argument("--baseline-rows", type=int, default=300_000)
    ap.add_argument("--skip-baseline", action="store_true",
                    help="with --bulk: no transactional prefix load first")
    ap.add_argument("--region-mmr", action="store_true",
                    help="also time region + weighted MMR at full size (see the module doc)")
    args = ap.parse_args()
    args.out = args.out or ("biomed_load_scale_bulk" if args.bulk else "biomed_load_scale")
    tmp = Path(tempfile.mkdtemp(prefix="hopgraph-bio-scale-"))
    csv = tmp / "kg.csv"
    t0 = time.perf_counter()
    counts = generate_kg_csv(csv, args.rows, args.node_scale)
    gen_s = time.perf_counter() - t0
    inst = LocalInstance(root=tmp / "neo4j", cache_root=Path.home() / ".local/share/hopgraph/cache",
                         bolt_port=free_port(), http_port=free_port(), heap="4g", pagecache="4g")
    inst.start()
    result: dict[str, object] = {"rows_requested": args.rows, "nodes_generated": sum(counts.values()),
                                 "generate_s": round(gen_s, 1), "batch_size": args.batch_size,
                                 "budget_s": args.budget_s}
    try:
        driver = connect(inst.uri, "neo4j", inst.password())
        install_schema(driver, "neo4j", dimension=384)
        runner = Neo4jRunner(driver, database="neo4j", timeout_s=600.0)
        progress: list[tuple[float, int]] = []
        started = time.perf_counter()
        done = 0

        def tick(n: int) -> None:
            nonlocal done
            done += n
            progress.append((time.perf_counter() - started, done))
            if len(progress) % 20 == 0:
                print(f"  {done} edge rows in {progress[-1][0]:.0f}s", flush=True)
            if time.perf_counter() - started > args.budget_s:
                raise _Budget

        complete = True
        if args.bulk:
            _bulk(args, inst, runner, csv, result)
            # The bulk import restarted the server: the old connection is gone.
            driver.close()
            driver = connect(inst.uri, "neo4j", inst.password())
            runner = Neo4jRunner(driver, database="neo4j", timeout_s=600.0)
        else:
            try:
                report = load_primekg(runner, csv, batch_size=args.batch_size, progress=tick)
                result.update({"complete": True, "load_s": round(report.seconds, 1),
                               "rows_read": report.rows_read,
                               "rows_per_s": round(report.rows_per_s),
                               "nodes": report.nodes_after, "edges": report.edges_after,
                               "rows_merged_into_existing": report.duplicate_rows,
                               "skipped": report.problems_by_reason})
            except _Budget:
                complete = False
                elapsed, rows_done = progress[-1] if progress else (args.budget_s, 0)
                counts_now = runner.read("biomed/count_graph")[0]
                rate = max(rows_done, 1) / elapsed
                result.update({"complete": False, "load_s": round(elapsed, 1),
                               "rows_loaded": rows_done, "rows_per_s": round(rate),
                               "nodes": counts_now["nodes"], "edges": counts_now["edges"],
                               "extrapolated_full_load_s": round(args.rows / rate, 1)})
        result["progress_samples"] = [(round(t, 1), n) for t, n in progress[:: max(1, len(progress) // 20)]]
        # Seeds: random entities plus the biggest hubs, 3 per query like a linked question.
        hubs = [r["id"] for r in runner.run_admin(lambda s: s.run(
            "MATCH (n:BioEntity) WITH n, COUNT { (n)--() } AS d ORDER BY d DESC LIMIT 6 "
            "RETURN n.id AS id, d").data())]
        rnd = [r["id"] for r in runner.run_admin(lambda s: s.run(
            "MATCH (n:BioEntity) WITH n, rand() AS r ORDER BY r LIMIT 60 RETURN n.id AS id").data())]
        seeds = [rnd[i:i + 3] for i in range(0, 60, 3)] + [hubs[:3], hubs[3:6]]
        degrees = runner.run_admin(lambda s: s.run(
            "UNWIND $ids AS id MATCH (n:BioEntity {id: id}) RETURN max(COUNT { (n)--() }) AS mx",
            ids=hubs).single()["mx"])
        result["max_degree"] = degrees
        result["latency"] = time_queries(runner, seeds)
        if args.region_mmr:
            result["region_mmr"] = region_mmr(runner, seeds)
        result["complete_load"] = complete
        driver.close()
    finally:
        inst.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{args.out}.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
