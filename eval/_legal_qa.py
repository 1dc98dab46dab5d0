"""Evaluation of legal QA: token F1, citation precision/recall, abstention, LLM-as-judge, ablations.

Questions come from a JSON file shaped like ``loaders/legal/samples/questions.json``
(``{"questions": [{"id", "question", "as_of", "gold_unit_ids", "answer"}]}``); a question with
``"answerable": false`` (or no gold units) counts for the abstention rate. The ablation rows are
the paper's Table 3 rows: without the Interpreter, without the Auditor, flat retrieval instead of
the Pathfinder, plus the reflective pipeline and the retrieval-only (no LLM) mode.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from hopgraph.agents.legal import Answer, LegalQA, tokens
from hopgraph.core.errors import ConfigError, LLMError
from hopgraph.core.ports import ChatModel, ask_schema
from hopgraph.core.vocabulary import AnswerMode as Mode
from hopgraph.core.vocabulary import AnswerStatus as Status

ABSTAINING = {Status.ABSTAINED, Status.CLARIFY, Status.OUT_OF_SCOPE, Status.CHITCHAT}
ABLATIONS: dict[str, dict[str, Any]] = {
    "full": {},
    "reflective": {"reflective": True},
    "no_interpreter": {"use_interpreter": False},
    "no_auditor": {"use_auditor": False},
    "flat_retrieval": {"flat_retrieval": True},
}


class QAQuestion(BaseModel):
    """One evaluation question (trust boundary: a file)."""

    id: str
    question: str
    as_of: str | None = None
    gold_unit_ids: list[str] = Field(default_factory=list)
    answer: str = ""
    answerable: bool | None = None

    @property
    def expects_answer(self) -> bool:
        """False for questions the corpus cannot answer."""
        return self.answerable if self.answerable is not None else bool(self.gold_unit_ids)


def load_questions(path: Path) -> list[QAQuestion]:
    """Read a questions file.

    Raises:
        ConfigError: the file is missing or malformed (names the file and the problem).
    """
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        rows = raw["questions"] if isinstance(raw, dict) else raw
        return [QAQuestion.model_validate(r) for r in rows]
    except (OSError, json.JSONDecodeError, KeyError, TypeError, ValidationError) as e:
        raise ConfigError(f"cannot read questions from {path}: {e}") from e


def token_f1(prediction: str, reference: str) -> float:
    """SQuAD-style token F1 over folded Vietnamese syllables."""
    pred, ref = tokens(prediction), tokens(reference)
    if not pred or not ref:
        return 0.0
    common = sum((Counter(pred) & Counter(ref)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(pred), common / len(ref)
    return 2 * precision * recall / (precision + recall)


def citation_scores(predicted: Sequence[str], gold: Sequence[str]) -> tuple[float, float]:
    """Precision and recall of cited node ids against gold unit ids (exact ids)."""
    p, g = set(predicted), set(gold)
    if not g:
        return (0.0 if p else 1.0), 1.0
    hit = len(p & g)
    return (hit / len(p) if p else 0.0), hit / len(g)


class _Judge(BaseModel):
    score: int = Field(ge=1, le=5)


def judge(chat: ChatModel, question: QAQuestion, answer: Answer) -> int | None:
    """LLM-as-judge: 1–5 agreement of the answer with the reference; None when unusable."""
    messages = [
        {"role": "system", "content": "Grade how well an answer matches a reference answer. "
         'Reply with JSON only: {"score": 1-5}.'},
        {"role": "user", "content": f"Question: {question.question}\nReference: "
         f"{question.answer}\nAnswer: {answer.text[:1500]}"},
    ]
    try:
        reply = ask_schema(chat, messages, _Judge, max_tokens=16)
    except LLMError:
        return None
    return reply.value.score if reply.value is not None else None


JUDGE_MIN_ORDERED = 0.8


@dataclass
class JudgeCheck:
    """Whether a judge tells a matching answer from a mismatched one (see :func:`check_judge`)."""

    pairs: int = 0
    usable: int = 0
    mean_matching: float | None = None
    mean_mismatched: float | None = None
    ordered: float | None = None  # share of usable pairs scoring the match above the mismatch

    @property
    def informative(self) -> bool:
        """At least :data:`JUDGE_MIN_ORDERED` of the pairs ordered, and at least one usable."""
        return self.ordered is not None and self.ordered >= JUDGE_MIN_ORDERED

    def summary(self) -> str:
        if not self.usable:
            return (f"judge check: 0 of {self.pairs} pairs gave two usable scores; the judge "
                    "column cannot be read")
        return (f"judge check: the reference answer scored {self.mean_matching:.2f} against "
                f"itself and {self.mean_mismatched:.2f} against another question's reference; "
                f"ordered in {self.ordered:.0%} of {self.usable} usable pairs (of {self.pairs}): "
                + ("the judge separates them" if self.informative else
                   f"below {JUDGE_MIN_ORDERED:.0%}, so the judge column is not informative"))


def check_judge(chat: ChatModel, questions: Sequence[QAQuestion]) -> JudgeCheck:
    """Sanity check of an LLM judge before its scores are read.

    For each answerable question with a reference answer the judge scores the reference against
    itself (it should score high) and against the next such question's reference (it should
    score low). A judge that does not order most of these pairs cannot grade real answers either.
    """
    refs = [q for q in questions if q.expects_answer and q.answer.strip()]
    check = JudgeCheck()
    matching: list[float] = []
    mismatched: list[float] = []
    ordered = 0
    for i, q in enumerate(refs if len(refs) > 1 else []):
        other = refs[(i + 1) % len(refs)]
        check.pairs += 1
        same = judge(chat, q, _as_answer(q, q.answer))
        wrong = judge(chat, q, _as_answer(q, other.answer))
        if same is None or wrong is None:
            continue
        check.usable += 1
        matching.append(float(same))
        mismatched.append(float(wrong))
        ordered += same > wrong
    if check.usable:
        check.mean_matching = _mean(matching)
        check.mean_mismatched = _mean(mismatched)
        check.ordered = ordered / check.usable
    return check


def _as_answer(question: QAQuestion, text: str) -> Answer:
    return Answer(question=question.question, text=text, status=Status.ANSWERED, mode=Mode.RETRIEVAL_ONLY,
                  as_of=None, claims=[], citations=[], route=[], steps=[])


@dataclass
class RowResult:
    """Metrics of one configuration over the question set."""

    name: str
    use_llm: bool
    n: int = 0
    answered: int = 0
    token_f1: float = 0.0
    citation_precision: float = 0.0
    citation_recall: float = 0.0
    abstention_unanswerable: float | None = None
    abstention_answerable: float = 0.0
    judge: float | None = None
    judge_n: int = 0
    status: dict[str, int] = field(default_factory=dict)
    per_agent: dict[str, dict[str, float]] = field(default_factory=dict)
    mean_latency_s: float = 0.0
    mean_tokens: float = 0.0
    per_question: list[dict[str, Any]] = field(default_factory=list)


def evaluate(
    qa: LegalQA,
    questions: Sequence[QAQuestion],
    *,
    name: str = "full",
    use_llm: bool = True,
    judge_model: ChatModel | None = None,
    on_question: Callable[[str, dict[str, Any]], None] | None = None,
) -> RowResult:
    """Ask every question and score the answers.

    ``on_question(row name, record)`` receives each question's record as soon as it is scored
    (a long LLM run can checkpoint partial rows with it).
    """
    row = RowResult(name=name, use_llm=use_llm)
    f1s: list[float] = []
    precisions: list[float] = []
    recalls: list[float] = []
    abst_unans: list[bool] = []
    abst_ans: list[bool] = []
    judges: list[int] = []
    agent_lat: dict[str, list[float]] = defaultdict(list)
    agent_tok: dict[str, list[int]] = defaultdict(list)
    latencies: list[float] = []
    totals: list[int] = []
    status: Counter[str] = Counter()
    for q in questions:
        answer = qa.ask(q.question, as_of=q.as_of, use_llm=use_llm)
        status[answer.status] += 1
        abstained = answer.status in ABSTAINING
        latencies.append(answer.latency_s)
        totals.append(answer.total_tokens)
        per_agent_q: dict[str, float] = defaultdict(float)
        per_agent_t: dict[str, int] = defaultdict(int)
        for s in answer.steps:
            per_agent_q[s.agent] += s.latency_s
            per_agent_t[s.agent] += s.prompt_tokens + s.completion_tokens
        for agent, lat in per_agent_q.items():
            agent_lat[agent].append(lat)
            agent_tok[agent].append(per_agent_t[agent])
        record: dict[str, Any] = {"id": q.id, "status": answer.status,
                                  "citations": [c.node_id for c in answer.citations],
                                  "tokens": answer.total_tokens,
                                  "latency_s": round(answer.latency_s, 3),
                                  "per_agent": {a: [round(per_agent_q[a], 3), per_agent_t[a]]
                                                for a in sorted(per_agent_q)}}
        if q.expects_answer:
            abst_ans.append(abstained)
            f1 = token_f1(answer.text, q.answer) if not abstained else 0.0
            p, r = citation_scores([c.node_id for c in answer.citations], q.gold_unit_ids)
            f1s.append(f1)
            precisions.append(p)
            recalls.append(r)
            record.update(token_f1=round(f1, 3), citation_p=round(p, 3), citation_r=round(r, 3))
            if judge_model is not None and not abstained:
                score = judge(judge_model, q, answer)
                if score is not None:
                    judges.append(score)
                    record["judge"] = score
        else:
            abst_unans.append(abstained)
        row.per_question.append(record)
        if on_question is not None:
            on_question(name, record)
    row.n = len(questions)
    row.answered = sum(1 for q in row.per_question if q["status"] not in ABSTAINING)
    row.token_f1 = _mean(f1s)
    row.citation_precision = _mean(precisions)
    row.citation_recall = _mean(recalls)
    row.abstention_unanswerable = _mean([float(a) for a in abst_unans]) if abst_unans else None
    row.abstention_answerable = _mean([float(a) for a in abst_ans])
    row.judge = _mean([float(j) for j in judges]) if judges else None
    row.judge_n = len(judges)
    row.status = dict(status)
    row.per_agent = {
        agent: {"mean_latency_s": round(_mean(agent_lat[agent]), 4),
                "mean_tokens": round(_mean([float(t) for t in agent_tok[agent]]), 1)}
        for agent in sorted(agent_lat)
    }
    row.mean_latency_s = _mean(latencies)
    row.mean_tokens = _mean([float(t) for t in totals])
    return row


def run_ablations(
    qa: LegalQA,
    questions: Sequence[QAQuestion],
    *,
    with_llm: bool,
    judge_model: ChatModel | None = None,
    rows: Sequence[str] = tuple(ABLATIONS),
    on_row: Callable[[list[RowResult]], None] | None = None,
    on_question: Callable[[str, dict[str, Any]], None] | None = None,
    retrieval_only_rows: bool = True,
) -> list[RowResult]:
    """The retrieval-only rows (graph, flat, reflective with deterministic grading), then (with
    an LLM) the full pipeline and its ablations (``retrieval_only_rows=False`` skips the
    former)."""
    plan: list[tuple[str, LegalQA, bool]] = [
        ("retrieval_only", qa, False),
        ("retrieval_only_flat", qa.with_options(flat_retrieval=True), False),
        ("retrieval_only_reflective", qa.with_options(reflective=True), False),
    ] if retrieval_only_rows else []
    if with_llm:
        plan += [(name, qa.with_options(**ABLATIONS[name]), True) for name in rows]
    out: list[RowResult] = []
    for name, engine, use_llm in plan:
        out.append(evaluate(engine, questions, name=name, use_llm=use_llm,
                            judge_model=judge_model if use_llm else None,
                            on_question=on_question))
        if on_row is not None:
            on_row(out)
    return out


def render_markdown(rows: Sequence[RowResult], *, header: str) -> str:
    """A Markdown table of the rows plus per-agent cost."""
    lines = [header, "",
             "| config | LLM | n | answered | token F1 | cit. P | cit. R | abstain (unans.) | "
             "abstain (ans.) | judge | mean latency s | mean tokens |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        abst = "-" if r.abstention_unanswerable is None else f"{r.abstention_unanswerable:.2f}"
        jd = "-" if r.judge is None else f"{r.judge:.2f} (n={r.judge_n})"
        lines.append(
            f"| {r.name} | {'yes' if r.use_llm else 'no'} | {r.n} | {r.answered} | "
            f"{r.token_f1:.3f} | {r.citation_precision:.3f} | {r.citation_recall:.3f} | {abst} | "
            f"{r.abstention_answerable:.2f} | {jd} | {r.mean_latency_s:.3f} | "
            f"{r.mean_tokens:.0f} |")
    lines += ["", "Per-agent mean latency (s) / mean tokens per question:", "",
              "| config | " + " | ".join(_AGENTS) + " |",
              "| --- |" + " --- |" * len(_AGENTS)]
    for r in rows:
        cells = []
        for agent in _AGENTS:
            a = r.per_agent.get(agent)
            cells.append("-" if a is None else f"{a['mean_latency_s']:.3f} / {a['mean_tokens']:.0f}")
        lines.append(f"| {r.name} | " + " | ".join(cells) + " |")
    lines += ["", "Statuses: " + "; ".join(
        f"{r.name}: " + ", ".join(f"{k}={v}" for k, v in sorted(r.status.items())) for r in rows)]
    return "\n".join(lines) + "\n"


_AGENTS = ("interpreter", "pathfinder", "grader", "rewriter", "writer", "auditor")


def _mean(values: Sequence[float]) -> float:
    return float(statistics.fmean(values)) if values else 0.0
