"""Reading PrimeKG inputs: type inference, direction, bad rows."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from hopgraph.cli import cli, load
from hopgraph.graph_models import BioRel, BioType, relation_of
from hopgraph.loaders.biomed import (
    SAMPLE_TRIPLETS,
    ReadStats,
    infer_types,
    read_kg_csv,
    read_triplet_tsv,
)
from tests.unit.biomed._fakes import FakeRunner


def test_relation_names_normalise() -> None:
    assert relation_of("off-label use") is BioRel.OFF_LABEL_USE
    assert relation_of("protein_protein") is BioRel.PROTEIN_PROTEIN
    assert relation_of("cures") is None


def test_types_inferred_from_relations_and_propagation() -> None:
    rows = [("Warfarin", BioRel.TARGET, "VKORC1"), ("VKORC1", BioRel.ASSOCIATED_WITH, "warfarin resistance"),
            ("atrial fibrillation", BioRel.INDICATION, "Warfarin"), ("Apixaban", BioRel.INDICATION, "atrial fibrillation")]
    types = infer_types(rows)
    assert types["VKORC1"] == {BioType.GENE_PROTEIN}  # drug-gene ∩ gene-disease
    assert types["Warfarin"] == {BioType.DRUG}  # propagated from VKORC1
    assert types["atrial fibrillation"] == {BioType.DISEASE}
    assert types["Apixaban"] == {BioType.DRUG}


def test_both_directions_are_oriented_the_same(tmp_path: Path) -> None:
    f = tmp_path / "t.tsv"
    f.write_text("Metformin\tINDICATION\ttype 2 diabetes\ntype 2 diabetes\tINDICATION\tMetformin\n")
    edges = read_triplet_tsv(f, ReadStats())
    assert {(e.head.name, e.tail.name) for e in edges} == {("Metformin", "type 2 diabetes")}


def test_bad_rows_are_reported_with_reasons(tmp_path: Path) -> None:
    f = tmp_path / "t.tsv"
    f.write_text("a\tTARGET\n\nMetformin\tCURES\tdiabetes\nX\tTARGET\tX\nAspirin\tTARGET\tPTGS1\n")
    stats = ReadStats()
    edges = read_triplet_tsv(f, stats)
    assert len(edges) == 1 and stats.rows == 4
    assert stats.problems_by_reason == {"malformed": 2, "unknown relation": 1}
    assert stats.unknown_relations == {"CURES": 1}
    assert [p.line for p in stats.examples] == [1, 3, 4]


def test_sample_file_reads_cleanly() -> None:
    stats = ReadStats()
    edges = read_triplet_tsv(SAMPLE_TRIPLETS, stats)
    assert stats.rows == len(edges) == 244 and not stats.examples


# ---- issue 18 (tests/benchmarks/results/reliability.md): decoding is row by row, a short row
# is skipped, an empty file is reported, and `hopgraph load primekg` exits 0 / 3 / 1

KG_HEADER = (b"relation,display_relation,x_index,x_id,x_type,x_name,x_source,"
             b"y_index,y_id,y_type,y_name,y_source\n")
KG_ROW = b"indication,indication,1,DB00331,drug,Metformin,DrugBank,2,5148,disease,diabetes,MONDO\n"


def test_a_tsv_row_that_is_not_utf8_is_skipped_alone(tmp_path: Path) -> None:
    f = tmp_path / "t.tsv"
    f.write_bytes(b"Metformin\tINDICATION\ttype 2 diabetes\n\xff\xfe\tINDICATION\tx\n"
                  b"Aspirin\tTARGET\tPTGS1\n")
    stats = ReadStats()
    edges = read_triplet_tsv(f, stats)
    assert {e.head.name for e in edges} == {"Metformin", "Aspirin"}
    assert stats.rows == 3 and stats.problems_by_reason == {"not UTF-8": 1}
    assert [(p.line, p.reason) for p in stats.examples] == [(2, "not UTF-8: byte 0xff at character 1")]


def test_kg_csv_skips_a_non_utf8_row_and_a_truncated_row_alone(tmp_path: Path) -> None:
    f = tmp_path / "kg.csv"
    f.write_bytes(KG_HEADER + KG_ROW + KG_ROW.replace(b"Metformin", b"Metf\xc3rmin")
                  + KG_ROW.replace(b"5148", b"5149") + b"indication,indication,1,DB0033")
    stats = ReadStats()
    edges = list(read_kg_csv(f, stats))
    assert [e.tail.source_id for e in edges] == ["5148", "5149"]
    assert stats.rows == 4
    assert [(p.line, p.reason.split(":")[0]) for p in stats.examples] == [(3, "not UTF-8"),
                                                                          (5, "malformed")]
    assert "\ufffd" in stats.examples[0].text  # printable: the bad byte shown as U+FFFD


def _count_graph(params: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"nodes": 0, "edges": 0}]


def _load_primekg_cli(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Result, FakeRunner]:
    module = importlib.import_module(load.lazy["primekg"][0].partition(":")[0])
    runner = FakeRunner({"biomed/count_graph": _count_graph})

    @contextmanager
    def open_runner(settings: object, **kwargs: Any) -> Iterator[tuple[FakeRunner, None]]:
        yield runner, None

    monkeypatch.setattr(module, "open_runner", open_runner)
    return CliRunner().invoke(cli, ["load", "primekg", str(path)]), runner


def _written_edges(runner: FakeRunner) -> list[dict[str, Any]]:
    return [row for key, params in runner.calls if key == "biomed/upsert_relations"
            for row in params["rows"]]


@pytest.mark.parametrize(("name", "content", "problem"), [
    ("empty.tsv", b"", ": no rows (empty file)"),
    ("kg.csv", KG_HEADER + b"indication,indication,1,DB0033", ":2: malformed: missing or extra fields"),
])
def test_load_primekg_with_nothing_to_load_exits_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   name: str, content: bytes, problem: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    result, runner = _load_primekg_cli(path, monkeypatch)
    assert result.exit_code == 1, result.output
    assert f"skipped: {path}{problem}" in result.output
    assert f"Error: {path}: no edge was loaded (1 rows skipped)" in result.output
    assert _written_edges(runner) == []  # no incomplete edge reaches the graph


def test_load_primekg_loads_the_good_rows_and_exits_3(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "triplets.tsv"
    path.write_bytes(SAMPLE_TRIPLETS.read_bytes() + b"only-two\tcolumns\n\xff\xfe\tINDICATION\tx\n")
    lines = len(SAMPLE_TRIPLETS.read_bytes().splitlines())
    result, runner = _load_primekg_cli(path, monkeypatch)
    assert result.exit_code == 3, result.output
    assert f"skipped: {path}:{lines + 1}: malformed: expected 3" in result.output
    assert f"skipped: {path}:{lines + 2}: not UTF-8: byte 0xff at character 1" in result.output
    assert len(_written_edges(runner)) > 200  # the sample's edges, less in-batch reverse rows


def test_load_primekg_of_a_clean_file_exits_0(monkeypatch: pytest.MonkeyPatch) -> None:
    result, _ = _load_primekg_cli(SAMPLE_TRIPLETS, monkeypatch)
    assert result.exit_code == 0, result.output
    assert "skipped:" not in result.output
