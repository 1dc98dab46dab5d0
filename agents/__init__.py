"""Agents: the legal, biomedical and sentence-graph reasoners.

They receive an embedder and a chat model (the ports of :mod:`hopgraph.core.ports`, re-exported here so
that existing imports keep working) and never build one: the adapters that do live in
:mod:`hopgraph.models`.
"""

from hopgraph.core.ports import (
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
    "ChatModel", "ChatResult", "Embedder", "SchemaReply", "Usage", "Vector", "ask_schema",
    "parse_json_reply",
]
