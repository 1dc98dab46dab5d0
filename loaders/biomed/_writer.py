"""Batched, idempotent writes of biomedical entities and typed edges.

Entities are MERGEd on ``BioEntity.id`` before the edges that need them; edges are grouped by
relation type (one query shape per batch, the type validated against ``BioRel``) and MERGEd in
their stored direction, so loading a file twice, or a file listing each edge in both directions,
leaves one edge per (head, relation, tail).
"""

from __future__ import annotations

import dataclasses
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hopgraph.core.errors import IngestError
from hopgraph.core.ports import Embedder
from hopgraph.db import QueryRunner
from hopgraph.graph_models import RELATION_SPECS, BioRel
from hopgraph.loaders.biomed._embed import EmbedReport, embed_triplets
from hopgraph.loaders.biomed._readers import (
    EdgeRow,
    NodeRow,
    ReadStats,
    RowProblem,
    read_alias_table,
    read_kg_csv,
    read_triplet_tsv,
)

DEFAULT_BATCH_SIZE = 10_000
SAMPLES = Path(__file__).parent / "samples"
SAMPLE_TRIPLETS = SAMPLES / "sample_triplets.tsv"
SAMPLE_ALIASES = SAMPLES / "sample_aliases.tsv"


@dataclass
class LoadReport:
    """What one load did: rows read, written, skipped (by reason), timings."""

    source: str
    rows_read: int = 0
    edge_rows_written: int = 0
    nodes_before: int = 0
    nodes_after: int = 0
    edges_before: int = 0
    edges_after: int = 0
    problems_by_reason: dict[str, int] = field(default_factory=dict)
    unknown_relations: dict[str, int] = field(default_factory=dict)
    problem_examples: list[RowProblem] = field(default_factory=list)
    aliases_applied: int = 0
    aliases_unmatched: list[str] = field(default_factory=list)
    triplet_embeddings: EmbedReport | None = None
    seconds: float = 0.0

    @property
    def rows_skipped(self) -> int:
        return sum(self.problems_by_reason.values())

    @property
    def empty(self) -> bool:
        """The input held no data row at all (an empty file, or only blank and # lines)."""
        return self.rows_read == 0

    def skip_lines(self) -> list[str]:
        """One line per skipped row kept as an example (``<file>:<line>: <reason>``), a line for
        the rest, and one for an empty input: what the CLI prints for the skips."""
        lines = [f"{p.source or self.source}:{p.line}: {p.reason}" for p in self.problem_examples]
        rest = self.rows_skipped - len(self.problem_examples)
        if rest > 0:
            lines.append(f"{self.source}: and {rest} more rows skipped ({self.problems_by_reason})")
        if self.empty:
            lines.append(f"{self.source}: no rows (empty file)")
        return lines

    @property
    def edges_created(self) -> int:
        return self.edges_after - self.edges_before

    @property
    def duplicate_rows(self) -> int:
        """Edge rows that merged into an existing edge (reverse direction or repeated load)."""
        return self.edge_rows_written - self.edges_created

    @property
    def rows_per_s(self) -> float:
        return self.rows_read / self.seconds if self.seconds else 0.0

    def summary(self) -> str:
        """A few lines for the CLI."""
        lines = [
            f"{self.source}: {self.rows_read} rows in {self.seconds:.1f}s ({self.rows_per_s:.0f} rows/s)",
            f"  entities {self.nodes_before} -> {self.nodes_after}; edges {self.edges_before} -> "
            f"{self.edges_after} ({self.edges_created} new, {self.duplicate_rows} rows merged "
            "into existing edges)",
            f"  skipped {self.rows_skipped} rows: {self.problems_by_reason or 'none'}",
        ]
        if self.unknown_relations:
            lines.append(f"  unknown relations: {self.unknown_relations}")
        if self.empty:
            lines.append("  the input has no rows (empty file)")
        for p in self.problem_examples[:5]:
            where = f"{p.source} line" if p.source else "line"
            lines.append(f"    {where} {p.line}: {p.reason}")
        if self.aliases_applied or self.aliases_unmatched:
            lines.append(f"  aliases applied to {self.aliases_applied} entities; "
                         f"{len(self.aliases_unmatched)} alias names not in the graph")
        if self.triplet_embeddings is not None:
            lines.append(self.triplet_embeddings.summary())
        return "\n".join(lines)


def _node_params(node: NodeRow, aliases: Mapping[str, list[str]]) -> dict[str, Any]:
    return {"id": node.id, "name": node.name, "label": node.type.value,
            "node_type": node.type.value, "source": node.source, "source_id": node.source_id,
            "aliases": list(aliases.get(node.name, []))}


class BioLoader:
    """Writes edge rows (and their entities) through a :class:`QueryRunner` in batches."""

    def __init__(self, runner: QueryRunner, *, batch_size: int = DEFAULT_BATCH_SIZE,
                 progress: Callable[[int], None] | None = None) -> None:
        if batch_size < 1:
            raise IngestError(f"batch size must be positive, got {batch_size}")
        self._runner = runner
        self._batch = batch_size
        self._progress = progress

    def write_relation_descriptions(self) -> None:
        """Store the relation description map (one node per relation type)."""
        rows = [{"id": s.rel.value, "text": s.text, "family": s.family,
                 "head_type": s.head.value, "tail_type": s.tail.value}
                for s in RELATION_SPECS.values()]
        self._runner.write("biomed/upsert_relation_descriptions", rows=rows)

    def write_edges(self, edges: Iterable[EdgeRow], report: LoadReport,
                    aliases: Mapping[str, list[str]] | None = None) -> None:
        """Upsert the entities of ``edges`` then the edges, ``batch_size`` rows per query."""
        aliases = aliases or {}
        seen: set[str] = set()
        pending_nodes: list[dict[str, Any]] = []
        by_rel: dict[BioRel, list[dict[str, Any]]] = defaultdict(list)
        window: set[tuple[str, BioRel, str]] = set()  # exact dedupe inside one batch window
        buffered = 0

        def flush() -> None:
            nonlocal buffered
            for start in range(0, len(pending_nodes), self._batch):
                self._runner.write("biomed/upsert_entities", rows=pending_nodes[start:start + self._batch])
            pending_nodes.clear()
            for rel, rows in by_rel.items():
                if rel not in RELATION_SPECS:  # guard: only allow-listed types reach Cypher
                    raise IngestError(f"relation {rel!r} is not in the BioRel allow-list")
                for start in range(0, len(rows), self._batch):
                    self._runner.write("biomed/upsert_relations", rel_type=BioRel(rel).value,
                                       rows=rows[start:start + self._batch])
            if self._progress is not None:
                self._progress(buffered)
            by_rel.clear()
            window.clear()
            buffered = 0

        for edge in edges:
            for node in (edge.head, edge.tail):
                if node.id not in seen:
                    seen.add(node.id)
                    pending_nodes.append(_node_params(node, aliases))
            buffered += 1
            report.edge_rows_written += 1
            key = (edge.head.id, edge.rel, edge.tail.id)
            if key in window:  # the reverse row of an edge just read: MERGE would keep one anyway
                continue
            window.add(key)
            by_rel[edge.rel].append({"head": edge.head.id, "tail": edge.tail.id,
                                     "relation": edge.relation,
                                     "display_relation": edge.display_relation,
                                     "origin": edge.origin})
            if buffered >= self._batch:
                flush()
        flush()

    def apply_aliases(self, table: Mapping[str, list[str]], report: LoadReport) -> None:
        """Add synonyms to entities already in the graph, by exact name."""
        rows = [{"name": n, "aliases": a} for n, a in table.items()]
        for start in range(0, len(rows), self._batch):
            for rec in self._runner.write("biomed/add_aliases", rows=rows[start:start + self._batch]):
                if rec["matched"]:
                    report.aliases_applied += int(rec["matched"])
                else:
                    report.aliases_unmatched.append(str(rec["name"]))

    def counts(self) -> tuple[int, int]:
        rec = self._runner.read("biomed/count_graph")[0]
        return int(rec["nodes"]), int(rec["edges"])


def read_edges(path: Path, stats: ReadStats) -> Iterable[EdgeRow]:
    """Edges of a PrimeKG ``kg.csv`` or a names-only triplet TSV, chosen by the first line.

    Raises:
        IngestError: no such file, or a file in neither format.
    """
    if not path.is_file():
        raise IngestError(f"{path}: no such file")
    with path.open(encoding="utf-8", errors="replace") as fh:
        first = next((line for line in fh if line.strip() and not line.startswith("#")), "")
    if first.startswith("relation,") or ",x_id," in first:
        return read_kg_csv(path, stats)
    if "\t" in first or not first.strip():
        return read_triplet_tsv(path, stats)
    raise IngestError(f"{path}: neither a PrimeKG kg.csv (header 'relation,…') nor a "
                      "head<TAB>RELATION<TAB>tail file")


def load_primekg(runner: QueryRunner, path: Path, *, alias_path: Path | None = None,
                 batch_size: int = DEFAULT_BATCH_SIZE,
                 progress: Callable[[int], None] | None = None,
                 triplet_embedder: Embedder | None = None,
                 embed_progress: Callable[[int], None] | None = None) -> LoadReport:
    """Load a PrimeKG ``kg.csv`` or a names-only triplet TSV (chosen by content) into the graph.

    Args:
        runner: where to write (schema must be installed).
        path: ``kg.csv`` (comma-separated with PrimeKG header) or ``head<TAB>REL<TAB>tail``.
        alias_path: optional alias table ``name<TAB>alias…``; the bundled sample table otherwise.
        batch_size: rows per UNWIND query.
        progress: called with the number of edge rows written in each flushed batch.
        triplet_embedder: opt-in: after loading, store this embedder's vector of every edge's
            verbalised triplet that has none yet (:func:`embed_triplets`), so MMR does not embed
            candidates at query time. Costs ~2.5 KB per edge on disk with all-MiniLM-L6-v2
            (2,048 bytes of base64 vector plus the key string and store records).
        embed_progress: called with the number of triplets stored after each embedding write.

    Raises:
        IngestError: unreadable input or a file in neither format.
        EmbeddingError: the triplet embedder failed.
    """
    if not path.is_file():
        raise IngestError(f"{path}: no such file")
    started = time.perf_counter()
    report = LoadReport(source=str(path))
    loader = BioLoader(runner, batch_size=batch_size, progress=progress)
    report.nodes_before, report.edges_before = loader.counts()
    alias_source = alias_path or SAMPLE_ALIASES
    table, alias_problems = read_alias_table(alias_source)
    stats = ReadStats()
    for p in alias_problems:
        stats.add(dataclasses.replace(p, source=str(alias_source)))
    loader.write_relation_descriptions()
    loader.write_edges(read_edges(path, stats), report, table)
    loader.apply_aliases(table, report)
    if triplet_embedder is not None:
        report.triplet_embeddings = embed_triplets(runner, triplet_embedder,
                                                   progress=embed_progress)
    report.rows_read = stats.rows
    report.problems_by_reason = dict(stats.problems_by_reason)
    report.unknown_relations = dict(stats.unknown_relations)
    report.problem_examples = list(stats.examples)
    report.nodes_after, report.edges_after = loader.counts()
    report.seconds = time.perf_counter() - started
    return report
