"""Every question command and ``load legal`` answer hostile input with one ``Error:`` line and
a non-zero exit, before any server or model is touched (issue 18): no Python traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli

QUESTION_COMMANDS = [["retrieve"], ["ask", "--no-llm"], ["ask-bio"], ["ask-sentences"]]
HOSTILE_QUESTIONS = {
    "invalid UTF-8 byte": "li\udcffều",
    "lone surrogate": "a\ud800b",
    "NUL": "a\x00b",
    "empty": "   ",
    "punctuation only": "?!… ---",
    "100 KB": "x" * 100_000,
}


@pytest.mark.parametrize("command", QUESTION_COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("kind", list(HOSTILE_QUESTIONS))
def test_a_hostile_question_is_one_line(command: list[str], kind: str, tmp_path: Path) -> None:
    # an address nothing listens on: a check that passed would fail to connect, not hang
    result = CliRunner().invoke(
        cli, ["--uri", "bolt://127.0.0.1:9", *command, HOSTILE_QUESTIONS[kind]],
        env={"HOPGRAPH_HOME": str(tmp_path), "NEO4J_PASSWORD": "x"})
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: question"), result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("paths", [["/no/such/file.txt"], ["/no/a", "/no/b"]])
def test_load_legal_with_wrong_paths_is_one_line(paths: list[str], tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--uri", "bolt://127.0.0.1:9", "load", "legal", *paths],
                                env={"HOPGRAPH_HOME": str(tmp_path), "NEO4J_PASSWORD": "x"})
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: no such file or directory: " + ", ".join(paths)]
