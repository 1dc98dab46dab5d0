"""Stored triplet vectors: verbalisation, key, byte form, their use in MMR and the loader's pass."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from hopgraph.core.errors import EmbeddingError, IngestError, RetrievalError
from hopgraph.graph_models import (
    RELATION_SPECS,
    BioRel,
    decode_vector,
    encode_vector,
    triplet_embedding_key,
    triplet_text,
)
from hopgraph.loaders.biomed import embed_triplets
from hopgraph.retrieval import (
    Candidates,
    Triplet,
    collect_candidates,
    relation_weights,
    select_region,
)
from tests.unit.biomed._fakes import BagEmbedder, CountingEmbedder, FakeRunner


def test_triplet_text_is_the_one_verbalisation() -> None:
    spec = RELATION_SPECS[BioRel.INDICATION]
    t = Triplet("d", "Imatinib", "Drug", "INDICATION", "x", "CML", "Disease", 1.5)
    assert t.text() == triplet_text("Imatinib", "INDICATION", "CML") == f"Imatinib {spec.text} CML"
    assert triplet_text("a", "NOT_A_RELATION", "b") == "a not a relation b"


def test_vector_bytes_round_trip_exactly_and_bad_sizes_are_refused() -> None:
    vec = np.random.default_rng(0).standard_normal(384).astype(np.float32)
    stored = encode_vector(vec.tolist())
    assert isinstance(stored, str) and len(stored) == 384 * 4 * 4 // 3
    assert np.array_equal(decode_vector(stored, 384), vec)  # bit for bit
    with pytest.raises(RetrievalError, match="edge x: stored embedding has 1532 bytes, expected 1536"):
        decode_vector(encode_vector(vec[:-1].tolist()), 384, what="edge x")
    with pytest.raises(RetrievalError, match="not base64"):
        decode_vector("not base64!", 384)
    with pytest.raises(RetrievalError, match="bytes, not base64 text"):
        decode_vector(bytes(1536), 384)  # type: ignore[arg-type]


def test_key_names_model_dimension_and_verbalisation() -> None:
    bag = BagEmbedder()
    key = triplet_embedding_key(bag)
    model, dim, fingerprint = key.split("|")
    assert (model, dim) == ("bag", "64") and len(fingerprint) == 12
    assert triplet_embedding_key(CountingEmbedder("other")) != key


def _row(h: str, rel: str, t: str, embedding: str | None, seed: str = "s") -> dict[str, Any]:
    return {"seed_id": seed, "degree": 5, "head_id": h, "head": h, "head_type": "Drug",
            "relation": rel, "tail_id": t, "tail": t, "tail_type": "Disease", "weight": 1.0,
            "embedding": embedding}


def test_collect_candidates_asks_for_the_embedders_vectors_and_decodes_them() -> None:
    bag = BagEmbedder()
    stored = encode_vector(bag.embed_documents([triplet_text("aspirin", "INDICATION", "pain")])[0])
    runner = FakeRunner({"biomed/collect_region_candidates": lambda p: [
        _row("aspirin", "INDICATION", "pain", stored), _row("aspirin", "INDICATION", "fever", None)]})
    cands = collect_candidates(runner, ["aspirin"], relation_weights(None), embedder=bag)
    assert runner.calls[0][1]["embedding_key"] == triplet_embedding_key(bag)
    assert cands.embedding_key == triplet_embedding_key(bag)
    assert set(cands.vectors) == {("aspirin", "INDICATION", "pain")}
    plain = collect_candidates(runner, ["aspirin"], relation_weights(None))
    assert runner.calls[-1][1]["embedding_key"] is None and plain.vectors == {}

    broken = FakeRunner({"biomed/collect_region_candidates": lambda p: [
        _row("aspirin", "INDICATION", "pain", encode_vector([0.0, 0.0, 0.0]))]})
    with pytest.raises(RetrievalError, match="12 bytes, expected 256"):
        collect_candidates(broken, ["aspirin"], relation_weights(None), embedder=bag)


def _candidates(n: int) -> list[Triplet]:
    drugs = ["aspirin", "ibuprofen", "warfarin", "heparin", "imatinib", "metformin", "insulin"]
    return [Triplet(f"d{i}", drugs[i % len(drugs)] + f" form {i // len(drugs)}", "Drug",
                    ["INDICATION", "CONTRAINDICATION", "TARGET"][i % 3], f"x{i % 4}",
                    ["pain", "fever", "bleeding", "diabetes"][i % 4], "Disease", 1.0 + (i % 3) / 2)
            for i in range(n)]


def test_stored_vectors_give_the_same_region_and_only_missing_texts_are_embedded() -> None:
    trips = _candidates(30)
    question = "which drug treats pain or fever without bleeding"
    computed = CountingEmbedder()
    base = select_region(question, Candidates(trips, []), computed)
    assert len(computed.documents) == 30 and base.stored_vectors == 0

    bag = BagEmbedder()
    key = triplet_embedding_key(bag)
    vectors = {t.key: decode_vector(encode_vector(bag.embed_documents([t.text()])[0]), 64)
               for t in trips[::2]}  # half stored, as after a partial embedding pass
    stored = CountingEmbedder()
    region = select_region(question, Candidates(trips, [], vectors, key), stored)
    assert stored.documents == [t.text() for t in trips[1::2]]  # only the missing ones
    assert stored.queries == [question]
    assert region.stored_vectors == 15
    assert [(t.key, t.similarity, t.mmr) for t in region.triplets] == \
        [(t.key, t.similarity, t.mmr) for t in base.triplets]


def test_vectors_stored_for_another_model_are_not_used() -> None:
    trips = _candidates(6)
    other_key = triplet_embedding_key(CountingEmbedder("another-model"))
    wrong = {t.key: np.ones(64, dtype=np.float32) / 8.0 for t in trips}
    emb = CountingEmbedder()
    region = select_region("aspirin pain", Candidates(trips, [], wrong, other_key), emb)
    assert len(emb.documents) == 6 and region.stored_vectors == 0


class GraphRunner(FakeRunner):
    """A tiny in-memory edge list served through the two embedding-pass queries."""

    def __init__(self, heads: dict[str, list[tuple[str, str, str]]]) -> None:
        super().__init__()
        # edge id -> (head id, head name, relation, tail name)
        self.edges = {f"e{i}": (h, h.upper(), rel, tail)
                      for i, (h, rel, tail) in enumerate(
                          (h, rel, tail) for h, out in sorted(heads.items()) for _, rel, tail in out)}
        self.heads = sorted(heads)
        self.stored: dict[str, tuple[str, str]] = {}
        self.handlers = {"biomed/list_triplets_to_embed": self._list,
                         "biomed/set_triplet_embeddings": self._set}

    def _list(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        page = [h for h in self.heads if h > p["after"]][:p["node_limit"]]
        rows: list[dict[str, Any]] = []
        for h in page:
            todo = [(e, v) for e, v in self.edges.items()
                    if v[0] == h and self.stored.get(e, ("", ""))[1] != p["embedding_key"]]
            rows += [{"head_id": h, "edge_id": e, "head": v[1], "relation": v[2], "tail": v[3]}
                     for e, v in todo] or [{"head_id": h, "edge_id": None, "head": h.upper(),
                                            "relation": None, "tail": None}]
        return rows

    def _set(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        for r in p["rows"]:
            self.stored[r["edge_id"]] = (r["embedding"], p["embedding_key"])
        return [{"count": len(p["rows"])}]


def test_embedding_pass_pages_through_heads_and_is_idempotent() -> None:
    graph = GraphRunner({f"h{i:02d}": [("", "INDICATION", f"disease {j}") for j in range(i % 3)]
                         for i in range(10)})
    emb = CountingEmbedder()
    seen: list[int] = []
    report = embed_triplets(graph, emb, node_page=3, chunk=2, progress=seen.append)
    assert report.triplets == len(graph.edges) == 9 and sum(seen) == 9
    assert report.pages == 4  # 10 heads, 3 per page
    assert set(graph.stored) == set(graph.edges)
    for edge, (raw, key) in graph.stored.items():
        _h, head, rel, tail = graph.edges[edge]
        assert key == triplet_embedding_key(emb)
        assert np.array_equal(decode_vector(raw, 64), np.asarray(
            BagEmbedder().embed_documents([triplet_text(head, rel, tail)])[0], dtype=np.float32))
    assert sorted(emb.documents) == sorted(triplet_text(h, r, t) for _, h, r, t in graph.edges.values())
    again = CountingEmbedder()
    assert embed_triplets(graph, again).triplets == 0 and again.documents == []
    # another model embeds everything again, under its own key
    assert embed_triplets(graph, CountingEmbedder("another")).triplets == 9


def test_embedding_pass_refuses_bad_settings_and_bad_vectors() -> None:
    with pytest.raises(IngestError, match="must be positive"):
        embed_triplets(GraphRunner({}), BagEmbedder(), node_page=0)

    class Short(BagEmbedder):
        def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
            return [v[:10] for v in super().embed_documents(texts)]

    with pytest.raises(EmbeddingError, match="vector of 10 values, expected 64"):
        embed_triplets(GraphRunner({"a": [("", "TARGET", "b")]}), Short())


def test_cli_refuses_a_missing_file_before_loading_a_model(tmp_path: Path) -> None:
    from hopgraph.cli import cli

    result = CliRunner().invoke(cli, ["load", "primekg", str(tmp_path / "nope.tsv"),
                                      "--embed-triplets"])
    assert result.exit_code != 0 and "nope.tsv: no such file" in result.output


def test_a_given_question_vector_is_not_embedded_again() -> None:
    trips = _candidates(8)
    emb = CountingEmbedder()
    qv = BagEmbedder().embed_query("aspirin pain")
    given = select_region("aspirin pain", Candidates(trips, []), emb, query_vec=qv)
    assert emb.queries == []
    assert [t.key for t in given.triplets] == \
        [t.key for t in select_region("aspirin pain", Candidates(trips, []), emb).triplets]
