"""``hopgraph load legal`` on the real server (issue 18): exit status 0 / 3 / 1, one line for a
wrong path or an unsupported format, the schema ensured by the load."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from hopgraph.cli import cli
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR
from tests.integration.conftest import Server

pytestmark = pytest.mark.integration
GOOD = SAMPLES_DIR / "99-2010-ND-MAU-nghi-dinh-cu.txt"


def _load(server: Server, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--uri", server.uri, "load", "legal", "--no-embed", *args],
                              env={"NEO4J_PASSWORD": server.password})


def test_exit_status_says_whether_everything_loaded(
        runner: Neo4jRunner, neo4j_server: Server, tmp_path: Path) -> None:
    ok = _load(neo4j_server, str(GOOD))
    assert ok.exit_code == 0, ok.output
    assert "documents loaded: 1, skipped: 0" in ok.output

    shutil.copy(GOOD, tmp_path / "a-good.txt")
    (tmp_path / "b-scan.pdf").write_bytes(b"%PDF-1.7\n")
    partial = _load(neo4j_server, str(tmp_path))
    assert partial.exit_code == 3, partial.output
    assert "SKIPPED" in partial.output and "b-scan.pdf: not a readable PDF" in partial.output

    nothing = _load(neo4j_server, str(tmp_path / "b-scan.pdf"))
    assert nothing.exit_code == 1
    assert "b-scan.pdf: not a readable PDF" in nothing.output
    assert "no document was loaded" in nothing.output
    assert "graph " not in nothing.output and "Traceback" not in nothing.output


def test_a_wrong_path_is_one_line(runner: Neo4jRunner, neo4j_server: Server) -> None:
    result = _load(neo4j_server, "/no/such/dir/x.txt")
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: no such file or directory: /no/such/dir/x.txt"]


def test_a_load_installs_the_schema_it_needs(runner: Neo4jRunner, neo4j_server: Server) -> None:
    index = "legalunit_text_segmented_fulltext"
    runner.driver.execute_query(f"DROP INDEX {index} IF EXISTS", database_="neo4j")
    result = _load(neo4j_server, str(GOOD))
    assert result.exit_code == 0, result.output
    names = [r["name"] for r in runner.driver.execute_query(
        "SHOW INDEXES YIELD name RETURN name", database_="neo4j").records]
    assert index in names
    # and retrieval right after the load finds the text through it
    rows = runner.driver.execute_query(
        "CALL db.index.fulltext.queryNodes($i, 'Điều') YIELD node RETURN count(node) AS n",
        i=index, database_="neo4j").records
    assert rows[0]["n"] > 0
