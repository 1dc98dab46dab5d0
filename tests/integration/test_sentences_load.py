"""Sentence-graph construction against a real Neo4j: structure, idempotency, order, bad input."""

from __future__ import annotations

from typing import Any

import pytest

from hopgraph.core.ports import Embedder
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.sentences import (
    RawPassage,
    SpacyTagger,
    load_passages,
    read_corpus,
    sample_corpus_path,
)
from hopgraph.models import build_embedder
from hopgraph.retrieval import find_anchor_sentences

from .conftest import TEST_DATABASE

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return build_embedder("all-MiniLM-L6-v2")


@pytest.fixture(scope="module")
def tagger() -> SpacyTagger:
    return SpacyTagger.load()


def samples() -> list[RawPassage]:
    return list(read_corpus(sample_corpus_path(), []))


BAD = [
    RawPassage("bad-empty", "Empty", text=""),
    RawPassage("bad-one", "Lonely", text="Only one sentence lives in this passage about Paris."),
    RawPassage("bad-vi", "Sông Hồng", text="Sông Hồng chảy qua Hà Nội. Nó là con sông dài nhất miền Bắc."),
    RawPassage("bad-long", "Long", text=" ".join(["lorem ipsum dolor sit amet"] * 600)),
]


def snapshot(runner: Neo4jRunner) -> tuple[Any, Any]:
    """Every node (labels, properties without vectors) and edge (type, ends, properties)."""
    nodes, _, _ = runner.driver.execute_query(
        "MATCH (n:SentenceNode) RETURN n.id AS id, apoc.coll.sort(labels(n)) AS labels, "
        "apoc.map.removeKey(properties(n), 'embedding') AS props ORDER BY id",
        database_=TEST_DATABASE)
    edges, _, _ = runner.driver.execute_query(
        "MATCH (a:SentenceNode)-[r]->(b:SentenceNode) RETURN a.id AS a, type(r) AS t, b.id AS b, "
        "properties(r) AS props ORDER BY a, t, b", database_=TEST_DATABASE)
    return [r.data() for r in nodes], [r.data() for r in edges]


def counts(runner: Neo4jRunner) -> dict[tuple[str, str, str], int]:
    return {(r["kind"], r["name"], r["method"]): r["count"] for r in runner.read("sentence/count_graph")}


def test_sample_graph_has_all_layers_and_a_bridge(runner: Neo4jRunner, embedder: Embedder,
                                                 tagger: SpacyTagger) -> None:
    report = load_passages(runner, samples(), embedder=embedder, tagger=tagger)
    c = counts(runner)
    assert c[("node", "Passage", "")] == c[("node", "Topic", "")] == 5
    assert c[("node", "Core", "")] + c[("node", "Supplementary", "")] == report.sentences == 16
    assert c[("edge", "HAS_CORE", "heuristic")] == c[("node", "Core", "")]
    assert c[("edge", "SUPPORTS", "heuristic")] == c[("node", "Supplementary", "")]
    assert c[("edge", "NN_RELATION", "heuristic")] >= 1
    rows, _, _ = runner.driver.execute_query(
        "MATCH (a:Topic)-[r:BRIDGE]-(b:Topic) WHERE a.title = 'Charles Babbage' "
        "RETURN b.title AS title, r.evidence AS evidence, r.method AS method",
        database_=TEST_DATABASE)
    bridged = {r["title"]: r for r in rows}
    assert {"Marylebone", "Analytical Engine", "Ada Lovelace"} <= set(bridged)
    assert "Marylebone" in bridged["Marylebone"]["evidence"]
    assert bridged["Marylebone"]["method"] == "heuristic"
    # the vector index answers
    vec = embedder.embed_query("Who died in Marylebone in 1871?")
    hits = find_anchor_sentences(runner, vec, 3)
    assert "sample-charles-babbage#s3" in [h.id for h in hits]


def test_loading_twice_changes_nothing_and_order_does_not_matter(
        runner: Neo4jRunner, embedder: Embedder, tagger: SpacyTagger) -> None:
    passages = samples()
    load_passages(runner, passages, embedder=embedder, tagger=tagger, batch_passages=2)
    first = snapshot(runner)
    load_passages(runner, passages, embedder=embedder, tagger=tagger, batch_passages=3)
    assert snapshot(runner) == first
    runner.driver.execute_query("MATCH (n:SentenceNode) DETACH DELETE n", database_=TEST_DATABASE)
    load_passages(runner, passages[3:], embedder=embedder, tagger=tagger)
    load_passages(runner, passages[:3], embedder=embedder, tagger=tagger)
    assert snapshot(runner) == first


def test_changed_passage_replaces_its_old_sentences(runner: Neo4jRunner, embedder: Embedder,
                                                    tagger: SpacyTagger) -> None:
    load_passages(runner, [RawPassage("p", "P", text="Alpha is a town in Spain. It is old. It is big.")],
                  embedder=embedder, tagger=tagger)
    load_passages(runner, [RawPassage("p", "P", text="Alpha is a town in Spain.")],
                  embedder=embedder, tagger=tagger)
    rows, _, _ = runner.driver.execute_query(
        "MATCH (s:Sentence {passage_id: 'p'}) RETURN s.id AS id", database_=TEST_DATABASE)
    assert [r["id"] for r in rows] == ["p#s0"]


def test_bad_input_is_reported_and_never_stops_the_load(runner: Neo4jRunner, embedder: Embedder,
                                                        tagger: SpacyTagger) -> None:
    report = load_passages(runner, BAD + samples()[:1], embedder=embedder, tagger=tagger)
    assert report.passages == 4
    assert report.skipped == ["bad-empty: empty passage, skipped"]
    notes = "\n".join(report.notes)
    assert "bad-one: one sentence" in notes
    assert "bad-vi: not English" in notes
    assert "bad-long: sentence 0 of" in notes and "embedded as" in notes
    rows, _, _ = runner.driver.execute_query(
        "MATCH (p:Passage) RETURN p.id AS id, p.language AS language, size(p.notes) AS notes, "
        "COUNT { (s:Sentence {passage_id: p.id}) } AS sentences ORDER BY id", database_=TEST_DATABASE)
    got = {r["id"]: r for r in rows}
    assert "bad-empty" not in got
    assert got["bad-vi"]["language"] == "non-en"
    assert got["bad-one"]["sentences"] == 1
    assert got["bad-long"]["sentences"] == 1  # one source sentence, embedded in parts


def test_a_long_sentence_keeps_the_positions_of_later_sentences(
        runner: Neo4jRunner, embedder: Embedder, tagger: SpacyTagger) -> None:
    long = "The Analytical Engine was designed " + " ".join(["with many gears"] * 120) + "."
    sentences = ("Charles Babbage was an English engineer.", long, "",
                 "He died in Marylebone in London.")
    report = load_passages(runner, [RawPassage("p-long", "Charles Babbage", sentences=sentences)],
                           embedder=embedder, tagger=tagger)
    rows, _, _ = runner.driver.execute_query(
        "MATCH (s:Sentence {passage_id: 'p-long'}) RETURN s.position AS pos, s.text AS text, "
        "size(s.embedding) AS dim ORDER BY pos", database_=TEST_DATABASE)
    got = {r["pos"]: r["text"] for r in rows}
    assert got == {0: sentences[0], 1: long, 3: sentences[3]}  # index 3 stays the source's 3
    assert all(r["dim"] == 384 for r in rows)
    assert any("embedded as" in n for n in report.notes)
