"""Question loading and the evaluation loop (fakes; no database)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hopgraph.agents.biomed import EntityLinker, Regram
from hopgraph.core.errors import HopgraphError
from hopgraph.eval.biomed import (
    ABLATIONS,
    MemoLinker,
    evaluate,
    load_mcq,
    load_mcq_file,
    load_questions,
    paired_bootstrap,
)
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


def test_any_mcq_file_json_or_jsonl(tmp_path: Path) -> None:
    items = [{"question": "Which protein does Warfarin target?", "options": {"A": "VKORC1", "B": "insulin"},
              "answer": "A"},
             {"question": "Which drug treats atrial fibrillation?", "options": {"A": "Insulin", "B": "Warfarin"},
              "answer": "B", "id": "q-af"},
             {"question": "broken", "options": {"A": "x"}, "answer": "C"}]
    as_json = tmp_path / "ddx.json"
    as_json.write_text(json.dumps(items))
    as_jsonl = tmp_path / "ddx.jsonl"
    as_jsonl.write_text("\n".join(json.dumps(i) for i in items) + "\n")
    for path in (as_json, as_jsonl):
        qs = load_mcq_file(path)
        assert [(q.dataset, q.qid, q.answer) for q in qs] == [("ddx", "0", "A"), ("ddx", "q-af", "B")]
    assert len(load_mcq(as_json, per_dataset=1, seed=3)) == 1 and len(load_mcq(as_json, per_dataset=None)) == 2
    assert len(load_mcq(_data(tmp_path), per_dataset=1)) == 2  # a directory: per set
    levels = tmp_path / "levels.jsonl"  # a per-item "dataset" (a level) names the item's set
    levels.write_text("\n".join(json.dumps({**i, "dataset": ds}) for i, ds in
                                zip(items[:2], ["ddx_basic", ""], strict=True)) + "\n")
    assert [q.dataset for q in load_mcq_file(levels)] == ["ddx_basic", "levels"]
    lists = tmp_path / "lists.json"  # options as a list; answer as text or lower-case letter
    lists.write_text(json.dumps([
        {"question": "Which gene does Imatinib target?", "options": ["EGFR", "ABL1", "BRAF"],
         "answer": "ABL1"},
        {"question": "Which drug treats gout?", "options": {"A": "Allopurinol", "B": "Insulin"},
         "answer": "a"},
        {"question": "Which?", "options": ["x", "x"], "answer": "x"}]))
    got = load_mcq_file(lists)
    assert [(q.options.get("B"), q.answer) for q in got] == [("ABL1", "B"), ("Insulin", "A")]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "q"}\nnot json\n')
    with pytest.raises(HopgraphError, match=r"bad\.jsonl line 2"):
        load_mcq_file(bad)
    (tmp_path / "none.json").write_text("[]")
    with pytest.raises(HopgraphError, match="no usable MCQ item"):
        load_mcq_file(tmp_path / "none.json")


def test_report_has_coverage_majority_letter_and_paired_intervals(tmp_path: Path) -> None:
    qs = load_questions(_data(tmp_path), per_dataset=2, seed=1)
    report = evaluate(Regram(_runner(), BagEmbedder(), MemoLinker(EntityLinker(_runner()))), qs,
                      configs={k: ABLATIONS[k] for k in ("regram", "baseline_vector_top15")})
    full = report["configs"]["regram"]
    assert full["questions"] == 3 and full["coverage"] == full["answered"] / 3
    assert report["comparisons"]["majority_letter"] == {"letter": "A", "accuracy": 1.0}
    cmp = report["comparisons"]["regram"]["vs_baseline_vector_top15"]
    assert cmp["low"] <= cmp["diff"] <= cmp["high"]
    assert paired_bootstrap([True] * 10, [False] * 10) == {"diff": 1.0, "low": 1.0, "high": 1.0}
