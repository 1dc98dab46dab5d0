"""Choosing and driving a server: an existing Neo4j (``NEO4J_URI``), Docker, or the local runtime.

``hopgraph db start`` picks Docker when an engine answers (and Docker is not disabled), else the
local runtime. Both keep their generated password in the hopgraph home, readable by the user only.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import neo4j

from hopgraph.db._runner import connect
from hopgraph.db._runtime import LocalInstance
from hopgraph.errors import RuntimeSetupError
from hopgraph.settings import DEFAULT_CONNECT_TIMEOUT_S, Settings

ServerKind = Literal["external", "docker", "local"]
_DOCKER_MARKER = "docker-started"


@dataclass(frozen=True)
class Connection:
    """Everything needed to open a driver, and which kind of server it points at."""

    kind: ServerKind
    uri: str
    user: str
    password: str | None
    database: str
    browser_url: str | None
    connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S

    def driver(self) -> neo4j.Driver:
        """Open and verify a driver (raises DatabaseUnavailable / AuthenticationFailed)."""
        return connect(self.uri, self.user, self.password, timeout_s=self.connect_timeout_s)


def local_instance(settings: Settings) -> LocalInstance:
    """The default local instance under the hopgraph home."""
    rt = settings.runtime
    return LocalInstance(
        root=rt.home / "instance", cache_root=rt.home / "cache", bolt_port=rt.bolt_port,
        http_port=rt.http_port, heap=rt.heap, pagecache=rt.pagecache,
    )


def docker_started(settings: Settings) -> bool:
    """True when the configured server is the Docker one hopgraph started."""
    return (settings.runtime.home / _DOCKER_MARKER).exists()


def docker_available() -> bool:
    """True when a Docker engine answers (not merely a docker client on PATH)."""
    try:
        proc = subprocess.run(
            ["docker", "info", "--format", "{{.ServerVersion}}"],
            capture_output=True, text=True, timeout=10, check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0 and bool(proc.stdout.strip())


def resolve_connection(settings: Settings) -> Connection:
    """Where to connect: ``NEO4J_URI`` if set, else the server ``hopgraph db start`` runs."""
    n = settings.neo4j
    if n.uri:
        return Connection("external", n.uri, n.user, n.password, n.database, None,
                          n.connect_timeout_s)
    inst = local_instance(settings)
    kind: ServerKind = "docker" if docker_started(settings) else "local"
    password = n.password or inst.password()
    return Connection(kind, inst.uri, n.user, password, n.database, inst.browser_url,
                      n.connect_timeout_s)


def start_server(settings: Settings) -> Connection:
    """Start Docker's Neo4j or the local runtime; return how to reach it.

    Raises:
        RuntimeSetupError: ``NEO4J_URI`` points elsewhere, the server is already running, a port
            is taken, or the runtime could not be assembled or started.
    """
    if settings.neo4j.uri:
        raise RuntimeSetupError(
            f"NEO4J_URI is set ({settings.neo4j.uri}): hopgraph uses that server and starts none; "
            "unset NEO4J_URI to run a local one"
        )
    inst = local_instance(settings)
    if settings.runtime.prefer_docker and docker_available():
        _compose(settings, inst, "up", "-d", "--wait")
        (settings.runtime.home / _DOCKER_MARKER).write_text("1\n")
    else:
        inst.start()
    return resolve_connection(settings)


def stop_server(settings: Settings) -> str:
    """Stop the server hopgraph started; say what happened. Never stops a server it did not start."""
    if settings.neo4j.uri:
        return f"NEO4J_URI is set ({settings.neo4j.uri}): not a server hopgraph started; nothing stopped"
    inst = local_instance(settings)
    marker = settings.runtime.home / _DOCKER_MARKER
    if marker.exists():
        _compose(settings, inst, "stop")
        marker.unlink()
        return "stopped the Docker Neo4j container hopgraph started"
    if inst.stop():
        return "stopped the local Neo4j"
    return "no Neo4j started by hopgraph is running"


def _compose(settings: Settings, inst: LocalInstance, *args: str) -> None:
    compose = resources.files("hopgraph.docker").joinpath("docker-compose.yml")
    env = {
        "NEO4J_PASSWORD": inst.password(),
        "HOPGRAPH_BOLT_PORT": str(inst.bolt_port),
        "HOPGRAPH_HTTP_PORT": str(inst.http_port),
    }
    with resources.as_file(compose) as path:
        proc = subprocess.run(
            ["docker", "compose", "-f", str(path), *args],
            env={**os.environ, **env}, capture_output=True, text=True, check=False,
        )
    if proc.returncode != 0:
        raise RuntimeSetupError(f"docker compose {args[0]} failed: {proc.stderr.strip()[-300:]}")


def server_status(driver: neo4j.Driver, database: str) -> dict[str, Any]:
    """Version, edition, APOC and GDS versions and node count of the connected server."""
    from neo4j.exceptions import ClientError

    components, _, _ = driver.execute_query(
        "CALL dbms.components() YIELD name, versions, edition RETURN name, versions, edition",
        database_="system", routing_=neo4j.RoutingControl.READ,
    )
    info: dict[str, Any] = {
        "version": components[0]["versions"][0],
        "edition": components[0]["edition"],
    }
    for key, fn in (("apoc", "apoc.version"), ("gds", "gds.version")):
        try:
            rows, _, _ = driver.execute_query(
                neo4j.Query(f"RETURN {fn}() AS v"), database_=database,
                routing_=neo4j.RoutingControl.READ,
            )
            info[key] = rows[0]["v"]
        except ClientError:
            info[key] = None
    rows, _, _ = driver.execute_query(
        "MATCH (n) RETURN count(n) AS n", database_=database, routing_=neo4j.RoutingControl.READ
    )
    info["nodes"] = rows[0]["n"]
    return info


def instance_for_path(root: Path, cache_root: Path, bolt_port: int, http_port: int) -> LocalInstance:
    """A throwaway instance (tests, benchmarks) with its own directory and ports."""
    return LocalInstance(root=root, cache_root=cache_root, bolt_port=bolt_port, http_port=http_port)


def ensure_server(settings: Settings) -> tuple[Connection, bool]:
    """Connect to the configured server, starting the local one if none is configured or running.

    Returns:
        The connection and whether this call started a server.
    """
    if settings.neo4j.uri:
        return resolve_connection(settings), False
    inst = local_instance(settings)
    if inst.running_pid() is not None or docker_started(settings):
        return resolve_connection(settings), False
    return start_server(settings), True
