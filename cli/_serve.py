"""``hopgraph serve``: the read-only HTTP API and the web app over the loaded graph."""

from __future__ import annotations

import logging

import click

from hopgraph.cli._context import settings_of


@click.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Bind address; any but loopback needs HOPGRAPH_API_TOKEN.")
@click.option("--port", type=click.IntRange(1, 65535), default=8080, show_default=True)
@click.option("--token", envvar="HOPGRAPH_API_TOKEN", show_envvar=True, default=None,
              help="Bearer token every API request must carry (required beyond loopback).")
@click.option("--no-llm", is_flag=True, help="Answer from the evidence alone (no LLM call).")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, token: str | None, no_llm: bool) -> None:
    """Serve the read-only HTTP API (OpenAPI at /docs) and the Vietnamese web app at /."""
    from hopgraph import GuardSettings, run_http_server, serving_hopgraph

    GuardSettings.for_host(host, port, token)  # refuse an exposed host without a token first
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    # question vectors cached in memory: a server embeds the same questions again
    with serving_hopgraph(settings_of(ctx), use_llm=not no_llm) as hg:
        run_http_server(hg, host=host, port=port, token=token, use_llm=not no_llm)
