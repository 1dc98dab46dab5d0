"""``hopgraph ask`` and ``hopgraph eval qa``: legal question answering from the command line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, replace
from pathlib import Path

import click

from hopgraph import check_date, embedder_from_settings
from hopgraph.agents.legal import LegalQA, QAOptions, answer_footer
from hopgraph.cli._context import open_runner, settings_of
from hopgraph.core.samples import is_sample_document, mark_fictional
from hopgraph.core.settings import Settings
from hopgraph.eval import ABLATIONS, check_judge, load_questions, render_markdown, run_ablations
from hopgraph.loaders.legal import SAMPLES_DIR
from hopgraph.models import chat_model_from

DEFAULT_QUESTIONS = SAMPLES_DIR


@contextmanager
def _qa(settings: Settings, *, no_llm: bool, options: QAOptions) -> Iterator[LegalQA]:
    chat = None if no_llm else chat_model_from(settings.llm)
    embedder = embedder_from_settings(settings, "legal")
    try:
        with open_runner(settings) as (runner, _conn):
            yield LegalQA(runner, embedder, chat, options=options)
    finally:
        if chat is not None:
            chat.close()


@click.command()
@click.argument("question")
@click.option("--as-of", "as_of", default=None,
              help="Judge validity at this date (YYYY-MM-DD or dd/mm/yyyy).")
@click.option("--json", "as_json", is_flag=True, help="Print the structured answer as JSON.")
@click.option("--no-llm", is_flag=True, help="Retrieval-only answer (extracted evidence).")
@click.option("--reflective", is_flag=True, help="Self-reflective loop (grading, rewrites).")
@click.option("-k", "k", type=click.IntRange(1, 50), default=5, show_default=True,
              help="Seeds per sub-question.")
@click.option("--no-abstain", is_flag=True,
              help="Never abstain from a retrieval-only answer because its best evidence misses "
                   "the question's subject (the abstention rule is on by default).")
@click.pass_context
def ask(ctx: click.Context, question: str, as_of: str | None, as_json: bool, no_llm: bool,
        reflective: bool, k: int, no_abstain: bool) -> None:
    """Answer a question about the loaded regulations, with citations.

    Uses the LLM at HOPGRAPH_LLM_BASE_URL when set (start one with `hopgraph llm serve`);
    otherwise, or with --no-llm, answers with the applicable units as extracted evidence.
    """
    settings = settings_of(ctx)
    day = check_date(as_of, "--as-of")  # bad input fails before anything is loaded
    options = QAOptions(k=k, reflective=reflective)
    if no_abstain:
        options = replace(options, abstention=None)
    with _qa(settings, no_llm=no_llm, options=options) as qa:
        answer = qa.ask(question, as_of=day, use_llm=not no_llm)
    if as_json:
        click.echo(json.dumps(answer.to_dict(), ensure_ascii=False, indent=2))
        return
    click.echo(mark_fictional(answer.text))
    # the cited unit's document, and for a new wording the amending one (<unit>@<doc>)
    cited = {d for c in answer.citations
             for d in (c.node_id.split(":")[0], c.node_id.rpartition("@")[2])}
    samples = sorted(d for d in cited if is_sample_document(d))
    if samples:
        click.echo(f"Văn bản mẫu hư cấu được trích dẫn: {', '.join(samples)}.")
    click.echo("")
    for line in answer_footer(answer):
        click.echo(line)


@click.command(name="qa")
@click.option("--questions", "questions_path", type=click.Path(exists=True, dir_okay=False,
              path_type=Path), default=DEFAULT_QUESTIONS / "questions.json", show_default=True)
@click.option("--extra", "extra_paths", multiple=True, type=click.Path(exists=True,
              dir_okay=False, path_type=Path), help="More question files (e.g. unanswerable).")
@click.option("--no-llm", is_flag=True, help="Only the retrieval-only rows.")
@click.option("--judge", is_flag=True, help="Also score answers with the LLM as judge.")
@click.option("--rows", default=",".join(ABLATIONS), show_default=True,
              help="LLM rows to run (comma-separated).")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the results as JSON here (and Markdown next to it).")
@click.pass_context
def qa(ctx: click.Context, questions_path: Path, extra_paths: tuple[Path, ...], no_llm: bool,
       judge: bool, rows: str, out_path: Path | None) -> None:
    """Evaluate legal QA on the loaded graph: F1, citations, abstention, ablations."""
    settings = settings_of(ctx)
    questions = load_questions(questions_path)
    for extra in extra_paths:
        questions += load_questions(extra)
    wanted = [r.strip() for r in rows.split(",") if r.strip()]
    unknown = [r for r in wanted if r not in ABLATIONS]
    if unknown:
        raise click.BadParameter(f"unknown rows {unknown}; choose from {list(ABLATIONS)}")
    with _qa(settings, no_llm=no_llm, options=QAOptions()) as engine:
        results = run_ablations(engine, questions, with_llm=engine.chat is not None,
                                judge_model=engine.chat if judge else None, rows=wanted)
        # The judge column is read only beside a check that the judge can tell answers apart.
        check = check_judge(engine.chat, questions) if judge and engine.chat else None
    table = render_markdown(results, header=f"Legal QA on {questions_path.name} "
                            f"(+{len(extra_paths)} extra file(s)), {len(questions)} questions")
    if check is not None:
        table += f"\n{check.summary()}\n"
    click.echo(table)
    if out_path is not None:
        out_path.write_text(json.dumps([asdict(r) for r in results], ensure_ascii=False,
                                       indent=2), encoding="utf-8")
        out_path.with_suffix(".md").write_text(table, encoding="utf-8")
