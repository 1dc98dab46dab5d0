"""The ``hopgraph`` command line: one root group that builds the settings, and its subcommands.

Expected failures (every :class:`~hopgraph.errors.HopgraphError`) print one line and exit 1.
Area packages define their commands next to their code and are registered here.
"""

from __future__ import annotations

import sys

import click

from hopgraph.agents._cli import llm
from hopgraph.agents.biomed._cli import ask_bio, bio
from hopgraph.agents.legal._cli import ask, qa
from hopgraph.agents.sentences._cli import ask_sentences, eval_sentences
from hopgraph.cli._context import guard_questions
from hopgraph.cli._db import db
from hopgraph.cli._demo import demo
from hopgraph.cli._groups import eval_, load
from hopgraph.cli._mcp import mcp
from hopgraph.errors import HopgraphError
from hopgraph.loaders.biomed._cli import primekg
from hopgraph.loaders.legal._cli import legal_load
from hopgraph.loaders.sentences._cli import sentences as sentences_load
from hopgraph.retrieval._cli import consolidate, eval_retrieval, retrieve
from hopgraph.settings import Neo4jSettings, Settings


class _Root(click.Group):
    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except HopgraphError as e:
            raise click.ClickException(str(e)) from e


@click.group(cls=_Root)
@click.option("--uri", envvar="NEO4J_URI", help="Bolt URI of an existing Neo4j (default: the one hopgraph runs).")
@click.option("--user", envvar="NEO4J_USER", help="Neo4j user.")
@click.option("--password", envvar="NEO4J_PASSWORD", help="Neo4j password.")
@click.option("--database", envvar="NEO4J_DATABASE", help="Neo4j database name.")
@click.version_option(package_name="hopgraph")
@click.pass_context
def cli(ctx: click.Context, uri: str | None, user: str | None, password: str | None,
        database: str | None) -> None:
    """hopgraph: graph-grounded multi-hop question answering on Neo4j."""
    try:
        base = Settings.from_env()
    except HopgraphError as e:
        raise click.ClickException(str(e)) from e
    n = base.neo4j
    ctx.obj = base.replace(neo4j=Neo4jSettings(
        uri=uri or n.uri, user=user or n.user, password=password or n.password,
        database=database or n.database, query_timeout_s=n.query_timeout_s,
    ))


cli.add_command(db)
cli.add_command(demo)
cli.add_command(mcp)
cli.add_command(load)
cli.add_command(eval_)
# Area commands register below, one line each (e.g. load.add_command(legal_load)).
cli.add_command(retrieve)
cli.add_command(consolidate)
eval_.add_command(eval_retrieval)
cli.add_command(llm)
cli.add_command(ask)
eval_.add_command(qa)
load.add_command(primekg)
cli.add_command(ask_bio)
eval_.add_command(bio)
load.add_command(legal_load)
load.add_command(sentences_load)
cli.add_command(ask_sentences)
eval_.add_command(eval_sentences)
# Every question entry point runs the one shared check before it connects or loads a model.
guard_questions(retrieve, ask, ask_bio, ask_sentences)


def main() -> None:
    """Console-script entry point."""
    sys.exit(cli.main(standalone_mode=True))
