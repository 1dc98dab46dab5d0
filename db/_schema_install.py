"""Installing the schema the models declare, idempotently, and describing what is installed."""

from __future__ import annotations

from typing import Any

import neo4j

from hopgraph.db._runner import translate_errors
from hopgraph.graph_models import schema_items

DEFAULT_INDEX_WAIT_S = 300


def install_schema(
    driver: neo4j.Driver, database: str, *, dimension: int, wait_s: int = DEFAULT_INDEX_WAIT_S
) -> list[str]:
    """Create every constraint and index from ``graph_models`` (``IF NOT EXISTS``); wait for them.

    Args:
        driver: an open driver.
        database: the database to install into.
        dimension: vector dimension of the configured embedder.
        wait_s: how long to wait for indexes to come online.

    Returns:
        The names of the items that did not exist before.
    """
    before = {row["name"] for row in describe_schema(driver, database)}
    with translate_errors("schema install"), driver.session(database=database) as session:
        for item in schema_items():
            session.run(item.ddl(dimension)).consume()
        session.run("CALL db.awaitIndexes($s)", s=wait_s).consume()
    after = {row["name"] for row in describe_schema(driver, database)}
    return sorted(after - before)


def describe_schema(driver: neo4j.Driver, database: str) -> list[dict[str, Any]]:
    """Every index (constraint-backed ones included) with its type, labels, properties and options."""
    with translate_errors("schema describe"):
        records, _, _ = driver.execute_query(
            "SHOW INDEXES YIELD name, type, labelsOrTypes, properties, options, state "
            "WHERE type <> 'LOOKUP' "
            "RETURN name, type, labelsOrTypes, properties, options, state ORDER BY name",
            database_=database, routing_=neo4j.RoutingControl.READ,
        )
    return [r.data() for r in records]
