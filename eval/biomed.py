"""Evaluation of ReGraM on the MIRAGE / AfrimedQA question sets, with the paper's ablations.

One run answers a seeded sample of questions under several configurations (full, without domain
prior, without multi-hop, without MMR, without reviewer, and the unweighted vector top-k
baseline) and reports per configuration: MCQ accuracy, how often the region contains the gold
answer's entity (over questions whose gold answer links to a graph entity), the mode mix per hop,
the hallucination labels, and region-construction time. Linking and embeddings are memoised
across configurations (they do not depend on the configuration).
"""

from __future__ import annotations

import json
import random
import re
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hopgraph.agents.biomed import EntityLinker, LinkedEntity, Regram, RegramConfig, decompose
from hopgraph.core.errors import HopgraphError
from hopgraph.core.ports import Embedder, Vector
from hopgraph.db import QueryRunner

DEFAULT_PER_DATASET = 34
MIRAGE_SETS = ("medqa", "medmcqa", "pubmedqa", "bioasq", "mmlu")
AFRIMED = "afrimedqa"
_AFRIMED_OPTION = re.compile(r"^\s*([A-J]):\s*(.+?)\s*$", re.MULTILINE)
_ZERO_WIDTH = "\u200b\u200c\u200d\ufeff"


def _strip_own_letter(letter: str, text: str) -> str:
    """``text`` without a leading copy of its own letter label ("C.", "C)") and zero-width
    characters; unchanged when that would leave nothing."""
    clean = text.translate({ord(c): None for c in _ZERO_WIDTH}).strip()
    m = re.match(rf"{letter}[.)]\s*(?=\S)", clean)
    return clean[m.end():] if m else clean

ABLATIONS: dict[str, RegramConfig] = {
    "regram": RegramConfig(),
    "no_domain_prior": RegramConfig(use_domain_prior=False),
    "no_multihop": RegramConfig(use_multihop=False),
    "no_mmr": RegramConfig(use_mmr=False),
    "no_reviewer": RegramConfig(use_reviewer=False),
    "baseline_vector_top15": RegramConfig(unweighted_vector_baseline=True),
    "option_paths_2_edges": RegramConfig(option_max_edges=2),
    "option_one_sum": RegramConfig(option_direct_first=False),  # the scorer of 9d084d9
    # the rules before issue 29: cue words read without their negation, a fact of the opposite
    # relation at half weight, every "not" an exception, indirect-only options chosen
    "before_issue_29": RegramConfig(negation_cues=False, indirect_margin=1.0),
}


@dataclass(frozen=True)
class Question:
    """One MCQ item."""

    dataset: str
    qid: str
    question: str
    options: dict[str, str]
    answer: str


def load_questions(data_dir: Path, *, per_dataset: int, seed: int = 13,
                   datasets: Sequence[str] = (*MIRAGE_SETS, AFRIMED),
                   match: str | None = None) -> list[Question]:
    """A seeded sample of ``per_dataset`` questions from each set (of those whose text matches
    the regular expression ``match``, case-insensitive, when given).

    Raises:
        HopgraphError: the benchmark files are missing.
    """
    bench = data_dir / "benchmark.json"
    if not bench.is_file():
        raise HopgraphError(f"{bench}: MIRAGE benchmark file not found")
    mirage = json.loads(bench.read_text())
    rng = random.Random(seed)
    out: list[Question] = []
    for name in datasets:
        items: list[Question] = []
        if name == AFRIMED:
            afr = data_dir / "AfrimedQA_mcq_expert.json"
            if not afr.is_file():
                continue
            for qid, item in json.loads(afr.read_text())["mcq_expert"].items():
                text = str(item["query"])
                # The option texts repeat their letter ("C.\u200bPyloric stenosis"): dropped.
                opts = {k: _strip_own_letter(k, v) for k, v in _AFRIMED_OPTION.findall(text)
                        if v.strip().lower() != "n/a"}
                stem = _AFRIMED_OPTION.split(text)[0].strip()
                if opts and item.get("answer") in opts:
                    items.append(Question(name, qid, stem, opts, str(item["answer"])))
        else:
            for qid, item in mirage.get(name, {}).items():
                items.append(Question(name, qid, str(item["question"]), dict(item["options"]),
                                      str(item["answer"])))
        items = _matching(items, match)
        items.sort(key=lambda q: q.qid)
        out.extend(rng.sample(items, min(per_dataset, len(items))))
    return out


class MemoLinker(EntityLinker):
    """An :class:`EntityLinker` that remembers its answers (linking is config-independent)."""

    def __init__(self, inner: EntityLinker) -> None:
        self._inner = inner
        self._memo: dict[str, list[LinkedEntity]] = {}
        self._options: dict[str, list[LinkedEntity]] = {}

    def link(self, text: str) -> list[LinkedEntity]:
        if text not in self._memo:
            self._memo[text] = self._inner.link(text)
        return self._memo[text]

    def link_option(self, text: str, *, min_ratio: float | None = None) -> list[LinkedEntity]:
        key = f"{min_ratio}\0{text}"
        if key not in self._options:
            self._options[key] = (self._inner.link_option(text) if min_ratio is None
                                  else self._inner.link_option(text, min_ratio=min_ratio))
        return self._options[key]


class MemoEmbedder:
    """Remembers vectors in memory for the duration of one evaluation."""

    def __init__(self, inner: Embedder) -> None:
        self._inner = inner
        self._docs: dict[str, Vector] = {}
        self._queries: dict[str, Vector] = {}

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def dimension(self) -> int:
        return self._inner.dimension

    def embed_documents(self, texts: Sequence[str]) -> list[Vector]:
        missing = [t for t in dict.fromkeys(texts) if t not in self._docs]
        if missing:
            self._docs.update(zip(missing, self._inner.embed_documents(missing), strict=True))
        return [self._docs[t] for t in texts]

    def embed_query(self, text: str) -> Vector:
        if text not in self._queries:
            self._queries[text] = self._inner.embed_query(text)
        return self._queries[text]


def load_mcq(path: Path, *, per_dataset: int | None, seed: int = 13,
             match: str | None = None) -> list[Question]:
    """Questions from a MIRAGE / AfrimedQA directory (``per_dataset`` per set, default 34) or from
    one MCQ file (:func:`load_mcq_file`; a seeded sample of ``per_dataset``, all when None); with
    ``match``, only questions whose text matches that regular expression (case-insensitive)."""
    if path.is_dir():
        return load_questions(path, per_dataset=per_dataset or DEFAULT_PER_DATASET, seed=seed,
                              match=match)
    return sample_questions(_matching(load_mcq_file(path), match), per_dataset, seed)


def _matching(questions: list[Question], match: str | None) -> list[Question]:
    """The questions whose text matches ``match`` (case-insensitive); all when it is None."""
    if match is None:
        return questions
    return [q for q in questions if re.search(match, q.question, re.IGNORECASE)]


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _answer_letter(answer: Any, opts: Any) -> Any:
    """The answer as an option letter: a letter in any case, or the exact text of one option."""
    if not isinstance(opts, dict) or not isinstance(answer, str):
        return answer
    if answer in opts:
        return answer
    if answer.strip().upper() in opts:
        return answer.strip().upper()
    by_text = [k for k, v in opts.items() if isinstance(v, str) and v.strip() == answer.strip()]
    return by_text[0] if len(by_text) == 1 else answer


def load_mcq_file(path: Path, *, dataset: str | None = None) -> list[Question]:
    """Every item of an MCQ file: a JSON list, a JSON object keyed by id, or JSON lines, each item
    ``{question, options: {letter: text}, answer}`` (``id`` optional, the position otherwise;
    ``dataset`` optional, the file name otherwise). ``options`` may also be a list of texts,
    lettered A, B, C ...; ``answer`` may be a letter in either case or the exact text of one
    option.

    Malformed items are skipped and reported in the error only when none is usable.

    Raises:
        HopgraphError: the file cannot be read, is not JSON / JSON lines, or holds no usable item.
    """
    name = dataset or path.stem
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise HopgraphError(f"{path}: cannot read the MCQ file ({e})") from e
    items: list[tuple[str, Any]]
    try:
        data = json.loads(text)
        if isinstance(data, dict) and "question" in data:  # JSON lines with one line
            items = [("0", data)]
        elif isinstance(data, dict):
            items = [(str(k), v) for k, v in data.items()]
        elif isinstance(data, list):
            items = [(str(i), v) for i, v in enumerate(data)]
        else:
            raise HopgraphError(f"{path}: expected a JSON list or object of MCQ items")
    except json.JSONDecodeError:
        items = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                items.append((str(n - 1), json.loads(line)))
            except json.JSONDecodeError as e:
                raise HopgraphError(f"{path} line {n}: not JSON ({e.msg})") from e
    out: list[Question] = []
    problems: list[str] = []
    for key, item in items:
        if not isinstance(item, dict):
            problems.append(f"{key}: not an object")
            continue
        opts = item.get("options")
        if isinstance(opts, list) and all(isinstance(o, str) for o in opts):
            opts = dict(zip(_LETTERS, opts, strict=False))  # a list is lettered A, B, C ...
        question, answer = item.get("question"), _answer_letter(item.get("answer"), opts)
        if not isinstance(question, str) or not question.strip():
            problems.append(f"{key}: no question")
        elif not isinstance(opts, dict) or not opts:
            problems.append(f"{key}: options is not a {{letter: text}} object")
        elif str(answer) not in opts:
            problems.append(f"{key}: answer {item.get('answer')!r} is not an option letter")
        else:
            own = item.get("dataset")  # a per-item set name (e.g. a level) splits the report
            out.append(Question(own if isinstance(own, str) and own.strip() else name,
                                str(item.get("id", key)), question,
                                {str(k): str(v) for k, v in opts.items()}, str(answer)))
    if not out:
        raise HopgraphError(f"{path}: no usable MCQ item ({'; '.join(problems[:3]) or 'empty'})")
    return out


def sample_questions(questions: Sequence[Question], n: int | None, seed: int = 13) -> list[Question]:
    """A seeded sample of ``n`` questions (ids sorted first), or all of them when ``n`` is None."""
    items = sorted(questions, key=lambda q: q.qid)
    if n is None or n >= len(items):
        return items
    return random.Random(seed).sample(items, n)


def paired_bootstrap(a: Sequence[bool], b: Sequence[bool], *, resamples: int = 2000,
                     seed: int = 7) -> dict[str, float]:
    """Mean of ``a - b`` over the same questions and its 95 % percentile bootstrap interval."""
    n = len(a)
    if n == 0 or n != len(b):
        return {"diff": float("nan"), "low": float("nan"), "high": float("nan")}
    d = [int(x) - int(y) for x, y in zip(a, b, strict=True)]
    rng = random.Random(seed)
    means = sorted(sum(d[rng.randrange(n)] for _ in range(n)) / n for _ in range(resamples))
    return {"diff": round(sum(d) / n, 4), "low": round(means[int(0.025 * resamples)], 4),
            "high": round(means[int(0.975 * resamples) - 1], 4)}


@dataclass
class ConfigStats:
    """Aggregates for one configuration (an abstention counts as wrong in ``accuracy``)."""

    questions: int = 0
    answered: int = 0
    correct: int = 0
    gold_in_graph: int = 0
    gold_in_region: int = 0
    modes: Counter[str] = field(default_factory=Counter)
    labels: Counter[str] = field(default_factory=Counter)
    correct_by_label: Counter[str] = field(default_factory=Counter)
    choice_sources: Counter[str] = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)
    by_dataset: dict[str, list[int]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "questions": self.questions, "answered": self.answered,
            "coverage": round(self.answered / self.questions, 4) if self.questions else None,
            "accuracy": round(self.correct / self.questions, 4) if self.questions else None,
            "accuracy_answered": round(self.correct / self.answered, 4) if self.answered else None,
            "gold_in_graph": self.gold_in_graph,
            "gold_entity_coverage": round(self.gold_in_region / self.gold_in_graph, 4)
            if self.gold_in_graph else None,
            "modes_per_hop": dict(self.modes), "labels": dict(self.labels),
            "accuracy_by_label": {k: round(self.correct_by_label[k] / v, 4) for k, v in self.labels.items()},
            "choice_sources": dict(self.choice_sources),
            "p50_s_per_question": round(statistics.median(self.seconds), 3) if self.seconds else None,
            "accuracy_by_dataset": {k: round(c / n, 4) for k, (c, n) in self.by_dataset.items()},
        }


def evaluate(regram: Regram, questions: Sequence[Question], *,
             configs: dict[str, RegramConfig] | None = None,
             progress: Any = None,
             on_item: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Run every configuration on every question; return per-config aggregates and per-item rows.

    ``on_item`` receives each per-question row as soon as it is complete (benchmarks checkpoint
    with it, so a long LLM run keeps the questions it finished).
    """
    configs = configs or ABLATIONS
    stats = {name: ConfigStats() for name in configs}
    rows: list[dict[str, Any]] = []
    gold_ids: dict[str, set[str]] = {}
    linker = regram.linker
    for q in questions:
        gold_text = q.options.get(q.answer, "")
        gold_ids[q.qid] = {e.id for e in linker.link_option(gold_text)} if gold_text else set()
        row: dict[str, Any] = {"dataset": q.dataset, "qid": q.qid, "answer": q.answer,
                               "gold_linked": sorted(gold_ids[q.qid])}
        for name, cfg in configs.items():
            started = time.perf_counter()
            ans = regram.with_config(cfg).ask(q.question, q.options)
            s = stats[name]
            s.seconds.append(time.perf_counter() - started)
            s.questions += 1
            s.answered += ans.choice is not None
            ok = ans.choice == q.answer
            s.correct += ok
            c, n = s.by_dataset.setdefault(q.dataset, [0, 0])
            s.by_dataset[q.dataset] = [c + ok, n + 1]
            s.labels[ans.label] += 1
            s.correct_by_label[ans.label] += ok
            s.choice_sources[str(ans.choice_source)] += 1
            for h in ans.hops:
                s.modes[h.mode.value] += 1
            covered = None
            if gold_ids[q.qid]:
                s.gold_in_graph += 1
                covered = bool(gold_ids[q.qid] & ans.region_ids)
                s.gold_in_region += covered
            row[name] = {"choice": ans.choice, "correct": ok, "label": ans.label,
                         "margin": _margin(ans.option_evidence, ans.choice),
                         "choice_source": ans.choice_source, "seconds": round(s.seconds[-1], 3),
                         "modes": [h.mode.value for h in ans.hops], "gold_in_region": covered,
                         "region_size": [len(h.region.triplets) for h in ans.hops]}
        rows.append(row)
        if on_item is not None:
            on_item(row)
        if progress is not None:
            progress(1)
    return {"configs": {k: v.as_dict() for k, v in stats.items()},
            "comparisons": compare(rows, list(configs), [q.answer for q in questions]),
            "items": rows}


def _margin(evidence: Mapping[str, Any], choice: str | None) -> float | None:
    """The chosen option's score over the best other option's (None without a choice or a
    score; a large number when no other option has any): how clearly the evidence picked it."""
    if choice is None or choice not in evidence or evidence[choice].score <= 0:
        return None
    other = max((e.score for k, e in evidence.items() if k != choice), default=0.0)
    return round(evidence[choice].score / other, 4) if other > 0 else 1e9


def evidence_ceiling(runner: QueryRunner, linker: EntityLinker, questions: Sequence[Question], *,
                     max_edges: int = 3) -> dict[str, Any]:
    """How many questions the graph could answer from paths at all: per question, the entities
    linked from its hops (as the reasoner links them, without an LLM), the entities of each
    option (:meth:`EntityLinker.link_option`, question entities left out) and the shortest
    distance between a question entity and an option entity (``biomed/measure_pair_distances``).

    Returns counts over the questions (question entity linked, an option linked, the gold option
    linked, some option / the gold option within 1..``max_edges`` edges) and one row per question.
    """
    rows: list[dict[str, Any]] = []
    for q in questions:
        hops = decompose(q.question, None).hops
        stem = list(dict.fromkeys(e.id for h in hops for e in linker.link(h)))
        opts = {k: [e.id for e in linker.link_option(t) if e.id not in stem]
                for k, t in q.options.items()}
        pairs = [{"stem_id": s, "option_id": o} for s in stem for ids in opts.values() for o in ids]
        dist: dict[tuple[str, str], int] = {}
        if pairs:
            for r in runner.read("biomed/measure_pair_distances", pairs=pairs, max_edges=max_edges):
                if r["edges"] is not None:
                    dist[(str(r["stem_id"]), str(r["option_id"]))] = int(r["edges"])
        nearest = {k: min((dist[(s, o)] for s in stem for o in ids if (s, o) in dist), default=None)
                   for k, ids in opts.items()}
        rows.append({"dataset": q.dataset, "qid": q.qid, "answer": q.answer,
                     "question_entities": len(stem),
                     "option_entities": {k: len(v) for k, v in opts.items()},
                     "nearest_edges": nearest})
    counts: dict[str, Any] = {
        "questions": len(rows),
        "question_entity_linked": sum(r["question_entities"] > 0 for r in rows),
        "some_option_linked": sum(any(r["option_entities"].values()) for r in rows),
        "gold_option_linked": sum(r["option_entities"][r["answer"]] > 0 for r in rows),
        "options_linked": sum(n > 0 for r in rows for n in r["option_entities"].values()),
        "options": sum(len(r["option_entities"]) for r in rows),
    }
    for k in range(1, max_edges + 1):
        counts[f"some_option_within_{k}"] = sum(
            any(d is not None and d <= k for d in r["nearest_edges"].values()) for r in rows)
        counts[f"gold_within_{k}"] = sum(
            (r["nearest_edges"][r["answer"]] or max_edges + 1) <= k for r in rows)
    return {"counts": counts, "by_split": {
        split: {"questions": sum(split_of(r["dataset"]) == split for r in rows),
                f"gold_within_{max_edges}": sum(
                    split_of(r["dataset"]) == split
                    and (r["nearest_edges"][r["answer"]] or max_edges + 1) <= max_edges
                    for r in rows)}
        for split in sorted({split_of(r["dataset"]) for r in rows})}, "items": rows}


def bootstrap_mean(values: Sequence[bool], *, resamples: int = 2000,
                   seed: int = 7) -> dict[str, float]:
    """Mean of ``values`` and its 95 % percentile bootstrap interval (NaN when empty)."""
    n = len(values)
    if n == 0:
        return {"mean": float("nan"), "low": float("nan"), "high": float("nan")}
    x = [int(v) for v in values]
    rng = random.Random(seed)
    means = sorted(sum(x[rng.randrange(n)] for _ in range(n)) / n for _ in range(resamples))
    return {"mean": round(sum(x) / n, 4), "low": round(means[int(0.025 * resamples)], 4),
            "high": round(means[int(0.975 * resamples) - 1], 4)}


def split_of(dataset: str) -> str:
    """``afrimedqa`` for AfrimedQA, ``mirage`` for the MIRAGE sets, else the dataset's name."""
    if dataset == AFRIMED:
        return AFRIMED
    return "mirage" if dataset in MIRAGE_SETS else dataset


def compare(rows: Sequence[dict[str, Any]], configs: Sequence[str],
            gold: Sequence[str]) -> dict[str, Any]:
    """Majority-letter accuracy and paired bootstrap intervals of each config against the
    unweighted baseline and the majority letter (same questions; abstentions count as wrong).

    Per config also: its accuracy over all with a bootstrap interval; over the questions it
    answered, beside the majority letter on those same questions (paired interval), since a
    scorer that abstains is compared fairly only where it speaks; and the same figures per split
    (MIRAGE and AfrimedQA, so a set used for choosing settings is reported apart from the other).
    """
    out: dict[str, Any] = {}
    if not rows:
        return out
    letter, count = Counter(gold).most_common(1)[0]
    majority = [g == letter for g in gold]
    out["majority_letter"] = {"letter": letter, "accuracy": round(count / len(gold), 4)}
    base = "baseline_vector_top15"
    splits = sorted({split_of(str(r["dataset"])) for r in rows})
    for name in configs:
        correct = [bool(r[name]["correct"]) for r in rows]
        answered = [i for i, r in enumerate(rows) if r[name]["choice"] is not None]
        entry: dict[str, Any] = {
            "accuracy_all": bootstrap_mean(correct),
            "vs_majority_letter": paired_bootstrap(correct, majority),
            "answered": len(answered),
            "accuracy_answered": bootstrap_mean([correct[i] for i in answered]),
            "majority_letter_on_answered": bootstrap_mean([majority[i] for i in answered]),
            "answered_vs_majority_letter": paired_bootstrap([correct[i] for i in answered],
                                                            [majority[i] for i in answered]),
        }
        if base in configs and name != base:
            entry["vs_" + base] = paired_bootstrap(correct, [bool(r[base]["correct"]) for r in rows])
        by_split: dict[str, Any] = {}
        for split in splits:
            idx = [i for i, r in enumerate(rows) if split_of(str(r["dataset"])) == split]
            ans = [i for i in idx if rows[i][name]["choice"] is not None]
            by_split[split] = {"questions": len(idx), "answered": len(ans),
                               "correct": sum(correct[i] for i in idx),
                               "accuracy_all": bootstrap_mean([correct[i] for i in idx]),
                               "majority_letter_all": bootstrap_mean([majority[i] for i in idx])}
        entry["by_split"] = by_split
        out[name] = entry
    return out
