"""Where a ``LocalInstance`` puts its server and what a failed start leaves behind (issue 28).

A relative root once reached the launcher as a relative ``NEO4J_CONF``; the launcher runs in
NEO4J_HOME, so the server read the shared home's empty ``conf``, bound the default ports
7687/7474 and wrote into the runtime cache; a start that timed out left that server running. The
server here is a stand-in Python process (no JVM): the real start is in
tests/integration/test_runtime.py.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from hopgraph.core.errors import DatabaseUnavailable, RuntimeSetupError
from hopgraph.db import _runner, _runtime
from hopgraph.db._runtime import LocalInstance, free_port

SLEEPER = "import time; time.sleep(600)"


def _instance(root: Path, cache: Path) -> LocalInstance:
    return LocalInstance(root=root, cache_root=cache, bolt_port=free_port(), http_port=free_port())


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_relative_root_is_resolved_and_the_conf_names_its_own_ports_and_folders(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    inst = _instance(Path("inst"), Path("cache"))
    assert inst.root == tmp_path.resolve() / "inst"
    assert inst.cache_root == tmp_path.resolve() / "cache"
    assert inst.conf_dir.is_absolute() and inst.pid_file.is_absolute()
    inst._write_conf(tmp_path / "home")
    conf = (inst.conf_dir / "neo4j.conf").read_text()
    assert f"server.directories.data={tmp_path.resolve() / 'inst' / 'data'}" in conf
    assert f"server.bolt.listen_address=127.0.0.1:{inst.bolt_port}" in conf
    assert f"server.http.listen_address=127.0.0.1:{inst.http_port}" in conf
    # Neo4j Browser connects to the advertised Bolt address (issue 25: it offered 7687)
    assert f"server.bolt.advertised_address=localhost:{inst.bolt_port}" in conf
    assert f"server.http.advertised_address=localhost:{inst.http_port}" in conf


def test_an_instance_names_its_ports(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="bolt_port"):
        LocalInstance(root=tmp_path, cache_root=tmp_path)  # type: ignore[call-arg]


@pytest.fixture
def stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LocalInstance:
    """An instance whose 'server' is a sleeping Python process that never answers Bolt."""
    inst = _instance(tmp_path / "inst", tmp_path / "cache")

    def prepare(self: LocalInstance) -> tuple[Path, dict[str, str]]:
        self._private_root()
        return tmp_path, dict(os.environ)

    def command(self: LocalInstance, home: Path, env: dict[str, str]) -> list[str]:
        return [sys.executable, "-c", SLEEPER, f"--config-dir={self.conf_dir}"]

    monkeypatch.setattr(LocalInstance, "_prepare", prepare)
    monkeypatch.setattr(LocalInstance, "_server_command", command)
    return inst


def _refusing_connect(seen: list[int], error: BaseException) -> Any:
    # servers other tests of the session started (a shared Neo4j) are registered too
    before = set(_runtime._CHILDREN)

    def connect(uri: str, user: str, password: str | None) -> Any:
        # the server start() launched is registered by now
        seen.extend(pid for pid in _runtime._CHILDREN if pid not in before)
        raise error
    return connect


def test_a_start_that_times_out_stops_the_server_it_started(
        stand_in: LocalInstance, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    monkeypatch.setattr(_runner, "connect", _refusing_connect(
        seen, DatabaseUnavailable("no Neo4j server answers")))
    with pytest.raises(RuntimeSetupError, match="did not answer"):
        stand_in.start(timeout_s=0.5)
    (pid,) = set(seen)
    assert not _alive(pid)  # stopped and collected, not a zombie
    assert pid not in _runtime._CHILDREN
    assert not stand_in.pid_file.exists() and stand_in.running_pid() is None


def test_an_interrupted_start_stops_the_server_it_started(
        stand_in: LocalInstance, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    monkeypatch.setattr(_runner, "connect", _refusing_connect(seen, KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        stand_in.start(timeout_s=30)
    (pid,) = set(seen)
    assert not _alive(pid)
    assert not stand_in.pid_file.exists()


def test_a_launcher_that_ignores_the_instance_conf_starts_nothing(
        stand_in: LocalInstance, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LocalInstance, "_server_command",
                        lambda self, home, env: [sys.executable, "-c", SLEEPER])
    before = dict(_runtime._CHILDREN)
    with pytest.raises(RuntimeSetupError, match="did not take this instance's configuration"):
        stand_in.start(timeout_s=0.5)
    assert before == _runtime._CHILDREN
    assert not stand_in.pid_file.exists()
