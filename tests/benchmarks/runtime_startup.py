"""Cold and warm start-up of the local Neo4j runtime.

Measures, in one run: (1) assembling NEO4J_HOME from Maven Central with an empty local Maven
repository and an empty hopgraph cache (what a fresh machine pays once), (2) the first start of a
new instance (creates the system database, sets the password), (3) a warm start of the same
instance after a clean stop, (4) a start of a new instance on the already assembled home.
Writes tests/benchmarks/results/runtime_startup.md.

    python -m tests.benchmarks.runtime_startup [--keep-maven-cache]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import tempfile
import time
from pathlib import Path

from hopgraph.db._runtime import NEO4J_VERSION, LocalInstance, assemble, free_port

RESULTS = Path(__file__).parent / "results" / "runtime_startup.md"


def _timed(fn: object) -> float:
    started = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keep-maven-cache", action="store_true",
                        help="use ~/.m2 instead of an empty Maven repository")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="hopgraph-startup-"))
    try:
        if not args.keep_maven_cache:
            os.environ["MAVEN_OPTS"] = f"-Dmaven.repo.local={work / 'm2'}"
        cache = work / "cache"
        t_assemble = _timed(lambda: assemble(cache))
        size_mb = sum(p.stat().st_size for p in cache.rglob("*") if p.is_file()) / 2**20
        inst = LocalInstance(root=work / "a", cache_root=cache, bolt_port=free_port(),
                             http_port=free_port())
        t_first = _timed(inst.start)
        t_stop = _timed(inst.stop)
        t_warm = _timed(inst.start)
        inst.stop()
        other = LocalInstance(root=work / "b", cache_root=cache, bolt_port=free_port(),
                              http_port=free_port())
        t_new = _timed(other.start)
        other.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    lines = [
        "# Local Neo4j runtime start-up",
        "",
        f"Neo4j {NEO4J_VERSION} Community + APOC + OpenGDS, assembled from Maven Central. "
        f"Machine: {platform.machine()}, {os.cpu_count()} cores. Maven repository: "
        f"{'~/.m2 (warm)' if args.keep_maven_cache else 'empty (cold download)'}. "
        f"Recorded {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; 1-minute load average "
        f"at the end {os.getloadavg()[0]:.1f} (other work on the machine inflates these times).",
        "",
        "| step | seconds |",
        "| --- | ---: |",
        f"| assemble NEO4J_HOME ({size_mb:.0f} MiB of jars) | {t_assemble:.1f} |",
        f"| first start of a new instance (system db + password) | {t_first:.1f} |",
        f"| clean stop (SIGTERM) | {t_stop:.1f} |",
        f"| warm start of the same instance | {t_warm:.1f} |",
        f"| start of another new instance on the cached home | {t_new:.1f} |",
        "",
        f"Cold total (assemble + first start): {t_assemble + t_first:.1f} s; warm start is "
        f"{t_warm / (t_assemble + t_first):.2f}x of it.",
    ]
    RESULTS.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
