"""A ``LocalInstance`` with a relative root hands Neo4j's launcher its own configuration (ports,
folders), and a start that times out leaves no server behind (issue 28), on the real runtime."""

from __future__ import annotations

from pathlib import Path

import pytest

from hopgraph.core.errors import RuntimeSetupError
from hopgraph.db._runtime import LocalInstance, free_port, neo4j_home, port_is_free

from .conftest import Server

pytestmark = [pytest.mark.integration, pytest.mark.slow]  # starts its own Neo4j server


def _cache_root(server: Server) -> Path:
    if server.instance is None:
        pytest.skip("needs the local runtime (NEO4J_URI or Docker is in use)")
    return server.instance.cache_root


def _servers_of(inst: LocalInstance) -> list[int]:
    """Pids of live processes whose command line names this instance's configuration."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if f"--config-dir={inst.conf_dir}" in cmdline and state != "Z":
            found.append(int(proc.name))
    return found


def test_a_relative_root_gives_the_launcher_its_own_conf_ports_and_folders(
        neo4j_server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache_root = _cache_root(neo4j_server)
    home = neo4j_home(cache_root)
    in_home = {p.name for p in home.iterdir()}
    monkeypatch.chdir(tmp_path)
    inst = LocalInstance(root=Path("relative"), cache_root=cache_root, bolt_port=free_port(),
                         http_port=free_port())
    # what start() runs: the server command Neo4j's own launcher prints (console --dry-run)
    command = inst._server_command(*inst._prepare())
    conf_dir = tmp_path.resolve() / "relative" / "conf"
    assert f"--config-dir={conf_dir}" in command
    conf = (conf_dir / "neo4j.conf").read_text()
    assert f"server.bolt.listen_address=127.0.0.1:{inst.bolt_port}" in conf
    assert f"server.directories.data={tmp_path.resolve() / 'relative' / 'data'}" in conf
    assert (tmp_path / "relative" / "data" / "dbms").is_dir()  # its password, set by the admin tool
    assert {p.name for p in home.iterdir()} == in_home  # nothing written into the shared home
    assert not (home / "conf" / "neo4j.conf").exists()


def test_a_start_that_times_out_leaves_no_server(neo4j_server: Server, tmp_path: Path) -> None:
    inst = LocalInstance(root=tmp_path / "slow", cache_root=_cache_root(neo4j_server),
                         bolt_port=free_port(), http_port=free_port(), heap="384m",
                         pagecache="32m")
    with pytest.raises(RuntimeSetupError, match="did not answer"):
        inst.start(timeout_s=1.0)  # the JVM needs far longer than a second to open Bolt
    assert _servers_of(inst) == []
    assert inst.running_pid() is None and not inst.pid_file.exists()
    assert port_is_free(inst.bolt_port) and port_is_free(inst.http_port)
