"""Command groups that several areas add subcommands to: ``load`` and ``eval``."""

from __future__ import annotations

import click

from hopgraph.cli._lazy import LazyGroup


@click.group(cls=LazyGroup)
def load() -> None:
    """Load data into the graph (legal documents, PrimeKG triplets, sentence graphs)."""


@click.group(name="eval", cls=LazyGroup)
def eval_() -> None:
    """Evaluate retrieval and answering on benchmark question sets."""
