"""Bulk import of PrimeKG (neo4j-admin database import) on a second real local server: it builds
the same graph as the transactional loader, and never replaces data it was not told to."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli
from hopgraph.core.errors import IngestError
from hopgraph.db import LocalInstance, Neo4jRunner, connect, free_port
from hopgraph.loaders.biomed import SAMPLE_TRIPLETS, bulk_import_primekg, load_primekg

from .conftest import Server

pytestmark = [pytest.mark.integration, pytest.mark.slow]  # starts its own Neo4j server

GRAPH = """
MATCH (a:BioEntity)-[r]->(b:BioEntity)
RETURN a.id AS head, type(r) AS type, b.id AS tail, r.relation AS relation,
       r.display_relation AS display, r.origin AS origin
"""
NODES = """
MATCH (n:BioEntity)
RETURN n.id AS id, n.name AS name, n.node_type AS type, n.search_text AS search_text,
       [l IN labels(n) WHERE l <> 'BioEntity'] AS labels, coalesce(n.aliases, []) AS aliases
"""


def _snapshot(driver: object, query: str) -> list[tuple[object, ...]]:
    records = driver.execute_query(query, database_="neo4j").records  # type: ignore[attr-defined]
    return sorted(tuple(sorted(v) if isinstance(v, list) else v for v in r.values())
                  for r in records)


@pytest.fixture(scope="module")
def second(neo4j_server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalInstance]:
    if neo4j_server.instance is None:
        pytest.skip("bulk import needs the local runtime (NEO4J_URI or Docker is in use)")
    inst = LocalInstance(root=tmp_path_factory.mktemp("bulk") / "instance",
                         cache_root=neo4j_server.instance.cache_root, bolt_port=free_port(),
                         http_port=free_port(), heap="512m", pagecache="256m")
    inst.start()
    try:
        yield inst
    finally:
        inst.stop()


def test_bulk_import_builds_the_transactional_loaders_graph(
        second: LocalInstance, runner: Neo4jRunner, schema_installed: Server) -> None:
    progress: list[int] = []
    report = bulk_import_primekg(second, SAMPLE_TRIPLETS, dimension=384, progress=progress.append)
    assert second.running_pid() is not None
    assert report.rows_read > 0 and report.duplicate_rows > 0  # the sample repeats edges
    assert sum(progress) == report.rows_read  # the CLI's progress bar reaches the rows read
    load_primekg(runner, SAMPLE_TRIPLETS)
    driver = connect(second.uri, "neo4j", second.password())
    try:
        bulk_edges = _snapshot(driver, GRAPH)
        assert bulk_edges == _snapshot(schema_installed.driver, GRAPH)
        assert _snapshot(driver, NODES) == _snapshot(schema_installed.driver, NODES)
        assert report.nodes == len(_snapshot(driver, NODES)) and report.edges == len(bulk_edges)
        # The schema came after the import: the full-text index answers entity linking.
        hits = driver.execute_query(
            "CALL db.index.fulltext.queryNodes('bioentity_search_text_fulltext', 'imatinib') "
            "YIELD node RETURN node.name AS name", database_="neo4j").records
        assert "Imatinib" in [h["name"] for h in hits]
    finally:
        driver.close()


def test_bulk_import_refuses_a_non_empty_database_unless_told(second: LocalInstance,
                                                             tmp_path: Path) -> None:
    driver = connect(second.uri, "neo4j", second.password())
    try:
        driver.execute_query("MERGE (:Keep {id: 'mine'})", database_="neo4j")
    finally:
        driver.close()
    with pytest.raises(IngestError, match=r"holds \d+ nodes.*--replace"):
        bulk_import_primekg(second, SAMPLE_TRIPLETS, dimension=384)
    assert second.running_pid() is not None
    bad = tmp_path / "bad.tsv"
    bad.write_text("Imatinib\tNOT_A_RELATION\tABL1\nImatinib\tTARGET\tABL1\n", encoding="utf-8")
    report = bulk_import_primekg(second, bad, dimension=384, replace=True)
    assert report.problems_by_reason and report.edges == 1
    driver = connect(second.uri, "neo4j", second.password())
    try:
        kept = driver.execute_query("MATCH (k:Keep) RETURN count(k) AS n", database_="neo4j")
        assert kept.records[0]["n"] == 0  # replaced, as asked
    finally:
        driver.close()


def test_cli_refuses_bulk_import_on_an_external_server(neo4j_server: Server) -> None:
    result = CliRunner().invoke(cli, ["--uri", neo4j_server.uri, "load", "primekg", "--sample",
                                      "--bulk-import"],
                                env={"NEO4J_PASSWORD": neo4j_server.password})
    assert result.exit_code != 0 and "cannot reach a server given by NEO4J_URI" in result.output
