"""``hopgraph ask-sentences`` and ``hopgraph eval sentences``: the sentence reasoner from the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from hopgraph.agents.sentences import SentenceReasoner, SentenceRetrievalConfig
from hopgraph.cli._context import open_runner, settings_of
from hopgraph.eval.sentences import evaluate, format_table, read_questions
from hopgraph.loaders.sentences import sample_questions_path
from hopgraph.models import build_embedder, chat_model_from

_DEFAULTS = SentenceRetrievalConfig()


def _config_options(fn: click.decorators.FC) -> click.decorators.FC:
    options = [
        click.option("--anchors", "anchor_k", type=int, default=_DEFAULTS.anchor_k, show_default=True,
                     help="Candidate anchors K (vector top-K over sentences)."),
        click.option("--keep", "keep_anchors", type=int, default=_DEFAULTS.keep_anchors,
                     show_default=True, help="Anchors kept by the no-LLM refinement rule."),
        click.option("--path-length", "max_path_length", type=int,
                     default=_DEFAULTS.max_path_length, show_default=True,
                     help="Maximum edges per expanded path."),
        click.option("--beam", type=int, default=_DEFAULTS.beam, show_default=True,
                     help="Neighbours kept per path end and hop."),
        click.option("--expansion-limit", type=int, default=_DEFAULTS.expansion_limit,
                     show_default=True, help="New sentences added by expansion per question."),
        click.option("--evidence", "max_evidence", type=int, default=_DEFAULTS.max_evidence,
                     show_default=True, help="Evidence sentences returned."),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


@click.command(name="ask-sentences")
@click.argument("question")
@_config_options
@click.option("--no-llm", is_flag=True, help="Retrieval only, even if an LLM is configured.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def ask_sentences(ctx: click.Context, /, question: str, no_llm: bool, as_json: bool,
                  **config: Any) -> None:
    """Answer QUESTION from the sentence graph (retrieval-only without an LLM)."""
    settings = settings_of(ctx)
    embedder = build_embedder(settings.embedder.english_model, settings.embedder.cache_dir,
                               onnx_dir=settings.runtime.home / "onnx")
    llm = None if no_llm else chat_model_from(settings.llm)
    with open_runner(settings) as (runner, _):
        result = SentenceReasoner(runner, embedder, llm, SentenceRetrievalConfig(**config)).answer(question)
    r = result.retrieval
    if as_json:
        click.echo(json.dumps({
            "question": question, "answer": result.answer, "mode": result.mode,
            "method": result.method,  # the older spelling of mode, kept for existing readers
            "refinement": r.refinement, "sufficient": r.sufficient, "context_tokens": r.context_tokens,
            "answer_line": None if r.answer_line is None else {
                "kind": r.answer_line.kind, "sentence_ids": list(r.answer_line.sentence_ids),
                "reason": r.answer_line.reason},
            "evidence": [{"id": e.id, "title": c[0], "position": e.position, "text": e.text,
                          "score": round(e.score, 4), "path": list(e.path),
                          "relations": list(e.relations)}
                         for e, c in zip(r.evidence, result.citations, strict=True)],
        }, ensure_ascii=False, indent=2))
        return
    click.echo(f"answer: {result.answer}" if result.answer is not None
               else "answer: (retrieval-only: no LLM configured; evidence below)")
    click.echo(f"refinement: {r.refinement}; sufficient: {r.sufficient}; hops: {r.hops}; "
               f"context tokens: {r.context_tokens}")
    answering = set(r.answer_line.sentence_ids) if r.answer_line is not None else set()
    if r.answer_line is not None:
        noun = "sentences" if len(answering) > 1 else "sentence"
        click.echo(f"answer {noun} (marked *, shown first): {r.answer_line.reason}")
    for e, (title, _, position) in zip(r.evidence, result.citations, strict=True):
        via = " -> ".join(e.relations) if e.relations else "anchor"
        mark = "* " if e.id in answering else ""
        click.echo(f"{mark}[{title} #{position}] ({e.score:.3f}; {via}) {e.text}")


@click.command(name="sentences")
@click.argument("questions", required=False)
@_config_options
@click.option("--limit", type=int, default=None, help="Evaluate the first N questions only.")
@click.option("--llm-questions", type=int, default=0, show_default=True,
              help="Answer the first N questions with the configured LLM (EM/F1).")
@click.option("--llm-refine/--no-llm-refine", default=False, show_default=True,
              help="Let the configured LLM refine anchors (else the deterministic rule).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write summaries and per-question rows as JSON here.")
@click.pass_context
def eval_sentences(ctx: click.Context, /, questions: str | None, limit: int | None, llm_questions: int,
                   llm_refine: bool, out: Path | None, **config: Any) -> None:
    """Evaluate sentence-graph retrieval against RO baselines and ablations on QUESTIONS
    (HotpotQA JSON with supporting facts; default: the bundled sample questions)."""
    settings = settings_of(ctx)
    items = read_questions(Path(questions) if questions else sample_questions_path())[:limit]
    embedder = build_embedder(settings.embedder.english_model, settings.embedder.cache_dir,
                               onnx_dir=settings.runtime.home / "onnx")
    llm = chat_model_from(settings.llm)
    if llm_questions and llm is None:
        click.echo("no LLM configured (HOPGRAPH_LLM_BASE_URL): EM/F1 not measured", err=True)
    with open_runner(settings) as (runner, _), tqdm(total=len(items), unit="question",
                                                     disable=None) as bar:
        reasoner = SentenceReasoner(runner, embedder, llm if llm_refine else None,
                                    SentenceRetrievalConfig(**config))
        results = evaluate(reasoner, items, llm=llm, llm_questions=llm_questions,
                           progress=bar.update)
    summaries = [r.summary() for r in results]
    click.echo(format_table(summaries))
    if out is not None:
        out.write_text(json.dumps({"summaries": summaries,
                                   "rows": {r.name: r.rows for r in results}}, indent=1))
