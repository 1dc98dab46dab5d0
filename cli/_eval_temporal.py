"""``hopgraph eval temporal --pairs DIR``: questions about time, with gold read from the files."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from tqdm import tqdm

from hopgraph import embedder_from_settings
from hopgraph.agents.legal import LegalQA, QAOptions
from hopgraph.cli._context import open_runner, settings_of
from hopgraph.eval.temporal import (
    ask_system,
    flat_system,
    paraphrase,
    retrieve_system,
    run_temporal,
)
from hopgraph.eval.temporal import render_markdown as render_temporal
from hopgraph.eval.temporal_gold import generate_questions, read_pairs, sample_questions
from hopgraph.loaders.legal import load_legal
from hopgraph.retrieval import LegalRetriever


@click.command(name="temporal")
@click.option("--pairs", "pairs_dir", required=True,
              type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="A folder in the vn-amend-dev layout (pairs.json, gold/, the texts).")
@click.option("--tier", default=None, help="Only the pairs of this tier (e.g. core).")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="At most N questions, drawn with --seed.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the phrasings, the sample and the bootstrap.")
@click.option("-k", "k", type=click.IntRange(1, 50), default=5, show_default=True,
              help="Seeds retrieved per question; the first 5 presented items are judged.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--no-load", is_flag=True,
              help="The folder's documents are already loaded (with embeddings): skip loading.")
@click.option("--no-embed", is_flag=True,
              help="Load without unit vectors (much faster on 2 CPU cores): retrieval then "
                   "rests on the full-text branch, for hopgraph and the baseline alike.")
@click.option("--no-ask", is_flag=True, help="Leave out the retrieval-only ask row.")
@click.option("--paraphrase", "use_paraphrase", is_flag=True,
              help="Reword every question through the configured LLM endpoint "
                   "(HOPGRAPH_LLM_BASE_URL); each rewording is recorded.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the JSON here and the Markdown table next to it.")
@click.pass_context
def temporal(ctx: click.Context, pairs_dir: Path, tier: str | None, limit: int | None, seed: int,
             k: int, as_json: bool, no_load: bool, no_embed: bool, no_ask: bool, use_paraphrase: bool,
             out_path: Path | None) -> None:
    """Evaluate answers at a date on amended law: right wording, stale, premature, abstention.

    Questions are generated from the folder's gold files (never from the graph): for every
    amended, replaced, inserted or repealed unit, the day before its change, the day of it and
    after it. hopgraph's retrieve and retrieval-only ask answer at that date, beside a flat
    baseline with the same index and no validity.
    """
    settings = settings_of(ctx)
    gold = read_pairs(pairs_dir, tier=tier)
    questions = sample_questions(generate_questions(gold, seed=seed), limit, seed)
    if not questions:
        raise click.ClickException(f"{pairs_dir}: no gold edge gave a question "
                                   f"(skipped: {dict(gold.skipped)})")
    notes: dict[str, int] = {}
    if use_paraphrase:
        from hopgraph.models import chat_model_from

        chat = chat_model_from(settings.llm)
        if chat is None:
            raise click.ClickException("--paraphrase needs an LLM endpoint "
                                       "(HOPGRAPH_LLM_BASE_URL); none is configured")
        try:
            questions, kept = paraphrase(questions, chat)
        finally:
            chat.close()
        notes = dict(kept)
    embedder = embedder_from_settings(settings, "legal")
    with open_runner(settings, ensure_schema=not no_load) as (runner, _conn):
        loaded = None
        if not no_load:
            report = load_legal(runner, None if no_embed else embedder, gold.files, batch_size=settings.batch_size,
                                progress=not as_json)
            if report.aborted:
                raise click.ClickException(report.aborted)
            loaded = {"documents": len(report.documents), "skipped": len(report.skipped),
                      "embedded": report.embedded, "no_embed": no_embed}
        retriever = LegalRetriever(runner, embedder)
        systems = {"hopgraph": retrieve_system(retriever, k=k),
                   "baseline": flat_system(retriever, k=k)}
        if not no_ask:
            systems["ask"] = ask_system(LegalQA(retriever=retriever, chat=None,
                                                options=QAOptions(k=k)))
        with tqdm(total=len(questions), unit="question", disable=as_json,
                  file=sys.stderr) as bar:
            result = run_temporal(gold, questions, systems, seed=seed, progress=bar.update)
    result.gold["loaded"] = loaded
    if notes:
        result.gold["paraphrase"] = notes
    data = result.to_json()
    table = render_temporal(result, title=f"Temporal legal QA on {pairs_dir.name}"
                            + (f" (tier {tier})" if tier else ""))
    if out_path is not None:
        out_path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        out_path.with_suffix(".md").write_text(table, encoding="utf-8")
    if as_json:
        click.echo(json.dumps(data, ensure_ascii=False))
    else:
        click.echo(table)
