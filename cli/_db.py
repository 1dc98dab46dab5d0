"""``hopgraph db start | stop | status | init | clear | remove-document | remove-samples |
repair | backup | restore``."""

from __future__ import annotations

import time
from pathlib import Path

import click

from hopgraph.cli._context import open_runner, settings_of
from hopgraph.db import backup_database, restore_database, server_status, start_server, stop_server


@click.group()
def db() -> None:
    """Start, stop, inspect and initialise the Neo4j server."""


@db.command()
@click.pass_context
def start(ctx: click.Context) -> None:
    """Start Neo4j (Docker when an engine answers, else the local runtime) and wait for Bolt."""
    settings = settings_of(ctx)
    started = time.perf_counter()
    conn = start_server(settings)
    click.echo(f"Neo4j ({conn.kind}) is up at {conn.uri} after {time.perf_counter() - started:.1f}s")
    if conn.browser_url:
        click.echo(f"Browser: {conn.browser_url}  (user neo4j, password in "
                   f"{settings.runtime.home / 'instance' / 'neo4j-password'})")


@db.command()
@click.pass_context
def stop(ctx: click.Context) -> None:
    """Stop the server hopgraph started (never one it did not start)."""
    click.echo(stop_server(settings_of(ctx)))


@db.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def status(ctx: click.Context, as_json: bool) -> None:
    """Which server, its version and edition, APOC and GDS versions, node count."""
    settings = settings_of(ctx)
    with open_runner(settings) as (runner, conn):
        info = {"server": conn.kind, "uri": conn.uri, **server_status(runner.driver, conn.database)}
    if as_json:
        import json

        click.echo(json.dumps(info))
        return
    if info["database"] != "online":
        click.echo(f"server: {info['server']} at {info['uri']}\n"
                   f"neo4j:  {info['version']} {info['edition']}")
        raise click.ClickException(
            f"database '{conn.database}' is {info['database']}"
            f"{': ' + info['reason'] if info['reason'] else ''} (free disk space if it is full, "
            "then 'hopgraph db stop' and 'hopgraph db start'; 'hopgraph db restore DUMP' brings "
            "back a backup)")
    click.echo(
        f"server: {info['server']} at {info['uri']}\n"
        f"neo4j:  {info['version']} {info['edition']}\n"
        f"database: {conn.database} online\n"
        f"apoc:   {info['apoc'] or 'not installed'}\n"
        f"gds:    {info['gds'] or 'not installed'}\n"
        f"nodes:  {info['nodes']}"
    )


@db.command()
@click.pass_context
def init(ctx: click.Context) -> None:
    """Create constraints and vector / full-text indexes from graph_models (idempotent)."""
    from hopgraph.db import install_schema  # reads the neomodel classes: only this command

    settings = settings_of(ctx)
    with open_runner(settings) as (runner, conn):
        created = install_schema(runner.driver, conn.database, dimension=settings.embedder.dimension)
    click.echo(f"schema ready: {len(created)} created" + (f" ({', '.join(created)})" if created else ", nothing changed"))


@db.command()
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_context
def clear(ctx: click.Context, yes: bool) -> None:
    """Delete every node and relationship of the database (constraints and indexes stay)."""
    from hopgraph.cli._maintenance import clear_graph, graph_size

    settings = settings_of(ctx)
    with open_runner(settings) as (runner, conn):
        nodes, rels = graph_size(runner)
        if not yes:
            click.confirm(f"Delete all {nodes} nodes and {rels} relationships of database "
                          f"'{conn.database}' at {conn.uri}?", abort=True)
        nodes, rels = clear_graph(runner)
    click.echo(f"removed {nodes} nodes and {rels} relationships from '{conn.database}' at "
               f"{conn.uri} (constraints and indexes kept)")


@db.command("remove-document")
@click.argument("doc_id")
@click.pass_context
def remove_document(ctx: click.Context, doc_id: str) -> None:
    """Remove one loaded legal document whole (as if it had never been loaded)."""
    from hopgraph.cli._maintenance import remove_legal_document, resolve_legal_document

    with open_runner(settings_of(ctx)) as (runner, _):
        doc_id = resolve_legal_document(runner, doc_id)  # as typed: ND for NĐ, case
        done = remove_legal_document(runner, doc_id)
    click.echo(f"removed {doc_id}: {done['removed']} nodes and {done['edges']} edges; "
               f"{done['demoted']} nodes other documents still point at kept as placeholders; "
               "validity derived again")


@db.command("remove-samples")
@click.pass_context
def remove_samples(ctx: click.Context) -> None:
    """Remove the shipped samples: the fictional legal documents (ids ending in -MAU), the
    sample sentence corpus (passages 'sample-…') and the sample triplets between entities read
    by name (PrimeKG entities are never touched)."""
    from hopgraph.cli._maintenance import remove_samples as remove

    with open_runner(settings_of(ctx)) as (runner, _):
        click.echo(remove(runner).summary())


@db.command()
@click.pass_context
def repair(ctx: click.Context) -> None:
    """Run the legal derive steps now (validity, defined terms, re-homing), as after a load;
    for a graph left by a load stopped between its documents and its derive steps."""
    from hopgraph.loaders.legal import repair as repair_legal

    with open_runner(settings_of(ctx)) as (runner, _):
        click.echo(repair_legal(runner).summary())


@db.command()
@click.option("--to", "to_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the dump (default: <hopgraph home>/backups).")
@click.pass_context
def backup(ctx: click.Context, to_dir: Path | None) -> None:
    """Dump the local server's database to a file (neo4j-admin database dump); the server is
    stopped for the dump and started again."""
    started = time.perf_counter()
    dump = backup_database(settings_of(ctx), to_dir)
    click.echo(f"backup written: {dump} ({dump.stat().st_size / 1e6:.1f} MB, "
               f"{time.perf_counter() - started:.0f}s); 'hopgraph db restore {dump}' brings it back")


@db.command()
@click.argument("dump", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_context
def restore(ctx: click.Context, dump: Path, yes: bool) -> None:
    """Replace the local server's database with DUMP (a file 'hopgraph db backup' wrote); the
    server is stopped for the load and started again."""
    if not dump.is_file():
        raise click.ClickException(f"{dump}: no such dump file")
    if not yes:
        click.confirm(f"Replace the whole database with {dump}?", abort=True)
    started = time.perf_counter()
    restore_database(settings_of(ctx), dump)
    click.echo(f"restored {dump} in {time.perf_counter() - started:.0f}s")
