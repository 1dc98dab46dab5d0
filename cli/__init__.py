"""The ``hopgraph`` command line: one root group that builds the settings, and its subcommands.

Expected failures (every :class:`~hopgraph.core.errors.HopgraphError`) print one line and exit 1.
Every command lives in this package (``_db``, ``_load_legal``, ``_ask_bio`` …), on top of the
front door and the areas' public names; each is registered below and imported when it runs.
"""

from __future__ import annotations

import sys

import click

from hopgraph.cli._groups import eval_, load
from hopgraph.cli._lazy import ON_IMPORT, LazyGroup
from hopgraph.core.errors import HopgraphError
from hopgraph.core.settings import Neo4jSettings, Settings


class _Root(LazyGroup):
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
        connect_timeout_s=n.connect_timeout_s,
    ))


# Commands are imported when they run (hopgraph.cli._lazy): register each with its module path
# and the first sentence of its docstring (tests/unit/core/test_cli_lazy.py checks both).
cli.add_lazy("db", "hopgraph.cli._db:db", "Start, stop, inspect and initialise the Neo4j server.")
cli.add_lazy("demo", "hopgraph.cli._demo:demo", "Start Neo4j, load the bundled samples, answer sample questions, show the Browser.")
cli.add_lazy("serve", "hopgraph.cli._serve:serve", "Serve the read-only HTTP API (OpenAPI at /docs) and the Vietnamese web app at /.")
cli.add_lazy("mcp", "hopgraph.cli._mcp:mcp", "Serve read-only tools over the loaded graph to any MCP client: legal retrieve / trace / consolidate, biomedical region, sentence retrieve, graph status.")
cli.add_command(load)
cli.add_command(eval_)
# Commands of the areas (modules of this package) register below, one line each
# (e.g. load.add_lazy("legal", "hopgraph.cli._load_legal:legal_load", "help")).
cli.add_lazy("retrieve", "hopgraph.cli._retrieval:retrieve", "Retrieve the legally valid context for QUESTION (seeds, successors, references).")
cli.add_lazy("consolidate", "hopgraph.cli._retrieval:consolidate", "Print document DOC_ID as in force at a date (văn bản hợp nhất), each changed unit marked with the instruction and date that changed it; or, with --diff, what changed between two dates.")
cli.add_lazy("trace", "hopgraph.cli._legal_units:trace", "Trace the validity of given units at a date (no search): wording in force, chain, references.")
cli.add_lazy("unit", "hopgraph.cli._legal_units:unit", "Show one unit at a date: its validity badge and every wording with its dates.")
cli.add_lazy("resolve", "hopgraph.cli._legal_units:resolve", "Show the wording a citation id names (vn/nd/2016/12/cp/dieu_3/khoan_2@2024-06-01), in force at its date.")
eval_.add_lazy("retrieval", "hopgraph.cli._retrieval:eval_retrieval", "Evaluate legal retrieval on QUESTIONS ([{id, question, gold, choices?, as_of?}]) against baselines.")
cli.add_lazy("llm", "hopgraph.cli._llm:llm", "Local LLM server (llama.cpp via xllamacpp, OpenAI-compatible).")
cli.add_lazy("ask", "hopgraph.cli._ask_legal:ask", "Answer a question about the loaded regulations, with citations.")
eval_.add_lazy("qa", "hopgraph.cli._ask_legal:qa", "Evaluate legal QA on the loaded graph: F1, citations, abstention, ablations.")
load.add_lazy("primekg", "hopgraph.cli._load_primekg:primekg", "Load PrimeKG triplets from PATH (kg.csv or head<TAB>RELATION<TAB>tail).")
cli.add_lazy("ask-bio", "hopgraph.cli._ask_bio:ask_bio", "Answer a biomedical QUESTION by region-first reasoning over the loaded PrimeKG graph.")
eval_.add_lazy("bio", "hopgraph.cli._ask_bio:bio", "Evaluate ReGraM, its ablations and the unweighted vector baseline on medical MCQs.")
load.add_lazy("legal", "hopgraph.cli._load_legal:legal_load", "Load Vietnamese legal documents (text, Word .docx, PDF, saved vbpl.vn / thuvienphapluat.vn pages, ALQAC/crawl/article JSON, Pháp điển Markdown).")
load.add_lazy("sentences", "hopgraph.cli._load_sentences:sentences", "Load PATH (HotpotQA corpus JSON, or JSONL of {id, title, text}; 'sample' = the bundled sample corpus) into the sentence graph.")
cli.add_lazy("ask-sentences", "hopgraph.cli._ask_sentences:ask_sentences", "Answer QUESTION from the sentence graph (retrieval-only without an LLM).")
eval_.add_lazy("sentences", "hopgraph.cli._ask_sentences:eval_sentences", "Evaluate sentence-graph retrieval against RO baselines and ablations on QUESTIONS (HotpotQA JSON with supporting facts; default: the bundled sample questions).")
eval_.add_lazy("temporal", "hopgraph.cli._eval_temporal:temporal", "Evaluate answers at a date on amended law: right wording, stale, premature, abstention.")
cli.add_lazy("crawl", "hopgraph.cli._crawl:crawl", "Fetch the documents a vbpl.vn listing page links to (full text and attributes pages), politely and resumably, into files 'hopgraph load legal' reads.")
cli.add_lazy("dataset", "hopgraph.cli._dataset:dataset", "Build multi-hop QA datasets from the loaded legal graph (ViHERMES pipeline).")
# Every question entry point runs the one shared check before it connects or loads a model.
QUESTION_COMMANDS = frozenset({"retrieve", "ask", "ask-bio", "ask-sentences"})


def _guard_questions(command: click.Command) -> None:
    if command.name in QUESTION_COMMANDS:
        from hopgraph.cli._context import guard_questions

        guard_questions(command)


ON_IMPORT.append(_guard_questions)


def main() -> None:
    """Console-script entry point."""
    sys.exit(cli.main(standalone_mode=True))
