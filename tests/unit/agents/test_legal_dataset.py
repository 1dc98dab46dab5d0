"""The deterministic parts of the ViHERMES dataset builder, with fixed seeds (no database, no LLM)."""

from __future__ import annotations

import numpy as np

from hopgraph.eval.dataset import (
    Context,
    EvidenceItem,
    GeneratedQA,
    Instance,
    Tuple,
    cluster,
    overlap_ok,
    sample_tuples,
    split,
    validate,
    vectors_for,
)


def _corpus(seed: int = 0) -> tuple[list[Context], np.ndarray]:
    """Three topics of eight contexts each, from four documents per topic."""
    rng = np.random.default_rng(seed)
    centres = np.eye(3, 16) * 5
    contexts, vecs = [], []
    for t in range(3):
        for i in range(8):
            contexts.append(Context(f"doc{t}-{i % 4}:D{i}", f"Văn bản {t}-{i % 4}",
                                    f"Chủ đề {t} điều {i}"))
            vecs.append(centres[t] + rng.normal(0, 0.3, 16))
    return contexts, vectors_for(contexts, [list(v) for v in vecs], None)


def test_vectors_are_l2_normalised_and_missing_ones_need_an_embedder() -> None:
    _, x = _corpus()
    assert np.allclose(np.linalg.norm(x, axis=1), 1.0)
    try:
        vectors_for([Context("a", "t", "x")], [None], None)
    except ValueError as e:
        assert "no stored vector" in str(e)
    else:
        raise AssertionError("expected a ValueError")


def test_spherical_kmeans_finds_the_topics_and_ranks_representatives() -> None:
    contexts, x = _corpus()
    cl = cluster(x, per_cluster=4, seed=0)
    assert cl.k == 3 and cl.silhouette and max(cl.silhouette, key=cl.silhouette.__getitem__) == 3
    # each cluster is one topic; its representatives are its members nearest the centroid
    for c, reps in cl.representatives.items():
        topics = {contexts[i].id[3] for i, lab in enumerate(cl.labels) if lab == c}
        assert len(topics) == 1 and len(reps) == 4
        members = [i for i, lab in enumerate(cl.labels) if lab == c]
        centroid = x[members].mean(axis=0)
        dist = {i: float(np.linalg.norm(x[i] - centroid)) for i in members}
        assert [dist[i] for i in reps] == sorted(dist[i] for i in reps)
        assert max(dist[i] for i in reps) <= min(dist[i] for i in members if i not in reps)
    again = cluster(x, per_cluster=4, seed=0)
    assert again.labels == cl.labels and again.representatives == cl.representatives
    assert cluster(x, k=2, per_cluster=4, seed=0).k == 2


def test_tuples_have_distinct_titles_and_bounded_overlap() -> None:
    contexts, x = _corpus()
    cl = cluster(x, per_cluster=6, seed=0)
    tuples, refused = sample_tuples(contexts, cl, hops=[2, 3, 4], per_hop=3, tau=0.5, seed=7)
    again, _ = sample_tuples(contexts, cl, hops=[2, 3, 4], per_hop=3, tau=0.5, seed=7)
    assert [t.contexts for t in tuples] == [t.contexts for t in again]
    assert {t.hops for t in tuples} == {2, 3, 4}
    ids = [sorted(c.id for c in t.contexts) for t in tuples]
    for i, t in enumerate(tuples):
        assert len({c.title for c in t.contexts}) == t.hops
        assert len({c.id[3] for c in t.contexts}) == 1  # one cluster = one topic
        assert overlap_ok(ids[i], ids[:i], 0.5)
    # five titles are needed for h=5 and no cluster has them
    _, refused = sample_tuples(contexts, cl, hops=[5], per_hop=1, seed=7)
    assert refused == {"h=5: no cluster's representatives span 5 document titles": 1}
    assert overlap_ok(["a", "b"], [["a", "c"]], 0.5) and not overlap_ok(["a", "b"], [["a", "b"]],
                                                                          0.5)


def _tuple() -> Tuple:
    return Tuple((Context("A:D1", "Luật A", "Điều 1. Người bệnh được khám miễn phí tại trạm y tế xã."),
                  Context("B:D2", "Luật B", "Điều 2. Trạm y tế xã mở cửa từ bảy giờ sáng mỗi ngày.")),
                 "semantic", 0)


def _qa(answer: str, spans: list[tuple[str, str]]) -> GeneratedQA:
    return GeneratedQA(question="Khám miễn phí ở đâu và khi nào?", answer=answer,
                       reasoning="context_1 nói nơi khám, context_2 nói giờ mở cửa.",
                       evidence=[EvidenceItem(context=c, span=s) for c, s in spans])


def test_validation_rejects_each_structural_fault_with_its_reason() -> None:
    t = _tuple()
    good = [("context_1", "khám miễn phí tại trạm y tế xã"), ("context_2", "mở cửa từ bảy giờ sáng")]
    assert validate(t, _qa("Người bệnh được khám miễn phí tại trạm y tế xã, mở cửa từ bảy giờ "
                           "sáng.", good)) is None
    assert validate(t, None, "not JSON").startswith("reply not in the schema")
    assert validate(t, _qa("", good)) == "empty question, answer or reasoning"
    assert validate(t, _qa("x", good[:1])) == \
        "not every hop's context is cited by an evidence span"
    assert validate(t, _qa("x", [*good, ("context_3", "y")])) == \
        "evidence cites a context that was not given"
    assert validate(t, _qa("x", [good[0], ("context_2", "đóng cửa lúc nửa đêm")])) == \
        "an evidence span does not occur in its context"
    one = "Người bệnh được khám miễn phí tại trạm y tế xã."
    assert validate(t, _qa(one, good)).startswith("answerable from one context alone")


def test_split_keeps_the_hop_distribution_with_a_fixed_seed() -> None:
    def inst(i: int, hops: int) -> Instance:
        return Instance(f"q{i}", "q", "a", hops, "r", [], [], [], "semantic", 0, "m")
    items = [inst(i, 2) for i in range(10)] + [inst(10 + i, 3) for i in range(6)]
    train, test = split(items, test_fraction=0.5, seed=1)
    assert sorted(i.hops for i in test) == [2] * 5 + [3] * 3
    assert len(train) == 8 and not {i.id for i in train} & {i.id for i in test}
    assert [i.id for i in split(items, test_fraction=0.5, seed=1)[1]] == [i.id for i in test]
