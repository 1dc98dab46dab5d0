"""What every CLI command needs: the settings, a connection and a query runner."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import click

from hopgraph.db import Neo4jRunner
from hopgraph.db._servers import Connection, resolve_connection
from hopgraph.questions import validate_question
from hopgraph.settings import Settings


def settings_of(ctx: click.Context) -> Settings:
    """The settings the root command built."""
    settings = ctx.find_root().obj
    if not isinstance(settings, Settings):
        raise click.UsageError("internal: settings were not built")
    return settings


class QuestionType(click.ParamType):
    """A question argument: ``hopgraph.questions.validate_question`` before anything starts.

    A refusal is one ``Error:`` line and exit 1 (the root maps the error), not a usage screen.
    """

    name = "question"

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        return validate_question(value)


QUESTION = QuestionType()


def guard_questions(*commands: click.Command) -> None:
    """Give the ``question`` argument of each command the shared check (``QUESTION``)."""
    for command in commands:
        for param in command.params:
            if isinstance(param, click.Argument) and param.name == "question":
                param.type = QUESTION


@contextmanager
def open_runner(settings: Settings, *, ensure_schema: bool = False
                ) -> Iterator[tuple[Neo4jRunner, Connection]]:
    """Connect to the configured server and yield a runner; closes the driver afterwards.

    Args:
        settings: the settings the root command built.
        ensure_schema: install the constraints and indexes first (idempotent; every load
            does, so retrieval works right after a load on a fresh server).
    """
    conn = resolve_connection(settings)
    driver = conn.driver()
    try:
        if ensure_schema:
            from hopgraph.db._schema_install import install_schema

            install_schema(driver, conn.database, dimension=settings.embedder.dimension)
        yield Neo4jRunner(
            driver, database=conn.database, timeout_s=settings.neo4j.query_timeout_s
        ), conn
    finally:
        driver.close()
