"""Database access: the query runner, connection helpers and the Neo4j runtimes."""

from hopgraph.db._runner import (
    Neo4jRunner,
    QueryRunner,
    ReadTransaction,
    Record,
    connect,
    translate_errors,
)

__all__ = ["Neo4jRunner", "QueryRunner", "ReadTransaction", "Record", "connect", "translate_errors"]
