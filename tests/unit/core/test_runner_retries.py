"""How ``Neo4jRunner`` retries transactions (issue 18: a load took 33 s to stop after its server
was killed, in the driver's 30 s retry window). A fake driver stands for the server."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from neo4j.exceptions import ClientError, ServiceUnavailable, SessionExpired, TransientError

import hopgraph.db._runner as runner_module
from hopgraph.core.errors import DatabaseError, DatabaseUnavailable
from hopgraph.cypher import load_registry
from hopgraph.db import Neo4jRunner

KEY = "legal/mark_load_started"


class _Session:
    def __init__(self, driver: _Driver) -> None:
        self.driver = driver

    def __enter__(self) -> _Session:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def _attempt(self, work: Callable[[Any], Any]) -> Any:
        self.driver.attempts += 1
        if self.driver.failures:
            raise self.driver.failures.pop(0) if self.driver.failures[0] is not None else \
                ServiceUnavailable("Couldn't connect to 127.0.0.1:7687 (connection refused)")
        return "committed"

    def execute_write(self, work: Callable[[Any], Any]) -> Any:
        return self._attempt(work)

    def execute_read(self, work: Callable[[Any], Any]) -> Any:
        return self._attempt(work)


class _Driver:
    """``failures``: what each attempt raises, in order (``None``: the server is gone for good)."""

    def __init__(self, failures: list[Exception | None]) -> None:
        self.failures = failures
        self.attempts = 0
        self.session_config: dict[str, Any] = {}

    def session(self, **config: Any) -> _Session:
        self.session_config = config
        return _Session(self)


def _gone() -> list[Exception | None]:
    return [SessionExpired("connection lost")] + [None] * 1000


@pytest.fixture(autouse=True)
def _fast(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_module, "RETRY_FIRST_DELAY_S", 0.01)
    monkeypatch.setattr(runner_module, "RETRY_MAX_DELAY_S", 0.05)


def _runner(driver: _Driver) -> Neo4jRunner:
    return Neo4jRunner(driver, database="neo4j", registry=load_registry())  # type: ignore[arg-type]


def test_a_lost_server_fails_the_transaction_within_the_short_connection_window(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_module, "CONNECTION_RETRY_S", 0.3)
    driver = _Driver(_gone())
    started = time.monotonic()
    with pytest.raises(DatabaseUnavailable, match="no Neo4j server answers"):
        _runner(driver).write_transaction([(KEY, {"documents": 1})])
    took = time.monotonic() - started
    assert took < 1.0  # not the 30 s transient window
    assert driver.attempts >= 2  # a dropped connection is tried again once or more
    assert driver.session_config["max_transaction_retry_time"] == 0.0  # the driver does not wait


def test_the_default_connection_window_stops_a_write_within_a_few_seconds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_module, "RETRY_FIRST_DELAY_S", 0.5)
    monkeypatch.setattr(runner_module, "RETRY_MAX_DELAY_S", 4.0)
    driver = _Driver(_gone())
    started = time.monotonic()
    with pytest.raises(DatabaseUnavailable):
        _runner(driver).write_transaction([(KEY, {"documents": 1})])
    took = time.monotonic() - started
    assert runner_module.CONNECTION_RETRY_S <= 5.0
    assert took <= runner_module.CONNECTION_RETRY_S + 0.5


def test_transient_errors_keep_the_long_window_and_then_succeed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_module, "CONNECTION_RETRY_S", 0.0)  # would fail at once
    deadlocks: list[Exception | None] = [
        TransientError("Neo.TransientError.Transaction.DeadlockDetected") for _ in range(5)]
    driver = _Driver(deadlocks)
    assert _runner(driver).write_transaction([(KEY, {"documents": 1})]) == "committed"
    assert driver.attempts == 6
    reads: list[Exception | None] = [TransientError("lock timeout")]
    driver = _Driver(reads)
    assert _runner(driver).read_transaction(lambda tx: None) == "committed"
    assert driver.attempts == 2


def test_an_error_that_is_not_retryable_is_raised_at_once() -> None:
    driver = _Driver([ClientError("Neo.ClientError.Statement.SyntaxError")])
    with pytest.raises(DatabaseError):
        _runner(driver).write_transaction([(KEY, {"documents": 1})])
    assert driver.attempts == 1


def test_a_transient_error_gives_up_after_its_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_module, "TRANSIENT_RETRY_S", 0.2)
    driver = _Driver([TransientError("deadlock") for _ in range(1000)])
    started = time.monotonic()
    with pytest.raises(DatabaseError):
        _runner(driver).write_transaction([(KEY, {"documents": 1})])
    assert time.monotonic() - started < 1.0 and driver.attempts >= 3


def test_a_single_write_also_stops_within_the_connection_window(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_module, "CONNECTION_RETRY_S", 0.3)
    driver = _Driver(_gone())
    started = time.monotonic()
    with pytest.raises(DatabaseUnavailable):
        _runner(driver).write(KEY, documents=1)
    assert time.monotonic() - started < 1.0 and driver.attempts >= 2


def test_a_read_also_stops_within_the_connection_window(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 18's leftover: reads went through execute_query and its 30 s window
    monkeypatch.setattr(runner_module, "CONNECTION_RETRY_S", 0.3)
    driver = _Driver(_gone())
    started = time.monotonic()
    with pytest.raises(DatabaseUnavailable):
        _runner(driver).read("admin/count_nodes")
    assert time.monotonic() - started < 1.0 and driver.attempts >= 2
    assert driver.session_config["max_transaction_retry_time"] == 0.0
    assert driver.session_config["default_access_mode"] == "READ"
