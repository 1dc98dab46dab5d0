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
from datetime import date
from typing import Any

import click

from hopgraph.cli._context import settings_of
from hopgraph.core.samples import FICTIONAL_MARK, mark_fictional
from hopgraph.core.settings import Settings
from hopgraph.db import Neo4jRunner, ensure_server, install_schema

AREAS = ("legal", "biomed", "sentences")
LEGAL_QUESTIONS = 3
ANSWER_LINES = 8
EXAMPLE_CYPHER = (
    ("Mọi nội dung của một khoản và các văn bản đã ban hành chúng",
     "MATCH p = (:LegalUnit)-[:AMENDS]->(u:LegalUnit {id: '12/2016/NĐ-MAU:D3.K2'})"
     "<-[:VERSION_OF]-(:UnitVersion) RETURN p"),
    ("Sửa đổi, thay thế, bổ sung và bãi bỏ giữa các quy định",
     "MATCH p = (:LegalUnit)-[:AMENDS|SUPPLEMENTS|REPLACES|REPEALS]->(:LegalNode) RETURN p LIMIT 50"),
    ("Thuật ngữ được giải thích và khoản giải thích chúng",
     "MATCH p = (:LegalUnit)-[:DEFINES]->(:DefinedTerm) RETURN p LIMIT 25"),
    ("Một vùng lân cận y sinh",
     "MATCH p = (:Drug {name: 'Imatinib'})-[]-(:BioEntity) RETURN p LIMIT 50"),
    ("Đồ thị câu của một chủ đề",
     "MATCH p = (:Topic)-[:HAS_CORE]->(:Core)-[:SUPPORTS]->(:Supplementary) RETURN p LIMIT 40"),
)


@contextmanager
def _step(title: str) -> Iterator[None]:
    click.echo(f"== {title}")
    started = time.perf_counter()
    yield
    click.echo(f"   ({time.perf_counter() - started:.1f} giây)".replace(".", ","))


def _legal(runner: Neo4jRunner, settings: Settings, with_llm: bool) -> None:
    from hopgraph import embedder_from_settings
    from hopgraph.agents.legal import LegalQA, QAOptions, answer_footer
    from hopgraph.loaders.legal import SAMPLES_DIR, load_legal
    from hopgraph.models import chat_model_from

    embedder = embedder_from_settings(settings, "legal")
    with _step("pháp luật: nạp các văn bản mẫu (hư cấu)"):
        report = load_legal(runner, embedder, [SAMPLES_DIR], batch_size=settings.batch_size)
        units = sum(report.units_by_level.values())
        edges = sum(report.edges_by_type.values())
        click.echo(f"   {report.files} tệp, {len(report.documents)} văn bản đã nạp "
                   f"{FICTIONAL_MARK}, {units} đơn vị, {edges} quan hệ giữa các quy định, "
                   f"bỏ qua {len(report.skipped)}")
        for problem in report.skipped:
            click.echo(f"   bỏ qua: {problem}")
    questions = json.loads((SAMPLES_DIR / "questions.json").read_text(encoding="utf-8"))
    chat = chat_model_from(settings.llm) if with_llm else None
    qa = LegalQA(runner, embedder, chat, options=QAOptions())
    # The same clause asked at three dates: amended wording in force, an earlier wording, and an
    # amendment that is enacted but not yet in force.
    for q in questions["questions"][:LEGAL_QUESTIONS]:
        day = date.fromisoformat(q["as_of"]).strftime("%d/%m/%Y")
        with _step(f"pháp luật: câu hỏi mẫu {q['id']} (tại ngày {day})"):
            answer = qa.ask(q["question"], as_of=q.get("as_of"), use_llm=chat is not None)
            click.echo(f"   Hỏi: {mark_fictional(q['question'])}")
            for line in answer_head(answer.text, ANSWER_LINES):
                click.echo(f"   | {mark_fictional(line)}")
            for line in answer_footer(answer):
                click.echo(f"   {line}")
            click.echo(f"   Đáp án mong đợi: {mark_fictional(q['answer'])}")


def answer_head(text: str, max_lines: int) -> list[str]:
    """The answer's first lines, cut between evidence items ("- …" and the lines under it) at
    ``max_lines`` or before, never inside one (the first item is shown whole however long): a
    citation is never shown without its wording. A last line says how many items were left out."""
    lines = text.splitlines()
    if len(lines) <= max_lines:
        return lines
    starts = [i for i, line in enumerate(lines) if line.startswith("- ")]
    if not starts:
        return lines[:max_lines]
    # the end of the last item that fits whole; the first item whole when none does
    ends = [*starts[1:], len(lines)]
    cut = max((end for end in ends if end <= max_lines), default=ends[0])
    left = sum(1 for i in starts if i >= cut)
    head = lines[:cut]
    if left:
        head.append(f"(… và {left} căn cứ khác: xem đầy đủ bằng `hopgraph ask`)")
    return head


def _biomed(runner: Neo4jRunner, settings: Settings, with_llm: bool) -> None:
    from hopgraph import embedder_from_settings
    from hopgraph.agents.biomed import EntityLinker, GraphVerifier, Regram, RegramConfig, build_nlp
    from hopgraph.loaders.biomed import SAMPLE_TRIPLETS, load_primekg
    from hopgraph.models import chat_model_from

    with _step("y sinh: nạp các bộ ba mẫu (tiếng Anh)"):
        report = load_primekg(runner, SAMPLE_TRIPLETS)
        click.echo("   " + report.summary().replace("\n", "\n   "))
    question = "Which drug that targets ABL1 is used for chronic myeloid leukemia?"
    with _step("y sinh: câu hỏi hai bước (tiếng Anh)"):
        embedder = embedder_from_settings(settings, "english")
        regram = Regram(runner, embedder, EntityLinker(runner, nlp=build_nlp()),
                        llm=chat_model_from(settings.llm) if with_llm else None,
                        verifier=GraphVerifier(runner), config=RegramConfig())
        ans = regram.ask(question)
        click.echo(f"   Hỏi: {question}")
        for i, hop in enumerate(ans.hops, 1):
            click.echo(f"   bước {i}: {hop.question} -> {hop.answer}")
        click.echo(f"   Trả lời: {ans.answer}")


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
    with _step("câu: dựng đồ thị câu của kho văn bản mẫu (tiếng Anh)"):
        skipped: list[str] = []
        passages = list(read_corpus(sample_corpus_path(), skipped))
        report = load_passages(runner, passages, embedder=embedder, tagger=SpacyTagger.load())
        click.echo(f"   {report.passages} đoạn, {report.sentences} câu "
                   f"({report.cores} câu chính, {report.supplementary} câu bổ trợ), "
                   f"{report.bridges} cầu nối; bỏ qua {len(skipped) + len(report.skipped)}")
    rows = json.loads(sample_questions_path().read_text(encoding="utf-8"))
    q = next(r for r in rows if "question" in r)
    with _step("câu: câu hỏi bắc cầu (tiếng Anh)"):
        llm = chat_model_from(settings.llm) if with_llm else None
        result = SentenceReasoner(runner, embedder, llm, SentenceRetrievalConfig()).answer(
            q["question"])
        click.echo(f"   Hỏi: {q['question']}")
        for e, (title, _, position) in zip(result.retrieval.evidence, result.citations,
                                           strict=True):
            via = " -> ".join(e.relations) if e.relations else "câu neo"
            click.echo(f"   [{title} #{position}] ({via}) {e.text}")
        click.echo(f"   Trả lời: {result.answer or '(chỉ trích xuất: xem căn cứ ở trên)'}; "
                   f"đáp án mong đợi: {q['answer']}")


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
    with _step("Neo4j (máy chủ đồ thị)"):
        conn, started = ensure_server(settings)
        kind = {"local": "cục bộ", "external": "bên ngoài"}.get(conn.kind, conn.kind)
        click.echo(f"   {'đã khởi động' if started else 'dùng'} máy chủ {kind} tại {conn.uri}")
    with_llm = bool(settings.llm.base_url) and not no_llm
    click.echo("   Mô hình ngôn ngữ: " + (settings.llm.base_url if with_llm and settings.llm.base_url
                                          else "không có (chỉ trích xuất căn cứ)"))
    driver = conn.driver()
    try:
        runner = Neo4jRunner(driver, database=conn.database,
                             timeout_s=max(settings.neo4j.query_timeout_s, 300.0))
        with _step("lược đồ"):
            created = install_schema(driver, conn.database, dimension=settings.embedder.dimension)
            click.echo(f"   đã tạo {len(created)} ràng buộc và chỉ mục")
        for area in areas or AREAS:
            _RUNNERS[area](runner, settings, with_llm)
        counts = sorted(runner.read("admin/count_nodes"), key=lambda r: -r["count"])
    finally:
        driver.close()
    click.echo("== đồ thị (nhãn: số nút): "
               + ", ".join(f"{r['label']} {r['count']}" for r in counts[:12]))
    if conn.browser_url:
        click.echo(f"== khám phá: {conn.browser_url}  (người dùng neo4j; mật khẩu trong "
                   f"{settings.runtime.home / 'instance' / 'neo4j-password'})")
    else:
        click.echo(f"== khám phá: kết nối Neo4j Browser tới {conn.uri}")
    click.echo("   thử các truy vấn sau trong Browser (thêm trong "
               "docker/browser/example-queries.cypher):")
    for title, query in EXAMPLE_CYPHER:
        click.echo(f"   // {title}\n   {query}")
