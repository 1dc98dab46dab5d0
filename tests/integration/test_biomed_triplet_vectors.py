"""Triplet embeddings stored at load time give the MMR selection computed at query time.

Real server, the bundled sample graph, the real all-MiniLM-L6-v2 (the vectors MMR uses).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from click.testing import CliRunner

from hopgraph.agents.biomed import EntityLinker, Regram
from hopgraph.core.errors import EmbeddingError
from hopgraph.core.ports import Embedder
from hopgraph.db import Neo4jRunner
from hopgraph.graph_models import triplet_embedding_key
from hopgraph.loaders.biomed import SAMPLE_TRIPLETS, embed_triplets, load_primekg
from hopgraph.models import build_embedder
from hopgraph.retrieval import Domain, collect_candidates, relation_weights, select_region
from tests.integration.conftest import Server
from tests.unit.biomed._fakes import BagEmbedder

pytestmark = pytest.mark.integration

QUESTIONS = [
    "Which enzyme metabolises warfarin?",
    "Which drug that targets ABL1 is used for chronic myeloid leukemia?",
    "Is aspirin safe in peptic ulcer disease with HER2?",
    "What does metformin treat, and which genes are associated with type 2 diabetes?",
]


@pytest.fixture(scope="module")
def minilm() -> Embedder:
    try:
        return build_embedder("all-MiniLM-L6-v2")
    except EmbeddingError as e:
        pytest.skip(f"all-MiniLM-L6-v2 not installed: {e}")


class Counting:
    """Wraps an embedder and counts the passages it embeds."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.documents = 0

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        self.documents += len(texts)
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


def _left_to_embed(runner: Neo4jRunner, key: str) -> int:
    rows = runner.read("biomed/list_triplets_to_embed", after="", node_limit=100_000,
                       embedding_key=key)
    return sum(r["edge_id"] is not None for r in rows)


def test_stored_vectors_give_the_same_mmr_selection(runner: Neo4jRunner, minilm: Embedder) -> None:
    report = load_primekg(runner, SAMPLE_TRIPLETS, triplet_embedder=minilm)
    assert report.triplet_embeddings is not None
    assert report.triplet_embeddings.triplets == report.edges_after > 230
    assert _left_to_embed(runner, triplet_embedding_key(minilm)) == 0
    assert embed_triplets(runner, minilm).triplets == 0  # idempotent: nothing left to embed

    linker = EntityLinker(runner)
    weights = relation_weights(Domain.DRUG_THERAPY)
    compared = 0
    for q in QUESTIONS:
        ids = [e.id for e in linker.link(q)]
        assert ids, q
        stored_emb = Counting(minilm)
        stored = select_region(q, collect_candidates(runner, ids, weights, embedder=minilm),
                               stored_emb)
        computed = select_region(q, collect_candidates(runner, ids, weights), minilm)
        assert stored.candidates == computed.candidates > 0
        assert stored.stored_vectors == stored.candidates and stored_emb.documents == 0
        assert computed.stored_vectors == 0
        # Same triplets in the same order; scores equal up to float32 batching noise.
        assert [t.key for t in stored.triplets] == [t.key for t in computed.triplets], q
        np.testing.assert_allclose([t.mmr for t in stored.triplets],
                                   [t.mmr for t in computed.triplets], atol=1e-5)
        compared += len(stored.triplets)
    assert compared >= 30

    # The reasoner asks for the stored vectors itself.
    counting = Counting(minilm)
    _, region = Regram(runner, counting, linker).build_region(QUESTIONS[1], weights)
    assert region.stored_vectors == region.candidates > 0 and counting.documents == 0
    # Another embedder's key: the MiniLM vectors are not used, every candidate is embedded.
    bag = Regram(runner, BagEmbedder(), linker).build_region(QUESTIONS[1], weights)[1]
    assert bag.stored_vectors == 0 and bag.candidates == region.candidates


def test_cli_embeds_an_already_loaded_graph(runner: Neo4jRunner, neo4j_server: Server,
                                            minilm: Embedder,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    plain = load_primekg(runner, SAMPLE_TRIPLETS)
    assert plain.triplet_embeddings is None
    key = triplet_embedding_key(minilm)
    assert _left_to_embed(runner, key) == plain.edges_after

    from hopgraph.cli import cli
    monkeypatch.setattr("hopgraph.cli._load_primekg.embedder_from_settings",
                        lambda *a, **k: minilm)
    result = CliRunner().invoke(cli, ["--uri", neo4j_server.uri, "load", "primekg", "--sample",
                                      "--embed-triplets"],
                                env={"NEO4J_PASSWORD": neo4j_server.password})
    assert result.exit_code == 0, result.output
    assert f"triplet embeddings ({key}): {plain.edges_after} edges" in result.output
    assert _left_to_embed(runner, key) == 0
