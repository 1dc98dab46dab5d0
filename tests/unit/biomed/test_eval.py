"""Question loading and the evaluation loop (fakes; no database)."""

from __future__ import annotations

import json
from pathlib import Path

from hopgraph.agents.biomed import EntityLinker, Regram
from hopgraph.agents.biomed._eval import ABLATIONS, MemoLinker, evaluate, load_questions
from tests.unit.biomed._fakes import BagEmbedder
from tests.unit.biomed.test_reasoning import _runner


def _data(tmp_path: Path) -> Path:
    (tmp_path / "benchmark.json").write_text(json.dumps({"medqa": {
        str(i): {"question": f"Which protein does Warfarin target? ({i})",
                 "options": {"A": "VKORC1", "B": "insulin"}, "answer": "A"} for i in range(5)}}))
    (tmp_path / "AfrimedQA_mcq_expert.json").write_text(json.dumps({"mcq_expert": {"0": {
        "query": "Which drug treats atrial fibrillation?\n A:  Warfarin\n B:  Insulin\n C:  n/a\n",
        "answer": "A"}}}))
    return tmp_path


def test_load_questions_samples_and_parses_afrimed(tmp_path: Path) -> None:
    qs = load_questions(_data(tmp_path), per_dataset=3, seed=1)
    assert [q.dataset for q in qs] == ["medqa"] * 3 + ["afrimedqa"]
    afr = qs[-1]
    assert afr.options == {"A": "Warfarin", "B": "Insulin"} and afr.question.endswith("fibrillation?")
    assert load_questions(_data(tmp_path), per_dataset=3, seed=1) == qs  # seeded


def test_evaluate_reports_every_config(tmp_path: Path) -> None:
    qs = load_questions(_data(tmp_path), per_dataset=2, seed=1)
    linker = MemoLinker(EntityLinker(_runner()))
    report = evaluate(Regram(_runner(), BagEmbedder(), linker), qs)
    assert set(report["configs"]) == set(ABLATIONS)
    full = report["configs"]["regram"]
    assert full["answered"] == 3 and full["gold_in_graph"] == 3
    assert full["gold_entity_coverage"] == 1.0 and full["accuracy"] == 1.0
    assert report["configs"]["no_multihop"]["modes_per_hop"]


def test_evaluate_hands_each_finished_question_to_on_item(tmp_path: Path) -> None:
    qs = load_questions(_data(tmp_path), per_dataset=2, seed=1)
    seen: list[dict[str, object]] = []
    report = evaluate(Regram(_runner(), BagEmbedder(), MemoLinker(EntityLinker(_runner()))), qs,
                      configs={"regram": ABLATIONS["regram"]}, on_item=seen.append)
    assert [r["qid"] for r in seen] == [q.qid for q in qs]
    assert seen == report["items"]
    first = seen[0]["regram"]
    assert isinstance(first, dict) and first["correct"] is True
    assert first["seconds"] >= 0 and first["choice_source"] == "kg-paths"
