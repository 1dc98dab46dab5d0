"""CLI of legal retrieval: bad input is one clear line and exit 1, before any connection."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli


@pytest.mark.parametrize(("args", "message"), [
    (["retrieve", ""], "Error: question: để trống"),
    (["retrieve", "x" * 2100], "Error: question: dài 2100 ký tự; giới hạn là 2000 ký tự"),
    (["retrieve", "mức hưởng", "--as-of", "2020-13-01"],
     "Error: --as-of: '2020-13-01' không phải là ngày hợp lệ (dạng YYYY-MM-DD hoặc dd/mm/yyyy)"),
    (["retrieve", "mức hưởng", "--as-of", "hôm nay"],
     "Error: --as-of: 'hôm nay' không phải là ngày hợp lệ"),
    # every legal command reads a date the same way, before loading a model or connecting
    (["ask", "mức hưởng", "--no-llm", "--as-of", "2024-13-01"],
     "Error: --as-of: '2024-13-01' không phải là ngày hợp lệ (dạng YYYY-MM-DD hoặc dd/mm/yyyy)"),
    (["trace", "12/2016/NĐ-MAU:D3.K2", "--as-of", "31/02/2024"],
     "Error: --as-of: '31/02/2024' không phải là ngày hợp lệ"),
    (["consolidate", "12/2016/NĐ-MAU", "--diff", "2024-01-01", "2019-01-01"],
     "Error: --diff: ngày FROM phải trước ngày TO (nhận được 2024-01-01 và 2019-01-01)"),
    (["consolidate", "12/2016/NĐ-MAU", "--diff", "2019-01-01", "sau"],
     "Error: --diff: 'sau' không phải là ngày hợp lệ"),
])
def test_retrieve_bad_input(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["--uri", "bolt://127.0.0.1:1", *args])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [result.output.strip()]  # one line
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
