"""``hopgraph mcp``: serve the read-only graph tools to MCP clients (stdio or streamable HTTP)."""

from __future__ import annotations

import logging

import click

from hopgraph import MCP_TRANSPORTS, GuardSettings, run_mcp_server, serving_hopgraph
from hopgraph.cli._context import settings_of


@click.command(name="mcp")
@click.option("--transport", type=click.Choice(MCP_TRANSPORTS), default="stdio",
              show_default=True, help="stdio for a client that starts this process; "
                                      "streamable-http to serve at http://HOST:PORT/mcp.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Bind address (streamable-http); any but loopback needs HOPGRAPH_API_TOKEN.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="Port (streamable-http).")
@click.option("--token", envvar="HOPGRAPH_API_TOKEN", show_envvar=True, default=None,
              help="Bearer token every request must carry (streamable-http; required beyond "
                   "loopback).")
@click.pass_context
def mcp(ctx: click.Context, transport: str, host: str, port: int, token: str | None) -> None:
    """Serve read-only tools over the loaded graph to any MCP client: legal retrieve / trace /
    consolidate, biomedical region, sentence retrieve, graph status. No LLM is called; the
    client's model reasons over the evidence."""
    # stdout is the protocol channel on stdio: driver notifications go nowhere near it.
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    if transport == "streamable-http":
        GuardSettings.for_host(host, port, token)  # an exposed host without a token: refused
    with serving_hopgraph(settings_of(ctx), use_llm=False) as hg:
        run_mcp_server(hg, transport, host=host, port=port, token=token)
