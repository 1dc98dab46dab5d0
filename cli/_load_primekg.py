"""``hopgraph load primekg PATH``: load PrimeKG ``kg.csv`` or a names-only triplet TSV.

Exit status as ``load legal`` (``hopgraph.cli._exit``): 0 every row loaded, 3 some rows were
skipped (each on a ``skipped: <file>:<line>: <problem>`` line, the first 20 of them), 1 no edge
was loaded (an empty file, or no good row). ``--bulk-import`` reports its skips in its summary.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import click
from tqdm import tqdm

from hopgraph import embedder_from_settings
from hopgraph.cli._context import open_runner, settings_of
from hopgraph.cli._exit import finish_load
from hopgraph.core.ports import Embedder
from hopgraph.core.settings import Settings
from hopgraph.db import docker_started, local_instance
from hopgraph.loaders.biomed import (
    DEFAULT_BATCH_SIZE,
    SAMPLE_TRIPLETS,
    bulk_import_primekg,
    estimate_load,
    load_primekg,
)

LOAD_TIMEOUT_S = 600.0


@click.command(name="primekg")
@click.argument("path", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--aliases", "alias_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Alias table name<TAB>synonym… (default: the bundled sample table).")
@click.option("--batch-size", type=click.IntRange(1, 100_000), default=DEFAULT_BATCH_SIZE,
              show_default=True, help="Rows per UNWIND write.")
@click.option("--sample", is_flag=True, help="Load the bundled hand-written sample triplets.")
@click.option("--bulk-import", "bulk", is_flag=True,
              help="First load into an empty database with neo4j-admin import (local runtime; "
                   "stops and restarts the server). Much faster for a full kg.csv.")
@click.option("--replace", is_flag=True, help="With --bulk-import: replace a non-empty database.")
@click.option("--embed-triplets", is_flag=True,
              help="After loading, store each edge's embedding of its verbalised triplet (the "
                   "English embedder, all-MiniLM-L6-v2 by default) so MMR need not embed "
                   "candidates at query time. Opt-in: ~2.5 KB more per edge on disk (~8.4 GB for the "
                   "full PrimeKG); edges that already have one are skipped.")
@click.pass_context
def primekg(ctx: click.Context, path: Path | None, alias_path: Path | None, batch_size: int,
            sample: bool, bulk: bool, replace: bool, embed_triplets: bool) -> None:
    """Load PrimeKG triplets from PATH (kg.csv or head<TAB>RELATION<TAB>tail)."""
    if path is None and not sample:
        raise click.UsageError("give PATH or --sample")
    source = SAMPLE_TRIPLETS if path is None else path
    if not source.is_file():
        raise click.BadParameter(f"{source}: no such file", param_hint="PATH")
    settings = settings_of(ctx)
    if replace and not bulk:
        raise click.UsageError("--replace only goes with --bulk-import")
    # Built before any write, so a missing model fails before the load, not after it.
    embedder = embedder_from_settings(settings, "english") if embed_triplets else None
    estimate = estimate_load(source)  # the size and the time to expect, before it starts
    click.echo(estimate.summary(bulk=bulk), err=True)
    if bulk:
        _bulk(settings, source, alias_path, replace, embedder, estimate.rows)
        return
    # A 10k-row batch can outlast the default read timeout on a busy machine.
    neo = settings.neo4j
    settings = settings.replace(neo4j=dataclasses.replace(
        neo, query_timeout_s=max(neo.query_timeout_s, LOAD_TIMEOUT_S)))
    with open_runner(settings, ensure_schema=True) as (runner, _), tqdm(unit=" rows", desc="primekg") as bar, \
            tqdm(unit=" triplets", desc="embed", disable=embedder is None) as embed_bar:
        report = load_primekg(runner, source, alias_path=alias_path, batch_size=batch_size,
                              progress=bar.update, triplet_embedder=embedder,
                              embed_progress=embed_bar.update)
    click.echo(report.summary())
    for line in report.skip_lines():
        click.echo(f"skipped: {line}", err=True)
    finish_load(ctx, loaded=report.edge_rows_written,
                skipped=report.rows_skipped + int(report.empty), what="edge", unit="rows",
                source=str(source))


def _bulk(settings: Settings, source: Path, alias_path: Path | None, replace: bool,
          embedder: Embedder | None, rows: int) -> None:
    if settings.neo4j.uri or docker_started(settings):
        raise click.UsageError(
            "--bulk-import writes the store files of the local runtime's database; it cannot "
            "reach a server given by NEO4J_URI or run in Docker: load without --bulk-import")
    # the bar follows the read, the longest phase; the import, restart and indexes follow it
    with tqdm(total=rows, unit=" rows", desc="primekg (read)") as bar:
        report = bulk_import_primekg(local_instance(settings), source,
                                     dimension=settings.embedder.dimension, alias_path=alias_path,
                                     replace=replace, triplet_embedder=embedder,
                                     progress=bar.update)
    click.echo(report.summary())
