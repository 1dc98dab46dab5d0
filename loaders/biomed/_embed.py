"""The triplet-embedding pass: precomputed MMR vectors stored on the biomedical edges.

Opt-in (``hopgraph load primekg … --embed-triplets``, ``load_primekg(…, triplet_embedder=…)``,
``bulk_import_primekg(…, triplet_embedder=…)``). The pass walks head entities in id order, one
page at a time, lists their outgoing edges that carry no vector for the embedder's key
(:func:`~hopgraph.graph_models.triplet_embedding_key`), embeds the verbalised triplets with
the same :func:`~hopgraph.graph_models.triplet_text` that MMR uses (names read back from the
graph, as the region query returns them), and stores each vector as base64 text of its float32
values (``r.embedding``, 4/3 × 4 bytes per dimension: 2,048 bytes for all-MiniLM-L6-v2) with its key
(``r.embedding_key``). Edges already holding a vector for the key are skipped, so the pass is
idempotent and a later pass only embeds what is new.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hopgraph.core.errors import EmbeddingError, IngestError
from hopgraph.core.ports import Embedder
from hopgraph.db import QueryRunner
from hopgraph.graph_models import encode_vector, triplet_embedding_key, triplet_text

DEFAULT_NODE_PAGE = 2_000
DEFAULT_EMBED_CHUNK = 2_048


@dataclass
class EmbedReport:
    """What one embedding pass did, with the time spent in the model and in the database."""

    key: str
    triplets: int = 0
    pages: int = 0
    read_s: float = 0.0
    embed_s: float = 0.0
    write_s: float = 0.0
    seconds: float = 0.0

    @property
    def triplets_per_s(self) -> float:
        """Triplets embedded and stored per second over the whole pass."""
        return self.triplets / self.seconds if self.seconds else 0.0

    def summary(self) -> str:
        """One line for the CLI."""
        return (f"  triplet embeddings ({self.key}): {self.triplets} edges in {self.seconds:.1f}s "
                f"({self.triplets_per_s:.0f}/s; model {self.embed_s:.1f}s, reads "
                f"{self.read_s:.1f}s, writes {self.write_s:.1f}s)")


def embed_triplets(runner: QueryRunner, embedder: Embedder, *,
                   node_page: int = DEFAULT_NODE_PAGE, chunk: int = DEFAULT_EMBED_CHUNK,
                   progress: Callable[[int], None] | None = None) -> EmbedReport:
    """Store the embedding of every biomedical edge's verbalised triplet that lacks one.

    Args:
        runner: query runner over the biomedical graph.
        embedder: the embedder MMR will use (all-MiniLM-L6-v2 by default); its name and
            dimension go into the stored key.
        node_page: head entities listed per read.
        chunk: triplets per embedder call and per write.
        progress: called with the number of triplets stored after each write.

    Raises:
        IngestError: ``node_page`` or ``chunk`` is not positive.
        EmbeddingError: the embedder returned vectors of the wrong number or size.
    """
    if node_page < 1 or chunk < 1:
        raise IngestError(f"node_page and chunk must be positive, got {node_page} and {chunk}")
    started = time.perf_counter()
    key = triplet_embedding_key(embedder)
    report = EmbedReport(key=key)
    after = ""
    while True:
        t = time.perf_counter()
        rows = runner.read("biomed/list_triplets_to_embed", after=after, node_limit=node_page,
                           embedding_key=key)
        report.read_s += time.perf_counter() - t
        if not rows:
            break
        report.pages += 1
        after = str(rows[-1]["head_id"])  # the server's order, so its string comparison holds
        todo = [r for r in rows if r["edge_id"] is not None]
        for start in range(0, len(todo), chunk):
            _embed_chunk(runner, embedder, key, todo[start:start + chunk], report)
            if progress is not None:
                progress(len(todo[start:start + chunk]))
    report.seconds = time.perf_counter() - started
    return report


def _embed_chunk(runner: QueryRunner, embedder: Embedder, key: str, rows: list[dict[str, Any]],
                 report: EmbedReport) -> None:
    texts = [triplet_text(r["head"], r["relation"], r["tail"]) for r in rows]
    t = time.perf_counter()
    vectors = embedder.embed_documents(texts)
    report.embed_s += time.perf_counter() - t
    if len(vectors) != len(texts):
        raise EmbeddingError(f"embedder {embedder.name!r} returned {len(vectors)} vectors for "
                             f"{len(texts)} triplets")
    bad = next((v for v in vectors if len(v) != embedder.dimension), None)
    if bad is not None:
        raise EmbeddingError(f"embedder {embedder.name!r} returned a vector of {len(bad)} "
                             f"values, expected {embedder.dimension}")
    t = time.perf_counter()
    runner.write("biomed/set_triplet_embeddings", embedding_key=key,
                 rows=[{"edge_id": r["edge_id"], "embedding": encode_vector(v)}
                       for r, v in zip(rows, vectors, strict=True)])
    report.write_s += time.perf_counter() - t
    report.triplets += len(rows)
