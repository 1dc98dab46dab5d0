"""The size of a PrimeKG load and how long it will take, said before it starts (issue 29 item 4).

A full ``kg.csv`` is ~8.1M rows; a user deciding between ``--bulk-import`` and the transactional
loader, or wondering whether to wait, needs the figure up front. The row count comes from the
file's size and the mean length of its first lines (the whole count when the file is small);
the time from the throughputs measured in ``tests/benchmarks/results/biomed_load_scale_bulk.md``
on 2 shared cores, so a faster machine loads sooner.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hopgraph.core.errors import IngestError

# tests/benchmarks/results/biomed_load_scale_bulk.md (8.1M generated PrimeKG-shaped rows, 2 cores)
BULK_ROWS_PER_S = 14_841.0  # --bulk-import, end to end (read, import, restart, schema)
TRANSACTIONAL_ROWS_PER_S = 1_527.0  # load_primekg (MERGE, 10k rows per batch)
# PrimeKG lists each edge in both directions: 3,372,812 distinct edges from 8,100,000 rows
EDGES_PER_ROW = 3_372_812 / 8_100_000
SAMPLE_LINES = 5_000


@dataclass(frozen=True)
class LoadEstimate:
    """What loading ``path`` will take, estimated before reading it whole."""

    path: Path
    bytes: int
    rows: int
    exact: bool  # the file had at most SAMPLE_LINES rows: counted, not estimated
    csv: bool  # a PrimeKG kg.csv (else a head<TAB>RELATION<TAB>tail file)

    @property
    def edges(self) -> int:
        """Distinct edges expected: about half the rows of a kg.csv (both directions listed);
        a triplet file is taken as it is."""
        return round(self.rows * EDGES_PER_ROW) if self.csv else self.rows

    def seconds(self, *, bulk: bool) -> float:
        """Expected seconds at the measured throughput of the chosen loader."""
        return self.rows / (BULK_ROWS_PER_S if bulk else TRANSACTIONAL_ROWS_PER_S)

    def summary(self, *, bulk: bool) -> str:
        """One line for the CLI, e.g. ``kg.csv: 936.5 MB, about 8,100,000 rows (~3,372,812
        edges); about 9 min by bulk import (about 1 h 28 min without --bulk-import)``."""
        rows = f"{self.rows:,} rows" if self.exact else f"about {self.rows:,} rows"
        other = (f" (about {_duration(self.seconds(bulk=False))} without --bulk-import)"
                 if bulk else f" (about {_duration(self.seconds(bulk=True))} with --bulk-import)")
        return (f"{self.path.name}: {_size(self.bytes)}, {rows} (~{self.edges:,} edges); about "
                f"{_duration(self.seconds(bulk=bulk))} {'by bulk import' if bulk else 'to load'}"
                f"{other}, at the throughput measured on 2 cores")


def estimate_load(path: Path) -> LoadEstimate:
    """Estimate the rows of ``path`` (a PrimeKG ``kg.csv`` or a triplet TSV) from its size and
    the mean length of its first :data:`SAMPLE_LINES` lines.

    Raises:
        IngestError: the file cannot be read.
    """
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            lines = []
            for line in fh:
                lines.append(line)
                if len(lines) > SAMPLE_LINES:
                    break
    except OSError as e:
        raise IngestError(f"{path}: cannot read: {e}") from e
    content = [x for x in lines if x.strip() and not x.startswith(b"#")]
    first = content[0] if content else b""
    is_csv = first.startswith(b"relation,") or b",x_id," in first
    header = len(first) if is_csv else 0
    body = content[1:] if is_csv else content
    if len(lines) <= SAMPLE_LINES:
        return LoadEstimate(path, size, len(body), True, is_csv)
    per_line = sum(len(x) for x in body) / len(body)
    return LoadEstimate(path, size, round((size - header) / per_line), False, is_csv)


def _size(n: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{max(1, round(seconds))} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min"
