"""CLI commands of legal retrieval: ``hopgraph retrieve``, ``hopgraph consolidate`` and
``hopgraph eval retrieval``."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import click

from hopgraph import check_date, embedder_from_settings
from hopgraph.cli._context import open_runner, settings_of
from hopgraph.core.errors import RetrievalError
from hopgraph.core.questions import resolve_document_id, validate_text
from hopgraph.core.samples import mark_fictional
from hopgraph.retrieval import (
    DEFAULT_KS,
    LegalContext,
    LegalRetriever,
    RetrievalConfig,
    compare_consolidation,
    diff_consolidated,
    evaluate,
    legal_systems,
    load_questions,
    parse_filters,
    prepare_question,
    render_diff,
    split_official,
)
from hopgraph.retrieval import consolidate as consolidate_document


def _config(fusion: str, lam: float, granularity: str) -> RetrievalConfig:
    return RetrievalConfig(fusion=fusion, lam=lam, granularity=granularity)  # type: ignore[arg-type]


def _quiet_driver() -> None:
    # Schema notifications (a label or property absent from a small graph) are not errors.
    logging.getLogger("neo4j").setLevel(logging.ERROR)


_ROLE_WORDS = {"seed": "tìm được", "successor": "nội dung đang áp dụng",
               "reference": "được dẫn chiếu", "provenance": "cấu trúc"}


def render_table(ctx: LegalContext) -> str:
    """A readable listing of a context in Vietnamese, one block per item (dates dd/mm/yyyy;
    ids only in ``--json``)."""
    lines = [f"Câu hỏi: {ctx.question}",
             f"Ngày xét: {ctx.as_of.strftime('%d/%m/%Y')}  mục: {len(ctx.items)}  "
             f"lượt truy vấn: {ctx.round_trips}  thời gian: {ctx.latency_ms:.0f} ms"]
    if ctx.reason_if_empty:
        lines.append(f"không có kết quả: {ctx.reason_if_empty}")
    for w in ctx.warnings:
        lines.append(f"cảnh báo: {w}")
    for it in ctx.items:
        flag = "ĐANG ÁP DỤNG" if it.applicable else "không áp dụng"
        if it.uncertainty_note:
            flag = ("có thể đang áp dụng" if it.applicable else "có thể không còn áp dụng") \
                + f", {it.uncertainty_note}"
        if it.consolidated:
            flag += ", nội dung hợp nhất"
        score = it.scores.get("rerank", it.scores.get("fused", it.scores.get("seed", 0.0)))
        lines.append("")
        lines.append(f"#{it.rank} [{_ROLE_WORDS.get(it.role, it.role)}] "
                     f"{mark_fictional(it.citation)}  ({flag}; điểm {score:.3f})")
        lines.append(f"   vị trí: {it.provenance.position}")
        lines.append(f"   hiệu lực: {it.validity_note}")
        chain = [step.describe() for step in it.path
                 if step.relation not in ("CONTAINS", "VERSION_OF")]
        if chain:
            lines.append(f"   chuỗi hiệu lực: {'; '.join(chain)}")
        text = it.text if len(it.text) <= 400 else it.text[:400] + " …"
        lines.append(f"   {text}")
    return "\n".join(lines)


@click.command(name="retrieve")
@click.argument("question")
@click.option("--k", "k", default=5, show_default=True, type=click.IntRange(1, 100))
@click.option("--as-of", "as_of", default=None,
              help="Validity date YYYY-MM-DD or dd/mm/yyyy (default today).")
@click.option("--doc-type", multiple=True, help="Keep documents of this type (repeatable).")
@click.option("--issuer", multiple=True, help="Keep documents of this issuer (repeatable).")
@click.option("--doc-id", multiple=True, help="Keep these documents (repeatable).")
@click.option("--fusion", type=click.Choice(["linear", "rrf"]), default="linear", show_default=True)
@click.option("--lam", default=0.5, show_default=True, type=click.FloatRange(0.0, 1.0))
@click.option("--granularity", type=click.Choice(["unit", "article"]), default="unit",
              show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the context as JSON.")
@click.pass_context
def retrieve(ctx: click.Context, question: str, k: int, as_of: str | None,
             doc_type: tuple[str, ...], issuer: tuple[str, ...], doc_id: tuple[str, ...],
             fusion: str, lam: float, granularity: str, as_json: bool) -> None:
    """Retrieve the legally valid context for QUESTION (seeds, successors, references)."""
    settings = settings_of(ctx)
    _quiet_driver()
    # Bad input fails here, before any connection is attempted.
    prepare_question(question)
    day = check_date(as_of, "--as-of")
    flt = parse_filters({"doc_types": doc_type, "issuers": issuer, "doc_ids": doc_id})
    embedder = embedder_from_settings(settings, "legal")
    with open_runner(settings) as (runner, _):
        retriever = LegalRetriever(runner, embedder, config=_config(fusion, lam, granularity))
        result = retriever.retrieve(question, k=k, as_of=day, filters=flt)
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        click.echo(render_table(result))


@click.command(name="consolidate")
@click.argument("doc_id")
@click.option("--as-of", "as_of", default=None,
              help="Date YYYY-MM-DD or dd/mm/yyyy (default today).")
@click.option("--diff", "diff", nargs=2, default=None, metavar="FROM TO",
              help="Show what changed between two dates (YYYY-MM-DD or dd/mm/yyyy) instead.")
@click.option("--compare", "compare_file", default=None,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Compare with an official consolidated text (VBHN, plain text) unit by unit: "
                   "equal / stale / missing / extra, with reasons.")
@click.option("--json", "as_json", is_flag=True, help="Print the consolidation as JSON.")
@click.option("--format", "fmt", type=click.Choice(["text", "akn"]), default="text",
              show_default=True,
              help="akn: Akoma Ntoso 3.0 XML (lifecycle events, passive modifications), "
                   "validated against the AKN schema; needs the akn extra.")
@click.pass_context
def consolidate(ctx: click.Context, doc_id: str, as_of: str | None,
                diff: tuple[str, str] | None, compare_file: Path | None, as_json: bool,
                fmt: str) -> None:
    """Print document DOC_ID as in force at a date (văn bản hợp nhất), each changed unit marked
    with the instruction and date that changed it; or, with --diff, what changed between two
    dates."""
    settings = settings_of(ctx)
    _quiet_driver()
    # Bad input fails here, before any connection is attempted.
    validate_text(doc_id, "DOC_ID")
    if diff is not None and as_of is not None:
        raise click.UsageError("chỉ dùng một trong hai: --as-of hoặc --diff FROM TO")
    if diff is not None and compare_file is not None:
        raise click.UsageError("--compare so sánh tại một ngày: dùng --as-of, không dùng --diff")
    official = None
    if compare_file is not None:
        try:
            official = compare_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise RetrievalError(f"--compare: không đọc được {compare_file} dưới dạng văn bản "
                                 f"UTF-8 ({e})") from None
        if not split_official(official):
            raise RetrievalError(f"--compare: không tìm thấy điều nào (dòng 'Điều N.') trong "
                                 f"{compare_file}; đây có phải là văn bản hợp nhất không?")
    days = [check_date(d, "--diff" if diff else "--as-of") for d in (diff or (as_of,))]
    if len(days) == 2 and days[0] > days[1]:
        raise RetrievalError(f"--diff: ngày FROM phải trước ngày TO (nhận được {days[0]} và "
                             f"{days[1]})")
    with open_runner(settings) as (runner, _):
        # read as typed: 12/2016/nd-mau, ND for NĐ; an unknown id gets "có phải ý bạn là …?"
        loaded = [str(r["id"]) for r in runner.read("legal/list_document_ids")]
        doc_id = resolve_document_id(doc_id, loaded, "DOC_ID")
        docs = [consolidate_document(runner, doc_id, d) for d in days]
    if fmt == "akn":
        if len(docs) != 1 or official is not None or as_json:
            raise click.UsageError("--format akn chỉ in tại một ngày: chỉ dùng --as-of")
        from hopgraph.retrieval import consolidation_to_akn

        click.echo(consolidation_to_akn(docs[0]).decode("utf-8"), nl=False)
    elif official is not None:
        result = compare_consolidation(docs[0], official)
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2) if as_json
                   else result.render())
    elif len(docs) == 2:
        if as_json:
            click.echo(json.dumps([
                {"id": d.id, "kind": d.kind, "before": d.before.text if d.before.shown else None,
                 "after": d.after.text if d.after.shown else None,
                 "change": d.after.mark() or None}
                for d in diff_consolidated(docs[0], docs[1])], ensure_ascii=False, indent=2))
        else:
            click.echo(render_diff(docs[0], docs[1]))
    elif as_json:
        click.echo(json.dumps(docs[0].to_dict(), ensure_ascii=False, indent=2))
    else:
        click.echo(docs[0].render())


@click.command(name="retrieval")
@click.argument("questions", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--k", "k", default=10, show_default=True, type=click.IntRange(1, 100))
@click.option("--as-of", "as_of", default=None,
              help="Validity date YYYY-MM-DD of questions without their own as_of (default today).")
@click.option("--granularity", type=click.Choice(["unit", "article"]), default="unit",
              show_default=True)
@click.option("--lam", default=0.5, show_default=True, type=click.FloatRange(0.0, 1.0))
@click.option("--baselines/--no-baselines", default=True, show_default=True)
@click.option("--json-out", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--md-out", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_context
def eval_retrieval(ctx: click.Context, questions: Path, k: int, as_of: str | None,
                   granularity: str, lam: float, baselines: bool, json_out: Path | None,
                   md_out: Path | None) -> None:
    """Evaluate legal retrieval on QUESTIONS ([{id, question, gold, choices?, as_of?}]) against
    baselines.

    A multiple-choice item (``choices``: {"A": …, …}) is asked with its options. A question's
    ``as_of`` (YYYY-MM-DD) is the date every system retrieves it at; ``--as-of`` applies to the
    others. The QA sample file (``loaders/legal/samples/questions.json``, gold as
    ``gold_unit_ids``, a date per question) is read as is.
    """
    settings = settings_of(ctx)
    _quiet_driver()
    qs = load_questions(questions)
    day = check_date(as_of, "--as-of")  # bad input fails before connecting
    embedder = embedder_from_settings(settings, "legal")
    with open_runner(settings) as (runner, _):
        retriever = LegalRetriever(runner, embedder, config=_config("linear", lam, granularity))
        systems = legal_systems(retriever, k=k, as_of=day, baselines=baselines)
        with click.progressbar(length=len(qs), label="questions") as bar:
            report = evaluate(systems, qs, ks=[x for x in DEFAULT_KS if x <= k],
                              progress=lambda _id, _n: bar.update(1))
    md = report.to_markdown()
    click.echo(md)
    if json_out:
        json_out.write_text(report.to_json(), encoding="utf-8")
    if md_out:
        md_out.write_text(md, encoding="utf-8")
