"""A database that fails under a live server (a full disk: "critical error") stops a load within
the short window and as :class:`DatabaseUnavailable`, the error the loader stops and reports on
(issue 26 item 7); every such message is one line."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from neo4j.exceptions import Neo4jError, ServiceUnavailable

import hopgraph.db._runner as runner_module
from hopgraph.core.errors import DatabaseUnavailable
from hopgraph.cypher import load_registry
from hopgraph.db import Neo4jRunner

CRITICAL = ("Neo.TransientError.General.DatabaseUnavailable",
            "The database has encountered a critical error, and needs to be restarted. Please "
            "see database logs for more details.")
COMMIT_FAILED = ("Neo.DatabaseError.Transaction.TransactionCommitFailed",
                 "Could not apply the transaction to the store after written to log.\n"
                 "java.io.IOException: No space left on device")


class _Driver:
    def __init__(self, error: Callable[[], Exception]) -> None:
        self.error = error
        self.attempts = 0

    def session(self, **config: Any) -> _Driver:
        return self

    def __enter__(self) -> _Driver:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def execute_write(self, work: Callable[[Any], Any]) -> Any:
        self.attempts += 1
        raise self.error()

    execute_read = execute_write


def _server_error(code: str, message: str) -> Exception:
    return Neo4jError._hydrate_neo4j(code=code, message=message)


@pytest.fixture(autouse=True)
def _fast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_module, "RETRY_FIRST_DELAY_S", 0.01)
    monkeypatch.setattr(runner_module, "RETRY_MAX_DELAY_S", 0.05)
    monkeypatch.setattr(runner_module, "CONNECTION_RETRY_S", 0.3)
    monkeypatch.setattr(runner_module, "TRANSIENT_RETRY_S", 30.0)  # must not be the one used


@pytest.mark.parametrize("failure", [CRITICAL, COMMIT_FAILED])
def test_a_failed_database_stops_a_write_as_unavailable_within_the_short_window(
        failure: tuple[str, str]) -> None:
    driver = _Driver(lambda: _server_error(*failure))
    runner = Neo4jRunner(driver, database="neo4j", registry=load_registry())  # type: ignore[arg-type]
    started = time.monotonic()
    with pytest.raises(DatabaseUnavailable) as caught:
        runner.write("legal/mark_load_started", documents=1)
    assert time.monotonic() - started < 5.0  # not the 30 s transient window
    message = str(caught.value)
    assert failure[0] in message and "disk space" in message and "\n" not in message


def test_a_refused_connection_is_one_line() -> None:
    refused = ("Couldn't connect to 127.0.0.1:1 (resolved to ('127.0.0.1:1',)):\n"
               "Failed to establish connection to ResolvedIPv4Address(('127.0.0.1', 1)) "
               "(reason [Errno 111] Connection refused)")
    driver = _Driver(lambda: ServiceUnavailable(refused))
    runner = Neo4jRunner(driver, database="neo4j", registry=load_registry())  # type: ignore[arg-type]
    with pytest.raises(DatabaseUnavailable) as caught:
        runner.read("legal/count_graph")
    assert str(caught.value).startswith("no Neo4j server answers (Couldn't connect")
    assert "\n" not in str(caught.value) and driver.attempts >= 2
