"""``hopgraph load legal PATH…``.

Exit status: 0 every input loaded, 3 (``EXIT_SKIPPED``) some inputs were skipped (each named on
its own ``SKIPPED`` line), 1 nothing was loaded or the server went away (the report names the
documents committed before).
"""

from __future__ import annotations

from pathlib import Path

import click

from hopgraph.cli._context import open_runner, settings_of
from hopgraph.cli._exit import EXIT_SKIPPED, finish_load
from hopgraph.db import check_free_space, resolve_connection
from hopgraph.loaders.legal import DEFAULT_MAX_FILE_MB, DEFAULT_MAX_UNIT_CHARS, load_legal

__all__ = ["EXIT_SKIPPED", "legal_load"]


@click.command(name="legal")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--no-embed", is_flag=True, help="Skip embeddings (much faster on large corpora).")
@click.option("--batch-size", type=click.IntRange(min=1), default=None,
              help="Rows per UNWIND batch (default: settings).")
@click.option("--replace-duplicates", is_flag=True,
              help="Two inputs with one document id: the later replaces the earlier "
                   "(default: both are refused).")
@click.option("--max-file-mb", type=click.FloatRange(min=0, min_open=True),
              default=DEFAULT_MAX_FILE_MB, show_default=True,
              help="A larger input file is skipped unread (reported).")
@click.option("--max-unit-chars", type=click.IntRange(min=1), default=DEFAULT_MAX_UNIT_CHARS,
              show_default=True,
              help="A document with a longer unit (article, clause …) is skipped before "
                   "word segmentation (reported).")
@click.option("--min-free-mb", type=click.FloatRange(min=0), default=None,
              help="Refuse to start with less free disk space on the local server's store "
                   "(default: HOPGRAPH_MIN_FREE_MB, 1024).")
@click.pass_context
def legal_load(ctx: click.Context, paths: tuple[Path, ...], no_embed: bool,
               batch_size: int | None, replace_duplicates: bool, max_file_mb: float,
               max_unit_chars: int, min_free_mb: float | None) -> None:
    """Load Vietnamese legal documents (text, Word .docx, PDF, saved vbpl.vn /
    thuvienphapluat.vn pages, ALQAC/crawl/article JSON, Pháp điển Markdown).

    A document already in the graph is replaced whole. Exit status 0 when every input loaded,
    3 when some were skipped, 1 when none was or the server went away.
    """
    missing = [str(p) for p in paths if not p.exists()]
    if len(missing) == len(paths):
        raise click.ClickException(f"no such file or directory: {', '.join(missing)}")
    settings = settings_of(ctx)
    # before anything is written: a full disk made Neo4j lose the database mid-load (issue 26)
    check_free_space(settings, resolve_connection(settings), min_free_mb=(
        settings.runtime.min_free_mb if min_free_mb is None else min_free_mb))
    with open_runner(settings, ensure_schema=True) as (runner, _conn):
        embedder = None
        if not no_embed:
            from hopgraph import embedder_from_settings

            embedder = embedder_from_settings(settings, "legal")
        report = load_legal(runner, embedder, list(paths),
                            batch_size=batch_size or settings.batch_size, progress=True,
                            replace_duplicates=replace_duplicates,
                            max_file_mb=max_file_mb, max_unit_chars=max_unit_chars)
    if not report.documents and not report.aborted:
        for problem in report.skipped:
            click.echo(f"SKIPPED {problem}", err=True)
        finish_load(ctx, loaded=0, skipped=len(report.skipped), what="document")
    click.echo(report.summary())
    if report.aborted:
        raise click.ClickException(report.aborted)
    finish_load(ctx, loaded=len(report.documents), skipped=len(report.skipped), what="document")
