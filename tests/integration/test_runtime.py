"""The local runtime's failure modes, against the real server the test session started."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli
from hopgraph.core.errors import AuthenticationFailed, RuntimeSetupError
from hopgraph.db import connect
from hopgraph.db._runtime import LocalInstance, assemble, free_port

from .conftest import Server

pytestmark = pytest.mark.integration


def _local(server: Server) -> LocalInstance:
    if server.instance is None:
        pytest.skip("needs the local runtime (NEO4J_URI or Docker is in use)")
    return server.instance


def test_second_start_says_it_is_running(neo4j_server: Server) -> None:
    inst = _local(neo4j_server)
    with pytest.raises(RuntimeSetupError, match="already running"):
        inst.start()


def test_port_taken_is_reported_before_anything_starts(neo4j_server: Server, tmp_path: Path) -> None:
    inst = _local(neo4j_server)
    other = LocalInstance(root=tmp_path / "other", cache_root=inst.cache_root,
                          bolt_port=inst.bolt_port, http_port=free_port())
    with pytest.raises(RuntimeSetupError, match=rf"port {inst.bolt_port} \(Bolt\) is taken"):
        other.start()


def test_stop_never_kills_a_server_it_did_not_start(neo4j_server: Server, tmp_path: Path) -> None:
    inst = _local(neo4j_server)
    running = inst.running_pid()
    assert running is not None
    impostor = LocalInstance(root=tmp_path / "impostor", cache_root=inst.cache_root,
                             bolt_port=free_port(), http_port=free_port())
    impostor.pid_file.parent.mkdir(parents=True)
    impostor.pid_file.write_text(f"{running}\n")  # a pid file pointing at someone else's JVM
    assert impostor.stop() is False
    assert inst.running_pid() == running
    neo4j_server.driver.verify_connectivity()


def test_wrong_password_is_one_clear_error(neo4j_server: Server) -> None:
    with pytest.raises(AuthenticationFailed, match="rejected the user name or password"):
        connect(neo4j_server.uri, neo4j_server.user, "not-the-password")


def test_cli_status_reports_server_versions(neo4j_server: Server, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["db", "status"],
        env={"NEO4J_URI": neo4j_server.uri, "NEO4J_USER": neo4j_server.user,
             "NEO4J_PASSWORD": neo4j_server.password, "HOPGRAPH_HOME": str(tmp_path)},
    )
    assert result.exit_code == 0, result.output
    assert "5.26." in result.output and "community" in result.output
    assert "apoc:   5.26" in result.output and "gds:    2." in result.output


def test_browser_is_served(neo4j_server: Server) -> None:
    import urllib.request

    inst = _local(neo4j_server)
    with urllib.request.urlopen(inst.browser_url, timeout=10) as response:
        body = response.read().decode("utf-8", errors="replace")
    assert response.status == 200
    assert "<html" in body.lower()


def test_missing_maven_is_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    java_dir = str(Path(os.path.realpath("/usr/bin/java")).parent)
    monkeypatch.setenv("PATH", java_dir)
    with pytest.raises(RuntimeSetupError, match="'mvn' is not on PATH"):
        assemble(tmp_path / "cache")


def test_missing_artifact_names_it(tmp_path: Path) -> None:
    shipped = Path(__file__).resolve().parents[2] / "docker" / "neo4j-runtime" / "pom.xml"
    broken = tmp_path / "pom.xml"
    broken.write_text(shipped.read_text().replace(
        "<gds.version>2.13.9</gds.version>", "<gds.version>0.0.0-missing</gds.version>"))
    with pytest.raises(RuntimeSetupError, match=r"Maven could not assemble.*0\.0\.0-missing"):
        assemble(tmp_path / "cache", pom=broken)
    assert not any((tmp_path / "cache").rglob("*.jar"))  # nothing half-assembled is left


def test_neo4j_browser_is_told_the_instances_own_bolt_port(neo4j_server: Server) -> None:
    """Issue 25: the HTTP discovery document Neo4j Browser reads named bolt://…:7687 when the
    instance listened elsewhere; it names the instance's own ports."""
    import json
    import urllib.request

    inst = _local(neo4j_server)
    request = urllib.request.Request(f"http://127.0.0.1:{inst.http_port}/",
                                     headers={"Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        discovery = json.loads(reply.read().decode("utf-8"))
    # the host is the one the request named; the port is the instance's (7687 before)
    assert discovery["bolt_direct"].endswith(f":{inst.bolt_port}"), discovery
    assert discovery["bolt_routing"].endswith(f":{inst.bolt_port}"), discovery
