"""LegalRetriever with a recording fake runner: round trips, parameters, assembly (no database)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Any, TypeVar

import pytest

from hopgraph.cypher import load_registry
from hopgraph.errors import RetrievalError
from hopgraph.retrieval import LegalRetriever, RetrievalConfig
from tests.retrieval_fixtures import HashEmbedder

T = TypeVar("T")


class FakeRunner:
    """Records (key, params) and answers from canned rows."""

    def __init__(self, answers: Mapping[str, list[dict[str, Any]]]) -> None:
        self.answers = answers
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.registry = load_registry()

    def read(self, key: str, **params: Any) -> list[dict[str, Any]]:
        self.registry.check_params(key, params)
        self.calls.append((key, params))
        return self.answers.get(key, [])

    def write(self, key: str, **params: Any) -> list[dict[str, Any]]:
        raise AssertionError("retrieval never writes")

    def read_transaction(self, work: Callable[[Any], T]) -> T:
        self.calls.append(("<transaction>", {}))
        return work(self)

    def write_transaction(self, steps: Sequence[tuple[str, Mapping[str, Any]]]) -> list[list[dict[str, Any]]]:
        raise AssertionError("retrieval never writes")


def _unit(uid: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"id": uid, "doc_id": uid.split(":")[0], "level": "Clause", "number": "2",
            "path": uid.split(":")[1].split("@")[0], "text": text, "valid_from": None,
            "valid_to": None, "citation": None, "is_version": "@" in uid,
            "anchor_id": uid.split("@")[0], "position": [], "doc": {
                "id": uid.split(":")[0], "number": uid.split(":")[0], "doc_type": "Luật",
                "title": "Luật A", "issuer": "Quốc hội", "issue_date": None,
                "effective_date": None, "expiry_date": None, "status": None}, **extra}


SEARCH_ROW = {"id": "A:D5.K2", "doc_id": "A", "level": "Clause", "heading": None,
              "citation": None, "doc_title": "Luật A", "doc_number": "A", "doc_type": "Luật",
              "dense": 0.9, "sparse": 3.0, "dense_norm": 1.0, "sparse_norm": 1.0,
              "dense_rank": 1, "sparse_rank": 1, "fused": 1.0}
STEP = {"relation": "AMENDS", "source_id": "B:D1.K1", "target_id": "A:D5.K2",
        "source_citation": "khoản 1 Điều 1 Luật B", "effective_date": date(2015, 1, 1),
        "method": "rule", "evidence": "Sửa đổi khoản 2 Điều 5"}
EXPAND_ROW = {"seeds": [{
    "seed_rank": 0, "seed_id": "A:D5.K2", "base_id": "A:D5.K2", "applicable_id": "A:D5.K2@B",
    "decisive": {"kind": "AMENDS", "steps": [STEP]},
    "events": [{"kind": "AMENDS", "in_force": True, "cycle": False, "cut": False,
                "steps": [STEP]}],
    "cycles": 0, "doc_replaced": [], "references": [], "unit_ids": []}],
    "units": [_unit("A:D5.K2", "cũ"), _unit("A:D5.K2@B", "mới", valid_from=date(2015, 1, 1))]}


def test_two_round_trips_and_successor_assembly() -> None:
    runner = FakeRunner({"legal/search_units_hybrid": [SEARCH_ROW],
                         "legal/expand_context": [EXPAND_ROW]})
    retriever = LegalRetriever(runner, HashEmbedder(), today=lambda: date(2020, 1, 1))
    ctx = retriever.retrieve("mức hưởng", k=3, filters={"issuers": ["QUỐC HỘI"]})
    # both queries inside one read transaction
    assert [k for k, _ in runner.calls] == ["<transaction>", "legal/search_units_hybrid",
                                            "legal/expand_context"]
    search = runner.calls[1][1]
    assert search["dense_pool"] == search["candidates"]  # unit granularity: no extra vector hits
    assert search["has_filter"] is True and search["issuers"] == ["quốc hội"]
    assert search["as_of"] == date(2020, 1, 1) and search["use_sparse"] is True
    assert ctx.round_trips == 2
    assert [(i.role, i.node_id, i.applicable) for i in ctx.items] == [
        ("seed", "A:D5.K2", False), ("successor", "A:D5.K2@B", True)]
    assert "amended by khoản 1 Điều 1 Luật B, effective 2015-01-01" in ctx.items[1].validity_note
    assert ctx.items[1].citation.endswith("(wording enacted by B)")
    assert ctx.to_dict()["items"][1]["path"][0]["effective_date"] == "2015-01-01"


def test_article_granularity_reads_more_vector_hits() -> None:
    runner = FakeRunner({"legal/search_units_hybrid": [SEARCH_ROW],
                         "legal/expand_context": [EXPAND_ROW]})
    cfg = RetrievalConfig(granularity="article", candidates=30)
    LegalRetriever(runner, HashEmbedder(), config=cfg).retrieve("mức hưởng", k=3)
    search = dict(runner.calls)["legal/search_units_hybrid"]
    assert (search["candidates"], search["dense_pool"]) == (30, 60)


def test_bounds_cut_items_and_report_truncation() -> None:
    runner = FakeRunner({"legal/search_units_hybrid": [SEARCH_ROW],
                         "legal/expand_context": [EXPAND_ROW]})
    retriever = LegalRetriever(runner, HashEmbedder(), config=RetrievalConfig(max_items=1))
    ctx = retriever.retrieve("mức hưởng", k=3)
    assert len(ctx.items) == 1 and ctx.truncated


def test_no_candidates_gives_reason_after_one_round_trip() -> None:
    runner = FakeRunner({})
    ctx = LegalRetriever(runner, HashEmbedder()).retrieve("mức hưởng", k=3)
    assert ctx.items == [] and ctx.round_trips == 1 and "loaded" in (ctx.reason_if_empty or "")


@pytest.mark.parametrize("kwargs", [{"k": 0}, {"k": 101}, {"as_of": "2020-02-30"},
                                    {"filters": {"doc_type": "Luật"}}, {"filters": ["x"]}])
def test_bad_arguments_raise_retrieval_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(RetrievalError):
        LegalRetriever(FakeRunner({}), HashEmbedder()).retrieve("mức hưởng", **kwargs)
