"""First load of a large PrimeKG file through ``neo4j-admin database import`` (offline bulk import).

The transactional loader (:func:`~hopgraph.loaders.biomed.load_primekg`) MERGEs every row and is
the right tool for adding to a graph. For the first load of a full-size ``kg.csv`` (≈8M rows) into
an empty database, the bulk importer writes the store files directly: the rows go through the
same readers (typing, allow-list, orientation, problems counted), edges are de-duplicated across
the whole file (PrimeKG lists most edges in both directions), nodes and edges are written as
import CSVs, the server is stopped, the importer replaces the ``neo4j`` database, the server is
started again, and the schema (constraints, full-text and vector indexes) and the relation
description map are installed over Cypher. The result is the same graph the transactional loader
builds from the same file.

Only the local runtime can do this (the importer needs the server's files); the database must be
empty unless replacing it is asked for. The import CSVs carry no triplet embeddings; with a
``triplet_embedder`` the same embedding pass as the transactional loader's
(:func:`~hopgraph.loaders.biomed._embed.embed_triplets`) runs over Cypher once the server is back.
"""

from __future__ import annotations

import csv
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from hopgraph.core.errors import IngestError
from hopgraph.core.ports import Embedder
from hopgraph.db import LocalInstance, Neo4jRunner, connect, install_schema
from hopgraph.graph_models import BioRel
from hopgraph.loaders.biomed._embed import EmbedReport, embed_triplets
from hopgraph.loaders.biomed._readers import EdgeRow, ReadStats, RowProblem, read_alias_table
from hopgraph.loaders.biomed._writer import SAMPLE_ALIASES, BioLoader, LoadReport, read_edges

# Unit separator between array elements (aliases) and between labels: never inside a name.
ARRAY_DELIMITER = "\x1f"
NODE_HEADER = ["id:ID(BioEntity)", "name", "node_type", "source", "source_id", "aliases:string[]",
               "search_text", ":LABEL"]
EDGE_HEADER = [":START_ID(BioEntity)", ":END_ID(BioEntity)", ":TYPE", "relation",
               "display_relation", "origin"]
_REL_INDEX = {rel: i for i, rel in enumerate(BioRel)}
MAX_ENTITIES = 1 << 28


@dataclass
class ImportFiles:
    """The CSV files written for the importer, and how many input rows repeated an edge."""

    nodes: Path
    edges: Path
    duplicate_rows: int


@dataclass
class BulkReport:
    """What a bulk import did, with the time of each phase."""

    source: str
    rows_read: int = 0
    nodes: int = 0
    edges: int = 0
    duplicate_rows: int = 0
    problems_by_reason: dict[str, int] = field(default_factory=dict)
    problem_examples: list[RowProblem] = field(default_factory=list)
    aliases_applied: int = 0
    prepare_s: float = 0.0
    stop_s: float = 0.0
    import_s: float = 0.0
    start_s: float = 0.0
    schema_s: float = 0.0
    seconds: float = 0.0
    importer_summary: str = ""
    triplet_embeddings: EmbedReport | None = None

    @property
    def rows_per_s(self) -> float:
        """Input rows per second over the whole operation."""
        return self.rows_read / self.seconds if self.seconds else 0.0

    def summary(self) -> str:
        """A few lines for the CLI."""
        lines = [
            f"{self.source}: {self.rows_read} rows in {self.seconds:.1f}s "
            f"({self.rows_per_s:.0f} rows/s) by bulk import",
            f"  entities {self.nodes}; edges {self.edges} ({self.duplicate_rows} rows were the "
            "reverse or a repeat of an edge already written)",
            f"  phases: read + write CSV {self.prepare_s:.1f}s, stop {self.stop_s:.1f}s, import "
            f"{self.import_s:.1f}s, start {self.start_s:.1f}s, schema + indexes {self.schema_s:.1f}s",
            f"  skipped {sum(self.problems_by_reason.values())} rows: "
            f"{self.problems_by_reason or 'none'}",
        ]
        lines += [f"    line {p.line}: {p.reason}" for p in self.problem_examples[:5]]
        if self.triplet_embeddings is not None:
            lines.append(self.triplet_embeddings.summary())
        return "\n".join(lines)


def write_import_files(edges: Iterable[EdgeRow], out_dir: Path,
                       aliases: Mapping[str, list[str]]) -> ImportFiles:
    """Write the importer's node and edge CSVs, one row per entity and per distinct edge.

    An edge is (head id, relation type, tail id) in its stored direction; repeats anywhere in the
    input are counted, not written. Entities keep the first name and source seen for their id.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    nodes_path, edges_path = out_dir / "bio_nodes.csv", out_dir / "bio_edges.csv"
    index: dict[str, int] = {}
    seen_edges: set[int] = set()
    duplicates = 0
    with nodes_path.open("w", newline="", encoding="utf-8") as nf, \
            edges_path.open("w", newline="", encoding="utf-8") as ef:
        nodes_out, edges_out = csv.writer(nf), csv.writer(ef)
        nodes_out.writerow(NODE_HEADER)
        edges_out.writerow(EDGE_HEADER)
        for edge in edges:
            ends = []
            for node in (edge.head, edge.tail):
                i = index.get(node.id)
                if i is None:
                    if len(index) >= MAX_ENTITIES:
                        raise IngestError(f"more than {MAX_ENTITIES} entities: beyond the bulk "
                                          "importer's edge key")
                    i = index[node.id] = len(index)
                    names = list(dict.fromkeys(aliases.get(node.name, [])))
                    nodes_out.writerow([
                        node.id, node.name, node.type.value, node.source, node.source_id,
                        ARRAY_DELIMITER.join(names), " | ".join([node.name, *names]),
                        f"BioEntity{ARRAY_DELIMITER}{node.type.value}"])
                ends.append(i)
            # Exact key: entity indexes < MAX_ENTITIES (2^28), relation index < 2^8.
            key = (ends[0] << 36) | (_REL_INDEX[edge.rel] << 28) | ends[1]
            if key in seen_edges:
                duplicates += 1
                continue
            seen_edges.add(key)
            edges_out.writerow([edge.head.id, edge.tail.id, edge.rel.value, edge.relation,
                                edge.display_relation, edge.origin])
    return ImportFiles(nodes_path, edges_path, duplicates)


PROGRESS_ROWS = 10_000  # rows between two progress calls of bulk_import_primekg


def _counted(edges: Iterable[EdgeRow], stats: ReadStats,
             progress: Callable[[int], None] | None) -> Iterator[EdgeRow]:
    """``edges`` as they come, reporting the rows read (``stats.rows``: skipped ones too)."""
    told = 0
    for edge in edges:
        if progress is not None and stats.rows - told >= PROGRESS_ROWS:
            progress(stats.rows - told)
            told = stats.rows
        yield edge
    if progress is not None and stats.rows > told:
        progress(stats.rows - told)


def bulk_import_primekg(instance: LocalInstance, path: Path, *, dimension: int,
                        alias_path: Path | None = None, replace: bool = False,
                        work_dir: Path | None = None,
                        triplet_embedder: Embedder | None = None,
                        progress: Callable[[int], None] | None = None) -> BulkReport:
    """Load ``path`` (``kg.csv`` or a triplet TSV) into the local instance's empty database.

    Args:
        instance: the local runtime instance (started if it is not running; left running).
        path: the input file.
        dimension: vector dimension for the schema's vector indexes.
        alias_path: alias table ``name<TAB>alias…``; the bundled sample table otherwise.
        replace: replace a non-empty database (everything in it is lost).
        work_dir: where the import CSVs go (default: the instance's ``import`` folder); they
            are deleted afterwards.
        triplet_embedder: opt-in: after the import, store this embedder's vector of every
            edge's verbalised triplet (the transactional loader's embedding pass, over Cypher).
        progress: called with the number of input rows read (good or skipped) since its last
            call, every :data:`PROGRESS_ROWS` rows and once at the end of the file, while the
            rows are read and written for the importer (the longest phase).

    Raises:
        IngestError: unreadable input, or a non-empty database without ``replace``.
        RuntimeSetupError: the server could not be stopped or started, or the importer failed.
    """
    started = time.perf_counter()
    report = BulkReport(source=str(path))
    if instance.running_pid() is None:
        instance.start()
    driver = connect(instance.uri, "neo4j", instance.password())
    try:
        runner = Neo4jRunner(driver, database="neo4j", timeout_s=600.0)
        nodes_now = int(runner.read("admin/count_all_nodes")[0]["nodes"])
    finally:
        driver.close()
    if nodes_now and not replace:
        raise IngestError(
            f"bulk import replaces the whole database, which holds {nodes_now} nodes; load into "
            "an empty database, pass --replace to discard them, or load without --bulk-import")
    table, alias_problems = read_alias_table(alias_path or SAMPLE_ALIASES)
    stats = ReadStats()
    for p in alias_problems:
        stats.add(p)
    out = work_dir or instance.root / "import" / "primekg-bulk"
    try:
        files = write_import_files(_counted(read_edges(path, stats), stats, progress), out, table)
        report.prepare_s = time.perf_counter() - started
        t = time.perf_counter()
        instance.stop()
        report.stop_s = time.perf_counter() - t
        t = time.perf_counter()
        report.importer_summary = instance.bulk_import(
            [files.nodes], [files.edges], array_delimiter=ARRAY_DELIMITER)
        report.import_s = time.perf_counter() - t
    finally:
        for f in (out / "bio_nodes.csv", out / "bio_edges.csv"):
            f.unlink(missing_ok=True)
        if instance.running_pid() is None:
            t = time.perf_counter()
            instance.start()
            report.start_s = time.perf_counter() - t
    t = time.perf_counter()
    driver = connect(instance.uri, "neo4j", instance.password())
    try:
        install_schema(driver, "neo4j", dimension=dimension, wait_s=1800)
        runner = Neo4jRunner(driver, database="neo4j", timeout_s=600.0)
        loader = BioLoader(runner)
        loader.write_relation_descriptions()
        tally = LoadReport(source=report.source)
        loader.apply_aliases(table, tally)  # idempotent: counts the entities carrying the names
        report.aliases_applied = tally.aliases_applied
        report.nodes, report.edges = loader.counts()
        report.schema_s = time.perf_counter() - t
        if triplet_embedder is not None:
            report.triplet_embeddings = embed_triplets(runner, triplet_embedder)
    finally:
        driver.close()
    report.rows_read = stats.rows
    report.duplicate_rows = files.duplicate_rows
    report.problems_by_reason = dict(stats.problems_by_reason)
    report.problem_examples = list(stats.examples)
    report.seconds = time.perf_counter() - started
    return report
