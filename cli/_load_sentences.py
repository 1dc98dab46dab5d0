"""``hopgraph load sentences PATH``: build the sentence logic graph from a corpus file.

Exit status as ``load legal`` (``hopgraph.cli._exit``): 0 every record loaded, 3 some were skipped
(each on a ``skipped:`` line), 1 no passage could be loaded (an empty or unreadable file).
"""

from __future__ import annotations

import time
from pathlib import Path

import click
from tqdm import tqdm

from hopgraph import embedder_from_settings
from hopgraph.cli._context import open_runner, settings_of
from hopgraph.cli._exit import finish_load
from hopgraph.loaders.sentences import (
    DEFAULT_BATCH_PASSAGES,
    DEFAULT_MAX_BRIDGES,
    DEFAULT_MAX_DF,
    SpacyTagger,
    load_passages,
    read_corpus,
    sample_corpus_path,
)
from hopgraph.models import chat_model_from

SAMPLE_NAME = "sample"


@click.command(name="sentences")
@click.argument("path")
@click.option("--no-llm", is_flag=True, help="Use the deterministic heuristic even if an LLM is configured.")
@click.option("--llm-limit", type=int, default=None, help="Use the LLM for at most N passages.")
@click.option("--batch", "batch_passages", type=int, default=DEFAULT_BATCH_PASSAGES, show_default=True,
              help="Passages per write transaction.")
@click.option("--max-df", type=int, default=DEFAULT_MAX_DF, show_default=True,
              help="Entities shared by more topics than this do not bridge.")
@click.option("--max-bridges", type=int, default=DEFAULT_MAX_BRIDGES, show_default=True,
              help="Strongest bridges kept per topic.")
@click.pass_context
def sentences(ctx: click.Context, path: str, no_llm: bool, llm_limit: int | None,
              batch_passages: int, max_df: int, max_bridges: int) -> None:
    """Load PATH (HotpotQA corpus JSON, or JSONL of {id, title, text}; 'sample' = the bundled
    sample corpus) into the sentence graph."""
    started = time.perf_counter()
    settings = settings_of(ctx)
    source = sample_corpus_path() if path == SAMPLE_NAME else Path(path)
    skipped: list[str] = []
    passages = list(read_corpus(source, skipped))
    if not passages:  # nothing to load: say so before loading the models (tens of seconds)
        for line in skipped:
            click.echo(f"skipped: {line}", err=True)
        finish_load(ctx, loaded=0, skipped=len(skipped), what="passage", unit="records",
                    source=str(source))
    # loading the models takes most of a small load (tens of seconds on a busy machine): say so
    click.echo(f"loading models: embedder {settings.embedder.english_model} "
               f"({settings.embedder.threads} threads), spaCy tagger…", err=True)
    embedder = embedder_from_settings(settings, "english")
    tagger = SpacyTagger.load()
    models_s = time.perf_counter() - started
    llm = None if no_llm else chat_model_from(settings.llm)
    with open_runner(settings, ensure_schema=True) as (runner, _), tqdm(total=len(passages), unit="passage",
                                                     disable=None) as bar:
        report = load_passages(runner, passages, embedder=embedder, tagger=tagger, llm=llm,
                               llm_limit=llm_limit, batch_passages=batch_passages, max_df=max_df,
                               max_bridges=max_bridges, progress=bar.update)
    report.skipped[:0] = skipped
    click.echo(
        f"loaded {report.passages} passages, {report.sentences} sentences "
        f"({report.cores} core, {report.supplementary} supplementary), {report.bridges} bridges "
        f"in {time.perf_counter() - started:.1f}s (models {models_s:.1f}s, graph "
        f"{report.seconds:.1f}s: {report.sentences_per_s:.0f} sentences/s)"
    )
    methods = ", ".join(f"{k}={v}" for k, v in sorted(report.methods.items()))
    click.echo(f"edges by method: {methods or '-'}; LLM calls {report.llm_calls} "
               f"({report.llm_calls_per_document:.2f}/passage, {report.llm_failures} fell back)")
    for line in report.skipped:
        click.echo(f"skipped: {line}", err=True)
    for line in report.notes[:50]:
        click.echo(f"note: {line}", err=True)
    if len(report.notes) > 50:
        click.echo(f"note: ... and {len(report.notes) - 50} more", err=True)
    finish_load(ctx, loaded=report.passages, skipped=len(report.skipped), what="passage",
                unit="records", source=str(source))
