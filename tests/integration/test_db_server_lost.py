"""A load stops within seconds when its server is killed (issue 18: it took 33 s, the driver's
retry window). The test starts, kills and collects a server of its own."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from hopgraph.core.errors import DatabaseUnavailable
from hopgraph.core.settings import default_home
from hopgraph.db import LocalInstance, Neo4jRunner, _runtime, connect, free_port

pytestmark = [pytest.mark.integration, pytest.mark.slow]  # starts its own Neo4j server


def test_writes_and_reads_fail_within_seconds_after_the_server_is_killed(tmp_path: Path) -> None:
    home = Path(os.environ.get("HOPGRAPH_HOME") or default_home())
    if not (_runtime.neo4j_home(home / "cache") / ".complete").exists():
        pytest.skip("the local runtime is not assembled in the hopgraph cache")
    inst = LocalInstance(root=tmp_path / "instance", cache_root=home / "cache",
                         bolt_port=free_port(), http_port=free_port())
    pid = inst.start()
    driver = connect(inst.uri, "neo4j", inst.password())
    try:
        runner = Neo4jRunner(driver, database="neo4j")
        runner.write_transaction([("legal/mark_load_started", {"documents": 2})])
        os.kill(pid, signal.SIGKILL)  # the server this test started
        for attempt in (lambda: runner.write_transaction(
                            [("legal/mark_load_started", {"documents": 2})]),
                        lambda: runner.write("legal/mark_load_started", documents=2),
                        lambda: runner.read("admin/count_nodes")):
            started = time.monotonic()
            with pytest.raises(DatabaseUnavailable):
                attempt()
            assert time.monotonic() - started < 8.0  # was 30 s and more
    finally:
        driver.close()
        inst.stop()
