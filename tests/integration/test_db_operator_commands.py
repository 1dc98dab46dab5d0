"""Operator commands on the real server (issue 18): ``hopgraph db remove-document`` leaves the
graph a load without that document gives, ``db remove-samples`` takes out every shipped sample,
``db clear`` asks before it empties the database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from hopgraph.cli import cli
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR
from tests.integration.conftest import Server, clear_database

pytestmark = pytest.mark.integration

SAMPLE_FILES = sorted(p.name for p in SAMPLES_DIR.iterdir()
                      if p.suffix in {".txt", ".json"} and "MAU" in p.name)


def _cli(server: Server, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, ["--uri", server.uri, *args], input=stdin,
                              env={"NEO4J_PASSWORD": server.password})


def _dump(runner: Neo4jRunner) -> tuple[list[Any], list[Any]]:
    row = runner.read("legal/dump_graph")[0]
    return row["nodes"], row["edges"]


def _doc_ids(runner: Neo4jRunner) -> set[str]:
    return {r["id"] for r in runner.read("legal/list_document_ids")}


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_removing_a_document_gives_the_graph_of_a_load_without_it(
        runner: Neo4jRunner, neo4j_server: Server, name: str) -> None:
    rest = [str(SAMPLES_DIR / other) for other in SAMPLE_FILES if other != name]
    # the graph of a load that never had the document
    assert _cli(neo4j_server, "load", "legal", "--no-embed", *rest).exit_code == 0
    without = _dump(runner)
    rest_ids = _doc_ids(runner)
    clear_database(runner.driver)
    # the whole sample set, then the document removed
    loaded = _cli(neo4j_server, "load", "legal", "--no-embed", str(SAMPLES_DIR))
    assert loaded.exit_code == 0, loaded.output
    (doc_id,) = _doc_ids(runner) - rest_ids
    removed = _cli(neo4j_server, "db", "remove-document", doc_id)
    assert removed.exit_code == 0, removed.output
    assert removed.output.startswith(f"removed {doc_id}: ")
    assert len(removed.output.strip().splitlines()) == 1
    after = _dump(runner)
    assert after[0] == without[0]
    assert after[1] == without[1]


def test_an_unknown_document_is_one_line(runner: Neo4jRunner, neo4j_server: Server) -> None:
    assert _cli(neo4j_server, "load", "legal", "--no-embed",
                str(SAMPLES_DIR / "99-2010-ND-MAU-nghi-dinh-cu.txt")).exit_code == 0
    before = _dump(runner)
    result = _cli(neo4j_server, "db", "remove-document", "99/2011/ND-MAU")
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: doc_id: không có văn bản '99/2011/ND-MAU' trong đồ thị (đã nạp 1 văn bản); "
        "có phải ý bạn là 99/2010/NĐ-MAU?"]
    assert _dump(runner) == before
    # the id as a user types it (ND for NĐ, case) names the loaded document
    removed = _cli(neo4j_server, "db", "remove-document", "99/2010/nd-mau")
    assert removed.exit_code == 0, removed.output
    assert removed.output.startswith("removed 99/2010/NĐ-MAU: ")


def test_remove_samples_takes_out_every_shipped_sample(
        runner: Neo4jRunner, neo4j_server: Server, tmp_path: Path) -> None:
    from hopgraph.loaders.biomed import SAMPLE_TRIPLETS, load_primekg
    from hopgraph.loaders.sentences import (
        RawPassage,
        load_passages,
        read_corpus,
        sample_corpus_path,
    )
    from tests.retrieval_fixtures import HashEmbedder
    from tests.unit.sentences.fakes import FakeTagger

    assert _cli(neo4j_server, "load", "legal", "--no-embed", str(SAMPLES_DIR)).exit_code == 0
    # a real document beside them: not a sample, it stays
    real = tmp_path / "real.txt"
    real.write_text("BỘ Y TẾ\nSố: 7/2024/TT-BYT\nTHÔNG TƯ\nQuy định thử\nĐiều 1. Phạm vi\n"
                    "Thông tư này quy định việc thử.\n", encoding="utf-8")
    assert _cli(neo4j_server, "load", "legal", "--no-embed", str(real)).exit_code == 0
    real_ids = _doc_ids(runner) - {d for d in _doc_ids(runner) if d.endswith("-MAU")}
    assert real_ids
    load_primekg(runner, SAMPLE_TRIPLETS)
    # the shipped sentence corpus through the sentence loader, beside a passage of one's own
    skipped: list[str] = []
    passages = [*read_corpus(sample_corpus_path(), skipped),
                RawPassage("mine-1", "Charles Babbage", "Charles Babbage designed the "
                           "Analytical Engine. Ada Lovelace wrote about it.")]
    sentences = load_passages(runner, passages, embedder=HashEmbedder(), tagger=FakeTagger())
    assert sentences.passages == len(passages) and not skipped

    result = _cli(neo4j_server, "db", "remove-samples")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("removed the shipped samples: 11 fictional legal documents")
    assert f"{len(passages) - 1} sample passages" in result.output
    assert _doc_ids(runner) == real_ids
    left = runner.driver.execute_query(
        "MATCH (n) WHERE n:BioEntity OR (n:LegalNode AND n.doc_id ENDS WITH '-MAU') "
        "OR (n:SentenceNode AND n.id STARTS WITH 'sample-') RETURN count(n) AS n",
        database_="neo4j").records[0]["n"]
    assert left == 0
    # one's own passage keeps its topic and its sentences
    kept = runner.driver.execute_query(
        "MATCH (t:Topic {id: 'mine-1#topic'})-[:FROM_PASSAGE]->(p:Passage {id: 'mine-1'}) "
        "RETURN COUNT { (:Sentence {passage_id: 'mine-1'}) } AS sentences",
        database_="neo4j").records
    assert kept and kept[0]["sentences"] == 2


def test_clear_asks_first(runner: Neo4jRunner, neo4j_server: Server) -> None:
    assert _cli(neo4j_server, "load", "legal", "--no-embed",
                str(SAMPLES_DIR / "99-2010-ND-MAU-nghi-dinh-cu.txt")).exit_code == 0
    nodes = runner.read("admin/count_everything")[0]["nodes"]
    assert nodes > 0
    declined = _cli(neo4j_server, "db", "clear", stdin="n\n")
    assert declined.exit_code == 1
    assert f"Delete all {nodes} nodes" in declined.output and "Aborted!" in declined.output
    assert runner.read("admin/count_everything")[0]["nodes"] == nodes
    accepted = _cli(neo4j_server, "db", "clear", stdin="y\n")
    assert accepted.exit_code == 0, accepted.output
    assert f"removed {nodes} nodes" in accepted.output
    assert runner.read("admin/count_everything")[0] == {"nodes": 0, "relationships": 0}
    assert _cli(neo4j_server, "load", "legal", "--no-embed",
                str(SAMPLES_DIR / "99-2010-ND-MAU-nghi-dinh-cu.txt")).exit_code == 0
    quiet = _cli(neo4j_server, "db", "clear", "--yes")
    assert quiet.exit_code == 0 and len(quiet.output.strip().splitlines()) == 1
    assert quiet.output.startswith("removed ")
    assert runner.read("admin/count_everything")[0]["nodes"] == 0
