"""CLI of legal retrieval: bad input is one clear line and exit 1, before any connection."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli


@pytest.mark.parametrize(("args", "message"), [
    (["retrieve", ""], "question is empty"),
    (["retrieve", "x" * 2100], "limit is 2000"),
    (["retrieve", "mức hưởng", "--as-of", "2020-13-01"], "not an ISO date"),
    (["retrieve", "mức hưởng", "--as-of", "hôm nay"], "not an ISO date"),
])
def test_retrieve_bad_input(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["--uri", "bolt://127.0.0.1:1", *args])
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output


def test_eval_retrieval_bad_question_file(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps([{"id": "1", "question": "x"}]), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--uri", "bolt://127.0.0.1:1", "eval", "retrieval", str(path)])
    assert result.exit_code == 1 and "question #0 is malformed" in result.output


def test_eval_retrieval_bad_question_date(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps([{"id": "1", "question": "x", "gold": ["g"],
                                 "as_of": "01/06/2019"}]), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--uri", "bolt://127.0.0.1:1", "eval", "retrieval", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{path}: question #0 is malformed: as_of must be a date YYYY-MM-DD" in result.output
