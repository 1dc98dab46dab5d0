"""A server started by this process and killed (kill -9) is collected before the next start
(issue 18, found by tests/benchmarks/reliability.py): a zombie's pid in Neo4j's neo4j.pid made
the launcher refuse to start ('Neo4j is already running')."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from hopgraph.db import _runtime


def _state(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return None


def test_a_killed_child_server_is_reaped() -> None:
    proc = subprocess.Popen(["sleep", "60"])
    _runtime._CHILDREN[proc.pid] = proc
    try:
        os.kill(proc.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while _state(proc.pid) != "Z" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _state(proc.pid) == "Z"  # dead, not yet collected
        _runtime.reap_exited()
        assert proc.pid not in _runtime._CHILDREN
        assert _state(proc.pid) is None
    finally:
        _runtime._CHILDREN.pop(proc.pid, None)
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_live_child_stays_registered() -> None:
    proc = subprocess.Popen(["sleep", "60"])
    _runtime._CHILDREN[proc.pid] = proc
    try:
        _runtime.reap_exited()
        assert proc.pid in _runtime._CHILDREN
    finally:
        _runtime._CHILDREN.pop(proc.pid, None)
        proc.kill()
        proc.wait()
