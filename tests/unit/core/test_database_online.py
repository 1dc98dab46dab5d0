"""``db start`` reports the server up only when its ``neo4j`` database is online, and names the
cause otherwise (issue 26 item 7): a database that failed to recover its transaction log after a
full disk is offline with the server's reason, a database still starting is waited for, a
missing one is named (no server: a fake driver answers ``SHOW DATABASES``)."""

from __future__ import annotations

from typing import Any

import pytest

import hopgraph.db._servers as servers
from hopgraph.core.errors import RuntimeSetupError
from hopgraph.db import wait_until_online
from hopgraph.db._servers import Connection

RECOVERY_FAILED = ("Unable to start database `DatabaseId{1b2c3d4e[neo4j]}`: Failed to recover "
                   "the transaction log: java.io.IOException: No space left on device")


class _Driver:
    """Answers ``SHOW DATABASES`` with the next state of ``states`` (the last one repeats)."""

    def __init__(self, states: list[tuple[str, str] | None]) -> None:
        self.states = states
        self.asked = 0
        self.closed = False

    def execute_query(self, query: str, params: dict[str, Any], **config: Any) -> Any:
        assert config.get("database_") == "system" and params == {"name": "neo4j"}
        state = self.states[min(self.asked, len(self.states) - 1)]
        self.asked += 1
        rows = [] if state is None else [{"currentStatus": state[0], "statusMessage": state[1]}]
        return rows, None, None

    def close(self) -> None:
        self.closed = True


def _connection(monkeypatch: pytest.MonkeyPatch, driver: _Driver) -> Connection:
    monkeypatch.setattr(Connection, "driver", lambda self: driver)
    monkeypatch.setattr(servers.time, "sleep", lambda s: None)
    return Connection(kind="local", uri="bolt://127.0.0.1:7687", user="neo4j", password="x",
                      database="neo4j", browser_url=None)


def test_a_database_that_failed_to_recover_is_named_with_the_servers_reason(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    driver = _Driver([("offline", RECOVERY_FAILED)])
    conn = _connection(monkeypatch, driver)
    with pytest.raises(RuntimeSetupError) as err:
        wait_until_online(conn, timeout_s=60, log=tmp_path / "debug.log")
    message = str(err.value)
    assert "database 'neo4j' is offline" in message and "No space left on device" in message
    assert "debug.log" in message and "hopgraph db restore" in message
    assert "\n" not in message
    assert driver.asked == 1 and driver.closed  # failed: said at once, not after the timeout


def test_a_database_still_starting_is_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    driver = _Driver([("starting", ""), ("starting", ""), ("online", "")])
    wait_until_online(_connection(monkeypatch, driver), timeout_s=60)
    assert driver.asked == 3 and driver.closed


def test_a_missing_database_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(RuntimeSetupError, match="no database named 'neo4j'"):
        wait_until_online(_connection(monkeypatch, _Driver([None])), timeout_s=60)


def test_a_database_never_online_is_reported_at_the_timeout(
        monkeypatch: pytest.MonkeyPatch) -> None:
    driver = _Driver([("starting", "")])
    with pytest.raises(RuntimeSetupError, match="is starting"):
        wait_until_online(_connection(monkeypatch, driver), timeout_s=0)
    assert driver.asked == 1
