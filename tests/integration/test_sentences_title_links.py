"""Title links of the sentence reasoner against a real Neo4j (issue 29): a kept anchor's sentence
that names another passage's title reaches that passage, and a passage whose sentence names the
anchor's title is reached back; both in the hops' round trip and in a round trip of their own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hopgraph.agents.sentences import link_seed
from hopgraph.core.ports import Embedder
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.sentences import SpacyTagger, load_passages, read_corpus
from hopgraph.models import build_embedder
from hopgraph.retrieval import expand_paths_linked, find_anchor_sentences, find_title_links

pytestmark = pytest.mark.integration

PASSAGES = [
    {"id": "zorblat", "title": "Zorblat Widget",
     "text": "The Zorblat Widget is a window manager for Unix systems. In 2001, "
             "\"Frobnicator Weekly\" called the Zorblat Widget an unusually clever imitation."},
    {"id": "frob", "title": "Frobnicator Weekly (magazine)",
     "text": "Frobnicator Weekly is a monthly computer magazine published in Bath. "
             "Frobnicator Weekly is commonly abbreviated to FXW."},
    {"id": "harmon", "title": "Quill Harmon",
     "text": "Quill Harmon is a software reviewer from Leeds. "
             "Harmon wrote the first review of the Zorblat Widget in a student paper."},
    {"id": "marmalade", "title": "Marmalade Press",
     "text": "Marmalade Press is a publisher of cookery books in Dundee."},
]
QUESTION = "What is the abbreviation of the magazine that called the Zorblat Widget a clever imitation?"


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return build_embedder("all-MiniLM-L6-v2")


def test_title_links_both_ways(runner: Neo4jRunner, embedder: Embedder, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("\n".join(json.dumps(p) for p in PASSAGES) + "\n", encoding="utf-8")
    load_passages(runner, list(read_corpus(corpus, [])), embedder=embedder, tagger=SpacyTagger.load())
    vector = embedder.embed_query(QUESTION)
    anchor = next(a for a in find_anchor_sentences(runner, vector, 20) if a.id == "zorblat#s1")
    seed = link_seed(anchor, {})
    assert seed.phrase == '"Zorblat Widget"' and "frobnicator weekly" in seed.keys
    linked = find_title_links(runner, [seed], vector, link_beam=2)
    got = {(n.id, n.relation) for n in linked}
    # named by the anchor: the magazine's passage (its title's parenthetical is not part of the
    # key), its two sentences; naming the anchor's title: the reviewer's second sentence
    assert {("frob#s0", "named"), ("frob#s1", "named"), ("harmon#s1", "names")} <= got, got
    assert all(n.source == "zorblat#s1" and n.edge == "TITLE" for n in linked)
    assert not any(n.passage_id in ("zorblat", "marmalade") for n in linked)
    assert next(n for n in linked if n.id == "frob#s1").title == "Frobnicator Weekly (magazine)"
    # the same links come back with the hops, in one round trip
    _, hops, with_hops = expand_paths_linked(runner, [(anchor.id, anchor.score)], vector, [seed],
                                             beam=2, decay=0.5, expansion_limit=12, max_hops=4,
                                             link_beam=2)
    assert hops >= 1
    assert sorted((n.id, n.relation, round(n.similarity, 6)) for n in with_hops) == sorted(
        (n.id, n.relation, round(n.similarity, 6)) for n in linked)
    assert find_title_links(runner, [seed], vector, link_beam=1) != linked  # the beam bounds it
