"""Expected failures of the CLI print one clear line and exit non-zero, with no traceback."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from hopgraph.cli import cli
from hopgraph.db import free_port


def test_status_without_a_server_says_how_to_start_one(tmp_path: Path) -> None:
    port = free_port()
    result = CliRunner().invoke(
        cli, ["db", "status"],
        env={"NEO4J_URI": f"bolt://127.0.0.1:{port}", "NEO4J_PASSWORD": "x",
             "HOPGRAPH_HOME": str(tmp_path)},
    )
    assert result.exit_code == 1
    assert "no Neo4j server answers" in result.output
    assert "hopgraph db start" in result.output
    assert "Traceback" not in result.output


def test_start_refuses_when_uri_points_elsewhere(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["db", "start"],
        env={"NEO4J_URI": "bolt://example.invalid:7687", "HOPGRAPH_HOME": str(tmp_path)},
    )
    assert result.exit_code == 1
    assert "NEO4J_URI is set" in result.output


def test_stop_with_nothing_started_stops_nothing(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["db", "stop"], env={"HOPGRAPH_HOME": str(tmp_path),
                                                         "NEO4J_URI": ""})
    assert result.exit_code == 0
    assert "no Neo4j started by hopgraph is running" in result.output


def test_bad_setting_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["db", "stop"], env={"HOPGRAPH_BATCH_SIZE": "many",
                                                         "HOPGRAPH_HOME": str(tmp_path)})
    assert result.exit_code == 1
    assert "HOPGRAPH_BATCH_SIZE must be a number" in result.output


def test_eval_bio_match_is_checked_before_any_server(tmp_path: Path) -> None:
    mcq = tmp_path / "ddx.jsonl"
    mcq.write_text('{"question": "Which gene is linked to gout?", "options": {"A": "X", "B": "Y"}, '
                   '"answer": "A"}\n', encoding="utf-8")
    env = {"NEO4J_URI": f"bolt://127.0.0.1:{free_port()}", "NEO4J_PASSWORD": "x",
           "HOPGRAPH_HOME": str(tmp_path)}
    bad = CliRunner().invoke(cli, ["eval", "bio", "--data", str(mcq), "--match", "("], env=env)
    assert bad.exit_code == 2 and "--match" in bad.output and "regular expression" in bad.output
    none = CliRunner().invoke(cli, ["eval", "bio", "--data", str(mcq), "--match", "diagnos"],
                              env=env)
    assert none.exit_code == 2 and "no question of" in none.output
    assert "Traceback" not in bad.output + none.output
