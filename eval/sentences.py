"""Evaluation of sentence-graph retrieval on HotpotQA-style questions with supporting facts.

Systems, all measured in the same run on the same graph:

* ``graph``: SentGraph retrieval (anchors, refinement, path expansion);
* ``graph-no-refine`` / ``graph-no-expand`` / ``graph-no-cover``: the ablations;
* ``graph-no-fusion``: evidence by path score alone (the rule before issue 19 item 3: expansions
  may push out strong anchors); ``graph-anchor-pool``: fusion where the anchors refinement
  dropped also compete with the expansions for the free slots;
* ``sentence-ro``: sentence-level retrieval only (vector top-k sentences, k = the graph's evidence
  budget, and ``sentence-ro@K`` with k = the anchor K);
* ``passage-ro``: passage-level retrieval only (vector top-k passages, all their sentences).

``graph`` shows the answering sentence(s) first (the answer line, issue 29);
``graph-score-order`` is the same evidence in retrieval order (the order before);
``graph-with-detours`` keeps the sentences reached without leaving their anchor's passage
(``trim_detours=False``, the evidence before issue 29 trimmed them);
``graph-no-title-links`` follows no title link (``title_links=False``: the evidence before the
kept anchors' title links, issue 29).

Metrics per question: supporting-sentence recall@k over the ranked evidence and over all of it,
precision of all of it, passage recall (both gold passages among the evidence's passages), context
tokens (words and punctuation, :func:`count_tokens`), and, for a subset when an LLM is given,
EM/F1 of the LLM's answer from that evidence (SQuAD normalisation), and the rank of the answer
sentence (:func:`answer_sentences`: the supporting sentence holding the gold answer, or every
supporting sentence when none does, e.g. yes/no comparisons) in the evidence: ``answer_rank``
(1-based, None when absent), ``answer_rr`` (1 / rank, 0 when absent), ``answer_at_1``.
"""

from __future__ import annotations

import json
import re
import string
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import mean
from typing import Any

from pydantic import BaseModel, ValidationError

from hopgraph.agents import ChatModel
from hopgraph.agents.sentences import SentenceReasoner, count_tokens, generate_answer
from hopgraph.core.errors import HopgraphError, RetrievalError
from hopgraph.retrieval import find_anchor_sentences, find_passages, passage_titles

RECALL_AT = (2, 5, 10)
DEFAULT_PASSAGE_K = 5


class EvalQuestion(BaseModel):
    """A question with its answer and supporting facts ``[passage id or title, sentence index]``."""

    id: str
    question: str
    answer: str = ""
    supporting_facts: list[tuple[str, int]]
    type: str = ""


def read_questions(path: Path) -> list[EvalQuestion]:
    """Read HotpotQA questions (``_id``, ``question``, ``answer``, ``supporting_facts``) or the
    sample format (``id`` instead of ``_id``); entries without a question are ignored.

    Raises:
        RetrievalError: the file is missing or not a JSON list of questions.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise RetrievalError(f"{path}: cannot read questions ({e})") from e
    if not isinstance(data, list):
        raise RetrievalError(f"{path}: expected a JSON list of questions")
    out = []
    for n, item in enumerate(data):
        if not isinstance(item, dict) or "question" not in item:
            continue
        item = {**item, "id": item.get("id") or item.get("_id") or f"q{n}"}
        try:
            out.append(EvalQuestion.model_validate(item))
        except ValidationError as e:
            raise RetrievalError(f"{path}: question {n}: {e.errors()[0]['msg']}") from e
    return out


@dataclass(frozen=True)
class Ranked:
    """What one system returned for one question: ranked sentence ids and their texts."""

    sentence_ids: list[str]
    texts: list[str]
    passages: list[str]
    seconds: float
    extra: dict[str, Any] = field(default_factory=dict)


def _normalise_answer(text: str) -> str:
    text = text.lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def exact_match(prediction: str, gold: str) -> float:
    """SQuAD/HotpotQA exact match after normalisation."""
    return float(_normalise_answer(prediction) == _normalise_answer(gold))


def f1_score(prediction: str, gold: str) -> float:
    """SQuAD/HotpotQA token F1 after normalisation."""
    p, g = _normalise_answer(prediction).split(), _normalise_answer(gold).split()
    common = Counter(p) & Counter(g)
    same = sum(common.values())
    if not p or not g or same == 0:
        return float(p == g)
    precision, recall = same / len(p), same / len(g)
    return 2 * precision * recall / (precision + recall)


def sentence_id(passage_id: str, position: int) -> str:
    """The graph id of a passage's sentence."""
    return f"{passage_id}#s{position}"


def _graph_system(reasoner: SentenceReasoner) -> Callable[[EvalQuestion, list[float]], Ranked]:
    def run(q: EvalQuestion, vector: list[float]) -> Ranked:
        started = time.perf_counter()
        r = reasoner.retrieve(q.question, vector)
        return Ranked([e.id for e in r.evidence], [e.text for e in r.evidence],
                      [e.passage_id for e in r.evidence], time.perf_counter() - started,
                      {"hops": r.hops, "kept": len(r.kept), "refinement": r.refinement,
                       "sufficient": r.sufficient, "llm_calls": r.llm_calls,
                       "expanded": sum(1 for e in r.evidence if len(e.path) > 1)})
    return run


def _sentence_ro(reasoner: SentenceReasoner, k: int) -> Callable[[EvalQuestion, list[float]], Ranked]:
    def run(q: EvalQuestion, vector: list[float]) -> Ranked:
        started = time.perf_counter()
        hits = find_anchor_sentences(reasoner.runner, vector, k)
        return Ranked([h.id for h in hits], [h.text for h in hits], [h.passage_id for h in hits],
                      time.perf_counter() - started)
    return run


def _passage_ro(reasoner: SentenceReasoner, k: int) -> Callable[[EvalQuestion, list[float]], Ranked]:
    def run(q: EvalQuestion, vector: list[float]) -> Ranked:
        started = time.perf_counter()
        hits = find_passages(reasoner.runner, vector, k)
        ids = [s for h in hits for s in h.sentence_ids]
        return Ranked(ids, [f"{h.title}: {h.text}" for h in hits],
                      [h.id for h in hits for _ in h.sentence_ids], time.perf_counter() - started,
                      {"passage_ranked": [h.id for h in hits]})
    return run


def answer_sentences(answer: str, gold: set[str], texts: dict[str, str]) -> set[str]:
    """The supporting sentences that hold the answer (normalised text contains the normalised
    answer); every supporting sentence when none does (yes / no, or an answer worded otherwise):
    then the compared values are the answer."""
    target = _normalise_answer(answer)
    if target and target not in ("yes", "no"):
        holding = {i for i in gold if i in texts and target in _normalise_answer(texts[i])}
        if holding:
            return holding
    return set(gold)


@dataclass
class SystemResult:
    """Per-question measurements of one system."""

    name: str
    rows: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        keys = [k for k in self.rows[0] if isinstance(self.rows[0][k], int | float)
                and not isinstance(self.rows[0][k], bool)] if self.rows else []
        out: dict[str, Any] = {"system": self.name, "questions": len(self.rows)}
        for k in keys:
            values = [r[k] for r in self.rows if r.get(k) is not None]
            out[k] = round(mean(values), 4) if values else None
        answered = [r for r in self.rows if r.get("em") is not None]
        out["answered"] = len(answered)
        if answered:
            out["em"] = round(mean(r["em"] for r in answered), 4)
            out["f1"] = round(mean(r["f1"] for r in answered), 4)
        return out


def evaluate(
    reasoner: SentenceReasoner,
    questions: Sequence[EvalQuestion],
    *,
    llm: ChatModel | None = None,
    llm_questions: int = 0,
    passage_k: int = DEFAULT_PASSAGE_K,
    answer_systems: Sequence[str] = ("graph", "sentence-ro", "passage-ro"),
    progress: Callable[[int], None] | None = None,
) -> list[SystemResult]:
    """Run every system on every question; answer the first ``llm_questions`` with the LLM.

    The graph systems run without LLM refinement unless ``reasoner`` has an LLM; the same question
    vector is used by every system.
    """
    cfg = reasoner.config
    systems: dict[str, Callable[[EvalQuestion, list[float]], Ranked]] = {
        "graph": _graph_system(reasoner),
        "graph-score-order": _graph_system(reasoner.with_config(answer_first=False)),
        "graph-with-detours": _graph_system(reasoner.with_config(trim_detours=False)),
        "graph-no-title-links": _graph_system(reasoner.with_config(title_links=False)),
        "graph-no-fusion": _graph_system(reasoner.with_config(fusion=False)),
        "graph-anchor-pool": _graph_system(reasoner.with_config(anchor_pool=True)),
        "graph-no-cover": _graph_system(reasoner.with_config(cover_facets=False)),
        "graph-no-refine": _graph_system(reasoner.with_config(refine=False)),
        "graph-no-expand": _graph_system(reasoner.with_config(expand=False)),
        "sentence-ro": _sentence_ro(reasoner, cfg.max_evidence),
        f"sentence-ro@{cfg.anchor_k}": _sentence_ro(reasoner, cfg.anchor_k),
        "passage-ro": _passage_ro(reasoner, passage_k),
        "passage-ro@2": _passage_ro(reasoner, 2),
    }
    results = {name: SystemResult(name) for name in systems}
    titles: dict[str, str] = {}
    for n, q in enumerate(questions):
        vector = reasoner.embedder.embed_query(q.question)
        gold = {sentence_id(pid, pos) for pid, pos in q.supporting_facts}
        gold_passages = {pid for pid, _ in q.supporting_facts}
        done: list[tuple[Ranked, dict[str, Any]]] = []
        for name, system in systems.items():
            ranked = system(q, vector)
            found = [s for s in ranked.sentence_ids if s in gold]
            row: dict[str, Any] = {"id": q.id, "type": q.type}
            for k in RECALL_AT:
                row[f"sp_recall@{k}"] = len(gold & set(ranked.sentence_ids[:k])) / len(gold)
            row["sp_recall"] = len(set(found)) / len(gold)
            row["sp_precision"] = (len(set(found)) / len(set(ranked.sentence_ids))
                                   if ranked.sentence_ids else 0.0)
            row["sp_all_found"] = float(gold <= set(ranked.sentence_ids))
            row["passage_recall"] = len(gold_passages & set(ranked.passages)) / len(gold_passages)
            row["passage_all_found"] = float(gold_passages <= set(ranked.passages))
            row["evidence_sentences"] = len(ranked.sentence_ids)
            row["context_tokens"] = sum(count_tokens(t) for t in ranked.texts)
            row["latency_ms"] = ranked.seconds * 1000
            row["llm_calls"] = ranked.extra.get("llm_calls", 0)
            if "expanded" in ranked.extra:
                row["expanded_evidence"] = ranked.extra["expanded"]
            row["em"] = row["f1"] = None
            if llm is not None and n < llm_questions and name in answer_systems:
                missing = sorted({p for p in ranked.passages if p not in titles})
                titles.update(passage_titles(reasoner.runner, missing))
                lines = ranked.texts if name.startswith("passage") else [
                    f"[{titles.get(p, p)}] {t}" for p, t in zip(ranked.passages, ranked.texts, strict=True)]
                try:
                    prediction = generate_answer(llm, q.question, lines)
                except HopgraphError as e:
                    prediction = ""
                    row["answer_error"] = str(e)
                row["prediction"] = prediction
                row["em"] = exact_match(prediction, q.answer)
                row["f1"] = f1_score(prediction, q.answer)
            results[name].rows.append(row)
            done.append((ranked, row))
        # the gold sentences' texts as any system returned them (a gold sentence no system
        # returned cannot be ranked by any)
        texts = {i: t for ranked, _ in done if not ranked.extra.get("passage_ranked")
                 for i, t in zip(ranked.sentence_ids, ranked.texts, strict=True) if i in gold}
        answering = answer_sentences(q.answer, gold, texts)
        for ranked, row in done:
            rank = next((n for n, i in enumerate(ranked.sentence_ids, 1) if i in answering), None)
            row["answer_rank"] = rank
            row["answer_rr"] = 1.0 / rank if rank else 0.0
            row["answer_at_1"] = float(rank == 1)
        if progress is not None:
            progress(1)
    return list(results.values())


def format_table(summaries: Sequence[dict[str, Any]], baseline: str = "sentence-ro") -> str:
    """A Markdown table of the summaries with recall and tokens as ratios to ``baseline``."""
    base = next((s for s in summaries if s["system"] == baseline), None)
    cols = ["sp_recall@2", "sp_recall@5", "sp_recall@10", "sp_recall", "sp_precision",
            "sp_all_found", "passage_recall", "passage_all_found", "evidence_sentences",
            "context_tokens", "latency_ms", "llm_calls", "answer_rr", "answer_at_1", "answered",
            "em", "f1"]
    lines = ["| system | " + " | ".join(cols) + " | recall vs " + baseline + " | tokens vs "
             + baseline + " |", "|" + "---|" * (len(cols) + 3)]
    for s in summaries:
        cells = []
        for c in cols:
            v = s.get(c)
            cells.append("-" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v)))
        ratio_r = (f"{s['sp_recall'] / base['sp_recall']:.3f}" if base and base["sp_recall"] else "-")
        ratio_t = (f"{s['context_tokens'] / base['context_tokens']:.3f}"
                   if base and base["context_tokens"] else "-")
        lines.append(f"| {s['system']} | " + " | ".join(cells) + f" | {ratio_r} | {ratio_t} |")
    return "\n".join(lines)
