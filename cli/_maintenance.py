"""Operator work on a loaded graph: empty it, take out one legal document, take out the samples.

``hopgraph db clear | remove-document | remove-samples`` run these functions.

- :func:`clear_graph` deletes every node and relationship in batches (the schema stays).
- :func:`remove_legal_document` takes a loaded legal Document out with ``legal/clear_document``
  and then runs the loader's derive steps, in one transaction: the graph is then the graph a load
  without that document gives (a unit another document still amends or cites stays as a
  ``Placeholder``; validity is derived again from the events left).
- :func:`remove_samples` removes what the shipped samples wrote: the fictional legal documents
  (ids ending in ``-MAU``), the sample sentence corpus (passage ids starting with ``sample-``) and
  the edges of the sample triplet file between entities read by name (PrimeKG entities, which
  carry their real source, are never touched).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from hopgraph.core.errors import HopgraphError
from hopgraph.core.questions import InputError, resolve_document_id
from hopgraph.core.samples import is_sample_document
from hopgraph.db import QueryRunner

SAMPLE_PASSAGE_PREFIX = "sample-"
DELETE_BATCH = 10_000


class UnknownDocumentError(HopgraphError):
    """The graph holds no loaded document with that id."""


def graph_size(runner: QueryRunner) -> tuple[int, int]:
    """``(nodes, relationships)`` in the whole database."""
    row = runner.read("admin/count_everything")[0]
    return int(row["nodes"]), int(row["relationships"])


def clear_graph(runner: QueryRunner, *, batch: int = DELETE_BATCH) -> tuple[int, int]:
    """Delete every node and relationship (constraints and indexes stay); returns what was
    there, ``(nodes, relationships)``."""
    before = graph_size(runner)
    while True:
        rows = runner.write("admin/delete_batch", batch=batch)
        if not rows or int(rows[0]["deleted"]) == 0:
            break
    return before


def legal_document_ids(runner: QueryRunner) -> list[str]:
    """Ids of the loaded legal documents."""
    return [str(r["id"]) for r in runner.read("legal/list_document_ids")]


def resolve_legal_document(runner: QueryRunner, doc_id: str,
                           loaded: Collection[str] | None = None) -> str:
    """The loaded document ``doc_id`` names, read as a user types it (the shared
    :func:`hopgraph.core.questions.resolve_document_id`: ``ND`` → ``NĐ``, case, spaces).

    Raises:
        UnknownDocumentError: no such document, with the closest loaded ids
            (``có phải ý bạn là …?``).
    """
    ids = set(legal_document_ids(runner)) if loaded is None else loaded
    try:
        return resolve_document_id(doc_id, ids)
    except InputError as e:
        raise UnknownDocumentError(str(e)) from e


def remove_legal_documents(runner: QueryRunner, doc_ids: list[str]) -> dict[str, int]:
    """Take loaded documents out whole (one transaction each) and derive validity again (in
    the last one). Each id is read as :func:`resolve_legal_document` reads it.

    Returns the totals of ``legal/clear_document``: ``edges`` removed, nodes ``removed`` and
    nodes ``demoted`` to Placeholders (another document's edge still touches them).

    Raises:
        UnknownDocumentError: an id is not a loaded document (nothing is removed then).
    """
    from hopgraph.loaders.legal import derive_steps

    loaded = set(legal_document_ids(runner))
    doc_ids = [resolve_legal_document(runner, d, loaded) for d in doc_ids]
    if not doc_ids:
        return {"edges": 0, "removed": 0, "demoted": 0}
    derive = derive_steps(None)  # the whole graph
    totals = {"edges": 0, "removed": 0, "demoted": 0}
    for i, doc_id in enumerate(doc_ids):
        # one document per transaction, as the loader writes them; the last one carries the
        # derive steps, so that a single removal is all-or-nothing
        last = i == len(doc_ids) - 1
        results = runner.write_transaction(
            [("legal/clear_document", {"doc_id": doc_id}), *(derive if last else [])])
        for row in results[0]:
            for key in totals:
                totals[key] += int(row[key] or 0)
    return totals


def remove_legal_document(runner: QueryRunner, doc_id: str) -> dict[str, int]:
    """:func:`remove_legal_documents` for one document."""
    return remove_legal_documents(runner, [doc_id])


@dataclass
class SampleRemoval:
    """What :func:`remove_samples` removed."""

    legal_documents: list[str] = field(default_factory=list)
    legal: dict[str, int] = field(default_factory=dict)
    passages: int = 0
    sentence_nodes: int = 0
    bio_edges: int = 0
    bio_entities: int = 0

    def summary(self) -> str:
        """One line."""
        legal = self.legal or {"removed": 0, "demoted": 0}
        return (f"removed the shipped samples: {len(self.legal_documents)} fictional legal "
                f"documents (-MAU; {legal['removed']} nodes, {legal['demoted']} kept as "
                f"placeholders), {self.passages} sample passages ({self.sentence_nodes} "
                f"sentence-graph nodes), {self.bio_edges} sample triplet edges and "
                f"{self.bio_entities} entities read by name")


def remove_samples(runner: QueryRunner) -> SampleRemoval:
    """Remove what the shipped samples wrote (see the module docstring)."""
    from hopgraph.loaders.biomed import SAMPLE_TRIPLETS, ReadStats, read_edges
    from hopgraph.loaders.sentences import (
        DEFAULT_MAX_BRIDGES,
        DEFAULT_MAX_DF,
        DEFAULT_TITLE_WEIGHT,
    )

    out = SampleRemoval()
    out.legal_documents = [d for d in legal_document_ids(runner) if is_sample_document(d)]
    out.legal = remove_legal_documents(runner, out.legal_documents)
    rows = runner.write("sentence/remove_passages", prefix=SAMPLE_PASSAGE_PREFIX)
    if rows:
        out.passages, out.sentence_nodes = int(rows[0]["passages"]), int(rows[0]["nodes"])
    if out.passages:
        runner.write("sentence/rebuild_bridges", max_df=DEFAULT_MAX_DF,
                     max_bridges=DEFAULT_MAX_BRIDGES, title_weight=DEFAULT_TITLE_WEIGHT)
    triplets = [{"head": e.head.id, "tail": e.tail.id, "type": e.rel.value}
                for e in read_edges(SAMPLE_TRIPLETS, ReadStats())]
    rows = runner.write("biomed/remove_name_triplets", rows=triplets)
    if rows:
        out.bio_edges, out.bio_entities = int(rows[0]["edges"]), int(rows[0]["entities"])
    return out
