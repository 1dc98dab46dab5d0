"""``hopgraph eval temporal`` on the real server with a hand-written pair folder
(``tests/integration/temporal_pairs``: a decree and the decree amending it on 01/07/2021 — a
clause rewritten, a phrase substituted, Điều 3a inserted, a clause repealed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli
from hopgraph.db import Neo4jRunner
from tests.integration.conftest import Server

pytestmark = pytest.mark.integration
PAIRS = Path(__file__).parent / "temporal_pairs"


def _eval(server: Server, *args: str) -> dict:
    result = CliRunner().invoke(
        cli, ["--uri", server.uri, "eval", "temporal", "--pairs", str(PAIRS), "--json", *args],
        env={"NEO4J_PASSWORD": server.password, "HOPGRAPH_EMBED_THREADS": "1"})
    assert result.exit_code == 0, result.output
    return json.loads(result.output.strip().splitlines()[-1])


def test_temporal_eval_on_a_hand_written_pair(runner: Neo4jRunner, neo4j_server: Server) -> None:
    data = _eval(neo4j_server)
    # 4 changes x (before, on, after) = 12 questions, generated from the files
    assert data["n"] == 12 and data["gold"]["timelines"] == 4
    assert data["gold"]["changes_by_kind"] == {"amended": 1, "replaced": 1, "inserted": 1,
                                               "repealed": 1}
    assert data["gold"]["loaded"]["documents"] == 2
    # 9 questions have a wording in force (the inserted unit before, the repealed one on and
    # after its day have none); 8 are on or after a change, 4 before one.
    assert data["denominators"]["top5"] == 9
    assert data["denominators"]["stale_rate"] == 8
    assert data["denominators"]["premature_rate"] == 4
    for key in ("top1", "top5", "stale_rate", "premature_rate"):
        assert 0.0 <= data[key] <= 1.0
        assert 0.0 <= data["baseline"][key] <= 1.0
    # hopgraph serves the wording of the day; the plain baseline (no dates) serves both
    # wordings of a changed clause whatever the date.
    assert data["top5"] >= 0.8, data["questions"]
    assert data["stale_rate"] == 0.0 and data["premature_rate"] == 0.0
    assert data["baseline"]["stale_rate"] + data["baseline"]["premature_rate"] > 0.0
    assert data["ask"]["n"] == 12
    lo, hi = data["ci95"]["top5"]
    assert lo <= data["top5"] <= hi
    rows = {q["id"]: q for q in data["questions"]}
    on = next(q for q in rows.values() if q["id"].startswith("t0.c1.on"))
    assert on["as_of"] == "2021-07-01" and on["expected"] == 1


def test_a_folder_without_pairs_is_one_line(runner: Neo4jRunner, neo4j_server: Server,
                                            tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["--uri", neo4j_server.uri, "eval", "temporal", "--pairs", str(tmp_path)],
        env={"NEO4J_PASSWORD": neo4j_server.password})
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: {tmp_path}: no pairs.json (expected the vn-amend-dev layout)"]
