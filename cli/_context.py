"""What every CLI command needs: the settings, a connection and a query runner."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from hopgraph import Hopgraph
from hopgraph.core.questions import validate_question
from hopgraph.core.settings import Settings
from hopgraph.db import Connection, Neo4jRunner


def settings_of(ctx: click.Context) -> Settings:
    """The settings the root command built."""
    settings = ctx.find_root().obj
    if not isinstance(settings, Settings):
        raise click.UsageError("internal: settings were not built")
    return settings


class QuestionType(click.ParamType[str, Any]):
    """A question argument: ``hopgraph.core.questions.validate_question`` before anything starts.

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
    """Connect through the front door (:class:`hopgraph.Hopgraph`) and yield its runner and the
    resolved server; closes the driver afterwards.

    Args:
        settings: the settings the root command built.
        ensure_schema: install the constraints and indexes first (idempotent; every load
            does, so retrieval works right after a load on a fresh server).
    """
    with Hopgraph(settings=settings, use_llm=False) as hg:
        if ensure_schema:
            hg.install_schema()
        runner, conn = hg.runner, hg.connection
        if not isinstance(runner, Neo4jRunner) or conn is None:
            raise click.UsageError("internal: the settings did not resolve a server")
        yield runner, conn
