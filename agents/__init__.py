"""Agents and the model adapters they receive: embedders and chat models.

The ports (``Embedder``, ``ChatModel``, ``ChatResult``, ``parse_json_reply``, ``ask_schema`` …) live
in :mod:`hopgraph.ports`, below every area; they are re-exported here so that existing imports keep
working.
"""

from hopgraph.agents._embedders import (
    CachedEmbedder,
    E5Embedder,
    SentenceTransformerEmbedder,
    build_embedder,
)
from hopgraph.agents._endpoint_embedder import EndpointEmbedder
from hopgraph.agents._llm import OpenAIChatModel, chat_model_from
from hopgraph.agents._llm_server import (
    DEFAULT_ALIAS,
    DEFAULT_CTX,
    DEFAULT_HOST,
    DEFAULT_PORT,
    DEFAULT_THREADS,
    LocalLLMServer,
    bundled_model_path,
    serve_forever,
)
from hopgraph.ports import (
    ChatModel,
    ChatResult,
    Embedder,
    SchemaReply,
    Usage,
    Vector,
    ask_schema,
    parse_json_reply,
)

__all__ = [
    "DEFAULT_ALIAS", "DEFAULT_CTX", "DEFAULT_HOST", "DEFAULT_PORT", "DEFAULT_THREADS",
    "CachedEmbedder", "ChatModel", "ChatResult", "E5Embedder", "Embedder", "EndpointEmbedder",
    "LocalLLMServer", "OpenAIChatModel", "SchemaReply", "SentenceTransformerEmbedder", "Usage",
    "Vector", "ask_schema", "build_embedder", "bundled_model_path", "chat_model_from",
    "parse_json_reply", "serve_forever",
]
