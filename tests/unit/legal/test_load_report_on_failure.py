"""Every failure of a load after its first document prints the report of what was committed
(issue 26 item 7): a derive that fails with any database error (a query over its time limit,
not only a server that went away), and a load that cannot even mark its start."""

from __future__ import annotations

from typing import Any

from hopgraph.core.errors import DatabaseError, DatabaseUnavailable
from hopgraph.loaders.legal import SAMPLES_DIR, derive_steps, load_legal
from tests.unit.fakes import RecordingRunner

DERIVE_KEYS = {key for key, _ in derive_steps(None)}


def _runner(fail_on: set[str], error: Exception) -> RecordingRunner:
    def answer(key: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        if key in fail_on:
            raise error
        return []

    return RecordingRunner(answer, check_params=True, refuse={"write", "read_transaction"})


def test_a_derive_that_fails_reports_what_was_committed_and_how_to_repair() -> None:
    error = DatabaseError("legal/derive_phrase_versions: Neo.ClientError.Transaction."
                          "TransactionTimedOutClientConfiguration: the transaction timed out")
    runner = _runner({"legal/derive_phrase_versions"}, error)
    report = load_legal(runner, None, [SAMPLES_DIR], segmenter=lambda t: t, incremental=False)
    committed = runner.committed("legal/clear_document", "doc_id")
    assert len(committed) >= 5 and report.documents == committed
    assert report.aborted is not None
    assert "deriving validity failed after the documents were committed" in report.aborted
    assert "timed out" in report.aborted and "hopgraph db repair" in report.aborted
    summary = report.summary()
    assert "STOPPED" in summary and ", ".join(committed) in summary
    assert "\n" not in report.aborted  # the CLI's one line


def test_a_failure_after_the_derive_says_validity_was_derived() -> None:
    runner = _runner({"legal/count_graph"}, DatabaseError("legal/count_graph: out of memory"))
    report = load_legal(runner, None, [SAMPLES_DIR], segmenter=lambda t: t, incremental=False)
    assert report.aborted is not None and "validity was derived" in report.aborted
    assert "db repair" not in report.aborted
    assert report.documents == runner.committed("legal/clear_document", "doc_id")


def test_the_server_gone_during_the_derive_still_names_the_committed_documents() -> None:
    runner = _runner(DERIVE_KEYS, DatabaseUnavailable("the Neo4j database failed (critical error)"))
    report = load_legal(runner, None, [SAMPLES_DIR], segmenter=lambda t: t, incremental=False)
    assert report.aborted is not None and "before validity was derived" in report.aborted
    assert "critical error" in report.aborted and report.documents


def test_a_load_that_cannot_mark_its_start_writes_nothing_and_says_so() -> None:
    runner = _runner({"legal/mark_load_started"}, DatabaseError("legal/mark_load_started: refused"))
    report = load_legal(runner, None, [SAMPLES_DIR], segmenter=lambda t: t)
    assert report.documents == [] and runner.committed("legal/clear_document", "doc_id") == []
    assert report.aborted is not None and "nothing was written" in report.aborted
    assert "STOPPED" in report.summary()
