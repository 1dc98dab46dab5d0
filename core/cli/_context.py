"""What every CLI command needs: the settings, a connection and a query runner."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import click

from hopgraph.db import Neo4jRunner
from hopgraph.db._servers import Connection, resolve_connection
from hopgraph.settings import Settings


def settings_of(ctx: click.Context) -> Settings:
    """The settings the root command built."""
    settings = ctx.find_root().obj
    if not isinstance(settings, Settings):
        raise click.UsageError("internal: settings were not built")
    return settings


@contextmanager
def open_runner(settings: Settings) -> Iterator[tuple[Neo4jRunner, Connection]]:
    """Connect to the configured server and yield a runner; closes the driver afterwards."""
    conn = resolve_connection(settings)
    driver = conn.driver()
    try:
        yield Neo4jRunner(
            driver, database=conn.database, timeout_s=settings.neo4j.query_timeout_s
        ), conn
    finally:
        driver.close()
