"""``hopgraph load legal PATH…``."""

from __future__ import annotations

from pathlib import Path

import click

from hopgraph.cli._context import open_runner, settings_of
from hopgraph.loaders.legal._loader import load_legal


@click.command(name="legal")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--no-embed", is_flag=True, help="Skip embeddings (much faster on large corpora).")
@click.option("--batch-size", type=click.IntRange(min=1), default=None,
              help="Rows per UNWIND batch (default: settings).")
@click.pass_context
def legal_load(ctx: click.Context, paths: tuple[Path, ...], no_embed: bool,
               batch_size: int | None) -> None:
    """Load Vietnamese legal documents (text, ALQAC/crawl/article JSON, Pháp điển Markdown)."""
    settings = settings_of(ctx)
    embedder = None
    if not no_embed:
        from hopgraph.agents import build_embedder

        embedder = build_embedder(settings.embedder.legal_model, settings.embedder.cache_dir)
    with open_runner(settings) as (runner, _conn):
        report = load_legal(runner, embedder, list(paths),
                            batch_size=batch_size or settings.batch_size, progress=True)
    click.echo(report.summary())
    if not report.documents:
        raise click.ClickException("no document was loaded")
