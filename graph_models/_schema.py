"""The database schema, derived from the neomodel classes instead of being written twice.

Each node class contributes what its *own* properties declare: ``unique_index`` becomes a
uniqueness constraint, ``index`` a range index, ``fulltext_index`` a full-text index and
``vector_index`` a vector index, all on the label of the class that defines the property (so the
``LegalUnit`` indexes cover every level). Vector dimensions come from the configured embedder.

Schema DDL cannot take labels or index names as parameters; they come from the model classes (an
allow-list by construction) and are checked against an identifier pattern before quoting.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from neomodel import StructuredNode

from hopgraph.graph_models import _biomed, _legal, _sentence

IndexKind = Literal["unique", "range", "fulltext", "vector"]
_IDENT = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
MODULES = (_legal, _biomed, _sentence)


@dataclass(frozen=True)
class SchemaItem:
    """One constraint or index; ``name`` is stable so that retrieval queries can use it."""

    kind: IndexKind
    label: str
    prop: str
    name: str
    analyzer: str | None = None
    similarity: str | None = None

    def ddl(self, dimension: int) -> str:
        """The idempotent DDL statement for this item."""
        label, prop, name = _quote(self.label), _quote(self.prop), _quote(self.name)
        if self.kind == "unique":
            return f"CREATE CONSTRAINT {name} IF NOT EXISTS FOR (n:{label}) REQUIRE n.{prop} IS UNIQUE"
        if self.kind == "range":
            return f"CREATE INDEX {name} IF NOT EXISTS FOR (n:{label}) ON (n.{prop})"
        if self.kind == "fulltext":
            return (
                f"CREATE FULLTEXT INDEX {name} IF NOT EXISTS FOR (n:{label}) ON EACH [n.{prop}] "
                f"OPTIONS {{indexConfig: {{`fulltext.analyzer`: '{self.analyzer}', "
                "`fulltext.eventually_consistent`: false}}"
            )
        if dimension < 1 or dimension > 4096:
            raise ValueError(f"vector dimension must be 1..4096, got {dimension}")
        return (
            f"CREATE VECTOR INDEX {name} IF NOT EXISTS FOR (n:{label}) ON n.{prop} "
            f"OPTIONS {{indexConfig: {{`vector.dimensions`: {int(dimension)}, "
            f"`vector.similarity_function`: '{self.similarity}'}}}}"
        )


def _quote(identifier: str) -> str:
    if not _IDENT.match(identifier):
        raise ValueError(f"not an allowed schema identifier: {identifier!r}")
    return f"`{identifier}`"


def node_classes() -> list[type[StructuredNode]]:
    """Every node class defined in graph_models, in definition order."""
    found: list[type[StructuredNode]] = []
    for module in MODULES:
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, StructuredNode)
                and value is not StructuredNode
                and value.__module__ == module.__name__
            ):
                found.append(value)
    return found


def schema_items(classes: Iterable[type[StructuredNode]] | None = None) -> list[SchemaItem]:
    """The constraints and indexes the models declare, each on its defining class's label."""
    items: list[SchemaItem] = []
    for cls in classes if classes is not None else node_classes():
        label = cls.__label__
        for attr, prop in cls.defined_properties(aliases=False, rels=False).items():
            if any(attr in base.__dict__ for base in cls.__mro__[1:]):
                continue  # inherited: the index lives on the defining class's label
            prop_name = getattr(prop, "db_property", None) or attr  # `uid` is stored as `id`
            stem = f"{label.lower()}_{prop_name}"
            if getattr(prop, "unique_index", False):
                items.append(SchemaItem("unique", label, prop_name, f"{stem}_unique"))
            elif getattr(prop, "index", False):
                items.append(SchemaItem("range", label, prop_name, f"{stem}_range"))
            fulltext = getattr(prop, "fulltext_index", None)
            if fulltext is not None:
                items.append(
                    SchemaItem("fulltext", label, prop_name, f"{stem}_fulltext",
                               analyzer=fulltext.analyzer)
                )
            vector = getattr(prop, "vector_index", None)
            if vector is not None:
                items.append(
                    SchemaItem("vector", label, prop_name, f"{stem}_vector",
                               similarity=vector.similarity_function)
                )
    return items


def index_name(label: str, prop: str, kind: IndexKind) -> str:
    """The stable name of an index the models declare.

    Raises:
        KeyError: the models declare no such index.
    """
    suffix = {"unique": "unique", "range": "range", "fulltext": "fulltext", "vector": "vector"}[kind]
    name = f"{label.lower()}_{prop}_{suffix}"
    if not any(item.name == name for item in schema_items()):
        raise KeyError(f"graph_models declare no {kind} index {name}")
    return name
