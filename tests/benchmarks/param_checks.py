"""What the runner's declared-type checks cost per call (issue 18), against the names-only check.

Every ``runner.read`` / ``write`` checks its parameters against the query's header before the
server: names (as before) and now each value's type, with the mode. The checks are built once
per query when the registry loads. This measures, in one process and one run, the old check
(names only, the baseline) and the new one on

* the hot read: ``legal/retrieve_context`` with the parameters a real ``LegalRetriever.retrieve``
  passes (a 384-float vector, folded term lists, weights, a date);
* a large write: ``legal/upsert_units`` with 1,000 rows (the loader's default batch).

Run: ``python -m tests.benchmarks.param_checks`` (writes ``results/param_checks.md``).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from hopgraph.core.errors import QueryLoadError
from hopgraph.cypher import QueryRegistry, load_registry
from hopgraph.retrieval import LegalRetriever
from tests.retrieval_fixtures import HashEmbedder

RESULTS = Path(__file__).parent / "results" / "param_checks.md"
QUESTION = "Mức hưởng bảo hiểm y tế khi khám trái tuyến tại bệnh viện tuyến tỉnh là bao nhiêu?"


class _Recorder:
    """Keeps the parameters of the first read and answers nothing."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def read(self, key: str, **params: Any) -> list[dict[str, Any]]:
        self.calls.append((key, params))
        return []

    def write(self, key: str, **params: Any) -> list[dict[str, Any]]:
        raise AssertionError("not used")

    def write_transaction(self, steps: Sequence[tuple[str, Mapping[str, Any]]]) -> list[list[dict[str, Any]]]:
        raise AssertionError("not used")

    def read_transaction(self, work: Callable[[Any], Any]) -> Any:
        return work(self)


def names_only(registry: QueryRegistry, key: str, params: Mapping[str, object]) -> None:
    """The check before issue 18 (the baseline)."""
    query = registry[key]
    missing = sorted(query.params.keys() - params.keys())
    extra = sorted(params.keys() - query.params.keys())
    if missing or extra:
        raise QueryLoadError(f"{key}: missing parameters {missing}, unexpected {extra}")


def _time_us(fn: Callable[[], object], calls: int, rounds: int = 7) -> float:
    per_round = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(calls):
            fn()
        per_round.append((time.perf_counter() - t) / calls * 1e6)
    return statistics.median(per_round)


def main() -> None:
    registry = load_registry()
    recorder = _Recorder()
    LegalRetriever(recorder, HashEmbedder()).retrieve(QUESTION, k=10, as_of=date(2024, 6, 1))
    key, params = recorder.calls[0]
    rows = [{"id": f"9/2026/NĐ-CP:D{i}", "level": "Article", "version": False,
             "parent": "9/2026/NĐ-CP", "parent_kind": "document", "parent_doc": "9/2026/NĐ-CP",
             "props": {"text": "x", "embedding": [0.1] * 384}} for i in range(1000)]
    write = {"rows": rows}
    lines = ["# param_checks — declared-type checks per call vs the names-only check", "",
             f"Command: `python -m tests.benchmarks.param_checks`; run "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on the shared 2-core "
             f"machine (other engineers' jobs running: absolute figures are noisy, the ratio "
             f"is taken in one run). Median of 7 rounds.", "",
             "| call | names only (baseline) µs | names + types + mode µs | added µs | ratio |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for label, k, p, modes, n in [
        (f"`{key}`, {len(params)} parameters (a real retrieve)", key, params, ("read",), 20000),
        ("`legal/upsert_units`, 1,000 rows", "legal/upsert_units", write, ("read", "write"), 200),
    ]:
        base = _time_us(lambda k=k, p=p: names_only(registry, k, p), n)
        new = _time_us(lambda k=k, p=p, m=modes: registry.check_params(k, p, m), n)
        lines.append(f"| {label} | {base:.2f} | {new:.2f} | {new - base:.2f} | {new / base:.2f}× |")
    lines += ["", "For scale: `legal/retrieve_context` itself runs in 20–140 ms once planned "
              "(`legal_plan_cache.md`), so the added tens of microseconds are 0.03–0.3 % of the "
              "hot read, below its run-to-run noise; a 1,000-row write batch takes seconds on "
              "the server. A 384-float vector is checked in one pass over its item types (an "
              "ABC isinstance per item, the first version, cost 1.1 ms per retrieve)."]
    text = "\n".join(lines) + "\n"
    RESULTS.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
