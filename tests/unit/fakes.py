"""The one recording fake of ``hopgraph.db.QueryRunner`` for unit tests (no database).

Like graphdatascience's ``CollectingQueryRunner``: it records every query it is asked to run as
``(key, params)`` and answers from canned rows. What a test needs beyond that is an argument,
not another copy of the class:

- ``answers``: rows per query key (a mapping; a missing key answers ``[]``), or a function
  ``(key, params) -> rows``, which may raise (a server that goes away mid-load);
- ``check_params``: validate every call against the registered query's declared parameters;
- ``refuse``: methods the code under test must not call (``"write"``: "the loader writes in
  transactions"); a call fails the test with an AssertionError naming it.

``transactions`` holds each ``write_transaction`` that went through whole (a step that raised
commits nothing), and ``committed(key, name)`` reads one parameter of a key out of them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, TypeVar

from hopgraph.cypher import load_registry

Rows = list[dict[str, Any]]
Answer = Callable[[str, dict[str, Any]], Rows]
T = TypeVar("T")


class RecordingRunner:
    """Records ``(key, params)`` of every query; answers from ``answers`` (see the module)."""

    def __init__(self, answers: Mapping[str, Rows] | Answer | None = None, *,
                 check_params: bool = False, refuse: Collection[str] = ()) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.transactions: list[list[tuple[str, dict[str, Any]]]] = []
        self._answers = answers
        self._registry = load_registry() if check_params else None
        self._refuse = frozenset(refuse)

    def read(self, key: str, **params: Any) -> Rows:
        return self._run("read", key, params)

    def write(self, key: str, **params: Any) -> Rows:
        return self._run("write", key, params)

    def write_transaction(self, steps: Sequence[tuple[str, Mapping[str, Any]]]) -> list[Rows]:
        results = [self._run("write_transaction", key, dict(params)) for key, params in steps]
        self.transactions.append([(key, dict(params)) for key, params in steps])
        return results

    def read_transaction(self, work: Callable[[Any], T]) -> T:
        self._refused("read_transaction", "")
        return work(self)

    def params_of(self, key: str) -> list[dict[str, Any]]:
        """The parameters of every call of ``key``, in order."""
        return [params for k, params in self.calls if k == key]

    def committed(self, key: str, name: str) -> list[Any]:
        """Parameter ``name`` of every step ``key`` in the write transactions that went through."""
        return [params[name] for steps in self.transactions for k, params in steps if k == key]

    def _run(self, method: str, key: str, params: dict[str, Any]) -> Rows:
        self._refused(method, key)
        if self._registry is not None:
            self._registry.check_params(key, params)
        self.calls.append((key, params))
        if self._answers is None:
            return []
        if callable(self._answers):
            return self._answers(key, params)
        return self._answers.get(key, [])

    def _refused(self, method: str, key: str) -> None:
        if method in self._refuse:
            raise AssertionError(f"unexpected {method}({key!r}): this test's runner refuses "
                                 f"{', '.join(sorted(self._refuse))}")
