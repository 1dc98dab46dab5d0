"""Agents and the model adapters they receive: embedders and chat models."""

from hopgraph.agents._embedders import (
    CachedEmbedder,
    E5Embedder,
    Embedder,
    SentenceTransformerEmbedder,
    build_embedder,
)
from hopgraph.agents._endpoint_embedder import EndpointEmbedder
from hopgraph.agents._llm import (
    ChatModel,
    ChatResult,
    OpenAIChatModel,
    SchemaReply,
    Usage,
    ask_schema,
    parse_json_reply,
)
from hopgraph.agents._llm_server import LocalLLMServer, bundled_model_path

__all__ = [
    "CachedEmbedder", "ChatModel", "ChatResult", "E5Embedder", "Embedder", "EndpointEmbedder",
    "LocalLLMServer",
    "OpenAIChatModel", "SchemaReply", "SentenceTransformerEmbedder", "Usage", "ask_schema",
    "build_embedder", "bundled_model_path", "parse_json_reply",
]
