"""``hopgraph llm …``: run a local OpenAI-compatible server for machines without an endpoint."""

from __future__ import annotations

from pathlib import Path

import click

from hopgraph.models import (
    DEFAULT_ALIAS,
    DEFAULT_CTX,
    DEFAULT_HOST,
    DEFAULT_PORT,
    DEFAULT_THREADS,
    LocalLLMServer,
    serve_forever,
)


@click.group()
def llm() -> None:
    """Local LLM server (llama.cpp via xllamacpp, OpenAI-compatible)."""


@llm.command()
@click.option("--model", "model_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="GGUF file to serve (default: the bundled SmolLM2-135M-Instruct).")
@click.option("--host", default=DEFAULT_HOST, show_default=True)
@click.option("--port", type=int, default=DEFAULT_PORT, show_default=True)
@click.option("--alias", default=DEFAULT_ALIAS, show_default=True,
              help="Model name clients ask for (HOPGRAPH_LLM_MODEL).")
@click.option("--ctx", type=int, default=DEFAULT_CTX, show_default=True, help="Context tokens.")
@click.option("--threads", type=int, default=DEFAULT_THREADS, show_default=True)
def serve(model_path: Path | None, host: str, port: int, alias: str, ctx: int,
          threads: int) -> None:
    """Serve a GGUF model at http://HOST:PORT/v1 until interrupted.

    Point hopgraph at it with HOPGRAPH_LLM_BASE_URL=http://HOST:PORT/v1.
    """
    server = LocalLLMServer(model_path, host=host, port=port, alias=alias, n_ctx=ctx,
                            threads=threads)
    serve_forever(server, announce=lambda line: click.echo(line))
