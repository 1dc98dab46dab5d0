"""Agents and the model adapters they receive: embedders and chat models."""

from hopgraph.agents._embedders import (
    CachedEmbedder,
    E5Embedder,
    Embedder,
    SentenceTransformerEmbedder,
    build_embedder,
)
from hopgraph.agents._llm import ChatModel, ChatResult, OpenAIChatModel, parse_json_reply

__all__ = [
    "CachedEmbedder", "ChatModel", "ChatResult", "E5Embedder", "Embedder", "OpenAIChatModel",
    "SentenceTransformerEmbedder", "build_embedder", "parse_json_reply",
]
