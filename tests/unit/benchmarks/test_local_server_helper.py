"""The benchmarks start their own Neo4j through one helper (issue 28): ``local_neo4j`` in
``tests/benchmarks/_common.py``. A benchmark that builds a ``LocalInstance`` itself must be one
whose figure is the server's start or recovery, or one that stops and restarts its server."""

from __future__ import annotations

from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
# the server's start or recovery is the figure, or the server is stopped and started again
OWN_INSTANCE = {"_common.py", "runtime_startup.py", "reliability.py", "biomed_load_scale.py",
                "legal_retrieval_scale.py", "biomed_region_latency.py"}


def test_benchmarks_start_their_server_through_the_one_helper() -> None:
    own = {p.name for p in BENCHMARKS.glob("*.py")
           if "LocalInstance(" in p.read_text(encoding="utf-8")}
    assert own <= OWN_INSTANCE, (
        f"use tests.benchmarks._common.local_neo4j instead: {sorted(own - OWN_INSTANCE)}")
    helped = {p.name for p in BENCHMARKS.glob("*.py")
              if "local_neo4j(" in p.read_text(encoding="utf-8")} - {"_common.py"}
    assert len(helped) >= 10, sorted(helped)
