"""``hopgraph mcp``: serve the read-only graph tools to MCP clients (stdio or streamable HTTP)."""

from __future__ import annotations

import logging

import click

from hopgraph import MCP_TRANSPORTS, Hopgraph, run_mcp_server
from hopgraph.cli._context import settings_of


@click.command(name="mcp")
@click.option("--transport", type=click.Choice(MCP_TRANSPORTS), default="stdio",
              show_default=True, help="stdio for a client that starts this process; "
                                      "streamable-http to serve at http://HOST:PORT/mcp.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Bind address (streamable-http).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="Port (streamable-http).")
@click.pass_context
def mcp(ctx: click.Context, transport: str, host: str, port: int) -> None:
    """Serve read-only tools over the loaded graph to any MCP client: legal retrieve / trace /
    consolidate, biomedical region, sentence retrieve, graph status. No LLM is called; the
    client's model reasons over the evidence."""
    # stdout is the protocol channel on stdio: driver notifications go nowhere near it.
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    with Hopgraph(settings=settings_of(ctx), use_llm=False) as hg:
        run_mcp_server(hg, transport, host=host, port=port)
