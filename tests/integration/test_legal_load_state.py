"""A legal load killed between its documents and its derive steps (issue 18): the graph records
that the load did not finish; ``hopgraph db repair`` derives now, and the next load derives
first. Either way the graph becomes the one a finished load gives."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli
from hopgraph.core.errors import DatabaseUnavailable
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal, load_state
from tests.integration.conftest import Server, clear_database

pytestmark = pytest.mark.integration

AMENDED = SAMPLES_DIR / "12-2016-ND-MAU-nghi-dinh-huong-dan.txt"


def _segment(text: str) -> str:
    return text


class _DiesBeforeDerive:
    """Delegates to a real runner; the server 'goes away' when the derive transaction starts
    (the load was killed after its documents)."""

    def __init__(self, inner: Neo4jRunner) -> None:
        self.inner = inner

    def read(self, key: str, **params: Any) -> list[dict[str, Any]]:
        return self.inner.read(key, **params)

    def write(self, key: str, **params: Any) -> list[dict[str, Any]]:
        return self.inner.write(key, **params)

    def write_transaction(self, steps: Sequence[tuple[str, Mapping[str, Any]]]
                          ) -> list[list[dict[str, Any]]]:
        if any(key == "legal/mark_load_finished" for key, _ in steps):
            raise DatabaseUnavailable("killed before the derive steps (test)")
        return self.inner.write_transaction(steps)


def _graph(runner: Neo4jRunner) -> tuple[Any, Any, int]:
    row = runner.read("legal/dump_graph")[0]
    terms = runner.driver.execute_query("MATCH (t:DefinedTerm) RETURN count(t) AS n",
                                        database_="neo4j").records[0]["n"]
    return row["nodes"], row["edges"], terms


def test_repair_and_the_next_load_derive_what_an_interrupted_load_left(
        runner: Neo4jRunner, neo4j_server: Server) -> None:
    finished = load_legal(runner, None, [SAMPLES_DIR], segmenter=_segment)
    assert finished.aborted is None and finished.repaired is None
    state = load_state(runner)
    assert not state.unfinished and state.finished_at is not None
    assert state.documents == len(finished.documents)
    expected = _graph(runner)
    assert expected[2] > 0  # the samples define terms: derived state to lose

    clear_database(runner.driver)
    killed = load_legal(_DiesBeforeDerive(runner), None, [SAMPLES_DIR], segmenter=_segment)
    assert killed.aborted is not None and "before validity was derived" in killed.aborted
    assert load_state(runner).unfinished
    interrupted = _graph(runner)
    assert interrupted != expected and interrupted[2] == 0

    # hopgraph db repair: one line saying what it found and did
    result = CliRunner().invoke(cli, ["--uri", neo4j_server.uri, "db", "repair"],
                                env={"NEO4J_PASSWORD": neo4j_server.password})
    assert result.exit_code == 0, result.output
    assert len(result.output.strip().splitlines()) == 1
    assert result.output.startswith("the last legal load did not finish (started ")
    assert f"to write {len(finished.documents)} documents, never finished)" in result.output
    assert "the load is marked finished" in result.output
    assert _graph(runner) == expected
    assert not load_state(runner).unfinished
    again = CliRunner().invoke(cli, ["--uri", neo4j_server.uri, "db", "repair"],
                               env={"NEO4J_PASSWORD": neo4j_server.password})
    assert again.output.startswith("the last legal load had finished (started ")
    assert _graph(runner) == expected

    # the next load after an interrupted one derives before it writes
    clear_database(runner.driver)
    load_legal(_DiesBeforeDerive(runner), None, [SAMPLES_DIR], segmenter=_segment)
    assert load_state(runner).unfinished
    seen: list[str] = []

    class _Watch(_DiesBeforeDerive):
        def write_transaction(self, steps: Sequence[tuple[str, Mapping[str, Any]]]
                              ) -> list[list[dict[str, Any]]]:
            seen.append(steps[0][0])
            return self.inner.write_transaction(steps)

    nxt = load_legal(_Watch(runner), None, [AMENDED], segmenter=_segment)
    assert nxt.repaired is not None and "did not finish" in nxt.repaired
    assert "REPAIRED first: the previous load (started " in nxt.summary()
    assert seen[0] == "legal/rehome_title_placeholders"  # the derive ran before any document
    assert _graph(runner) == expected  # the reloaded document replaces itself
    assert not load_state(runner).unfinished
