"""Command groups that several areas add subcommands to: ``load`` and ``eval``."""

from __future__ import annotations

import click


@click.group()
def load() -> None:
    """Load data into the graph (legal documents, PrimeKG triplets, sentence graphs)."""


@click.group(name="eval")
def eval_() -> None:
    """Evaluate retrieval and answering on benchmark question sets."""
