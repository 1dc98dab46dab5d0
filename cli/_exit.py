"""The exit status of the load commands (issue 18): the rule of ``load legal``, one for all.

0 every input (row, record) loaded; 3 (``EXIT_SKIPPED``) some were skipped, each named on its own
line; 1 nothing at all was loaded (a ``ClickException``: one ``Error:`` line).
"""

from __future__ import annotations

import click

EXIT_SKIPPED = 3


def finish_load(ctx: click.Context, *, loaded: int, skipped: int, what: str,
                unit: str = "inputs", source: str | None = None) -> None:
    """Leave a load command with its exit status; returns only when everything loaded.

    Args:
        loaded: how many ``what`` (documents, passages, edge rows) were loaded.
        skipped: how many ``unit`` (inputs, records, rows) were skipped; the command has
            already named each of them.
        source: the input, named at the head of the error line when given.

    Raises:
        click.ClickException: nothing was loaded (exit 1).
        click.exceptions.Exit: some were skipped (exit 3).
    """
    if not loaded:
        head = f"{source}: " if source else ""
        raise click.ClickException(f"{head}no {what} was loaded ({skipped} {unit} skipped)")
    if skipped:
        ctx.exit(EXIT_SKIPPED)
