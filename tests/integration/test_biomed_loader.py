"""PrimeKG loading against a real server: idempotent, one edge per pair, bad rows reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.loaders.biomed import SAMPLE_TRIPLETS, load_primekg

pytestmark = pytest.mark.integration

KG_HEADER = ("relation,display_relation,x_index,x_id,x_type,x_name,x_source,"
             "y_index,y_id,y_type,y_name,y_source")


def _edge_count(runner: Neo4jRunner) -> int:
    return int(runner.read("biomed/count_graph")[0]["edges"])


def test_sample_tsv_loads_idempotently(runner: Neo4jRunner) -> None:
    first = load_primekg(runner, SAMPLE_TRIPLETS, batch_size=50)
    assert first.rows_read == 244 and first.rows_skipped == 0
    assert first.nodes_after > 150 and first.edges_after > 230
    # The sample lists a few edges in both directions: those rows merge into one edge.
    assert first.duplicate_rows == first.edge_rows_written - first.edges_created >= 3
    second = load_primekg(runner, SAMPLE_TRIPLETS, batch_size=7)
    assert (second.nodes_after, second.edges_after) == (first.nodes_after, first.edges_after)
    assert second.edges_created == 0
    labels = runner.read("biomed/search_entities", mentions=[{"mention": "aspirin", "lucene": "aspirin"}], limit=3)
    assert labels[0]["name"] == "Acetylsalicylic acid" and "aspirin" in labels[0]["aliases"]


def test_both_directions_give_one_edge(runner: Neo4jRunner, tmp_path: Path) -> None:
    tsv = tmp_path / "t.tsv"
    tsv.write_text("Warfarin\tTARGET\tVKORC1\nVKORC1\tTARGET\tWarfarin\nWarfarin\tTARGET\tVKORC1\n")
    report = load_primekg(runner, tsv)
    assert report.edges_created == 1 and report.duplicate_rows == 2
    assert report.nodes_after == 2


def test_kg_csv_reports_bad_rows_and_dedupes(runner: Neo4jRunner, tmp_path: Path) -> None:
    csv = tmp_path / "kg.csv"
    csv.write_text("\n".join([
        KG_HEADER,
        "protein_protein,ppi,0,9796,gene/protein,PHYHIP,NCBI,8889,7918,gene/protein,GPANK1,NCBI",
        "protein_protein,ppi,8889,7918,gene/protein,GPANK1,NCBI,0,9796,gene/protein,PHYHIP,NCBI",
        "indication,indication,1,DB00331,drug,Metformin,DrugBank,2,5148,disease,type 2 diabetes,MONDO",
        "disease_protein,associated with,2,5148,disease,type 2 diabetes,MONDO,3,6934,gene/protein,TCF7L2,NCBI",
        "protein_disease,associated with,3,6934,gene/protein,TCF7L2,NCBI,2,5148,disease,type 2 diabetes,MONDO",
        "indication,indication,1,DB00331,drug,Metformin,DrugBank",
        "indication,indication,3,6934,gene/protein,TCF7L2,NCBI,2,5148,disease,type 2 diabetes,MONDO",
        "drug_effect,side effect,1,DB00331,drug,Metformin,DrugBank,9,77,alien,thing,X",
    ]) + "\n")
    report = load_primekg(runner, csv)
    assert report.rows_read == 8
    assert report.unknown_relations == {"protein_disease": 1}
    assert report.problems_by_reason == {"unknown relation": 1, "malformed": 1,
                                         "type mismatch": 1, "unknown node type": 1}
    assert report.edges_created == 3 and report.duplicate_rows == 1
    again = load_primekg(runner, csv)
    assert again.edges_created == 0 and _edge_count(runner) == 3


def test_hub_region_query_is_capped(runner: Neo4jRunner, tmp_path: Path) -> None:
    rows = [f"GENE{i}\tASSOCIATED_WITH\thub disease" for i in range(1200)]
    (tmp_path / "hub.tsv").write_text("\n".join(rows) + "\n")
    load_primekg(runner, tmp_path / "hub.tsv", batch_size=500)
    out = runner.read("biomed/collect_region_candidates",
                      entity_ids=["Disease:name:hub disease"], weights={"ASSOCIATED_WITH": 1.3},
                      default_weight=1.0, per_entity_limit=40, embedding_key=None)
    assert len(out) == 40 and out[0]["degree"] == 1200 and out[0]["weight"] == 1.3
