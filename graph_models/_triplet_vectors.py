"""The stored form of a biomedical edge's triplet embedding, shared by the writer and the reader.

The loader's embedding pass (``hopgraph load primekg --embed-triplets``) stores on each edge the
embedding of its verbalised triplet (:func:`triplet_text`) as ``embedding`` (:func:`encode_vector`:
base64 text of float32 little-endian values) with ``embedding_key``
(:func:`triplet_embedding_key`: model, dimension and a fingerprint of the verbalisation);
retrieval's weighted MMR reads a stored vector back (:func:`decode_vector`) only when its key is
the embedder's. Both sides import this module, so the loaders need nothing of retrieval.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from hopgraph.core.errors import RetrievalError
from hopgraph.core.ports import Embedder
from hopgraph.graph_models._biomed_relations import RELATION_SPECS
from hopgraph.graph_models._vocab import BioRel

# Bump when triplet_text changes shape: stored vectors of the old text then stop matching.
VERBALISATION_VERSION = 1
VECTOR_DTYPE = np.dtype("<f4")
# Stored as base64 text, not a byte array: the driver's Record.data() rebuilds a byte array one
# element at a time (~3 ms per 1,536-byte vector), which made the region query 11x slower.
VECTOR_FORMAT = "float32-le-base64"


def triplet_text(head: str, relation: str, tail: str) -> str:
    """Verbalise a triplet with the relation description map: ``"<head> <text of rel> <tail>"``.

    The one verbalisation MMR embeds, at query time and in the loader's embedding pass.
    """
    spec = RELATION_SPECS.get(BioRel(relation)) if relation in BioRel.__members__ else None
    verb = spec.text if spec is not None else relation.lower().replace("_", " ")
    return f"{head} {verb} {tail}"


def _verbalisation_fingerprint() -> str:
    parts = [f"v{VERBALISATION_VERSION}", VECTOR_FORMAT, *sorted(f"{r.value}\t{s.text}" for r, s in RELATION_SPECS.items())]
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:12]


VERBALISATION_FINGERPRINT = _verbalisation_fingerprint()


def triplet_embedding_key(embedder: Embedder) -> str:
    """What a stored triplet vector must have been made with to stand in for ``embedder``'s.

    ``"<model name>|<dimension>|<verbalisation fingerprint>"``: another model, dimension or
    relation text (or :data:`VERBALISATION_VERSION`) gives another key, and the stale vectors
    are ignored (and re-made by the next embedding pass).
    """
    return f"{embedder.name}|{embedder.dimension}|{VERBALISATION_FINGERPRINT}"


def encode_vector(vector: Sequence[float]) -> str:
    """A vector in its stored form: base64 of float32 little-endian values (4 bytes each).

    Embedders return float32 values, so the round trip through :func:`decode_vector` is exact.
    """
    return base64.b64encode(np.asarray(vector, dtype=VECTOR_DTYPE).tobytes()).decode("ascii")


def decode_vector(stored: str, dimension: int, *, what: str = "vector"
                  ) -> np.ndarray[Any, Any]:
    """The float32 vector stored by :func:`encode_vector`.

    Raises:
        RetrievalError: ``stored`` is not base64 text of exactly ``dimension`` float32 values.
    """
    if not isinstance(stored, str):
        raise RetrievalError(f"{what}: stored embedding is {type(stored).__name__}, not base64 text")
    try:
        raw = base64.b64decode(stored, validate=True)
    except (binascii.Error, ValueError) as e:
        raise RetrievalError(f"{what}: stored embedding is not base64 ({e})") from e
    if len(raw) != dimension * VECTOR_DTYPE.itemsize:
        raise RetrievalError(f"{what}: stored embedding has {len(raw)} bytes, expected "
                             f"{dimension * VECTOR_DTYPE.itemsize} ({dimension} float32 values)")
    return np.frombuffer(raw, dtype=VECTOR_DTYPE)
