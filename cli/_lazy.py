"""Command groups whose subcommands are imported when they run, not when the CLI starts.

``hopgraph --help`` lists every command from a table (name, ``module:attribute``, short help)
without importing the command modules, whose imports (the Neo4j driver with pandas, the agents,
numpy …) took most of the CLI's start-up; ``hopgraph db status`` imports only the ``db`` commands.
``tests/unit/core/test_cli_lazy.py`` checks that the table's short help is the command's own.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import click

# Called with every command imported through a lazy group (the question check, for example).
ON_IMPORT: list[Callable[[click.Command], None]] = []


class LazyGroup(click.Group):
    """A ``click.Group`` that also takes subcommands by import path (:meth:`add_lazy`)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy: dict[str, tuple[str, str]] = {}

    def add_lazy(self, name: str, target: str, short_help: str) -> None:
        """Register ``module:attribute`` as subcommand ``name``; ``short_help`` is what
        ``--help`` lists for it until it is imported."""
        self.lazy[name] = (target, short_help)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in self.lazy:
            return self.commands.get(cmd_name)
        return self.load(cmd_name)

    def load(self, name: str) -> click.Command:
        """Import subcommand ``name`` (once)."""
        if name in self.commands:
            return self.commands[name]
        module, _, attr = self.lazy[name][0].partition(":")
        command = getattr(importlib.import_module(module), attr)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.lazy[name][0]} is not a click command")
        for hook in ON_IMPORT:
            hook(command)
        self.commands[name] = command
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            command = self.commands.get(name)
            if command is not None:
                if command.hidden:
                    continue
                rows.append((name, command.get_short_help_str(limit)))
            else:
                # shortened as click shortens a command's own help
                stand_in = click.Command(name, help=self.lazy[name][1])
                rows.append((name, stand_in.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)
