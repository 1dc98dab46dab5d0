"""``hopgraph demo``: the whole product on a fresh machine in one command.

Starts (or reuses) a Neo4j server, installs the schema, loads the three bundled sample corpora
(fictional Vietnamese regulations, hand-written biomedical triplets, a small English sentence
corpus), answers sample questions (three legal ones: the same clause at three dates; one
biomedical; one sentence-graph) and prints where to explore the graph in Neo4j Browser. Without ``HOPGRAPH_LLM_BASE_URL`` every answer is retrieval-only (no API key needed).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from hopgraph.cli._context import settings_of
from hopgraph.core.settings import Settings
from hopgraph.db import Neo4jRunner, ensure_server, install_schema

AREAS = ("legal", "biomed", "sentences")
LEGAL_QUESTIONS = 3
ANSWER_LINES = 8
EXAMPLE_CYPHER = (
    ("Every wording of one clause and the documents that enacted them",
     "MATCH p = (:LegalUnit)-[:AMENDS]->(u:LegalUnit {id: '12/2016/NĐ-MAU:D3.K2'})"
     "<-[:VERSION_OF]-(:UnitVersion) RETURN p"),
    ("Amendments, replacements and supplements between units",
     "MATCH p = (:LegalUnit)-[:AMENDS|SUPPLEMENTS|REPLACES|REPEALS]->(:LegalNode) RETURN p LIMIT 50"),
    ("Terms the definitions articles define, and the clauses that define them",
     "MATCH p = (:LegalUnit)-[:DEFINES]->(:DefinedTerm) RETURN p LIMIT 25"),
    ("A biomedical neighbourhood",
     "MATCH p = (:Drug {name: 'Imatinib'})-[]-(:BioEntity) RETURN p LIMIT 50"),
    ("Sentence graph of one topic",
     "MATCH p = (:Topic)-[:HAS_CORE]->(:Core)-[:SUPPORTS]->(:Supplementary) RETURN p LIMIT 40"),
)


@contextmanager
def _step(title: str) -> Iterator[None]:
    click.echo(f"== {title}")
    started = time.perf_counter()
    yield
    click.echo(f"   ({time.perf_counter() - started:.1f}s)")


def _legal(runner: Neo4jRunner, settings: Settings, with_llm: bool) -> None:
    from hopgraph import embedder_from_settings
    from hopgraph.agents.legal import LegalQA, QAOptions
    from hopgraph.loaders.legal import SAMPLES_DIR, load_legal
    from hopgraph.models import chat_model_from

    embedder = embedder_from_settings(settings, "legal")
    with _step("legal: load the sample regulations"):
        report = load_legal(runner, embedder, [SAMPLES_DIR], batch_size=settings.batch_size)
        click.echo("   " + report.summary().replace("\n", "\n   "))
    questions = json.loads((SAMPLES_DIR / "questions.json").read_text(encoding="utf-8"))
    chat = chat_model_from(settings.llm) if with_llm else None
    qa = LegalQA(runner, embedder, chat, options=QAOptions())
    # The same clause asked at three dates: amended wording in force, an earlier wording, and an
    # amendment that is enacted but not yet in force.
    for q in questions["questions"][:LEGAL_QUESTIONS]:
        with _step(f"legal: ask sample question {q['id']} (as of {q['as_of']})"):
            answer = qa.ask(q["question"], as_of=q.get("as_of"), use_llm=chat is not None)
            click.echo(f"   Q: {q['question']}")
            for line in answer.text.splitlines()[:ANSWER_LINES]:
                click.echo(f"   | {line}")
            click.echo(f"   [{answer.status}; route {' → '.join(answer.route)}]")
            click.echo(f"   expected: {q['answer']}")


def _biomed(runner: Neo4jRunner, settings: Settings, with_llm: bool) -> None:
    from hopgraph import embedder_from_settings
    from hopgraph.agents.biomed import EntityLinker, GraphVerifier, Regram, RegramConfig, build_nlp
    from hopgraph.loaders.biomed import SAMPLE_TRIPLETS, load_primekg
    from hopgraph.models import chat_model_from

    with _step("biomed: load the sample triplets"):
        report = load_primekg(runner, SAMPLE_TRIPLETS)
        click.echo("   " + report.summary().replace("\n", "\n   "))
    question = "Which drug that targets ABL1 is used for chronic myeloid leukemia?"
    with _step("biomed: ask a two-hop question"):
        embedder = embedder_from_settings(settings, "english")
        regram = Regram(runner, embedder, EntityLinker(runner, nlp=build_nlp()),
                        llm=chat_model_from(settings.llm) if with_llm else None,
                        verifier=GraphVerifier(runner), config=RegramConfig())
        ans = regram.ask(question)
        click.echo(f"   Q: {question}")
        for i, hop in enumerate(ans.hops, 1):
            click.echo(f"   hop {i} [{hop.mode.value}] {hop.question} -> {hop.answer}")
        click.echo(f"   answer ({ans.answer_source}): {ans.answer}")


def _sentences(runner: Neo4jRunner, settings: Settings, with_llm: bool) -> None:
    from hopgraph import embedder_from_settings
    from hopgraph.agents.sentences import SentenceReasoner, SentenceRetrievalConfig
    from hopgraph.loaders.sentences import (
        SpacyTagger,
        load_passages,
        read_corpus,
        sample_corpus_path,
        sample_questions_path,
    )
    from hopgraph.models import chat_model_from

    embedder = embedder_from_settings(settings, "english")
    with _step("sentences: build the sentence graph of the sample corpus"):
        skipped: list[str] = []
        passages = list(read_corpus(sample_corpus_path(), skipped))
        report = load_passages(runner, passages, embedder=embedder, tagger=SpacyTagger.load())
        click.echo(f"   {report.passages} passages, {report.sentences} sentences "
                   f"({report.cores} core, {report.supplementary} supplementary), "
                   f"{report.bridges} bridges; skipped {len(skipped) + len(report.skipped)}")
    rows = json.loads(sample_questions_path().read_text(encoding="utf-8"))
    q = next(r for r in rows if "question" in r)
    with _step("sentences: ask a bridge question"):
        llm = chat_model_from(settings.llm) if with_llm else None
        result = SentenceReasoner(runner, embedder, llm, SentenceRetrievalConfig()).answer(
            q["question"])
        click.echo(f"   Q: {q['question']}")
        for e, (title, _, position) in zip(result.retrieval.evidence, result.citations,
                                           strict=True):
            via = " -> ".join(e.relations) if e.relations else "anchor"
            click.echo(f"   [{title} #{position}] ({via}) {e.text}")
        click.echo(f"   answer: {result.answer or '(retrieval-only: evidence above)'}; "
                   f"expected: {q['answer']}")


_RUNNERS: dict[str, Callable[[Neo4jRunner, Settings, bool], Any]] = {
    "legal": _legal, "biomed": _biomed, "sentences": _sentences,
}


@click.command()
@click.option("--only", "areas", multiple=True, type=click.Choice(AREAS),
              help="Run only these areas (repeatable; default: all three).")
@click.option("--no-llm", is_flag=True, help="Retrieval-only answers even if an LLM is configured.")
@click.pass_context
def demo(ctx: click.Context, areas: tuple[str, ...], no_llm: bool) -> None:
    """Start Neo4j, load the bundled samples, answer sample questions, show the Browser."""
    settings = settings_of(ctx)
    with _step("Neo4j"):
        conn, started = ensure_server(settings)
        click.echo(f"   {'started' if started else 'using'} {conn.kind} server at {conn.uri}")
    with_llm = bool(settings.llm.base_url) and not no_llm
    click.echo(f"   LLM: {settings.llm.base_url if with_llm else 'none (retrieval-only answers)'}")
    driver = conn.driver()
    try:
        runner = Neo4jRunner(driver, database=conn.database,
                             timeout_s=max(settings.neo4j.query_timeout_s, 300.0))
        with _step("schema"):
            created = install_schema(driver, conn.database, dimension=settings.embedder.dimension)
            click.echo(f"   {len(created)} constraints/indexes created")
        for area in areas or AREAS:
            _RUNNERS[area](runner, settings, with_llm)
        counts = sorted(runner.read("admin/count_nodes"), key=lambda r: -r["count"])
    finally:
        driver.close()
    click.echo("== graph: " + ", ".join(f"{r['label']} {r['count']}" for r in counts[:12]))
    if conn.browser_url:
        click.echo(f"== explore: {conn.browser_url}  (user neo4j; password in "
                   f"{settings.runtime.home / 'instance' / 'neo4j-password'})")
    else:
        click.echo(f"== explore: connect Neo4j Browser to {conn.uri}")
    click.echo("   try these in the Browser (more in docker/browser/example-queries.cypher):")
    for title, query in EXAMPLE_CYPHER:
        click.echo(f"   // {title}\n   {query}")
