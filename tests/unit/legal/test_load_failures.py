"""The legal loader when the server goes away mid-load, and when one input breaks in an
unexpected way (no database: a fake runner records the transactions)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hopgraph.errors import DatabaseUnavailable
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal


class _DyingRunner:
    """Commits the first ``alive`` document transactions, then the server is gone."""

    def __init__(self, alive: int) -> None:
        self.alive = alive
        self.transactions: list[str] = []
        self.after_death = 0

    def read(self, key: str, **params: Any) -> list[dict[str, Any]]:
        if len(self.transactions) >= self.alive and key != "legal/list_document_names":
            self.after_death += 1
            raise DatabaseUnavailable("no Neo4j server answers")
        return []

    def write(self, key: str, **params: Any) -> list[dict[str, Any]]:
        raise AssertionError("the loader writes in transactions")

    def write_transaction(self, steps: Sequence[tuple[str, Mapping[str, Any]]]
                          ) -> list[list[dict[str, Any]]]:
        if len(self.transactions) >= self.alive:
            self.after_death += 1
            raise DatabaseUnavailable("no Neo4j server answers at bolt://127.0.0.1:1")
        if steps[0][0] == "legal/clear_document":  # a document (else: the derive steps)
            self.transactions.append(str(steps[0][1]["doc_id"]))
        return [[] for _ in steps]

    def read_transaction(self, work: Any) -> Any:
        raise AssertionError("not used")


def test_losing_the_server_stops_the_load_at_once_and_names_what_was_committed() -> None:
    runner = _DyingRunner(alive=3)
    report = load_legal(runner, None, [SAMPLES_DIR], segmenter=lambda t: t)
    # one failed attempt, then nothing more: no retry per remaining document, no derive
    assert runner.after_death == 1
    assert report.documents == runner.transactions and len(report.documents) == 3
    assert report.aborted and "went away" in report.aborted
    summary = report.summary()
    assert "STOPPED" in summary and ", ".join(report.documents) in summary


def test_an_unexpected_exception_in_one_input_fails_that_input_alone(tmp_path: Path,
                                                                     monkeypatch: Any) -> None:
    import hopgraph.loaders.legal._loader as loader

    (tmp_path / "a.txt").write_text("Số: 7/2020/NĐ-CP\nĐiều 1. A\nNội dung.\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("Số: 8/2020/NĐ-CP\nĐiều 1. B\nNội dung.\n", encoding="utf-8")
    real = loader.plan_document

    def plan(doc: Any, segment: Any) -> Any:
        if doc.meta.doc_id == "7/2020/NĐ-CP":
            raise KeyError("level")
        return real(doc, segment)

    monkeypatch.setattr(loader, "plan_document", plan)
    runner = _DyingRunner(alive=10)
    report = load_legal(runner, None, [tmp_path], segmenter=lambda t: t)
    assert report.documents == ["8/2020/NĐ-CP"]
    (problem,) = report.skipped
    assert problem.file.endswith("a.txt") and "KeyError" in problem.message
