"""Choosing and driving a server: an existing Neo4j (``NEO4J_URI``), Docker, or the local runtime.

``hopgraph db start`` picks Docker when an engine answers (and Docker is not disabled), else the
local runtime. Both keep their generated password in the hopgraph home, readable by the user only.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar

import neo4j

from hopgraph.core.errors import RuntimeSetupError
from hopgraph.core.settings import DEFAULT_CONNECT_TIMEOUT_S, DEFAULT_MIN_FREE_MB, Settings
from hopgraph.db._runner import connect
from hopgraph.db._runtime import LocalInstance

ServerKind = Literal["external", "docker", "local"]
_DOCKER_MARKER = "docker-started"
# How long ``db start`` waits, after Bolt answers, for the database to come online (recovery of
# a large transaction log takes a while; a database that fails to recover says so at once).
DATABASE_ONLINE_TIMEOUT_S = 180.0
_STATE_QUERY = ("SHOW DATABASES YIELD name, currentStatus, statusMessage WHERE name = $name "
                "RETURN currentStatus, statusMessage")

T = TypeVar("T")


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
    conn = resolve_connection(settings)
    log = None if docker_started(settings) else inst.root / "logs" / "debug.log"
    wait_until_online(conn, log=log)
    return conn


def database_state(driver: neo4j.Driver, database: str) -> tuple[str, str]:
    """The database's current status (``online``, ``offline``, ``starting`` …) and the server's
    message about it (why it is offline), from ``SHOW DATABASES`` on the system database."""
    rows, _, _ = driver.execute_query(_STATE_QUERY, {"name": database}, database_="system",
                                      routing_=neo4j.RoutingControl.READ)
    if not rows:
        return "missing", f"the server has no database named '{database}'"
    return str(rows[0]["currentStatus"]), " ".join(str(rows[0]["statusMessage"] or "").split())


def wait_until_online(conn: Connection, *, timeout_s: float = DATABASE_ONLINE_TIMEOUT_S,
                      log: Path | None = None) -> None:
    """Wait until the connection's database is ``online``.

    Raises:
        RuntimeSetupError: the database is offline with a reason (it failed to start, e.g. its
            transaction log could not be recovered), missing, or not online within
            ``timeout_s``; the message names the state, the server's reason and what to do.
    """
    from hopgraph.db._runner import translate_errors

    deadline = time.monotonic() + timeout_s
    with translate_errors("database status"):
        driver = conn.driver()
        try:
            while True:
                status, message = database_state(driver, conn.database)
                if status == "online":
                    return
                failed = status in ("offline", "quarantined", "missing") and bool(message)
                if failed or time.monotonic() >= deadline:
                    break
                time.sleep(1.0)
        finally:
            driver.close()
    where = f"; server log: {log}" if log else ""
    raise RuntimeSetupError(
        f"Neo4j answers at {conn.uri} but its database '{conn.database}' is {status}"
        f"{': ' + message if message else ''}{where}. Free disk space if it is full, then "
        "'hopgraph db stop' and 'hopgraph db start'; 'hopgraph db restore DUMP' brings back a "
        "backup")


def check_free_space(settings: Settings, conn: Connection, *,
                     min_free_mb: float = DEFAULT_MIN_FREE_MB) -> float | None:
    """Refuse to start a load when the disk of the local server's store has less than
    ``min_free_mb`` free; return the free megabytes (None: not a local store, not checked).

    Raises:
        RuntimeSetupError: less free space than ``min_free_mb``.
    """
    if conn.kind != "local":
        return None  # an external or Docker server's disk is not visible from here
    inst = local_instance(settings)
    path = inst.root / "data"
    while not path.exists() and path != path.parent:  # a store not created yet: its disk
        path = path.parent
    free_mb = shutil.disk_usage(path).free / 1e6
    if free_mb < min_free_mb:
        raise RuntimeSetupError(
            f"only {free_mb:.0f} MB free on the disk of the Neo4j store ({path}); a load needs "
            f"at least {min_free_mb:.0f} MB (HOPGRAPH_MIN_FREE_MB / --min-free-mb): free space "
            "first; nothing was loaded")
    return free_mb


def _local_only(settings: Settings, what: str) -> LocalInstance:
    if settings.neo4j.uri or docker_started(settings):
        where = settings.neo4j.uri or "the Docker container"
        raise RuntimeSetupError(
            f"{what} works on the local runtime hopgraph runs; the server in use is {where}: "
            "run neo4j-admin database dump/load there")
    return local_instance(settings)


def backup_database(settings: Settings, to_dir: Path | None = None) -> Path:
    """Dump the local server's ``neo4j`` database into ``to_dir`` (default: <home>/backups) as
    ``neo4j-<UTC time>.dump``; a running server is stopped for the dump and started again.

    Raises:
        RuntimeSetupError: not the local runtime, too little free space, or the dump failed.
    """
    inst = _local_only(settings, "hopgraph db backup")
    target = to_dir or settings.runtime.home / "backups"
    target.mkdir(parents=True, exist_ok=True)
    store = inst.root / "data" / "databases" / "neo4j"
    size = sum(p.stat().st_size for p in store.rglob("*") if p.is_file()) if store.exists() else 0
    if shutil.disk_usage(target).free < size:
        raise RuntimeSetupError(f"{target}: {shutil.disk_usage(target).free / 1e6:.0f} MB free, "
                                f"the store is {size / 1e6:.0f} MB; choose another --to folder")
    return _stopped(settings, inst, lambda: _dump_to(inst, target))


def restore_database(settings: Settings, dump: Path) -> None:
    """Replace the local server's ``neo4j`` database with ``dump``; a running server is stopped
    for the load and started again (and must come online).

    Raises:
        RuntimeSetupError: not the local runtime, no such file, or the load failed.
    """
    inst = _local_only(settings, "hopgraph db restore")
    if not dump.is_file():
        raise RuntimeSetupError(f"{dump}: no such dump file")
    _stopped(settings, inst, lambda: inst.load_dump(dump))


def _dump_to(inst: LocalInstance, target: Path) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    staging = target / f".dump-{stamp}"
    produced = inst.dump(staging)
    final = target / f"neo4j-{stamp}.dump"
    produced.rename(final)
    shutil.rmtree(staging, ignore_errors=True)
    return final


def _stopped(settings: Settings, inst: LocalInstance, work: Callable[[], T]) -> T:
    """``work()`` with the local server stopped; started again (and online) if it was up."""
    was_running = inst.stop()
    try:
        return work()
    finally:
        if was_running:
            inst.start()
            wait_until_online(resolve_connection(settings),
                              log=inst.root / "logs" / "debug.log")


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
    """Version, edition, APOC and GDS versions and node count of the connected server, and the
    database's status (``database``, with the server's ``reason`` when it is not online: then
    APOC, GDS and the node count are None)."""
    from neo4j.exceptions import ClientError

    components, _, _ = driver.execute_query(
        "CALL dbms.components() YIELD name, versions, edition RETURN name, versions, edition",
        database_="system", routing_=neo4j.RoutingControl.READ,
    )
    status, reason = database_state(driver, database)
    info: dict[str, Any] = {
        "version": components[0]["versions"][0],
        "edition": components[0]["edition"],
        "database": status, "reason": reason or None,
    }
    if status != "online":
        return {**info, "apoc": None, "gds": None, "nodes": None}
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
