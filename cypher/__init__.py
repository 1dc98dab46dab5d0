"""Every Cypher query of hopgraph, one ``.cypher`` file each, and the registry that loads them.

A file ``cypher/<area>/<verb_noun>.cypher`` starts with a header of ``//`` lines::

    // purpose: Trace validity from seed units to the provisions in force.
    // mode: read
    // param seed_ids: list<string> -- ids of the seed units
    // param as_of: date -- the date at which validity is judged
    // returns: seed_id, terminal_id, path
    // rows: plain

``// rows: plain`` (optional) promises that the returned values are maps, lists and scalars only,
never nodes, relationships or paths: the runner then hands the driver's values over as they are,
without ``Record.data()``'s recursive walk (a few milliseconds on a nested expansion result).

A body line ``// include: _<fragment>`` is replaced by the file ``cypher/<area>/_<fragment>.cypher``
of the same area: a part shared by several queries (one round-trip query and a stand-alone one
run the same validity tracing). Fragments are not queries themselves; their leading ``//`` lines
describe them, and the including query declares every parameter they use.

The registry is loaded once (:func:`load_registry`) and validated at load time: the header must
name a purpose, a mode and the returned columns, the ``$parameters`` used in the body (with
its fragments) must be exactly the declared ones, and every declared type must be one of
``string``, ``int``, ``float``, ``boolean``, ``date``, ``map``, ``any``, ``list<T>`` or ``T|null``.
Queries are addressed as ``"<area>/<name>"``.

Each call is checked against the header before it reaches the server
(:meth:`QueryRegistry.check_params`): the parameter names, each value's type (a ``date`` is a
``datetime.date``, never a string or a ``datetime``, which Cypher would compare with a date as
null and so match nothing), and the mode the caller runs it in (``runner.read`` refuses a write
query). The type checks are built once per query at load time, so a call costs a few
microseconds (``tests/benchmarks/param_checks.py``).
"""

from __future__ import annotations

import datetime as dt
import numbers
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Literal

from hopgraph.core.errors import QueryLoadError

__all__ = ["CypherQuery", "Mode", "QueryRegistry", "load_registry", "parse_query", "type_check"]

Mode = Literal["read", "write", "schema"]
_MODES = ("read", "write", "schema")
_HEADER = re.compile(r"^//\s*(purpose|mode|param|returns|rows)\b:?\s*(.*)$")
_PARAM_DECL = re.compile(r"^(\w+)\s*:\s*([^-]+?)\s*(?:--\s*(.*))?$")
# One left-to-right scan: whichever opens first wins, so an apostrophe inside a comment
# ("the article's text") opens no string, and "//" inside a string opens no comment.
_LITERAL_OR_COMMENT = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|//[^\n]*")
_PARAM_USE = re.compile(r"\$(\w+)")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_INCLUDE = re.compile(r"^\s*//\s*include:\s*(\S+)\s*$")

# A value check: None when the value fits, else what is wrong with it ("got str '2024-06-01'").
Check = Callable[[object], str | None]


def _got(value: object) -> str:
    shown = repr(value)
    return f"got {type(value).__name__} {shown[:60] + '…' if len(shown) > 60 else shown}"


def _scalar(name: str, fits: Callable[[object], bool], hint: str = "",
            exact: frozenset[type] = frozenset()) -> Check:
    def check(value: object) -> str | None:
        if type(value) in exact or fits(value):
            return None
        return f"{name} expected, {_got(value)}{hint}"
    # the common exact types, for a list's one-pass check (an ABC isinstance per item costs
    # about a microsecond: 384 floats of a query vector would cost a millisecond)
    check.exact = exact  # type: ignore[attr-defined]
    return check


def _is_date(v: object) -> bool:
    if isinstance(v, dt.date):
        return not isinstance(v, dt.datetime)
    return type(v).__name__ == "Date" and type(v).__module__.startswith("neo4j")


_SCALARS: dict[str, Check] = {
    "string": _scalar("string", lambda v: isinstance(v, str), exact=frozenset({str})),
    "int": _scalar("int", lambda v: isinstance(v, numbers.Integral) and not isinstance(v, bool),
                   exact=frozenset({int})),
    "float": _scalar("float", lambda v: isinstance(v, numbers.Real) and not isinstance(v, bool),
                     exact=frozenset({float, int})),
    "boolean": _scalar("boolean", lambda v: isinstance(v, bool), exact=frozenset({bool})),
    "date": _scalar("date", _is_date,
                    " (pass a datetime.date: Cypher compares a string or a datetime with a date "
                    "as null, and the query would silently match nothing)",
                    exact=frozenset({dt.date})),
    "map": _scalar("map", lambda v: isinstance(v, Mapping), exact=frozenset({dict})),
    "any": lambda v: None,
}
_SCALARS["bool"] = _SCALARS["boolean"]
_LIST = re.compile(r"^list\s*<\s*(.+)\s*>$")


def type_check(declared: str) -> Check | None:
    """The value check of a declared parameter type, or None when the type is not known."""
    alternatives = [a.strip() for a in declared.split("|")]
    nullable = "null" in alternatives
    alternatives = [a for a in alternatives if a != "null"]
    if len(alternatives) != 1:
        return None
    inner = alternatives[0]
    listed = _LIST.match(inner)
    if listed is not None:
        element = type_check(listed.group(1))
        if element is None:
            return None
        base = _list_check(inner, element)
    else:
        scalar = _SCALARS.get(inner)
        if scalar is None:
            return None
        base = scalar
    if not nullable:
        return base

    def check(value: object) -> str | None:
        return None if value is None else base(value)
    return check


def _list_check(declared: str, element: Check) -> Check:
    exact: frozenset[type] = getattr(element, "exact", frozenset())

    def check(value: object) -> str | None:
        if not isinstance(value, list | tuple):
            return f"{declared} expected, {_got(value)}"
        if exact and exact.issuperset(map(type, value)):
            return None
        for i, item in enumerate(value):
            problem = element(item)
            if problem is not None:
                return f"{declared} expected, item {i}: {problem}"
        return None
    return check


@dataclass(frozen=True)
class CypherQuery:
    """One validated query: its text and what its header declares."""

    key: str
    text: str
    purpose: str
    mode: Mode
    params: Mapping[str, str]
    returns: tuple[str, ...]
    plain_rows: bool = False
    # (name, check) per declared parameter, built once from ``params`` when the query loads
    checks: tuple[tuple[str, Check], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.checks or not self.params:
            return
        checks = []
        for name, declared in self.params.items():
            check = type_check(declared)
            if check is None:
                raise QueryLoadError(
                    f"{self.key}.cypher: parameter {name} has unknown type {declared!r} (use "
                    f"string, int, float, boolean, date, map, any, list<T>, T|null)")
            checks.append((name, check))
        object.__setattr__(self, "checks", tuple(checks))


def parse_query(key: str, source: str, fragments: Mapping[str, str] | None = None) -> CypherQuery:
    """Parse and validate one query file.

    Args:
        key: ``"<area>/<name>"``, used in messages and as the registry key.
        source: the file's text.
        fragments: ``"<area>/_<name>"`` -> fragment text, for ``// include:`` lines.

    Raises:
        QueryLoadError: the header is incomplete, an include names no fragment, or the
            parameters do not match the body.
    """
    purpose = ""
    mode = ""
    returns: tuple[str, ...] | None = None
    plain_rows = False
    params: dict[str, str] = {}
    body_lines: list[str] = []
    in_header = True
    for lineno, line in enumerate(source.splitlines(), start=1):
        included = _INCLUDE.match(line)
        if included is not None:
            in_header = False
            body_lines.append(_fragment(key, lineno, included.group(1), fragments or {}))
            continue
        match = _HEADER.match(line.strip()) if in_header else None
        if match is None:
            if line.strip() and not line.strip().startswith("//"):
                in_header = False
            body_lines.append(line)
            continue
        field, value = match.group(1), match.group(2).strip()
        if field == "purpose":
            purpose = value
        elif field == "mode":
            mode = value
        elif field == "returns":
            returns = tuple(c.strip() for c in value.split(",") if c.strip() and c.strip() != "-")
        elif field == "rows":
            if value != "plain":
                raise QueryLoadError(f"{key}.cypher line {lineno}: '// rows:' takes 'plain', got {value!r}")
            plain_rows = True
        else:
            decl = _PARAM_DECL.match(value)
            if decl is None:
                raise QueryLoadError(f"{key}.cypher line {lineno}: bad param line {value!r}")
            params[decl.group(1)] = decl.group(2).strip()
    if not purpose:
        raise QueryLoadError(f"{key}.cypher: header has no '// purpose:' line")
    if mode not in _MODES:
        raise QueryLoadError(f"{key}.cypher: '// mode:' must be one of {_MODES}, got {mode!r}")
    if returns is None:
        raise QueryLoadError(f"{key}.cypher: header has no '// returns:' line (use '-' for none)")
    body = "\n".join(body_lines).strip()
    if not body:
        raise QueryLoadError(f"{key}.cypher: no query after the header")
    code = _LITERAL_OR_COMMENT.sub(lambda m: "" if m.group().startswith("//") else "''", body)
    used = set(_PARAM_USE.findall(code))
    undeclared = sorted(used - params.keys())
    unused = sorted(params.keys() - used)
    if undeclared:
        raise QueryLoadError(f"{key}.cypher: parameters used but not declared: {undeclared}")
    if unused:
        raise QueryLoadError(f"{key}.cypher: parameters declared but not used: {unused}")
    return CypherQuery(
        key=key, text=body, purpose=purpose, mode=mode,  # type: ignore[arg-type]
        params=params, returns=returns, plain_rows=plain_rows,
    )


def _fragment(key: str, lineno: int, name: str, fragments: Mapping[str, str]) -> str:
    area = key.split("/", 1)[0]
    full = name if "/" in name else f"{area}/{name}"
    text = fragments.get(full)
    if text is None:
        raise QueryLoadError(f"{key}.cypher line {lineno}: no fragment {full!r} to include "
                             f"(fragments are cypher/<area>/_<name>.cypher)")
    if any(_INCLUDE.match(line) for line in text.splitlines()):
        raise QueryLoadError(f"{key}.cypher line {lineno}: fragment {full!r} includes another one")
    return text.strip()


class QueryRegistry(Mapping[str, CypherQuery]):
    """Read-only mapping ``"<area>/<name>" -> CypherQuery``."""

    def __init__(self, queries: Mapping[str, CypherQuery]) -> None:
        self._queries = dict(queries)

    def __getitem__(self, key: str) -> CypherQuery:
        try:
            return self._queries[key]
        except KeyError:
            raise QueryLoadError(f"no query named {key!r} in cypher/") from None

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._queries))

    def __len__(self) -> int:
        return len(self._queries)

    def check_params(self, key: str, params: Mapping[str, object],
                     modes: tuple[Mode, ...] | None = None) -> CypherQuery:
        """The query ``key`` once ``params`` fit its header, and its mode is one of ``modes``
        (any mode when None).

        Raises:
            QueryLoadError: no such query, a wrong mode, a missing or unexpected parameter, or
                a value of the wrong type; the message names the query and the parameter.
        """
        query = self[key]
        if modes is not None and query.mode not in modes:
            raise QueryLoadError(
                f"{key}: its header says '// mode: {query.mode}'; it cannot run as "
                f"{' or '.join(modes)}" + (" (use runner.write)" if query.mode == "write" else ""))
        if params.keys() != query.params.keys():
            missing = sorted(query.params.keys() - params.keys())
            extra = sorted(params.keys() - query.params.keys())
            raise QueryLoadError(f"{key}: missing parameters {missing}, unexpected {extra}")
        for name, check in query.checks:
            problem = check(params[name])
            if problem is not None:
                raise QueryLoadError(
                    f"{key}: parameter {name} ({query.params[name]}): {problem}")
        return query


@lru_cache(maxsize=1)
def load_registry() -> QueryRegistry:
    """Load and validate every ``.cypher`` file shipped in this package (once per process)."""
    root = resources.files(__name__)
    queries: dict[str, CypherQuery] = {}
    areas = [a for a in sorted(root.iterdir(), key=lambda p: p.name)
             if a.is_dir() and not a.name.startswith(("_", "."))]
    fragments = {f"{a.name}/{e.name[: -len('.cypher')]}": e.read_text(encoding="utf-8")
                 for a in areas for e in a.iterdir()
                 if e.name.startswith("_") and e.name.endswith(".cypher")}
    for area in areas:
        for entry in sorted(area.iterdir(), key=lambda p: p.name):
            if not entry.name.endswith(".cypher") or entry.name.startswith("_"):
                continue
            name = entry.name[: -len(".cypher")]
            if not _NAME.match(name):
                raise QueryLoadError(f"{area.name}/{entry.name}: file name must be verb_noun")
            key = f"{area.name}/{name}"
            queries[key] = parse_query(key, entry.read_text(encoding="utf-8"), fragments)
    return QueryRegistry(queries)
