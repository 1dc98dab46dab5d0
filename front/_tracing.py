"""Optional OpenTelemetry spans around each embedding, each Cypher call and each LLM call, so
that the latency split of a request is visible in production (extra ``otel``).

Off unless configured: spans are made only when ``opentelemetry-api`` is installed and either a
tracer provider is given to :class:`~hopgraph.Hopgraph` (``tracer_provider=``), a global one is
set (``opentelemetry.trace.set_tracer_provider``, as an OpenTelemetry distro does), or
``HOPGRAPH_OTEL=1`` (then, without a global provider and with ``opentelemetry-sdk`` installed,
spans are printed to stderr by the SDK's console exporter). Otherwise the front door hands out
its runner, embedders and chat model unwrapped: no cost.

Spans (one per call, kind ``CLIENT``; a failure is recorded on its span and re-raised):

- ``hopgraph.cypher``: ``db.system.name`` ``neo4j``, ``db.operation.name`` the query key
  (``legal/retrieve_context``), ``db.namespace`` the database, ``db.response.returned_rows``;
  a ``write_transaction`` is one span naming its steps;
- ``hopgraph.embed``: ``hopgraph.embedder`` (model name), ``hopgraph.embed.texts``,
  ``hopgraph.embed.kind`` (``query`` / ``documents``);
- ``hopgraph.llm``: ``gen_ai.request.model``, ``gen_ai.usage.input_tokens`` /
  ``output_tokens``, ``hopgraph.llm.json_mode``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from hopgraph.db import Neo4jRunner

ENV = "HOPGRAPH_OTEL"
TRACER_NAME = "hopgraph"
_T = TypeVar("_T")
_console_provider: Any = None


def tracer_for(provider: Any = None, env: Mapping[str, str] | None = None) -> Any:
    """The OpenTelemetry tracer spans go to, or None when tracing is off (see the module)."""
    try:
        from opentelemetry import trace
    except ImportError:
        return None
    if provider is not None:
        return provider.get_tracer(TRACER_NAME)
    env = os.environ if env is None else env
    current = trace.get_tracer_provider()
    configured = not isinstance(current, trace.ProxyTracerProvider | trace.NoOpTracerProvider)
    if configured:
        return current.get_tracer(TRACER_NAME)
    if env.get(ENV, "").strip().lower() not in ("1", "true", "yes", "on"):
        return None
    return _console().get_tracer(TRACER_NAME)


def _console() -> Any:
    """A provider printing spans to stderr (``HOPGRAPH_OTEL=1`` with nothing else configured);
    the API's no-op one when the SDK is missing."""
    global _console_provider
    if _console_provider is None:
        try:
            import sys

            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SimpleSpanProcessor
        except ImportError:
            from opentelemetry import trace

            _console_provider = trace.NoOpTracerProvider()
        else:
            _console_provider = TracerProvider()
            _console_provider.add_span_processor(
                SimpleSpanProcessor(ConsoleSpanExporter(out=sys.stderr)))
    return _console_provider


@contextmanager
def _span(tracer: Any, name: str, attributes: dict[str, Any]) -> Iterator[Any]:
    from opentelemetry.trace import SpanKind, Status, StatusCode

    with tracer.start_as_current_span(name, kind=SpanKind.CLIENT, attributes=attributes,
                                      record_exception=True, set_status_on_exception=False) as s:
        try:
            yield s
        except BaseException as e:
            s.set_status(Status(StatusCode.ERROR, type(e).__name__))
            raise


class TracedNeo4jRunner(Neo4jRunner):
    """A :class:`~hopgraph.db.Neo4jRunner` with a ``hopgraph.cypher`` span around each call."""

    def __init__(self, *args: Any, tracer: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._tracer = tracer

    def read(self, key: str, **params: Any) -> list[dict[str, Any]]:
        return _cypher(self._tracer, self.database, key, "read",
                       lambda: super(TracedNeo4jRunner, self).read(key, **params))

    def write(self, key: str, **params: Any) -> list[dict[str, Any]]:
        return _cypher(self._tracer, self.database, key, "write",
                       lambda: super(TracedNeo4jRunner, self).write(key, **params))

    def write_transaction(self, steps: Sequence[tuple[str, Mapping[str, Any]]]
                          ) -> list[list[dict[str, Any]]]:
        keys = [k for k, _ in steps]
        with _span(self._tracer, "hopgraph.cypher", {
                "db.system.name": "neo4j", "db.namespace": self.database,
                "db.operation.name": "transaction", "hopgraph.cypher.steps": keys}):
            return super().write_transaction(steps)


class TracedRunner:
    """Any injected query runner with a ``hopgraph.cypher`` span around each call (other
    attributes pass through)."""

    def __init__(self, inner: Any, tracer: Any) -> None:
        self._inner = inner
        self._tracer = tracer

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def read(self, key: str, **params: Any) -> list[dict[str, Any]]:
        return _cypher(self._tracer, str(getattr(self._inner, "database", "")), key, "read",
                       lambda: self._inner.read(key, **params))

    def write(self, key: str, **params: Any) -> list[dict[str, Any]]:
        return _cypher(self._tracer, str(getattr(self._inner, "database", "")), key, "write",
                       lambda: self._inner.write(key, **params))


def _cypher(tracer: Any, database: str, key: str, mode: str,
            call: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    with _span(tracer, "hopgraph.cypher", {"db.system.name": "neo4j", "db.namespace": database,
                                           "db.operation.name": key,
                                           "hopgraph.cypher.mode": mode}) as s:
        rows = call()
        s.set_attribute("db.response.returned_rows", len(rows))
        return rows


class TracedEmbedder:
    """An embedder with a ``hopgraph.embed`` span around each call."""

    def __init__(self, inner: Any, tracer: Any) -> None:
        self.inner = inner
        self._tracer = tracer

    @property
    def name(self) -> str:
        return str(self.inner.name)

    @property
    def dimension(self) -> int:
        return int(self.inner.dimension)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def embed_query(self, text: str) -> Any:
        with _span(self._tracer, "hopgraph.embed", {"hopgraph.embedder": self.name,
                                                    "hopgraph.embed.kind": "query",
                                                    "hopgraph.embed.texts": 1}):
            return self.inner.embed_query(text)

    def embed_documents(self, texts: Sequence[str]) -> Any:
        with _span(self._tracer, "hopgraph.embed", {"hopgraph.embedder": self.name,
                                                    "hopgraph.embed.kind": "documents",
                                                    "hopgraph.embed.texts": len(texts)}):
            return self.inner.embed_documents(texts)


class TracedChat:
    """A chat model with a ``hopgraph.llm`` span around each completion."""

    def __init__(self, inner: Any, tracer: Any) -> None:
        self.inner = inner
        self._tracer = tracer

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def complete(self, messages: Sequence[Mapping[str, str]], **kwargs: Any) -> Any:
        model = str(getattr(self.inner, "model", "") or "")
        with _span(self._tracer, "hopgraph.llm", {
                "gen_ai.operation.name": "chat", "gen_ai.request.model": model,
                "hopgraph.llm.json_mode": bool(kwargs.get("json_mode", False))}) as s:
            result = self.inner.complete(messages, **kwargs)
            s.set_attribute("gen_ai.usage.input_tokens", int(result.prompt_tokens))
            s.set_attribute("gen_ai.usage.output_tokens", int(result.completion_tokens))
            return result

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()


__all__ = ["ENV", "TracedChat", "TracedEmbedder", "TracedNeo4jRunner", "TracedRunner",
           "tracer_for"]
