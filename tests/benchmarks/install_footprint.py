"""Install footprint: what ``pip install -e .`` (the README's main job) and the test install
(``.[dev,bio,llm]``) download and how much disk the virtual environment takes (issue 17).

    python -m tests.benchmarks.install_footprint            # run inside the project's .venv

Three readings, written to ``results/install_footprint.md`` and ``.json``:

1. **Resolution**: ``pip install --dry-run --ignore-installed --report`` resolves each install
   set afresh, as on a new machine, and lists every distribution it would download (no download
   happens: pip reads the wheels' metadata only).
2. **Download size**: the size of each chosen file, read from the registry's simple index in its
   JSON form (PEP 691 / PEP 700 ``size``), the same index pip resolves against.
3. **Disk**: the installed size of every distribution in this environment, from the files its
   ``RECORD`` lists (``importlib.metadata``), and the whole ``site-packages`` folder.

Each distribution is attributed to the project requirements that pull it in (transitively), so
the record says what the CUDA stack that torch brings costs, and through which requirement.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request
from collections import defaultdict
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "tests" / "benchmarks" / "results"
INDEX = "https://pypi.org/simple/{name}/"
INSTALL_SETS = {"main job: pip install -e .": "", "tests: pip install -e '.[dev,bio,llm]'": "dev,bio,llm"}
# Distributions that make up torch's GPU stack on Linux x86_64 (PyPI's torch wheels depend on
# them unconditionally there): reported as one group.
CUDA_PATTERN = re.compile(r"^(nvidia-|cuda-|triton$)")


def resolve(extras: str) -> list[dict[str, object]]:
    """The distributions pip would install into an empty environment for ``.[extras]``."""
    target = f".[{extras}]" if extras else "."
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "-q",
             "--report", str(report), target],
            cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
        )
        data = json.loads(report.read_text(encoding="utf-8"))
    items = []
    for item in data["install"]:
        meta = item["metadata"]
        url = item["download_info"]["url"]
        items.append({
            "name": canonicalize_name(meta["name"]),
            "version": meta["version"],
            "file": url.rsplit("/", 1)[-1],
            "requires": meta.get("requires_dist", []),
            "local": url.startswith("file:"),
        })
    return items


def download_size(name: str, filename: str, cache: dict[str, dict[str, int]]) -> int | None:
    """The registry's stated size of one file, or None when the index does not say."""
    if name not in cache:
        request = urllib.request.Request(
            INDEX.format(name=name), headers={"Accept": "application/vnd.pypi.simple.v1+json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                files = json.load(reply)["files"]
        except OSError:
            files = []
        cache[name] = {f["filename"]: int(f["size"]) for f in files if f.get("size") is not None}
    return cache[name].get(filename)


def installed_sizes() -> dict[str, int]:
    """Bytes on disk per installed distribution, from the files its RECORD lists."""
    sizes: dict[str, int] = {}
    for dist in metadata.distributions():
        total = 0
        for entry in dist.files or []:
            path = Path(str(dist.locate_file(entry)))
            if path.is_file():
                total += path.stat().st_size
        sizes[canonicalize_name(dist.metadata["Name"])] = total
    return sizes


def folder_size(folder: Path) -> int:
    total = 0
    for dirpath, _dirs, files in os.walk(folder):
        for name in files:
            path = Path(dirpath, name)
            if not path.is_symlink():
                total += path.stat().st_size
    return total


def attribute(items: list[dict[str, object]], extras: str) -> dict[str, set[str]]:
    """For each distribution, the project's direct requirements whose closure contains it."""
    by_name = {str(i["name"]): i for i in items}
    reqs = {name: [Requirement(t) for t in item["requires"]]  # type: ignore[attr-defined]
            for name, item in by_name.items()}
    asked: dict[str, set[str]] = defaultdict(lambda: {""})
    asked["hopgraph"] |= set(filter(None, extras.split(",")))
    for name_reqs in reqs.values():
        for req in name_reqs:
            asked[canonicalize_name(req.name)] |= set(req.extras)

    def needs(owner: str) -> set[str]:
        return {canonicalize_name(r.name) for r in reqs.get(owner, [])
                if r.marker is None or any(r.marker.evaluate({"extra": e}) for e in asked[owner])}

    owners: dict[str, set[str]] = defaultdict(set)
    for root in needs("hopgraph"):
        seen, stack = set(), [root]
        while stack:
            name = stack.pop()
            if name in seen or name not in by_name:
                continue
            seen.add(name)
            stack.extend(needs(name))
        for name in seen:
            owners[name].add(root)
    return owners


def measure() -> dict[str, object]:
    cache: dict[str, dict[str, int]] = {}
    disk = installed_sizes()
    sets = {}
    for label, extras in INSTALL_SETS.items():
        items = resolve(extras)
        owners = attribute(items, extras)
        rows = []
        for item in items:
            name = str(item["name"])
            size = None if item["local"] else download_size(name, str(item["file"]), cache)
            rows.append({
                "name": name, "version": item["version"], "file": item["file"],
                "download_bytes": size, "installed_bytes": disk.get(name),
                "cuda_stack": bool(CUDA_PATTERN.match(name)) or name == "torch",
                "pulled_by": sorted(owners.get(name, ())),
            })
        sets[label] = rows
    site = Path(next(p for p in sys.path if p.endswith("site-packages")))
    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                 capture_output=True, text=True).stdout.strip(),
        "python": sys.version.split()[0],
        "platform": sys.platform + " " + os.uname().machine,
        "site_packages_bytes": folder_size(site),
        "sets": sets,
    }


def _mb(n: int | None) -> str:
    return "?" if n is None else f"{n / 1e6:,.0f}"


def render(record: dict[str, object]) -> str:
    lines = [
        "# install_footprint — what an install downloads and what it takes on disk",
        "",
        f"Command: `python -m tests.benchmarks.install_footprint` · {record['date']} · commit "
        f"{record['commit']} · Python {record['python']} on {record['platform']}.",
        "Download sizes are the registry's file sizes of the files pip chose (`pip install "
        "--dry-run --ignore-installed --report`, resolved as on an empty machine); installed "
        "sizes are the files each distribution's RECORD lists in this `.venv`. MB = 10^6 bytes.",
        "",
        "| install | distributions | download MB | of which torch + CUDA stack | installed MB | of which torch + CUDA stack |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    sets: dict[str, list[dict[str, object]]] = record["sets"]  # type: ignore[assignment]
    for label, rows in sets.items():
        down = sum(int(r["download_bytes"] or 0) for r in rows)  # type: ignore[call-overload]
        down_cuda = sum(int(r["download_bytes"] or 0) for r in rows if r["cuda_stack"])  # type: ignore[call-overload]
        disk = sum(int(r["installed_bytes"] or 0) for r in rows)  # type: ignore[call-overload]
        disk_cuda = sum(int(r["installed_bytes"] or 0) for r in rows if r["cuda_stack"])  # type: ignore[call-overload]
        lines.append(f"| {label} | {len(rows)} | {_mb(down)} | {_mb(down_cuda)} "
                     f"({down_cuda / max(down, 1):.0%}) | {_mb(disk)} | {_mb(disk_cuda)} "
                     f"({disk_cuda / max(disk, 1):.0%}) |")
    lines += ["", f"The whole `site-packages` folder of this `.venv`: "
              f"{_mb(record['site_packages_bytes'])} MB (it also holds pip, setuptools and "  # type: ignore[arg-type]
              "anything installed by hand).", ""]
    label, rows = list(sets.items())[-1]
    lines += [f"## Largest downloads of {label}", "",
              "| distribution | version | download MB | installed MB | pulled in by |",
              "| --- | --- | --- | --- | --- |"]
    for row in sorted(rows, key=lambda r: -int(r["download_bytes"] or 0))[:20]:  # type: ignore[call-overload]
        lines.append(f"| {row['name']} | {row['version']} | {_mb(row['download_bytes'])} | "  # type: ignore[arg-type]
                     f"{_mb(row['installed_bytes'])} | {', '.join(row['pulled_by']) or '-'} |")  # type: ignore[arg-type]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=RESULTS / "install_footprint.md")
    args = parser.parse_args()
    record = measure()
    args.out.with_suffix(".json").write_text(
        json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    args.out.write_text(render(record), encoding="utf-8")
    print(render(record))


if __name__ == "__main__":
    main()
