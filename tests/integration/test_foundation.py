"""The foundation against a real server: registry compiles, schema is idempotent, GDS works."""

from __future__ import annotations

from datetime import date

import pytest

from hopgraph.core.errors import DatabaseError
from hopgraph.cypher import load_registry
from hopgraph.db import Neo4jRunner, ReadTransaction, describe_schema, install_schema, server_status
from hopgraph.graph_models import schema_items

from .conftest import TEST_DATABASE, Server

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("key", sorted(load_registry()))
def test_every_cypher_file_compiles_with_explain(runner: Neo4jRunner, key: str) -> None:
    if load_registry()[key].mode == "schema":
        pytest.skip("schema statements cannot be EXPLAINed")
    runner.explain(key)


def test_server_is_526_community_with_apoc_and_gds(neo4j_server: Server) -> None:
    info = server_status(neo4j_server.driver, TEST_DATABASE)
    assert info["version"].startswith("5.26.")
    assert info["edition"] == "community"
    assert info["apoc"] and info["apoc"].startswith("5.26")
    assert info["gds"] and info["gds"].startswith("2.")


def test_schema_install_twice_changes_nothing(schema_installed: Server) -> None:
    driver = schema_installed.driver
    first = describe_schema(driver, TEST_DATABASE)
    created = install_schema(driver, TEST_DATABASE, dimension=384)
    second = describe_schema(driver, TEST_DATABASE)
    assert created == []
    assert first == second
    names = {row["name"] for row in second}
    assert {item.name for item in schema_items()} <= names
    assert all(row["state"] == "ONLINE" for row in second)


def test_vector_index_uses_configured_dimension(schema_installed: Server) -> None:
    rows = describe_schema(schema_installed.driver, TEST_DATABASE)
    vector = [r for r in rows if r["type"] == "VECTOR"]
    assert vector
    for row in vector:
        assert row["options"]["indexConfig"]["vector.dimensions"] == 384


def test_runner_counts_what_it_wrote(runner: Neo4jRunner) -> None:
    runner.driver.execute_query("CREATE (:Probe), (:Probe)", database_=TEST_DATABASE)
    counts = {r["label"]: r["count"] for r in runner.read("admin/count_nodes")}
    assert counts == {"Probe": 2}


def test_read_transaction_runs_reads_in_one_transaction_and_names_a_failing_query(
        runner: Neo4jRunner) -> None:
    runner.driver.execute_query("CREATE (:Probe)", database_=TEST_DATABASE)

    def two_reads(tx: ReadTransaction) -> tuple[list[dict], list[dict]]:
        return tx.read("admin/count_nodes"), tx.read("admin/count_nodes")

    first, second = runner.read_transaction(two_reads)
    assert first == second == [{"label": "Probe", "count": 1}]

    def bad_lucene(tx: ReadTransaction) -> list[dict]:
        tx.read("admin/count_nodes")
        return tx.read("legal/retrieve_context", vector=[0.1] * 384, query="AND (",
                       use_sparse=True, candidates=5, dense_pool=5, sparse_pool=5,
                       has_filter=False, doc_ids=[], doc_types=[], issuers=[],
                       as_of=date(2024, 1, 1), fusion="linear", lam=0.5, rrf_k=60,
                       to_article=False, k=5, q_fold="and (", doc_numbers=[], q_years=[""], articles=[],
                       unit_paths=[""], w_unit=0.0, quotes=[""], quote_query="",
                       quote_pool=5, quoted_max=5, w_quote=0.0,
                       q_grams=["and"], w_doc=0.15, w_article=0.3, w_heading=0.3,
                       q_body=[""], w_body=1.5,
                       q_subject="", p_grams=[], w_definition=0.0, definition_floor=0.5,
                       max_depth=6, max_refs=3)

    with pytest.raises(DatabaseError, match="legal/retrieve_context"):
        runner.read_transaction(bad_lucene)


def test_gds_python_client_runs_pagerank(neo4j_server: Server, runner: Neo4jRunner) -> None:
    from graphdatascience import GraphDataScience

    runner.driver.execute_query(
        "CREATE (a:Page {n: 'a'})-[:LINKS]->(b:Page {n: 'b'})-[:LINKS]->(c:Page {n: 'c'}), "
        "(a)-[:LINKS]->(c)",
        database_=TEST_DATABASE,
    )
    gds = GraphDataScience(neo4j_server.uri, auth=(neo4j_server.user, neo4j_server.password),
                           database=TEST_DATABASE)
    try:
        projected = gds.graph.project.native("pr_test", "Page", "LINKS", log_progress=False)
        scores = gds.page_rank.stream(projected.graph)
        gds.graph.drop(projected.graph)
    finally:
        gds.close()
    assert len(scores) == 3
    top = scores.sort_values("score", ascending=False).iloc[0]["nodeId"]
    name = runner.driver.execute_query(
        "MATCH (p:Page) WHERE id(p) = $id RETURN p.n AS n", id=int(top), database_=TEST_DATABASE
    ).records[0]["n"]
    assert name == "c"
