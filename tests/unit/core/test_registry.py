"""The Cypher registry: header parsing and load-time validation."""

from __future__ import annotations

import pytest

from hopgraph.core.errors import QueryLoadError
from hopgraph.cypher import load_registry, parse_query

GOOD = """\
// purpose: Find units by id.
// mode: read
// param ids: list<string> -- unit ids
// param limit: int -- at most this many
// returns: id, text
MATCH (u:LegalUnit) WHERE u.id IN $ids
RETURN u.id AS id, u.text AS text LIMIT $limit
"""


def test_parses_header_and_body() -> None:
    q = parse_query("legal/find_units", GOOD)
    assert q.purpose == "Find units by id."
    assert q.mode == "read"
    assert dict(q.params) == {"ids": "list<string>", "limit": "int"}
    assert q.returns == ("id", "text")
    assert q.text.startswith("MATCH")
    assert q.plain_rows is False


def test_rows_plain_header_is_parsed_and_checked() -> None:
    src = GOOD.replace("// returns: id, text", "// returns: id, text\n// rows: plain")
    assert parse_query("legal/find_units", src).plain_rows is True
    with pytest.raises(QueryLoadError, match="takes 'plain', got 'nodes'"):
        parse_query("legal/find_units", src.replace("rows: plain", "rows: nodes"))


def test_undeclared_parameter_is_rejected() -> None:
    src = GOOD.replace("LIMIT $limit", "LIMIT $limit SKIP $offset")
    with pytest.raises(QueryLoadError, match=r"used but not declared: \['offset'\]"):
        parse_query("legal/find_units", src)


def test_unused_declared_parameter_is_rejected() -> None:
    src = GOOD.replace("// returns:", "// param extra: int -- never used\n// returns:")
    with pytest.raises(QueryLoadError, match=r"declared but not used: \['extra'\]"):
        parse_query("legal/find_units", src)


def test_dollar_inside_string_or_comment_is_not_a_parameter() -> None:
    src = GOOD.replace("RETURN u.id", "// costs $5\nRETURN '$notaparam' AS s, u.id")
    assert set(parse_query("legal/find_units", src).params) == {"ids", "limit"}


def test_apostrophe_in_a_comment_opens_no_string() -> None:
    # Read as a string, the comment's one apostrophe would hide $ids and $limit to the end.
    src = GOOD.replace("MATCH (u", "// the article's text\nMATCH (u")
    assert set(parse_query("legal/find_units", src).params) == {"ids", "limit"}
    # and a comment marker inside a string is no comment: $limit after it still counts
    src = GOOD.replace("RETURN u.id AS id", "RETURN 'http://x' AS url, u.id AS id")
    assert set(parse_query("legal/find_units", src).params) == {"ids", "limit"}


@pytest.mark.parametrize("missing", ["// purpose:", "// mode:", "// returns:"])
def test_incomplete_header_is_rejected(missing: str) -> None:
    src = "\n".join(ln for ln in GOOD.splitlines() if not ln.startswith(missing))
    with pytest.raises(QueryLoadError):
        parse_query("legal/find_units", src)


def test_shipped_registry_loads_and_checks_params() -> None:
    registry = load_registry()
    assert "admin/count_nodes" in registry
    registry.check_params("admin/count_nodes", {})
    with pytest.raises(QueryLoadError, match="unexpected"):
        registry.check_params("admin/count_nodes", {"x": 1})
    with pytest.raises(QueryLoadError, match="no query named"):
        registry["admin/nope"]


def test_include_inserts_a_fragment_of_the_same_area_and_checks_its_parameters() -> None:
    head = "// purpose: p.\n// mode: read\n// param ids: list<string> -- ids\n// returns: n\n"
    body = "WITH $ids AS ids\n// include: _count\n"
    fragments = {"legal/_count": "// counts\nMATCH (u:LegalUnit) WHERE u.id IN ids\n"
                                 "RETURN count(u) AS n LIMIT $limit\n"}
    with pytest.raises(QueryLoadError, match=r"used but not declared: \['limit'\]"):
        parse_query("legal/count_ids", head + body, fragments)
    q = parse_query("legal/count_ids", head.replace("// returns", "// param limit: int -- l\n"
                                                    "// returns") + body, fragments)
    assert "MATCH (u:LegalUnit) WHERE u.id IN ids" in q.text and "include" not in q.text
    with pytest.raises(QueryLoadError, match="no fragment 'legal/_missing'"):
        parse_query("legal/x", head + "// include: _missing\nRETURN 1 AS n", fragments)
    nested = {"legal/_a": "// include: _b\nRETURN 1 AS n"}
    with pytest.raises(QueryLoadError, match="includes another one"):
        parse_query("legal/x", head + "// include: _a\n", nested)


def test_shipped_fragment_is_shared_by_both_legal_queries() -> None:
    registry = load_registry()
    assert "legal/_trace_seeds" not in list(registry)
    trace = registry["legal/expand_context"].text
    full = registry["legal/retrieve_context"].text
    shared = "MATCH (s:LegalNode {id: seed_ids[seed_rank]}) WHERE s:LegalUnit"
    assert shared in trace and shared in full


def test_runner_takes_the_settings_default_timeout() -> None:
    # The README's query-API example builds a runner without a timeout.
    from hopgraph.core.settings import DEFAULT_QUERY_TIMEOUT_S
    from hopgraph.db import Neo4jRunner

    runner = Neo4jRunner(object(), database="neo4j")  # type: ignore[arg-type]  # no call made
    assert runner.timeout_s == DEFAULT_QUERY_TIMEOUT_S


class _NoServer:
    """A driver that must not be reached: the checks refuse the call before the server."""

    def execute_query(self, *args: object, **kwargs: object) -> object:
        raise AssertionError("the call reached the driver")

    def session(self, *args: object, **kwargs: object) -> object:
        raise AssertionError("the call reached the driver")


def test_runner_read_refuses_a_write_query_before_the_server() -> None:
    from hopgraph.db import Neo4jRunner

    runner = Neo4jRunner(_NoServer(), database="neo4j")  # type: ignore[arg-type]
    with pytest.raises(QueryLoadError, match=r"legal/derive_unit_validity: its header says "
                                             r"'// mode: write'; it cannot run as read \(use runner.write\)"):
        runner.read("legal/derive_unit_validity")


def test_runner_write_refuses_a_schema_query() -> None:
    from hopgraph.cypher import QueryRegistry
    from hopgraph.db import Neo4jRunner

    schema = parse_query("admin/create_index", "// purpose: p.\n// mode: schema\n// returns: -\n"
                                               "CREATE INDEX x IF NOT EXISTS FOR (n:X) ON (n.a)")
    runner = Neo4jRunner(_NoServer(), database="neo4j",  # type: ignore[arg-type]
                         registry=QueryRegistry({"admin/create_index": schema}))
    with pytest.raises(QueryLoadError, match="'// mode: schema'; it cannot run as read or write"):
        runner.write("admin/create_index")
    with pytest.raises(QueryLoadError, match="cannot run as read or write"):
        runner.write_transaction([("admin/create_index", {})])


def test_runner_checks_parameter_types_naming_query_and_parameter() -> None:
    from datetime import date, datetime

    from hopgraph.db import Neo4jRunner

    runner = Neo4jRunner(_NoServer(), database="neo4j")  # type: ignore[arg-type]
    with pytest.raises(QueryLoadError) as bad_date:
        runner.read("legal/get_text_as_of", ids=["x"], as_of="abc")
    message = str(bad_date.value)
    assert message.startswith("legal/get_text_as_of: parameter as_of (date): date expected, "
                              "got str 'abc' (pass a datetime.date")
    with pytest.raises(QueryLoadError, match=r"parameter as_of \(date\): date expected, got datetime"):
        runner.read("legal/get_text_as_of", ids=["x"], as_of=datetime(2024, 1, 1))
    with pytest.raises(QueryLoadError, match=r"parameter ids \(list<string>\): list<string> "
                                             r"expected, item 0: string expected, got int 5"):
        runner.read("legal/get_text_as_of", ids=[5], as_of=date(2024, 1, 1))
    with pytest.raises(QueryLoadError, match=r"parameter rows \(list<map>\): list<map> expected, "
                                             r"item 1: map expected, got str 'x'"):
        runner.write("legal/upsert_documents", rows=[{"id": "a", "props": {}}, "x"])


@pytest.mark.parametrize(("declared", "good", "bad"), [
    ("string", ["", "a"], [None, 1, b"a"]),
    ("int", [0, -3, 10**12], [True, 1.5, "1", None]),
    ("float", [0.5, 1, float("inf")], [True, "0.5", None]),
    ("boolean", [True, False], [0, 1, "true", None]),
    ("bool", [True], [0]),
    ("date", [__import__("datetime").date(2024, 6, 1)],
     ["2024-06-01", __import__("datetime").datetime(2024, 6, 1), None]),
    ("map", [{}, {"a": 1}], [[], "a", None]),
    ("list<string>", [[], [""], ("a", "b")], ["ab", [1], None]),
    ("list<float>", [[0.1, 2]], [[0.1, "x"], [None]]),
    ("list<map>", [[{"a": 1}]], [[[]]]),
    ("list<list<float>>", [[[0.1], []]], [[0.1]]),
    ("string|null", ["a", None], [1]),
    ("any", [None, 1, "x", [{}]], []),
])
def test_declared_types_accept_and_refuse(declared: str, good: list[object],
                                          bad: list[object]) -> None:
    from hopgraph.cypher import type_check

    check = type_check(declared)
    assert check is not None
    assert [v for v in good if check(v) is not None] == []
    assert [v for v in bad if check(v) is None] == []


def test_unknown_declared_type_is_a_load_error() -> None:
    with pytest.raises(QueryLoadError, match="parameter ids has unknown type 'list<strng>'"):
        parse_query("legal/find_units", GOOD.replace("list<string>", "list<strng>"))


def test_every_shipped_parameter_type_is_known() -> None:
    registry = load_registry()
    assert all(len(q.checks) == len(q.params) for q in registry.values())
