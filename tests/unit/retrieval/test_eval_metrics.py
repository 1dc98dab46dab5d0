"""Retrieval metrics and query preparation (no database)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from hopgraph.core.errors import RetrievalError
from hopgraph.loaders.legal import SAMPLES_DIR
from hopgraph.retrieval._eval import (
    evaluate,
    hit_at_k,
    load_questions,
    mrr_at_k,
    ndcg_at_k,
    percentile,
    project_ranking,
    recall_at_k,
)
from hopgraph.retrieval._legal_query import escape_term, lucene_query, parse_as_of, parse_filters


def test_metrics_on_a_known_ranking() -> None:
    ranked = ["a", "b", "c", "d"]
    assert hit_at_k(ranked, ["c"], 2) == 0.0 and hit_at_k(ranked, ["c"], 3) == 1.0
    assert recall_at_k(ranked, ["a", "d", "z"], 4) == pytest.approx(2 / 3)
    assert mrr_at_k(ranked, ["c"], 10) == pytest.approx(1 / 3)
    assert ndcg_at_k(ranked, ["a"], 10) == pytest.approx(1.0)
    assert ndcg_at_k(ranked, ["b"], 10) == pytest.approx(1 / 1.5849625, rel=1e-6)
    assert percentile([5.0, 1.0, 3.0, 2.0], 50) == 2.0 and percentile([], 95) == 0.0


def test_projection_maps_finer_units_and_versions_to_gold() -> None:
    ranked = ["L:D5.K2", "L:D5", "L:D7@M", "L:D9.C1"]
    assert project_ranking(ranked, ["L:D5", "L:D7"]) == ["L:D5", "L:D7", "L:D9.C1"]


def test_evaluate_reports_every_system(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps([{"id": "1", "question": "x", "gold": ["g"]}]), encoding="utf-8")
    qs = load_questions(path)
    report = evaluate({"good": lambda q, _: ["g"], "bad": lambda q, _: ["h"]}, qs, ks=[1, 5])
    by = {s.name: s.metrics for s in report.systems}
    assert by["good"]["Hit@1"] == 1.0 and by["bad"]["Hit@1"] == 0.0
    assert "| good |" in report.to_markdown() and json.loads(report.to_json())["questions"] == 1
    # a file without dates: the per-query rows are as they were
    assert set(report.systems[0].per_query[0]) == {
        "id", "latency_ms", "top", "Hit@1", "Recall@1", "Hit@5", "Recall@5", "MRR@10", "nDCG@10"}


def test_a_multiple_choice_item_is_asked_with_its_options(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps([
        {"id": "1", "question": "Hành vi nào sau đây bị cấm? ", "gold": ["g"],
         "choices": {"B": "Tàng trữ ma túy", "A": " Trồng cây thuốc lá"}},
        {"id": "2", "question": "Đúng hay sai?", "gold": ["g"]},
    ]), encoding="utf-8")
    seen: list[str] = []
    evaluate({"s": lambda q, _: seen.append(q) or ["g"]}, load_questions(path), ks=[1])
    assert seen == ["Hành vi nào sau đây bị cấm? A. Trồng cây thuốc lá B. Tàng trữ ma túy",
                    "Đúng hay sai?"]


def test_the_shipped_qa_sample_file_is_a_question_file() -> None:
    qs = load_questions(SAMPLES_DIR / "questions.json")
    assert len(qs) >= 10 and all(q.gold for q in qs)
    assert qs[0].id == "q01" and "12/2016/NĐ-MAU:D3.K2" in qs[0].gold
    assert qs[0].as_of == date(2024, 6, 1) and qs[1].as_of == date(2019, 6, 1)


def test_a_question_may_carry_its_own_date(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps([
        {"id": "1", "question": "x", "gold": ["g"], "as_of": "2019-06-01"},
        {"id": "2", "question": "y", "gold": ["g"], "as_of": " 2031-07-01 "},
        {"id": "3", "question": "z", "gold": ["g"], "as_of": None},
        {"id": "4", "question": "w", "gold": ["g"]},
    ]), encoding="utf-8")
    qs = load_questions(path)
    assert [q.as_of for q in qs] == [date(2019, 6, 1), date(2031, 7, 1), None, None]
    seen: list[tuple[str, date | None]] = []
    report = evaluate({"s": lambda q, day: seen.append((q, day)) or ["g"]}, qs, ks=[1])
    assert seen == [("x", date(2019, 6, 1)), ("y", date(2031, 7, 1)), ("z", None), ("w", None)]
    assert [r.get("as_of") for r in report.systems[0].per_query] == [
        "2019-06-01", "2031-07-01", None, None]


@pytest.mark.parametrize("bad", ["2020-02-30", "2020/02/01", "01-06-2019", "2019-6-1", "20190601",
                                 "2019-06-01T00:00", "", 20190601, ["2019-06-01"]])
def test_a_bad_question_date_names_the_file_the_row_and_the_value(tmp_path: Path,
                                                                   bad: object) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps([{"id": "1", "question": "x", "gold": ["g"]},
                                {"id": "2", "question": "y", "gold": ["g"], "as_of": bad}]),
                    encoding="utf-8")
    with pytest.raises(RetrievalError) as e:
        load_questions(path)
    assert str(e.value) == (f"{path}: question #1 is malformed: as_of must be a date YYYY-MM-DD, "
                            f"got {bad!r}")


def test_choices_must_be_text(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps([{"id": "1", "question": "x", "gold": ["g"],
                                 "choices": {"A": ["not", "text"]}}]), encoding="utf-8")
    with pytest.raises(RetrievalError, match="#0"):
        load_questions(path)


def test_bad_question_file_names_the_row(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps([{"id": "1", "question": "", "gold": ["g"]}]), encoding="utf-8")
    with pytest.raises(RetrievalError, match="#0"):
        load_questions(path)


def test_lucene_escaping_and_inputs() -> None:
    assert escape_term("a:b") == "a\\:b" and escape_term("AND") == '"AND"'
    query, terms = lucene_query('Điều_5 (khoản) "x" 25/2008/QH12 !!!')
    assert "\\(" not in query and "25\\/2008\\/QH12" in query and "!!!" not in query
    assert "điều_5" in terms
    assert lucene_query("!!! ???") == ("", ())
    assert parse_as_of("2015-01-01", date(2020, 1, 1)) == date(2015, 1, 1)
    assert parse_as_of(None, date(2020, 1, 1)) == date(2020, 1, 1)
    with pytest.raises(RetrievalError):
        parse_as_of("2015/01/01", date(2020, 1, 1))
    assert parse_filters({"doc_ids": "X"}).doc_ids == ("X",)
    with pytest.raises(RetrievalError):
        parse_filters({"doc_id": ["X"]})
