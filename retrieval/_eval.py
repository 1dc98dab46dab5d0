"""Retrieval evaluation, reusable by every pipeline: metrics, question files, reports.

A question file is JSON: ``[{"id": ..., "question": ..., "gold": [unit ids]}]``, with optional
``"choices": {"A": ..., "B": ...}`` for a multiple-choice item and an optional
``"as_of": "YYYY-MM-DD"``, the date the question is asked at (a legal system retrieves the
wording in force that day; without it, the date the caller gives every question applies, for
``hopgraph eval retrieval`` its ``--as-of``, today by default); the QA sample format
(``{"questions": [...]}`` with ``gold_unit_ids``) is read too. A *system* is any callable
``(asked text, the question's as_of or None) -> ranked ids``; :func:`evaluate` runs several
systems over the same questions in one run and reports Recall@k, Hit@k, MRR and nDCG with
per-query latency.
Predictions finer than the gold (``X:D5.K2`` for gold ``X:D5``, or a version ``X:D5@Y``) count
as the gold unit: :func:`project_ranking` maps them and drops duplicates.
"""

from __future__ import annotations

import json
import math
import re
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path

from pydantic import AliasChoices, BaseModel, Field, ValidationError, field_validator
from pydantic_core import PydanticCustomError

from hopgraph.core.errors import RetrievalError

DEFAULT_KS = (1, 3, 5, 10)
# (asked text, the question's own date or None) -> ranked ids; None: the system's default date.
System = Callable[[str, date | None], list[str]]
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class EvalQuestion(BaseModel):
    """One question with its gold unit ids (validated at the file boundary)."""

    id: str
    question: str = Field(min_length=1)
    gold: list[str] = Field(min_length=1, validation_alias=AliasChoices("gold", "gold_unit_ids"))
    choices: dict[str, str] = Field(default_factory=dict)
    as_of: date | None = None

    @field_validator("as_of", mode="before")
    @classmethod
    def _iso_date(cls, value: object) -> object:
        # Only the documented form: pydantic alone would also take a number (as a Unix time).
        if value is None or isinstance(value, date):
            return value
        if isinstance(value, str) and ISO_DATE.fullmatch(value.strip()):
            try:
                return date.fromisoformat(value.strip())
            except ValueError:
                pass
        raise PydanticCustomError("iso_date", "as_of must be a date YYYY-MM-DD, got {value}",
                                  {"value": repr(value)})

    def asked(self) -> str:
        """The text every system is given: the question, then its options (``A. … B. …``, in
        key order) for a multiple-choice item, whose stem alone often names no subject
        ("Hành vi nào sau đây bị cấm?")."""
        options = " ".join(f"{key}. {text.strip()}" for key, text in sorted(self.choices.items()))
        return f"{self.question.strip()} {options}".strip()


def load_questions(path: Path) -> list[EvalQuestion]:
    """Read a question file.

    Raises:
        RetrievalError: the file is missing, not JSON, or a row is malformed (names the row).
    """
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise RetrievalError(f"cannot read question file {path}: {e}") from e
    if isinstance(rows, dict) and isinstance(rows.get("questions"), list):
        rows = rows["questions"]  # the QA sample format: {"note": ..., "questions": [...]}
    if not isinstance(rows, list):
        raise RetrievalError(f"{path}: expected a JSON list of questions")
    out = []
    for i, row in enumerate(rows):
        try:
            out.append(EvalQuestion.model_validate(row))
        except ValidationError as e:
            raise RetrievalError(f"{path}: question #{i} is malformed: {e.errors()[0]['msg']}") from e
    return out


def project_ranking(ranked: Sequence[str], gold: Sequence[str]) -> list[str]:
    """Map predictions to the gold's granularity (prefix ``g.`` or ``g@``) and de-duplicate."""
    out: list[str] = []
    seen: set[str] = set()
    for pid in ranked:
        mapped = pid
        for g in gold:
            if pid == g or pid.startswith((g + ".", g + "@")):
                mapped = g
                break
        else:
            mapped = pid.split("@", 1)[0]
        if mapped not in seen:
            seen.add(mapped)
            out.append(mapped)
    return out


def hit_at_k(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    """1.0 when any gold id is in the top k."""
    g = set(gold)
    return 1.0 if any(r in g for r in ranked[:k]) else 0.0


def recall_at_k(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    """Share of gold ids in the top k."""
    g = set(gold)
    return len(g & set(ranked[:k])) / len(g) if g else 0.0


def mrr_at_k(ranked: Sequence[str], gold: Sequence[str], k: int = 10) -> float:
    """Reciprocal rank of the first gold id within the top k (0 if none)."""
    g = set(gold)
    for i, r in enumerate(ranked[:k], start=1):
        if r in g:
            return 1.0 / i
    return 0.0


def ndcg_at_k(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    """Binary-relevance nDCG@k."""
    g = set(gold)
    dcg = sum(1.0 / math.log2(i + 1) for i, r in enumerate(ranked[:k], start=1) if r in g)
    ideal = sum(1.0 / math.log2(i + 1) for i in range(1, min(len(g), k) + 1))
    return dcg / ideal if ideal else 0.0


@dataclass
class SystemResult:
    """Metrics of one system over the question set."""

    name: str
    metrics: dict[str, float]
    latency_ms_p50: float
    latency_ms_p95: float
    per_query: list[dict[str, object]] = field(default_factory=list)


@dataclass
class EvalReport:
    """All systems of one run."""

    questions: int
    ks: tuple[int, ...]
    systems: list[SystemResult]
    notes: dict[str, object] = field(default_factory=dict)

    def to_json(self) -> str:
        """The report as JSON (per-query rows included)."""
        return json.dumps(asdict(self), ensure_ascii=False, indent=2)

    def to_markdown(self) -> str:
        """A Markdown table, one row per system."""
        cols = [f"Hit@{k}" for k in self.ks] + [f"Recall@{k}" for k in self.ks] + [
            "MRR@10", "nDCG@10", "p50 ms", "p95 ms"]
        lines = [f"questions: {self.questions}", "",
                 "| system | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
        for s in self.systems:
            vals = [s.metrics.get(c, 0.0) for c in cols[:-2]]
            lines.append(f"| {s.name} | " + " | ".join(f"{v:.3f}" for v in vals)
                         + f" | {s.latency_ms_p50:.1f} | {s.latency_ms_p95:.1f} |")
        return "\n".join(lines) + "\n"


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); 0 for no values."""
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, max(0, math.ceil(q / 100 * len(s)) - 1))]


def evaluate(
    systems: Mapping[str, System],
    questions: Sequence[EvalQuestion],
    *,
    ks: Sequence[int] = DEFAULT_KS,
    progress: Callable[[str, int], None] | None = None,
) -> EvalReport:
    """Run every system on every question (systems interleaved per question, so load drifts
    affect all alike) and compute the metrics. Each system gets the asked text and the
    question's own ``as_of`` (``None`` when it has none); a per-query row names a date the
    question has."""
    per: dict[str, list[dict[str, object]]] = {name: [] for name in systems}
    for qi, q in enumerate(questions):
        for name, system in systems.items():
            t0 = time.perf_counter()
            ranked = system(q.asked(), q.as_of)
            ms = (time.perf_counter() - t0) * 1000.0
            proj = project_ranking(ranked, q.gold)
            row: dict[str, object] = {"id": q.id, "latency_ms": round(ms, 3), "top": proj[:10]}
            if q.as_of is not None:
                row["as_of"] = q.as_of.isoformat()
            for k in ks:
                row[f"Hit@{k}"] = hit_at_k(proj, q.gold, k)
                row[f"Recall@{k}"] = recall_at_k(proj, q.gold, k)
            row["MRR@10"] = mrr_at_k(proj, q.gold, 10)
            row["nDCG@10"] = ndcg_at_k(proj, q.gold, 10)
            per[name].append(row)
        if progress is not None:
            progress(q.id, qi + 1)
    results = []
    for name, rows in per.items():
        keys = [f"Hit@{k}" for k in ks] + [f"Recall@{k}" for k in ks] + ["MRR@10", "nDCG@10"]
        metrics = {key: statistics.fmean(float(r[key]) for r in rows) if rows else 0.0  # type: ignore[arg-type]
                   for key in keys}
        lat = [float(r["latency_ms"]) for r in rows]  # type: ignore[arg-type]
        results.append(SystemResult(name, metrics, percentile(lat, 50), percentile(lat, 95), rows))
    return EvalReport(len(questions), tuple(ks), results)
