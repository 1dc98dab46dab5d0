"""The legal loader when the server goes away mid-load, and when one input breaks in an
unexpected way (no database: a fake runner records the transactions)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hopgraph.core.errors import DatabaseUnavailable
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal
from tests.unit.fakes import RecordingRunner


def _dying_runner(alive: int) -> tuple[RecordingRunner, list[str]]:
    """A runner that commits the first ``alive`` document transactions, then the server is gone;
    and the list of the queries tried after that."""
    after_death: list[str] = []

    def answer(key: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        # a document is a transaction opened by legal/clear_document (else: the derive steps)
        if (len(runner.committed("legal/clear_document", "doc_id")) >= alive
                and key != "legal/list_document_names"):
            after_death.append(key)
            raise DatabaseUnavailable("no Neo4j server answers at bolt://127.0.0.1:1")
        return []

    runner = RecordingRunner(answer, refuse={"write", "read_transaction"})
    return runner, after_death


def test_losing_the_server_stops_the_load_at_once_and_names_what_was_committed() -> None:
    runner, after_death = _dying_runner(alive=3)
    report = load_legal(runner, None, [SAMPLES_DIR], segmenter=lambda t: t)
    # one failed attempt, then nothing more: no retry per remaining document, no derive
    assert len(after_death) == 1
    committed = runner.committed("legal/clear_document", "doc_id")
    assert report.documents == committed and len(report.documents) == 3
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
    runner, _ = _dying_runner(alive=10)
    report = load_legal(runner, None, [tmp_path], segmenter=lambda t: t)
    assert report.documents == ["8/2020/NĐ-CP"]
    (problem,) = report.skipped
    assert problem.file.endswith("a.txt") and "KeyError" in problem.message
