"""Settings from the environment, and the schema derived from graph_models."""

from __future__ import annotations

from pathlib import Path

import pytest

from hopgraph.core.errors import ConfigError
from hopgraph.core.settings import DEFAULT_BATCH_SIZE, Settings
from hopgraph.graph_models import node_classes, schema_items


def test_settings_read_from_given_mapping(tmp_path: Path) -> None:
    s = Settings.from_env({
        "NEO4J_URI": "bolt://db:7687", "NEO4J_PASSWORD": "pw", "HOPGRAPH_HOME": str(tmp_path),
        "HOPGRAPH_LLM_BASE_URL": "http://127.0.0.1:8080/v1", "HOPGRAPH_BATCH_SIZE": "500",
    })
    assert s.neo4j.uri == "bolt://db:7687"
    assert s.neo4j.password == "pw"
    assert s.runtime.home == tmp_path
    assert s.embedder.cache_dir == tmp_path / "embedding-cache"
    assert s.llm.base_url == "http://127.0.0.1:8080/v1"
    assert s.batch_size == 500


def test_settings_defaults_need_no_environment() -> None:
    s = Settings.from_env({})
    assert s.neo4j.uri is None  # the server hopgraph runs
    assert s.llm.base_url is None  # no LLM: retrieval-only answers
    assert s.batch_size == DEFAULT_BATCH_SIZE


@pytest.mark.parametrize("var", ["HOPGRAPH_BATCH_SIZE", "HOPGRAPH_BOLT_PORT"])
def test_bad_numbers_name_the_variable(var: str) -> None:
    with pytest.raises(ConfigError, match=var):
        Settings.from_env({var: "lots"})


def test_every_node_class_is_covered_by_a_uniqueness_constraint() -> None:
    unique_labels = {i.label for i in schema_items() if i.kind == "unique"}
    for cls in node_classes():
        assert unique_labels & set(cls.inherited_labels()), cls.__name__


def test_indexes_live_on_the_defining_label_only() -> None:
    items = schema_items()
    names = [i.name for i in items]
    assert len(names) == len(set(names))
    assert "legalunit_embedding_vector" in names
    assert "legalunit_text_segmented_fulltext" in names
    assert not any(i.label == "Article" for i in items)  # inherited from LegalUnit


def test_ddl_quotes_identifiers_and_uses_dimension() -> None:
    vector = next(i for i in schema_items() if i.name == "legalunit_embedding_vector")
    ddl = vector.ddl(768)
    assert "`LegalUnit`" in ddl and "`vector.dimensions`: 768" in ddl
    with pytest.raises(ValueError):
        vector.ddl(0)
