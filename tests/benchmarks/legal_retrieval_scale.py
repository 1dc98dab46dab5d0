"""Scale test of legal retrieval on generated corpora (10k / 100k / 1M units).

The generator writes documents of articles and clauses with random unit vectors and word
sequences drawn from a Zipf vocabulary, with amendment chains (about 5 % of clauses amended one to
three times by later documents, each with a UnitVersion), repeals (0.5 %) and REFERS_TO edges
(0.3 per clause). Writes go through batched ``UNWIND`` queries (``legal/write_benchmark_*`` and
the Cypher below in ``cypher/legal/write_benchmark_edges``). For every size it measures full
retrieval (``legal/retrieve_context``, one round trip: seeds + re-rank + tracing + references +
provenance) and a plain vector top-k on the same server, interleaved, and PROFILEs the slowest
full-retrieval query.

    OPENBLAS_NUM_THREADS=1 python tests/benchmarks/legal_retrieval_scale.py --sizes 10000 100000
    OPENBLAS_NUM_THREADS=1 python tests/benchmarks/legal_retrieval_scale.py --sizes 1000000 \
        --bulk --heap 4g --pagecache 8g --out legal_retrieval_scale_1m --wait-load 1.5

``--bulk`` writes the same corpus (same generator, same random streams) as CSV for
``neo4j-admin database import`` and builds the indexes afterwards: batched Cypher took 188 s for
100k units, too slow for 1M. Writes tests/benchmarks/results/<out>.{md,json}
(default ``legal_retrieval_scale``).
"""

from __future__ import annotations

import argparse
import csv
import json
import logging
import os
import random
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hopgraph.core.settings import default_home
from hopgraph.db import LocalInstance, Neo4jRunner, connect, free_port, install_schema
from hopgraph.retrieval import LegalRetriever, RetrievalConfig
from hopgraph.retrieval._eval import percentile
from hopgraph.retrieval._legal_types import DEFAULT_BODY_WEIGHT
from tests.benchmarks._common import commit

RESULTS = Path(__file__).parent / "results"
COMMIT = commit()  # at start-up
DIM = 384
VOCAB = 20_000
ARTICLES_PER_DOC = 100
CLAUSES_PER_ARTICLE = 4
AMEND_RATE = 0.05
REPEAL_RATE = 0.005
REFS_PER_CLAUSE = 0.3
BATCH = 5_000
QUERIES = 100
# What full retrieval is timed with: unit granularity, the body-phrase bonus on.
MEASURED = RetrievalConfig(body_weight=DEFAULT_BODY_WEIGHT)


class VectorEmbedder:
    """Returns a prepared query vector: the scale test measures the database, not the model."""

    name = "random"
    dimension = DIM

    def __init__(self) -> None:
        self.next: list[float] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        raise NotImplementedError

    def embed_query(self, text: str) -> list[float]:
        return self.next


def _words(rng: np.random.Generator, n: int) -> str:
    ids = np.minimum(rng.zipf(1.3, n), VOCAB)
    return " ".join(f"w{i}" for i in ids)


def _vecs(rng: np.random.Generator, n: int) -> np.ndarray:
    v = rng.standard_normal((n, DIM)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


class CypherSink:
    """Writes the generated corpus through batched ``UNWIND`` queries (``legal/write_benchmark_*``)."""

    def __init__(self, runner: Neo4jRunner) -> None:
        self.runner = runner

    def documents(self, rows: list[dict[str, Any]]) -> None:
        self.runner.write("legal/write_benchmark_documents", rows=rows)

    def units(self, rows: list[dict[str, Any]]) -> None:
        self.runner.write("legal/write_benchmark_units", rows=_listed(rows))

    def versions(self, rows: list[dict[str, Any]]) -> None:
        self.runner.write("legal/write_benchmark_versions", rows=_listed(rows))

    def edges(self, rows: list[dict[str, Any]]) -> None:
        self.runner.write("legal/write_benchmark_edges", rows=rows)


def _listed(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**r, "embedding": r["embedding"].tolist()} for r in rows]


class CsvSink:
    """Writes the generated corpus as ``neo4j-admin database import`` CSV files: the same nodes,
    labels, properties and edges the Cypher writers create (vectors as ``double[]``, as a
    Cypher list of Python floats is stored, rounded to 1e-7)."""

    DELIM = "|"

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.node_path = folder / "legal_nodes.csv"
        self.edge_path = folder / "legal_edges.csv"
        self._nodes = self.node_path.open("w", newline="", encoding="utf-8")
        self._edges = self.edge_path.open("w", newline="", encoding="utf-8")
        self.nw = csv.writer(self._nodes)
        self.ew = csv.writer(self._edges)
        self.nw.writerow(["id:ID(LegalNode)", ":LABEL", "doc_id", "level", "number", "path",
                          "heading", "text", "text_segmented", "ordinal:int", "citation",
                          "embedding:double[]", "valid_from:date", "doc_type", "title",
                          "issuer"])
        self.ew.writerow([":START_ID(LegalNode)", ":END_ID(LegalNode)", ":TYPE",
                          "effective_date:date", "method"])
        self.levels: dict[str, str] = {}  # unit id -> level (a version copies its target's)

    @classmethod
    def _vector(cls, v: np.ndarray) -> str:
        # Each component as an integer count of 1e-7 ("191550e-7"): formatting integers is about
        # 3x faster than floats, which matters at 384M components. Rounding moves a component
        # (typically ~0.05) by at most 5e-8.
        return ("e-7" + cls.DELIM).join(map(str, np.rint(v * 1e7).astype(np.int64).tolist())) + "e-7"

    def documents(self, rows: list[dict[str, Any]]) -> None:
        for d in rows:
            self.nw.writerow([d["id"], "LegalNode|Document", "", "", d["number"], "", "", "", "",
                              "", "", "", "", d["doc_type"], d["title"], d["issuer"]])

    def units(self, rows: list[dict[str, Any]]) -> None:
        for r in rows:
            self.levels[r["id"]] = r["level"]
            self.nw.writerow([r["id"], f"LegalNode|LegalUnit|{r['level']}", r["doc_id"],
                              r["level"], r["number"], r["path"], r["heading"] or "", r["text"],
                              r["text_segmented"] or "", r["ordinal"], "",
                              self._vector(r["embedding"]), "", "", "", ""])
            self.ew.writerow([r["parent_id"], r["id"], "CONTAINS", "", ""])

    def versions(self, rows: list[dict[str, Any]]) -> None:
        for r in rows:
            number, path = r["target"].rsplit(".K", 1)[-1], r["target"].split(":", 1)[1]
            self.nw.writerow([r["id"], "LegalNode|LegalUnit|UnitVersion", r["doc_id"],
                              self.levels[r["target"]], number, path, "", r["text"],
                              r["text_segmented"], "", "", self._vector(r["embedding"]),
                              r["valid_from"].isoformat(), "", "", ""])
            self.ew.writerow([r["id"], r["target"], "VERSION_OF", "", ""])

    def edges(self, rows: list[dict[str, Any]]) -> None:
        for e in rows:
            day = e["effective_date"].isoformat() if e["effective_date"] else ""
            self.ew.writerow([e["src"], e["dst"], e["rel"], day, "generated"])

    def close(self) -> None:
        self._nodes.close()
        self._edges.close()


def generate(sink: CypherSink | CsvSink, n_units: int, seed: int = 7) -> dict[str, int]:
    """Generate a corpus of about ``n_units`` units into ``sink``; return counts."""
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    per_doc = ARTICLES_PER_DOC * (1 + CLAUSES_PER_ARTICLE)
    n_docs = max(1, n_units // per_doc)
    docs = [{"id": f"{i + 1}/{2000 + i % 24}/QH{10 + i % 6}", "number": f"{i + 1}/{2000 + i % 24}/QH{10 + i % 6}",
             "doc_type": prng.choice(["Luật", "Nghị định", "Thông tư"]), "title": f"Văn bản {i + 1}",
             "issuer": prng.choice(["Quốc hội", "Chính phủ", "Bộ Y tế"])} for i in range(n_docs)]
    sink.documents(docs)
    clause_ids: list[str] = []
    counts = {"documents": n_docs, "units": 0, "versions": 0, "amends": 0, "repeals": 0, "refers": 0}
    rows: list[dict[str, Any]] = []

    def flush(level_rows: list[dict[str, Any]]) -> None:
        if level_rows:
            vec = _vecs(rng, len(level_rows))
            for r, v in zip(level_rows, vec, strict=True):
                r["embedding"] = v
            sink.units(level_rows)
            counts["units"] += len(level_rows)
            level_rows.clear()

    for d in docs:
        arts = []
        for a in range(1, ARTICLES_PER_DOC + 1):
            arts.append({"id": f"{d['id']}:D{a}", "doc_id": d["id"], "parent_id": d["id"],
                         "level": "Article", "number": str(a), "path": f"D{a}",
                         "heading": _words(rng, 5), "text": _words(rng, 20),
                         "text_segmented": None, "ordinal": a, "citation": None})
        rows.extend(arts)
        flush(rows)  # articles before their clauses (CONTAINS needs the parent)
        for a in range(1, ARTICLES_PER_DOC + 1):
            for k in range(1, CLAUSES_PER_ARTICLE + 1):
                t = _words(rng, 40)
                cid = f"{d['id']}:D{a}.K{k}"
                clause_ids.append(cid)
                rows.append({"id": cid, "doc_id": d["id"], "parent_id": f"{d['id']}:D{a}",
                             "level": "Clause", "number": str(k), "path": f"D{a}.K{k}",
                             "heading": None, "text": t, "text_segmented": t, "ordinal": k,
                             "citation": None})
            if len(rows) >= BATCH:
                flush(rows)
    flush(rows)
    # Amendments: instruction clauses of later documents amend earlier clauses; new wording as
    # UnitVersion nodes; a few repeals; references between clauses.
    edges: list[dict[str, Any]] = []
    versions: dict[str, dict[str, Any]] = {}  # by id: one amending document, one version
    for cid in prng.sample(clause_ids, int(len(clause_ids) * AMEND_RATE)):
        day = date(2010, 1, 1)
        for _ in range(prng.randint(1, 3)):
            day += timedelta(days=prng.randint(200, 900))
            src = prng.choice(clause_ids)
            src_doc = src.split(":")[0]
            vid = f"{cid}@{src_doc}"
            t = _words(rng, 40)
            versions[vid] = {"id": vid, "target": cid, "doc_id": cid.split(":")[0], "text": t,
                             "valid_from": day}
            edges.append({"rel": "AMENDS", "src": src, "dst": cid, "effective_date": day})
    for cid in prng.sample(clause_ids, int(len(clause_ids) * REPEAL_RATE)):
        edges.append({"rel": "REPEALS", "src": prng.choice(clause_ids), "dst": cid,
                      "effective_date": date(2020, 1, 1)})
    for _ in range(int(len(clause_ids) * REFS_PER_CLAUSE)):
        edges.append({"rel": "REFERS_TO", "src": prng.choice(clause_ids),
                      "dst": prng.choice(clause_ids), "effective_date": None})
    # The Cypher writers MERGE: a repeated (source, relation, target) is one edge, as here.
    edges = list({(e["rel"], e["src"], e["dst"]): e for e in edges}.values())
    version_rows = list(versions.values())
    for i in range(0, len(version_rows), BATCH):
        part = version_rows[i:i + BATCH]
        vec = _vecs(rng, len(part))
        sink.versions([{**r, "embedding": v, "text_segmented": r["text"]}
                       for r, v in zip(part, vec, strict=True)])
    for i in range(0, len(edges), BATCH):
        sink.edges(edges[i:i + BATCH])
    counts["versions"] = len(version_rows)
    for e in edges:
        counts[{"AMENDS": "amends", "REPEALS": "repeals", "REFERS_TO": "refers"}[e["rel"]]] += 1
    counts["units"] += len(version_rows)
    return counts


CPU_ROUNDS = 12
CPU_WARM = 8  # passes over every kind before counting
CPU_BLOCK = 30


def server_cpu_s(pid: int) -> float:
    """CPU seconds (user + system, all threads) the server process has used so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# Where full retrieval's server CPU goes: the measured path and the same query with parts off.
CPU_VARIANTS = {
    "full": MEASURED,
    "default (body bonus off at unit level)": replace(MEASURED, body_weight=None),
    "no tracing": replace(MEASURED, propagate=False),
    "flat hybrid (no re-rank, no tracing)": replace(MEASURED, rerank=False, propagate=False),
    "default at 50 candidates (the default before 2026-11-29)": RetrievalConfig(candidates=50),
}
# The index reads alone, in the same blocks: what the seed search cannot go below.
RAW_READS = {
    "vector index read, k = 20": ("CALL db.index.vector.queryNodes('legalunit_embedding_vector', "
                                  "20, $vector) YIELD node, score RETURN node.id AS id, score"),
    "vector index read, k = 50": ("CALL db.index.vector.queryNodes('legalunit_embedding_vector', "
                                  "50, $vector) YIELD node, score RETURN node.id AS id, score"),
    "full-text index read, k = 50": (
        "CALL db.index.fulltext.queryNodes('legalunit_text_segmented_fulltext', $q, "
        "{limit: 50}) YIELD node, score RETURN node.id AS id, score"),
}


def measure_server_cpu(runner: Neo4jRunner, retriever: LegalRetriever, emb: VectorEmbedder,
                       pid: int, seed: int = 13) -> dict[str, Any]:
    """Server CPU per query of full retrieval (and of its variants, ``CPU_VARIANTS``) and of a
    plain vector top-10: blocks of ``CPU_BLOCK`` queries of one kind, in turn, ``CPU_ROUNDS``
    times (the process's CPU counters cannot tell interleaved queries apart); the same
    questions and vectors for all."""
    from hopgraph.retrieval import prepare_question

    rng = np.random.default_rng(seed)
    vectors = [v.tolist() for v in _vecs(rng, CPU_BLOCK)]
    questions = [_words(rng, 8) for _ in range(CPU_BLOCK)]
    lucene = [prepare_question(q).lucene_content or prepare_question(q).lucene or "none"
              for q in questions]
    spent = {"vector": 0.0, **{name: 0.0 for name in CPU_VARIANTS},
             **{name: 0.0 for name in RAW_READS}}

    def vector_block() -> None:
        for vec in vectors:
            runner.read("legal/search_units_vector", vector=vec, k=10)

    def variant_block(cfg: RetrievalConfig) -> None:
        for q, vec in zip(questions, vectors, strict=True):
            emb.next = vec
            retriever.retrieve(q, k=10, as_of=date(2022, 1, 1), config=cfg)

    def raw_block(text: str) -> None:
        with runner.driver.session(database="neo4j") as session:
            for vec, luc in zip(vectors, lucene, strict=True):
                session.execute_read(lambda tx, v=vec, lq=luc: list(tx.run(text, vector=v, q=lq)))

    # A whole block of every kind before counting: plans cached and the server's JIT warm (on
    # a fresh server a vector top-10 falls from ~23 to ~5 ms of server CPU over the first few
    # hundred queries, so counting from the first ones understates every ratio). Three passes
    # were too few: on 2026-11-29 a vector top-10 still fell from ~11 to ~5 ms over the first
    # counted rounds after them at 10k units.
    for _ in range(CPU_WARM):
        vector_block()
        for cfg in CPU_VARIANTS.values():
            variant_block(cfg)
        for text in RAW_READS.values():
            raw_block(text)
    for _ in range(CPU_ROUNDS):
        before = server_cpu_s(pid)
        vector_block()
        spent["vector"] += server_cpu_s(pid) - before
        for name, cfg in CPU_VARIANTS.items():
            before = server_cpu_s(pid)
            variant_block(cfg)
            spent[name] += server_cpu_s(pid) - before
        for name, text in RAW_READS.items():
            before = server_cpu_s(pid)
            raw_block(text)
            spent[name] += server_cpu_s(pid) - before
    n = CPU_ROUNDS * CPU_BLOCK
    per_query = {name: spent[name] / n * 1000 for name in spent}
    return {"server_cpu_vector_ms": per_query["vector"],
            "server_cpu_full_ms": per_query["full"],
            "ratio_server_cpu": (spent["full"] / spent["vector"] if spent["vector"]
                                 else float("nan")),
            "server_cpu_ms": per_query}


def measure(runner: Neo4jRunner, n_queries: int, seed: int = 11, pid: int | None = None
            ) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    emb = VectorEmbedder()
    # Timed with the body-phrase bonus on (at unit granularity it is off by default): the
    # heaviest re-rank; the default path without it is timed beside it.
    retriever = LegalRetriever(runner, emb, config=MEASURED)
    no_body = replace(MEASURED, body_weight=0.0)
    full: list[float] = []
    vec: list[float] = []
    db: list[float] = []
    db_no_body: list[float] = []
    trips: set[int] = set()
    worst: tuple[float, str, list[float], list[str]] = (0.0, "", [], [])
    qv = _vecs(rng, n_queries + 5)
    for i in range(n_queries + 5):
        q = _words(rng, 8)
        emb.next = qv[i].tolist()
        t = time.perf_counter()
        runner.read("legal/search_units_vector", vector=emb.next, k=10)
        v_ms = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        ctx = retriever.retrieve(q, k=10, as_of=date(2022, 1, 1))
        f_ms = (time.perf_counter() - t) * 1000
        # the same retrieval without the body-phrase bonus, to show what that signal costs
        nb_ms = retriever.retrieve(q, k=10, as_of=date(2022, 1, 1), config=no_body).db_ms
        if i < 5:  # warm-up
            continue
        db_no_body.append(nb_ms)
        vec.append(v_ms)
        full.append(f_ms)
        db.append(ctx.db_ms)
        trips.add(ctx.round_trips)
        if ctx.db_ms > worst[0]:
            worst = (ctx.db_ms, q, emb.next, ctx.seeds)
    cpu = measure_server_cpu(runner, retriever, emb, pid) if pid is not None else {}
    return {**cpu, "vector_p50_ms": percentile(vec, 50), "vector_p95_ms": percentile(vec, 95),
            "full_p50_ms": percentile(full, 50), "full_p95_ms": percentile(full, 95),
            "db_p50_ms": percentile(db, 50), "db_p95_ms": percentile(db, 95),
            "ratio_db_p50": percentile(db, 50) / percentile(vec, 50),
            "ratio_full_p50": percentile(full, 50) / percentile(vec, 50),
            "db_without_body_p50_ms": percentile(db_no_body, 50),
            "ratio_db_p50_over_without_body": percentile(db, 50) / percentile(db_no_body, 50),
            "round_trips": sorted(trips), "worst": worst}


def profile(driver: Any, runner: Neo4jRunner, worst: tuple[float, str, list[float], list[str]]
            ) -> str:
    """PROFILE the slowest full retrieval's query; return the plan as text."""
    from hopgraph.retrieval import RetrievalFilters, prepare_question
    from hopgraph.retrieval._legal import rerank_params, search_params, trace_params

    _, q, vector, _seeds = worst
    prepared = prepare_question(q)
    cfg = MEASURED
    params = {**search_params(prepared, vector, date(2022, 1, 1), RetrievalFilters(), cfg),
              **rerank_params(prepared, cfg), **trace_params(cfg, True), "k": 10}
    key = "legal/retrieve_context"
    with driver.session(database="neo4j") as s:
        summary = s.run("PROFILE " + runner.registry[key].text, params).consume()
    return f"### PROFILE {key}\n\n```\n{_plan_text(summary.profile)}```\n"


def _plan_text(plan: Any, depth: int = 0) -> str:
    if not plan:
        return ""
    args = plan.get("args", {})
    details = str(args.get("Details", ""))[:120]
    line = (f"{'  ' * depth}{plan.get('operatorType')}  rows={plan.get('rows')} "
            f"dbHits={plan.get('dbHits')}  {details}\n")
    return line + "".join(_plan_text(c, depth + 1) for c in plan.get("children", []))


def build(inst: LocalInstance, n: int, bulk: bool) -> tuple[Any, Neo4jRunner, dict[str, int], float]:
    """Start ``inst`` holding a generated corpus of about ``n`` units; return the driver, a
    runner, the corpus counts and the seconds it took (indexes online)."""
    t = time.perf_counter()
    if bulk:
        sink = CsvSink(inst.root / "import" / "legal-scale")
        counts = generate(sink, n)
        sink.close()
        print(f"CSV written in {time.perf_counter() - t:.0f} s", flush=True)
        inst.bulk_import([sink.node_path], [sink.edge_path], array_delimiter=CsvSink.DELIM)
        sink.node_path.unlink()
        sink.edge_path.unlink()
        print(f"imported at {time.perf_counter() - t:.0f} s", flush=True)
        inst.start()
        driver = connect(inst.uri, "neo4j", inst.password())
        install_schema(driver, "neo4j", dimension=DIM, wait_s=4 * 3600)  # indexes built here
    else:
        inst.start()
        driver = connect(inst.uri, "neo4j", inst.password())
        install_schema(driver, "neo4j", dimension=DIM)
        counts = generate(CypherSink(Neo4jRunner(driver, database="neo4j", timeout_s=600.0)), n)
    driver.execute_query("CALL db.awaitIndexes(14400)", database_="neo4j")
    return driver, Neo4jRunner(driver, database="neo4j", timeout_s=600.0), counts, \
        time.perf_counter() - t


def wait_for_load(below: float | None, max_s: float) -> float:
    """Sleep until the 1-minute load average is below ``below`` (or ``max_s`` passed); seconds."""
    t = time.perf_counter()
    while below is not None and os.getloadavg()[0] >= below and time.perf_counter() - t < max_s:
        time.sleep(10)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--time-budget-s", type=float, default=1800.0,
                    help="stop before a size when the run has used this much time")
    ap.add_argument("--bulk", action="store_true",
                    help="write the corpus as CSV and load it with neo4j-admin import (1M units)")
    ap.add_argument("--heap", default="2g")
    ap.add_argument("--pagecache", default="2g")
    ap.add_argument("--out", default="legal_retrieval_scale", help="results file name")
    ap.add_argument("--wait-load", type=float, default=None,
                    help="before measuring, wait (up to --wait-max-s) until the 1-minute load "
                         "average is below this: other jobs' load leaves the build, not the timing")
    ap.add_argument("--wait-max-s", type=float, default=3600.0)
    args = ap.parse_args()
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    profile_text = ""
    for n in args.sizes:
        if time.perf_counter() - started > args.time_budget_s:
            results.append({"size": n, "skipped": "time budget of this run spent"})
            write_results(results, profile_text, args)
            continue
        root = Path(tempfile.mkdtemp(prefix="hopgraph-bench-scale-"))
        inst = LocalInstance(root=root, cache_root=default_home() / "cache",
                             bolt_port=free_port(), http_port=free_port(), heap=args.heap,
                             pagecache=args.pagecache)
        try:
            driver, runner, counts, load_s = build(inst, n, args.bulk)
            waited = wait_for_load(args.wait_load, args.wait_max_s)
            load_at_measure = os.getloadavg()[0]
            m = measure(runner, QUERIES, pid=inst.running_pid())
            worst = m.pop("worst")
            profile_text = f"Size {n}: slowest full retrieval (db part) {worst[0]:.1f} ms\n\n" + profile(
                driver, runner, worst)
            results.append({"size": n, "loader": "neo4j-admin import" if args.bulk else "cypher",
                            **counts, "load_s": round(load_s, 1), "waited_s": round(waited),
                            "load_1m_before_measure": round(load_at_measure, 2),
                            "load_1m_after_measure": round(os.getloadavg()[0], 2), **m})
            print(results[-1], flush=True)
            driver.close()
        finally:
            inst.stop()
            shutil.rmtree(root, ignore_errors=True)
        write_results(results, profile_text, args)  # after every size: a cut-off run keeps its data


def write_results(results: list[dict[str, Any]], profile_text: str, args: argparse.Namespace) -> None:
    """Write the JSON and Markdown results of the sizes measured so far."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{args.out}.json").write_text(json.dumps(results, indent=2, default=str),
                                                       encoding="utf-8")
    load = os.getloadavg()
    md = ["# Legal retrieval scale test", "",
          f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} at commit {COMMIT}; "
          f"load average {load[0]:.1f} "
          f"on 2 shared cores; heap {args.heap}, page cache {args.pagecache}; corpus written by "
          f"{'neo4j-admin import (CSV)' if args.bulk else 'batched Cypher UNWIND'}. Random unit vectors, Zipf word texts, "
          f"{AMEND_RATE:.0%} of clauses amended 1-3 times, {REPEAL_RATE:.1%} repealed, "
          f"{REFS_PER_CLAUSE} references per clause. {QUERIES} queries per size (5 warm-up).", "",
          "Times in ms. `db` = full retrieval's one query (`legal/retrieve_context`: seeds, re-rank, "
          "tracing, references, provenance; one round trip); `full` adds question preparation and "
          "context assembly. `vector` = a plain "
          "vector top-10 (`legal/search_units_vector`) through the same runner, interleaved with "
          "the full retrievals. Full retrieval runs at unit granularity with the body-phrase bonus "
          "on (1.5; off by default at unit granularity); `db, no body` = the same query with it "
          "off (the default path), interleaved too.", "",
          "| units | docs | versions | AMENDS | REFERS_TO | load s | vector p50 | vector p95 | "
          "db p50 | db p95 | full p50 | full p95 | db/vector p50 | db, no body p50 | "
          "server CPU vector | server CPU full | server CPU full/vector |",
          "|---" * 17 + "|"]
    for r in results:
        if "skipped" in r:
            md.append(f"| {r['size']} | skipped: {r['skipped']} |" + " |" * 15)
            continue
        md.append(f"| {r['units']} | {r['documents']} | {r['versions']} | {r['amends']} | "
                  f"{r['refers']} | {r['load_s']} | {r['vector_p50_ms']:.1f} | "
                  f"{r['vector_p95_ms']:.1f} | {r['db_p50_ms']:.1f} | {r['db_p95_ms']:.1f} | "
                  f"{r['full_p50_ms']:.1f} | {r['full_p95_ms']:.1f} | {r['ratio_db_p50']:.2f} | "
                  f"{r['db_without_body_p50_ms']:.1f} | "
                  f"{r.get('server_cpu_vector_ms', float('nan')):.1f} | "
                  f"{r.get('server_cpu_full_ms', float('nan')):.1f} | "
                  f"{r.get('ratio_server_cpu', float('nan')):.2f} |")
    md.append("")
    for r in results:
        if "load_1m_before_measure" in r:
            md.append(f"- {r['size']}: corpus by {r['loader']}, {r['load_s']} s to build with indexes "
                      f"online; measured after waiting {r['waited_s']} s, 1-minute load "
                      f"{r['load_1m_before_measure']} before and {r['load_1m_after_measure']} after.")
    for r in results:
        if "server_cpu_ms" in r:
            base = r["server_cpu_ms"]["vector"]
            md += ["", f"Server CPU per query at {r['size']} units (ms; blocks of {CPU_BLOCK} "
                   f"queries of one kind in turn, {CPU_ROUNDS} rounds; ratio to the vector "
                   "top-10 of the same run):", ""]
            md += [f"- {name}: {ms:.1f} ({ms / base:.2f}×)"
                   for name, ms in r["server_cpu_ms"].items()]
    md += ["", "## Profile of the slowest query (largest size measured)", "", profile_text]
    (RESULTS / f"{args.out}.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))


if __name__ == "__main__":
    main()
