"""``hopgraph demo`` end to end on the real server: the README's first command, minus the start."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli
from hopgraph.cli._demo import EXAMPLE_CYPHER
from hopgraph.db import Neo4jRunner
from tests.integration.conftest import Server

pytestmark = pytest.mark.integration
EXAMPLES = Path(__file__).resolve().parents[2] / "docker" / "browser" / "example-queries.cypher"


def _statements(text: str) -> list[str]:
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return [s.strip() for s in body.split(";") if s.strip()]


def test_demo_loads_all_three_samples_and_answers_from_the_graph(
        runner: Neo4jRunner, neo4j_server: Server) -> None:
    result = CliRunner().invoke(cli, ["--uri", neo4j_server.uri, "demo", "--no-llm"],
                                env={"NEO4J_PASSWORD": neo4j_server.password,
                                     "HOPGRAPH_LLM_BASE_URL": ""})
    out = result.output
    assert result.exit_code == 0, out
    assert f"dùng máy chủ bên ngoài tại {neo4j_server.uri}" in out

    counts = {r["label"]: r["count"] for r in runner.read("admin/count_nodes")}
    assert counts["Document"] >= 11 and counts["Clause"] > 0 and counts["UnitVersion"] > 0
    assert counts["Drug"] > 0 and counts["Disease"] > 0
    assert counts["Topic"] > 0 and counts["Core"] > 0

    # Legal: as of 2024-06-01 the clause's wording in force is the one enacted by 40/2023; in
    # 2019 the one enacted by 20/2018 (the first evidence line is the applicable wording).
    q01 = out[out.index("câu hỏi mẫu q01"):out.index("câu hỏi mẫu q02")]
    assert "70%" in q01 and "40/2023/NĐ-MAU (mẫu hư cấu)) (đang áp dụng" in q01
    assert "Loại câu trả lời: trích xuất nguyên văn" in q01
    q02 = out[out.index("câu hỏi mẫu q02"):out.index("câu hỏi mẫu q03")]
    assert "20/2018/NĐ-MAU (mẫu hư cấu)) (đang áp dụng" in q02 and "60%" in q02
    # q03 asks whether the pending 55/2030 applies: answered from the graph's validity
    q03 = out[out.index("câu hỏi mẫu q03"):out.index("y sinh:")]
    assert ("Tình trạng Nghị định số 55/2030/NĐ-MAU (mẫu hư cấu) tại ngày 01/01/2027: chưa có "
            "hiệu lực, từ 01/07/2031.") in q03
    # the legal part speaks Vietnamese: no English frame line, every sample marked
    legal = out[:out.index("y sinh:")]
    # every evidence line shown is followed by its wording (a cut answer ends between items)
    lines = legal.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("   | - "):
            assert lines[i + 1].startswith('   |   "'), (line, lines[i + 1])
    for english in ("retrieval_only", "route", "expected:", "fictional sample", "Q: "):
        assert english not in legal, english
    # Biomed: the two-hop question is answered from the sample graph, not guessed.
    biomed = out[out.index("y sinh: câu hỏi"):out.index("câu: dựng")]
    assert "Imatinib" in biomed.split("Trả lời:")[-1]
    # Sentences: path expansion crosses the bridge to the passage that holds the answer.
    sentences = out[out.index("câu: câu hỏi"):out.index("đáp án mong đợi: Marylebone")]
    assert "BRIDGE" in sentences and "He died in Marylebone" in sentences
    assert "MATCH p =" in out
    # Every query the demo prints finds something in what it loaded.
    for title, query in EXAMPLE_CYPHER:
        rows = runner.driver.execute_query(query, database_="neo4j").records
        assert rows, title
    # The Browser example file: every statement runs and finds something too (the samples leave
    # no Placeholder behind: every unit they reference is loaded).
    statements = _statements(EXAMPLES.read_text(encoding="utf-8"))
    assert len(statements) >= 8
    for statement in statements:
        rows = runner.driver.execute_query(statement, database_="neo4j").records
        assert rows or "Placeholder" in statement, statement


def test_demo_is_repeatable(runner: Neo4jRunner, neo4j_server: Server) -> None:
    args = ["--uri", neo4j_server.uri, "demo", "--no-llm", "--only", "legal"]
    env = {"NEO4J_PASSWORD": neo4j_server.password, "HOPGRAPH_LLM_BASE_URL": ""}
    first = CliRunner().invoke(cli, args, env=env)
    assert first.exit_code == 0, first.output
    before = {r["label"]: r["count"] for r in runner.read("admin/count_nodes")}
    second = CliRunner().invoke(cli, args, env=env)
    assert second.exit_code == 0, second.output
    after = {r["label"]: r["count"] for r in runner.read("admin/count_nodes")}
    assert after == before and "Drug" not in after
