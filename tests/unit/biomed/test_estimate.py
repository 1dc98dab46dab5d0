"""The size and time a PrimeKG load will take, said before it starts, and the bulk import's
progress counts (issue 29 item 4)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from hopgraph.core.errors import IngestError
from hopgraph.loaders.biomed import SAMPLE_TRIPLETS, ReadStats, estimate_load, read_edges

HEADER = ("relation,display_relation,x_index,x_id,x_type,x_name,x_source,"
          "y_index,y_id,y_type,y_name,y_source\n")


def _kg_csv(path: Path, rows: int) -> Path:
    """A kg.csv of our own: drugs indicated for diseases, each edge in both directions as
    PrimeKG lists them, names of varying length."""
    lines = [HEADER]
    for i in range(rows // 2):
        drug, disease = f"Drug{i}{'x' * (i % 17)}", f"disease {i} {'type ' * (i % 5)}".strip()
        lines.append(f"indication,indication,{i},DB{i:05d},drug,{drug},DrugBank,"
                     f"{i + 1},{i},disease,{disease},MONDO\n")
        lines.append(f"indication,indication,{i + 1},{i},disease,{disease},MONDO,"
                     f"{i},DB{i:05d},drug,{drug},DrugBank\n")
    path.write_text("".join(lines), encoding="utf-8")
    return path


def test_a_small_kg_csv_is_counted_and_the_time_follows_the_measured_throughput(tmp_path: Path) -> None:
    est = estimate_load(_kg_csv(tmp_path / "kg.csv", 40))
    assert est.exact and est.csv and est.rows == 40
    assert est.edges == round(40 * 3_372_812 / 8_100_000)  # both directions listed: ~half
    assert est.seconds(bulk=True) < est.seconds(bulk=False)
    line = est.summary(bulk=True)
    assert line.startswith("kg.csv: ") and "40 rows" in line and "by bulk import" in line
    assert "without --bulk-import" in line and "about" in line


def test_a_large_file_is_estimated_from_its_first_lines(tmp_path: Path) -> None:
    path = _kg_csv(tmp_path / "kg.csv", 30_000)
    est = estimate_load(path)
    assert not est.exact and est.csv
    assert abs(est.rows - 30_000) / 30_000 < 0.05, est.rows
    assert "about 3" in est.summary(bulk=False) and "to load" in est.summary(bulk=False)


def test_a_triplet_file_counts_its_rows_as_edges() -> None:
    est = estimate_load(SAMPLE_TRIPLETS)
    assert est.exact and not est.csv and est.rows == est.edges == 244


def test_an_unreadable_file_is_one_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match=r"nope\.csv: cannot read"):
        estimate_load(tmp_path / "nope.csv")


def test_bulk_progress_counts_every_row_read_skipped_ones_too(tmp_path: Path) -> None:
    bulk = importlib.import_module("hopgraph.loaders.biomed._bulk")
    path = _kg_csv(tmp_path / "kg.csv", 25_000)
    with path.open("a", encoding="utf-8") as fh:
        fh.write("indication,indication,1,DB0033\n")  # a truncated row: skipped, still read
    stats, calls = ReadStats(), []
    edges = list(bulk._counted(read_edges(path, stats), stats, calls.append))
    assert sum(calls) == stats.rows == 25_001 and len(edges) == 25_000
    assert all(c >= bulk.PROGRESS_ROWS for c in calls[:-1]) and len(calls) == 3


def test_load_primekg_says_the_estimate_before_loading(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.unit.biomed.test_readers import _load_primekg_cli

    result, _ = _load_primekg_cli(_kg_csv(tmp_path / "kg.csv", 40), monkeypatch)
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.startswith("kg.csv: ") and "40 rows (~17 edges)" in first and "to load" in first
