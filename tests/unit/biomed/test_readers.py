"""Reading PrimeKG inputs: type inference, direction, bad rows."""

from __future__ import annotations

from pathlib import Path

from hopgraph.graph_models import BioRel, BioType, relation_of
from hopgraph.loaders.biomed import SAMPLE_TRIPLETS, ReadStats, infer_types, read_triplet_tsv


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
