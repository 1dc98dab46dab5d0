"""``tests.benchmarks._common.local_neo4j``, the benchmarks' own server (issue 28), on the real
runtime: started on free ports with the schema installed, and gone with its folder afterwards,
also when the benchmark's body fails."""

from __future__ import annotations

import pytest

from hopgraph.db._runtime import port_is_free
from tests.benchmarks._common import local_neo4j

from .conftest import Server

pytestmark = [pytest.mark.integration, pytest.mark.slow]  # starts its own Neo4j server


def test_a_benchmark_server_has_the_schema_and_leaves_nothing_behind(
        neo4j_server: Server) -> None:
    if neo4j_server.instance is None:
        pytest.skip("needs the local runtime (NEO4J_URI or Docker is in use)")
    cache_root = neo4j_server.instance.cache_root
    with pytest.raises(RuntimeError, match="the benchmark failed"), local_neo4j(
            "hopgraph-test-bench-", dimension=384, cache_root=cache_root, heap="256m",
            pagecache="64m") as server:
        root, port = server.instance.root, server.instance.bolt_port
        assert server.instance.bolt_port != neo4j_server.instance.bolt_port
        indexes = {r["name"] for r in server.driver.execute_query(
            "SHOW INDEXES YIELD name", database_="neo4j").records}
        assert {"legalunit_embedding_vector", "sentence_text_fulltext"} <= indexes
        assert server.runner.read("legal/count_graph") is not None
        raise RuntimeError("the benchmark failed")
    assert not root.exists()
    assert port_is_free(port)
