"""ViHERMES's dataset builder (``hopgraph dataset build``), over the legal units loaded.

The paper's pipeline (``../shared/papers/vihermes.txt``, §3.1, steps 3-5) as implemented here:

1. **Contexts**: every article of the graph (``legal/list_dataset_contexts``) as
   ⟨id, title, text⟩, title = its document's title.
2. **Semantic clustering**: each context's vector (the stored one; embedded with the embedder
   it is given when the graph has none) is ℓ2-normalised and clustered by K-Means on the
   normalised vectors (= spherical K-Means, the paper's choice; scikit-learn, ``random_state``
   = seed). The paper states no k: with ``k=None`` it is chosen by the cosine silhouette over
   the candidates around √(n/2) (:func:`choose_k`), and every candidate's score is recorded.
   Representatives: the ``per_cluster`` contexts nearest each centroid (Euclidean distance to
   the mean of the normalised members, as the paper ranks them).
3. **Tuples**: for each hop level h in ``hops`` (the paper reports h = 1…5; issue 27 asks
   2…4), tuples of h representatives of one cluster whose document titles all differ, and whose
   overlap with every tuple already taken is at most τ (|Tₐ ∩ T_b| / |Tₐ| ≤ τ; the paper states
   no value, default ``TAU`` = 0.5). **Graph-native tuples** (ViHERMES has none): an article and
   an article it REFERS_TO, an amending unit and the unit it AMENDS (``legal/list_dataset_links``)
   — kind ``refers_to`` / ``amends``; the semantic ones are kind ``semantic``.
4. **Generation** through the chat model (any OpenAI-compatible endpoint): question, answer,
   reasoning and one evidence span per context (``ask_schema``, JSON Schema of
   :class:`GeneratedQA`).
5. **Structural validation** (:func:`validate`): the reply parsed; question, answer and
   reasoning present; every context cited by an evidence entry and no other; each span found
   in its context (whitespace, quotes and case normalised); and the answer not answerable from
   one context alone — a lexical retrieval check: if a single context holds at least
   ``SINGLE_CONTEXT_COVERAGE`` of the answer's content words the instance is rejected. Each
   rejection is counted by reason. (The paper's annotator review has no counterpart here.)
6. **Splits**: per hop level (and kind), a seeded shuffle and ``test_fraction`` of each to test,
   so both splits keep the hop distribution; exported in the ViHERMES fields (query, answer,
   hops, reasoning, evidence, context ids, contexts as ⟨id, title, text⟩).
"""

from __future__ import annotations

import json
import math
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, Field

from hopgraph.core.errors import LLMError
from hopgraph.core.ports import ChatModel, Embedder, ask_schema
from hopgraph.db import QueryRunner

TAU = 0.5
PER_CLUSTER = 6
HOPS = (2, 3, 4)
TEST_FRACTION = 0.5
SINGLE_CONTEXT_COVERAGE = 0.9
MIN_SPAN_CHARS = 8  # a shorter span ("Điều 1", "y tế") occurs anywhere and proves nothing
MIN_CHARS = 200
LINK_MIN_CHARS = 40
EMBED_CHARS = 1_000  # characters of a context embedded when the graph stores no vector
MAX_CONTEXT_CHARS = 1_200
MAX_ATTEMPTS = 200
_WORD = re.compile(r"\w+", re.UNICODE)
_STOP = frozenset({"và", "của", "các", "là", "được", "trong", "theo", "có", "cho", "với",
    "tại", "này", "đó", "những", "một", "không", "từ", "về", "để", "khi", "đã", "do", "thì",
    "hoặc", "như", "người", "bị", "sau", "trên", "đến", "phải"})


@dataclass(frozen=True)
class Context:
    """A regulatory context ⟨id, title, text⟩ (an article)."""

    id: str
    title: str
    text: str


@dataclass(frozen=True)
class Tuple:
    """Contexts to generate one multi-hop instance from."""

    contexts: tuple[Context, ...]
    kind: str            # semantic | refers_to | amends
    cluster: int | None  # the semantic cluster, None for graph-native tuples

    @property
    def hops(self) -> int:
        return len(self.contexts)


@dataclass
class Clustering:
    """The clustering and what was chosen."""

    k: int
    labels: list[int]
    representatives: dict[int, list[int]]   # cluster -> context indices, nearest first
    silhouette: dict[int, float]            # candidate k -> cosine silhouette
    sizes: dict[int, int]


class EvidenceItem(BaseModel):
    """One hop's extractive evidence."""

    context: str = Field(description="the context label, e.g. context_1")
    span: str = Field(description="a passage copied word for word from that context")


class GeneratedQA(BaseModel):
    """What the LLM returns for one tuple."""

    question: str
    answer: str
    reasoning: str
    evidence: list[EvidenceItem]


# -- contexts and clustering ---------------------------------------------------------------------

def fetch_contexts(runner: QueryRunner, *, min_chars: int = MIN_CHARS, max_contexts: int = 5_000,
                   per_doc: int = 1_000_000
                   ) -> tuple[list[Context], list[list[float] | None]]:
    """The graph's articles (at most ``per_doc`` of a document) and their stored vectors (None
    where none is stored)."""
    rows = runner.read("legal/list_dataset_contexts", min_chars=min_chars,
                       max_contexts=max_contexts, per_doc=per_doc)
    ctxs = [Context(str(r["id"]), str(r["title"] or r["doc_id"]), str(r["text"])) for r in rows]
    return ctxs, [list(r["embedding"]) if r.get("embedding") else None for r in rows]


def vectors_for(contexts: Sequence[Context], stored: Sequence[list[float] | None],
                embedder: Embedder | None) -> NDArray[np.float32]:
    """ℓ2-normalised vectors: the stored ones, the others embedded (passage side, the first
    ``EMBED_CHARS`` characters, as the loader embeds)."""
    missing = [i for i, v in enumerate(stored) if v is None]
    vecs = list(stored)
    if missing:
        if embedder is None:
            raise ValueError(f"{len(missing)} contexts have no stored vector and no embedder "
                             "was given")
        # cut as the loader cuts (a long article costs quadratic time in the encoder)
        made = embedder.embed_documents([contexts[i].text[:EMBED_CHARS] for i in missing])
        for i, v in zip(missing, made, strict=True):
            vecs[i] = list(v)
    x = np.asarray(vecs, dtype=np.float64)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return np.asarray(x / np.where(norms == 0, 1.0, norms))


def choose_k(x: NDArray[np.float32], *, seed: int = 0, min_size: int = PER_CLUSTER
             ) -> tuple[int, dict[int, float]]:
    """k with the best cosine silhouette among candidates around √(n/2), none above
    n / ``min_size`` (clusters of ``min_size`` contexts on average, so that a cluster's
    representatives can span several document titles)."""
    from sklearn.cluster import KMeans
    from sklearn.metrics import silhouette_score

    n = len(x)
    if n < 4:
        return max(1, min(2, n)), {}
    base = max(2, round(math.sqrt(n / 2)))
    top = max(2, n // max(1, min_size))
    cands = sorted({min(c, top) for c in (base // 2, base - base // 4, base, base + base // 4,
                                          base * 2, base * 3) if 2 <= c < n})
    scores: dict[int, float] = {}
    for c in cands:
        labels = KMeans(n_clusters=c, n_init=4, random_state=seed).fit_predict(x)
        if len(set(labels)) > 1:
            scores[c] = round(float(silhouette_score(x, labels, metric="cosine")), 4)
    if not scores:
        return 2, {}
    return max(scores, key=lambda c: (scores[c], -c)), scores


def cluster(x: NDArray[np.float32], *, k: int | None = None, per_cluster: int = PER_CLUSTER,
            seed: int = 0) -> Clustering:
    """Spherical K-Means (K-Means on ℓ2-normalised rows) and the representatives per cluster."""
    from sklearn.cluster import KMeans

    scores: dict[int, float] = {}
    if k is None:
        k, scores = choose_k(x, seed=seed, min_size=per_cluster)
    k = max(1, min(k, len(x)))
    km = KMeans(n_clusters=k, n_init=10, random_state=seed).fit(x)
    labels = [int(v) for v in km.labels_]
    reps: dict[int, list[int]] = {}
    for c in range(k):
        members = [i for i, lab in enumerate(labels) if lab == c]
        centroid = x[members].mean(axis=0)
        dist = np.linalg.norm(x[members] - centroid, axis=1)
        order = sorted(range(len(members)), key=lambda j: (float(dist[j]), members[j]))
        reps[c] = [members[j] for j in order[:per_cluster]]
    return Clustering(k, labels, reps, scores, dict(Counter(labels)))


# -- tuples --------------------------------------------------------------------------------------

def overlap_ok(candidate: Sequence[str], taken: Sequence[Sequence[str]], tau: float) -> bool:
    """|T ∩ T'| / |T| ≤ τ against every tuple already taken (the paper's diversity bound)."""
    c = set(candidate)
    return all(len(c & set(t)) / len(c) <= tau for t in taken)


def sample_tuples(contexts: Sequence[Context], clustering: Clustering, *, hops: Sequence[int],
                  per_hop: int, tau: float = TAU, seed: int = 0,
                  attempts: int = MAX_ATTEMPTS) -> tuple[list[Tuple], Counter[str]]:
    """Up to ``per_hop`` tuples per hop level from the representatives of one cluster each,
    titles all different, overlap ≤ τ; returns the tuples and why candidates were refused."""
    rng = random.Random(seed)
    out: list[Tuple] = []
    refused: Counter[str] = Counter()
    taken: list[list[str]] = []
    for h in hops:
        got = 0
        clusters = [c for c, pool in sorted(clustering.representatives.items())
                    if len({contexts[i].title for i in pool}) >= h]
        if not clusters:
            refused[f"h={h}: no cluster's representatives span {h} document titles"] += 1
            continue
        for _ in range(attempts * max(1, per_hop)):
            if got >= per_hop:
                break
            c = rng.choice(clusters)
            pool = clustering.representatives[c]
            pick = rng.sample(pool, len(pool))
            chosen: list[int] = []
            seen: set[str] = set()
            for i in pick:
                if contexts[i].title not in seen:
                    chosen.append(i)
                    seen.add(contexts[i].title)
                if len(chosen) == h:
                    break
            ids = sorted(contexts[i].id for i in chosen)
            if not overlap_ok(ids, taken, tau):
                refused[f"h={h}: overlap with a tuple taken above tau"] += 1
                continue
            taken.append(ids)
            out.append(Tuple(tuple(contexts[i] for i in chosen), "semantic", c))
            got += 1
        if got < per_hop:
            refused[f"h={h}: only {got} of {per_hop} tuples found"] += 1
    return out, refused


def graph_tuples(runner: QueryRunner, *, per_kind: int, min_chars: int = MIN_CHARS,
                 tau: float = TAU, taken: Sequence[Sequence[str]] = ()) -> list[Tuple]:
    """Pairs that follow the graph's own edges (REFERS_TO, AMENDS), kind-marked, overlap ≤ τ."""
    rows = runner.read("legal/list_dataset_links", min_chars=min_chars, limit=per_kind * 4)
    # (an amending clause is short: the builder passes a lower floor than for articles)
    kept: list[list[str]] = [list(t) for t in taken]
    out: list[Tuple] = []
    per: Counter[str] = Counter()
    for r in rows:
        kind = str(r["kind"])
        if per[kind] >= per_kind:
            continue
        ids = sorted([str(r["a_id"]), str(r["b_id"])])
        if not overlap_ok(ids, kept, tau):
            continue
        kept.append(ids)
        per[kind] += 1
        out.append(Tuple((Context(str(r["a_id"]), str(r["a_title"]), str(r["a_text"])),
                          Context(str(r["b_id"]), str(r["b_title"]), str(r["b_text"]))),
                         kind, None))
    return out


# -- generation and validation -------------------------------------------------------------------

SYSTEM = ("Bạn là chuyên gia pháp luật Việt Nam, soạn câu hỏi nhiều bước (multi-hop) cho bộ dữ "
          "liệu đánh giá. Chỉ dùng thông tin trong các ngữ cảnh được cho.")
KIND_HINT = {
    "semantic": "Các ngữ cảnh thuộc các văn bản khác nhau cùng chủ đề.",
    "refers_to": "context_1 dẫn chiếu đến context_2: câu hỏi phải cần nội dung của điều được "
                 "dẫn chiếu để trả lời.",
    "amends": "context_1 sửa đổi context_2: câu hỏi phải cần cả quy định cũ và nội dung sửa đổi.",
}


def prompt(t: Tuple, max_chars: int = MAX_CONTEXT_CHARS) -> list[dict[str, str]]:
    """The messages for one tuple: contexts labelled context_1 … context_h."""
    parts = [f"context_{i + 1} (id {c.id}; {c.title}):\n{c.text[:max_chars]}"
             for i, c in enumerate(t.contexts)]
    user = (f"{KIND_HINT.get(t.kind, '')}\n\n" + "\n\n".join(parts) + "\n\n"
            f"Hãy viết MỘT câu hỏi tiếng Việt mà câu trả lời cần cả {t.hops} ngữ cảnh, câu trả "
            "lời, phần lập luận nêu rõ từng ngữ cảnh được dùng thế nào, và đúng một bằng chứng "
            "cho mỗi ngữ cảnh: trường context là nhãn (context_1 …), trường span là một đoạn "
            "chép nguyên văn từ ngữ cảnh đó. Trả lời bằng JSON.")
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def _compare_form(text: str) -> str:
    t = unicodedata.normalize("NFC", text).lower()
    t = re.sub(r"[“”\"‘’'`]", "", t)
    return " ".join(t.split())


def content_words(text: str) -> set[str]:
    """Lower-case words of ``text`` but numbers of one character and function words."""
    return {w for w in _WORD.findall(_compare_form(text)) if w not in _STOP and len(w) > 1}


def schema_problem(problem: str) -> str:
    """The rejection reason of a reply that is not an instance, as one of a few categories (the
    problem itself goes to the rejection's record): not JSON, JSON without the schema's fields
    or with wrong types, or not in the schema for another reason."""
    low = problem.lower()
    if "not json" in low:
        return "reply not in the schema: not JSON"
    if "field required" in low or "missing" in low:
        return "reply not in the schema: JSON without the schema's fields"
    if "validation error" in low:
        return "reply not in the schema: a field of the wrong type"
    return "reply not in the schema"


def validate(t: Tuple, qa: GeneratedQA | None, problem: str = "") -> str | None:
    """None when the instance passes, else the reason it is rejected (see the module)."""
    if qa is None:
        return schema_problem(problem)
    if not (qa.question.strip() and qa.answer.strip() and qa.reasoning.strip()):
        return "empty question, answer or reasoning"
    labels = {f"context_{i + 1}": c for i, c in enumerate(t.contexts)}
    cited = [e.context.strip().lower() for e in qa.evidence]
    if any(c not in labels for c in cited):
        return "evidence cites a context that was not given"
    if set(cited) != set(labels):
        return "not every hop's context is cited by an evidence span"
    for e in qa.evidence:
        span = _compare_form(e.span)
        if len(span) < MIN_SPAN_CHARS:
            return f"an evidence span is shorter than {MIN_SPAN_CHARS} characters"
        if span not in _compare_form(labels[e.context.strip().lower()].text):
            return "an evidence span does not occur in its context"
    answer = content_words(qa.answer)
    if answer:
        best = max(len(answer & content_words(c.text)) / len(answer) for c in t.contexts)
        if best >= SINGLE_CONTEXT_COVERAGE:
            return "answerable from one context alone (one context holds the answer's words)"
    return None


@dataclass
class Instance:
    """One accepted multi-hop QA instance in the ViHERMES fields."""

    id: str
    query: str
    answer: str
    hops: int
    reasoning: str
    evidence: list[dict[str, str]]
    context_ids: list[str]
    contexts: list[dict[str, str]]
    kind: str
    cluster: int | None
    generator: str


def generate(tuples: Sequence[Tuple], chat: ChatModel, *, max_tokens: int = 700,
             max_chars: int = MAX_CONTEXT_CHARS,
             progress: Callable[[int], None] | None = None
             ) -> tuple[list[Instance], Counter[str], list[dict[str, Any]]]:
    """Generate and validate one instance per tuple; returns accepted instances, rejection
    counts by reason and one record per rejection (tuple ids, reason)."""
    accepted: list[Instance] = []
    rejected: Counter[str] = Counter()
    records: list[dict[str, Any]] = []
    for n, t in enumerate(tuples):
        try:
            reply = ask_schema(chat, prompt(t, max_chars), GeneratedQA, max_tokens=max_tokens)
            reason = validate(t, reply.value, reply.problem)
            model = reply.result.model
            detail = reply.problem if reply.value is None else ""
        except LLMError as e:
            reason, model = f"LLM call failed ({type(e).__name__})", ""
            reply, detail = None, str(e)
        if reason is not None or reply is None or reply.value is None:
            rejected[reason or "no reply"] += 1
            records.append({"context_ids": [c.id for c in t.contexts], "kind": t.kind,
                            "hops": t.hops, "reason": reason,
                            **({"detail": detail[:300]} if detail else {})})
        else:
            qa = reply.value
            labels = {f"context_{i + 1}": c for i, c in enumerate(t.contexts)}
            accepted.append(Instance(
                id=f"vh-{n:05d}", query=qa.question.strip(), answer=qa.answer.strip(),
                hops=t.hops, reasoning=qa.reasoning.strip(),
                evidence=[{"context_id": labels[e.context.strip().lower()].id,
                           "text": e.span.strip()} for e in qa.evidence],
                context_ids=[c.id for c in t.contexts],
                contexts=[{"id": c.id, "title": c.title, "text": c.text} for c in t.contexts],
                kind=t.kind, cluster=t.cluster, generator=model))
        if progress is not None:
            progress(1)
    return accepted, rejected, records


# -- splits and export ---------------------------------------------------------------------------

def split(instances: Sequence[Instance], *, test_fraction: float = TEST_FRACTION, seed: int = 0
          ) -> tuple[list[Instance], list[Instance]]:
    """Per (hop level, kind): a seeded shuffle, ``test_fraction`` (rounded) to test."""
    rng = random.Random(seed)
    train: list[Instance] = []
    test: list[Instance] = []
    groups: dict[tuple[int, str], list[Instance]] = {}
    for inst in instances:
        groups.setdefault((inst.hops, inst.kind), []).append(inst)
    for key in sorted(groups):
        group = list(groups[key])
        rng.shuffle(group)
        cut = round(len(group) * test_fraction)
        test.extend(group[:cut])
        train.extend(group[cut:])
    return train, test


@dataclass
class BuildReport:
    """Statistics of a build (written as stats.json)."""

    parameters: dict[str, Any]
    contexts: int
    clusters: dict[str, Any]
    tuples: dict[str, int]
    tuple_refusals: dict[str, int]
    accepted: int = 0
    rejections: dict[str, int] = field(default_factory=dict)
    # "h=2 semantic" / "h=2 refers_to" / "h=2 amends" -> accepted and reasons of rejection
    by_kind: dict[str, dict[str, int]] = field(default_factory=dict)
    splits: dict[str, dict[str, int]] = field(default_factory=dict)


def hop_distribution(instances: Sequence[Instance]) -> dict[str, int]:
    """``{"h=2 semantic": n, …}``."""
    return dict(sorted(Counter(f"h={i.hops} {i.kind}" for i in instances).items()))


def export(out: Path, train: Sequence[Instance], test: Sequence[Instance], report: BuildReport,
           rejected: Sequence[dict[str, Any]] = ()) -> None:
    """``train.jsonl``, ``test.jsonl``, ``rejected.jsonl`` and ``stats.json`` under ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    for name, rows in (("train", train), ("test", test)):
        with (out / f"{name}.jsonl").open("w", encoding="utf-8") as f:
            for inst in rows:
                f.write(json.dumps(asdict(inst), ensure_ascii=False) + "\n")
    with (out / "rejected.jsonl").open("w", encoding="utf-8") as f:
        for r in rejected:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    (out / "stats.json").write_text(json.dumps(asdict(report), ensure_ascii=False, indent=1),
                                    encoding="utf-8")


def build_dataset(runner: QueryRunner, embedder: Embedder | None, chat: ChatModel | None,
                  out: Path, *, k: int | None = None, per_cluster: int = PER_CLUSTER,
                  hops: Sequence[int] = HOPS, per_hop: int = 10, tau: float = TAU,
                  graph_per_kind: int = 5, test_fraction: float = TEST_FRACTION, seed: int = 0,
                  min_chars: int = MIN_CHARS, max_contexts: int = 5_000,
                  per_doc: int = 1_000_000, max_chars: int = MAX_CONTEXT_CHARS,
                  progress: Callable[[int], None] | None = None) -> BuildReport:
    """The whole pipeline (module docstring); with ``chat=None`` only the tuples are written
    (``tuples.jsonl``: the deterministic part), no QA.

    Raises:
        ValueError: fewer than two contexts, or contexts without vectors and no embedder.
    """
    contexts, stored = fetch_contexts(runner, min_chars=min_chars, max_contexts=max_contexts,
                                      per_doc=per_doc)
    if len(contexts) < 2:
        raise ValueError(f"the graph holds {len(contexts)} article(s) of at least {min_chars} "
                         "characters; load legal documents first")
    x = vectors_for(contexts, stored, embedder)
    cl = cluster(x, k=k, per_cluster=per_cluster, seed=seed)
    tuples, refused = sample_tuples(contexts, cl, hops=hops, per_hop=per_hop, tau=tau, seed=seed)
    native = graph_tuples(runner, per_kind=graph_per_kind, min_chars=LINK_MIN_CHARS, tau=tau,
                          taken=[sorted(c.id for c in t.contexts) for t in tuples]) \
        if graph_per_kind > 0 else []
    all_tuples = tuples + native
    params = {"k": k if k is not None else "chosen by silhouette", "per_cluster": per_cluster,
              "hops": list(hops), "per_hop": per_hop, "tau": tau,
              "graph_per_kind": graph_per_kind, "test_fraction": test_fraction, "seed": seed,
              "min_chars": min_chars, "max_contexts": max_contexts, "per_doc": per_doc,
              "max_context_chars_in_prompt": max_chars,
              "single_context_coverage": SINGLE_CONTEXT_COVERAGE,
              "vectors": f"{sum(v is not None for v in stored)} stored, "
                         f"{sum(v is None for v in stored)} embedded"
                         + (f" with {embedder.name}" if embedder is not None else "")}
    report = BuildReport(
        parameters=params, contexts=len(contexts),
        clusters={"k": cl.k, "silhouette_by_k": cl.silhouette,
                  "sizes": {str(c): n for c, n in sorted(cl.sizes.items())},
                  "representatives": sum(len(v) for v in cl.representatives.values()),
                  "titles_per_cluster": {str(c): len({contexts[i].title for i in reps})
                                         for c, reps in sorted(cl.representatives.items())}},
        tuples=dict(sorted(Counter(f"h={t.hops} {t.kind}" for t in all_tuples).items())),
        tuple_refusals=dict(refused))
    if chat is None:
        out.mkdir(parents=True, exist_ok=True)
        with (out / "tuples.jsonl").open("w", encoding="utf-8") as f:
            for t in all_tuples:
                f.write(json.dumps({"kind": t.kind, "hops": t.hops, "cluster": t.cluster,
                                    "context_ids": [c.id for c in t.contexts],
                                    "titles": [c.title for c in t.contexts]},
                                   ensure_ascii=False) + "\n")
        (out / "stats.json").write_text(json.dumps(asdict(report), ensure_ascii=False, indent=1),
                                        encoding="utf-8")
        return report
    accepted, rejected, records = generate(all_tuples, chat, max_chars=max_chars,
                                           progress=progress)
    train, test = split(accepted, test_fraction=test_fraction, seed=seed)
    report.accepted = len(accepted)
    report.rejections = dict(rejected.most_common())
    by_kind: dict[str, Counter[str]] = {}
    for inst in accepted:
        by_kind.setdefault(f"h={inst.hops} {inst.kind}", Counter())["accepted"] += 1
    for r in records:
        by_kind.setdefault(f"h={r['hops']} {r['kind']}", Counter())[f"rejected: {r['reason']}"] += 1
    report.by_kind = {k: dict(v.most_common()) for k, v in sorted(by_kind.items())}
    report.splits = {"train": hop_distribution(train), "test": hop_distribution(test)}
    export(out, train, test, report, records)
    return report
