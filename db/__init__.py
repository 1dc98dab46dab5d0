"""Database access: the query runner, connection helpers and the Neo4j runtimes.

``install_schema`` / ``describe_schema`` are imported on first use: they read the schema from
the neomodel classes (:mod:`hopgraph.graph_models`), which a query path does not need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hopgraph.db._runner import (
    Neo4jRunner,
    QueryRunner,
    ReadTransaction,
    Record,
    connect,
    translate_errors,
)
from hopgraph.db._runtime import LocalInstance, free_port
from hopgraph.db._servers import (
    Connection,
    backup_database,
    check_free_space,
    database_state,
    docker_available,
    docker_started,
    ensure_server,
    local_instance,
    resolve_connection,
    restore_database,
    server_status,
    start_server,
    stop_server,
    wait_until_online,
)

if TYPE_CHECKING:
    from hopgraph.db._schema_install import describe_schema, install_schema

__all__ = [
    "Connection", "LocalInstance", "Neo4jRunner", "QueryRunner", "ReadTransaction", "Record",
    "backup_database", "check_free_space", "connect", "database_state", "describe_schema",
    "docker_available", "docker_started", "ensure_server", "free_port", "install_schema",
    "local_instance", "resolve_connection", "restore_database", "server_status", "start_server",
    "stop_server", "translate_errors", "wait_until_online",
]


def __getattr__(name: str) -> Any:
    if name in {"install_schema", "describe_schema"}:
        from hopgraph.db import _schema_install

        return getattr(_schema_install, name)
    raise AttributeError(f"module 'hopgraph.db' has no attribute {name!r}")
