"""``hopgraph eval temporal``: does the served wording hold at the question's date?

The questions and their gold come from :mod:`._temporal_gold` (the pair folder's files, never the
graph). Three systems answer every question at its date, over the same graph and index:

- ``hopgraph``: :meth:`LegalRetriever.retrieve` (``k`` seeds, validity tracing); what it presents
  as applicable is every context item with ``applicable`` true, in context order;
- ``ask``: :meth:`LegalQA.ask` without an LLM (retrieval-only answer or abstention); presented:
  the items its claims cite, in order, that it marks applicable;
- ``baseline``: flat retrieval (no re-ranking, no graph propagation, every word of the question)
  with no validity: no as-of date (every unit loaded is a candidate) and every item presented, as
  a plain RAG system presents its passages.

How a served wording is judged (:func:`judge`): the served text and every wording of the unit's
timeline are put in compare form (:func:`~._temporal_gold.normalise`: NFC, lower case, quotes and
the unit's own label removed, single spaces); a served text equal to a wording in that form is
that wording; otherwise the served text IS the wording with the highest
similarity (rapidfuzz ``ratio``, 0-1) when that is at least ``MATCH`` and beats every other
wording by ``MARGIN`` — unless the served text is a part of another, longer wording
(``partial_ratio`` at least ``FRAGMENT_MATCH``, served text under ``FRAGMENT`` of its length): a
point or clause of a new article that repeats the old article's short text is that part, not the
old article (such parts counted as stale before), and tells no wording apart; failing that, a served text longer than a wording (an article served for
its clause, an amending instruction that quotes the new wording) is the wording it contains
(``partial_ratio`` at least ``CONTAIN``, ahead of the others by ``CONTAIN_MARGIN``; wordings of
at least ``MIN_CONTAINED`` characters). Only an item about the unit is judged
(:func:`about_unit`: by its graph id, the unit or one holding or held by it, or the amending unit
that wrote a wording): a clause of another law with the same boilerplate words is not the unit.
Anything else (another unit, an ambiguous text) is not
judged: neither right nor wrong. A wording is compared as text only: an item whose note says
"changed in part" but whose text is the old wording counts as that old wording.

Per question, over the first ``top`` presented items: right wording at rank 1 / within the top;
stale (a wording whose time has ended presented as applicable); premature (a wording before its
start); repealed presented as applicable (a repealed unit's last wording after the repeal);
abstention (nothing presented; for ``ask``: status abstained). Each rate has its own denominator
(questions with a wording in force; with an earlier wording; with a later one; about a repealed
unit after the repeal; all) and a bootstrap 95 % interval over questions.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from rapidfuzz import fuzz

from hopgraph.agents.legal import LegalQA
from hopgraph.core.vocabulary import AnswerStatus
from hopgraph.eval.temporal_gold import (
    Address,
    Gold,
    Question,
    Timeline,
    nested,
    normalise,
    number_form,
)
from hopgraph.retrieval import LegalRetriever, RetrievalConfig

MATCH = 0.85
CONTAIN = 0.95
MARGIN = 0.01
CONTAIN_MARGIN = 0.02
MIN_CONTAINED = 30
FRAGMENT = 0.9        # a served text shorter than this share of a wording can be a part of it
FRAGMENT_MATCH = 0.98  # partial_ratio at which it is one
TOP = 5
NO_DATE = date(9999, 12, 31)
BOOTSTRAP = 1000
METRICS = ("top1", "top5", "stale_rate", "premature_rate", "repealed_as_applicable",
           "abstention_rate")


def judge(served: str, wordings: Sequence[str | None]) -> int | None:
    """Index of the wording ``served`` is (see the module docstring), or None."""
    s = normalise(served)
    if not s:
        return None
    forms = [normalise(w) if w else "" for w in wordings]
    # A served text equal to a wording is that wording, however close another one is: a change
    # of a few words leaves two long wordings within MARGIN of each other.
    if s in forms:
        return forms.index(s)
    ratios = [fuzz.ratio(s, f) / 100 if f else 0.0 for f in forms]
    found = _best(ratios, forms, MATCH, MARGIN)
    if found is not None:
        # A part of a longer wording (a point of the new article) can resemble a short other
        # wording (the old article, whose text the new point repeats): it is that part, not
        # the other wording; and a part of both (a clause of the new article that is the old
        # article's one paragraph) tells neither apart. (A served text equal to a short wording
        # that a longer one extends is that wording: returned above.)
        inside = [fuzz.partial_ratio(s, f) / 100 if f and len(s) < FRAGMENT * len(f) else 0.0
                  for f in forms]
        if any(sc >= FRAGMENT_MATCH and forms[i] != forms[found] for i, sc in enumerate(inside)):
            return None
        return found
    # A longer served text (an article served for its clause, an instruction quoting the new
    # wording): the wording it contains.
    parts = [fuzz.partial_ratio(f, s) / 100 if len(f) >= MIN_CONTAINED and len(f) <= len(s)
             else 0.0 for f in forms]
    return _best(parts, forms, CONTAIN, CONTAIN_MARGIN)


def _best(scores: Sequence[float], forms: Sequence[str], floor: float, margin: float
          ) -> int | None:
    best = max(range(len(scores)), key=lambda i: scores[i])
    if scores[best] < floor:
        return None
    # Two wordings with one compare form (a change that only moved a quote) are one wording.
    rivals = [sc for i, sc in enumerate(scores) if i != best and forms[i] != forms[best]]
    if rivals and scores[best] - max(rivals) < margin:
        return None
    return best


@dataclass
class Outcome:
    """One system's result on one question."""

    presented: int
    judged: list[int | None]
    right1: bool
    right5: bool
    stale: bool
    premature: bool
    repealed_applicable: bool
    abstained: bool
    latency_ms: float


# A served item: its graph id (None when the system gives none) and its text.
Served = tuple[str | None, str]


def unit_of(node_id: str) -> tuple[str, Address | None]:
    """The document number (compare form) and the article / clause / point of a graph id
    (``77/2015/QH13:D19.K3.e@47/2024/QH15`` -> ``("77/2015/QH13", ("19", "3", "e"))``); no
    address for a document, chapter or section."""
    doc, sep, rest = node_id.partition(":")
    if not sep:
        return number_form(doc), None
    article = clause = point = None
    for seg in rest.split("@", 1)[0].split("."):
        if article is None:
            if seg[:1] == "D" and seg[1:2].isdigit():
                article = seg[1:].lower()
        elif clause is None:
            if seg[:1] != "K":
                break
            clause = seg[1:].lower()
        elif point is None:
            point = seg.lower()
    return number_form(doc), ((article, clause, point) if article else None)


def about_unit(node_id: str | None, tl: Timeline) -> bool:
    """Whether a served item can be a wording of ``tl``'s unit: the unit, a unit holding it or
    held by it, a version of one of these, or a chapter or section of its document; or the
    amending unit of one of its wordings (an instruction that quotes the new wording), a unit
    holding it or held by it. Another document's clause with the same words ("Luật này có hiệu
    lực thi hành từ ngày 01 tháng 8 năm 2024" closes many laws) is not the unit. An item with no
    id or of a document known by no number (a slug id), a timeline with no document number, or
    a wording whose amending document has none, is not told apart by document."""
    if node_id is None or not tl.doc_number:
        return True
    doc, addr = unit_of(node_id)
    if "/" not in doc:
        return True
    if doc == number_form(tl.doc_number):
        return addr is None or nested(addr, tl.address)
    return any((not w.doc_number or doc == w.doc_number) and w.by is not None
               and (addr is None or nested(addr, w.by)) for w in tl.wordings)


def score(question: Question, gold: Gold, presented: Sequence[str | Served], *, abstained: bool,
          latency_ms: float = 0.0, top: int = TOP) -> Outcome:
    """Judge the first ``top`` presented items against the question's timeline (an item not
    about the unit, see :func:`about_unit`, is not judged)."""
    tl = gold.timelines[question.timeline]
    wordings = [w.text for w in tl.wordings]
    now = tl.at(question.as_of)
    items = [(None, x) if isinstance(x, str) else x for x in presented[:top]]
    judged = [judge(text, wordings) if about_unit(node_id, tl) else None
              for node_id, text in items]
    # A wording whose text equals the expected one is the expected one.
    exp_form = normalise(wordings[question.expected] or "") if question.expected is not None \
        else None

    def is_expected(j: int | None) -> bool:
        return j is not None and (j == question.expected or (
            exp_form is not None and normalise(wordings[j] or "") == exp_form))

    stale = any(j is not None and j < now and not is_expected(j) for j in judged)
    premature = any(j is not None and j > now and not is_expected(j) for j in judged)
    repealed = question.expected is None and now > 0 and any(j is not None for j in judged)
    return Outcome(len(presented), judged, bool(judged) and is_expected(judged[0]),
                   any(is_expected(j) for j in judged), stale, premature, repealed,
                   abstained, round(latency_ms, 1))


def _denominators(question: Question, gold: Gold) -> dict[str, bool]:
    tl = gold.timelines[question.timeline]
    now = tl.at(question.as_of)
    return {
        "top1": question.expected is not None,
        "top5": question.expected is not None,
        "stale_rate": now > 0,
        "premature_rate": now < len(tl.wordings) - 1,
        "repealed_as_applicable": question.expected is None and now > 0,
        "abstention_rate": True,
    }


def _value(metric: str, o: Outcome) -> bool:
    return {"top1": o.right1, "top5": o.right5, "stale_rate": o.stale,
            "premature_rate": o.premature, "repealed_as_applicable": o.repealed_applicable,
            "abstention_rate": o.abstained}[metric]


def bootstrap_ci(values: Sequence[bool], *, seed: int = 0, rounds: int = BOOTSTRAP
                 ) -> tuple[float, float] | None:
    """Percentile 95 % interval of the mean of ``values`` over ``rounds`` resamples."""
    if not values:
        return None
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(rounds))
    return round(means[int(0.025 * rounds)], 4), round(means[int(0.975 * rounds) - 1], 4)


def summarise(questions: Sequence[Question], gold: Gold, outcomes: Sequence[Outcome], *,
              seed: int = 0) -> dict[str, Any]:
    """``n``, every metric (a fraction, None without questions to count), its denominator and
    bootstrap interval, and the mean latency."""
    out: dict[str, Any] = {"n": len(outcomes)}
    for metric in METRICS:
        vals = [_value(metric, o) for q, o in zip(questions, outcomes, strict=True)
                if _denominators(q, gold)[metric]]
        out[metric] = round(sum(vals) / len(vals), 4) if vals else None
        out.setdefault("denominators", {})[metric] = len(vals)
        out.setdefault("ci95", {})[metric] = bootstrap_ci(vals, seed=seed)
    lat = [o.latency_ms for o in outcomes]
    out["mean_latency_ms"] = round(sum(lat) / len(lat), 1) if lat else None
    return out


System = Callable[[Question], tuple[list[Served], bool, float]]


def retrieve_system(retriever: LegalRetriever, *, k: int = TOP) -> System:
    """hopgraph: the applicable items of ``retrieve`` at the question's date."""
    def run(q: Question) -> tuple[list[Served], bool, float]:
        started = time.perf_counter()
        ctx = retriever.retrieve(q.text, k=k, as_of=q.as_of)
        texts: list[Served] = [(it.node_id, it.text) for it in ctx.items if it.applicable]
        return texts, not texts, (time.perf_counter() - started) * 1000
    return run


def flat_system(retriever: LegalRetriever, *, k: int = TOP) -> System:
    """The baseline: flat hybrid retrieval, no date, every item presented."""
    flat = RetrievalConfig(rerank=False, propagate=False, clean_query=False)

    def run(q: Question) -> tuple[list[Served], bool, float]:
        started = time.perf_counter()
        ctx = retriever.retrieve(q.text, k=k, as_of=NO_DATE, config=flat)
        texts: list[Served] = [(it.node_id, it.text) for it in ctx.items]
        return texts, not texts, (time.perf_counter() - started) * 1000
    return run


def ask_system(qa: LegalQA) -> System:
    """``ask`` without an LLM: the applicable items its answer cites, in order."""
    def run(q: Question) -> tuple[list[Served], bool, float]:
        started = time.perf_counter()
        answer = qa.ask(q.text, as_of=q.as_of, use_llm=False)
        items = {it.node_id: it for ev in answer.evidence for it in ev.context.items}
        texts: list[Served] = []
        for claim in answer.claims:
            for eid in claim.evidence_ids:
                it = items.get(eid)
                if it is not None and it.applicable and all(it.text != t for _, t in texts):
                    texts.append((it.node_id, it.text))
        abstained = answer.status == AnswerStatus.ABSTAINED or not texts
        return texts, abstained, (time.perf_counter() - started) * 1000
    return run


@dataclass
class TemporalReport:
    """Everything ``hopgraph eval temporal`` prints."""

    systems: dict[str, dict[str, Any]]
    by_phase: dict[str, dict[str, dict[str, Any]]]
    questions: list[dict[str, Any]]
    gold: dict[str, Any]
    errors: Counter[str] = field(default_factory=Counter)

    def to_json(self) -> dict[str, Any]:
        """Top level: hopgraph's n, top1, top5, stale_rate, premature_rate …; ``baseline`` and
        ``ask`` beside them, then the breakdowns."""
        main = self.systems.get("hopgraph", {})
        return {**main, "baseline": self.systems.get("baseline"), "ask": self.systems.get("ask"),
                "by_phase": self.by_phase, "gold": self.gold, "errors": dict(self.errors),
                "questions": self.questions}


def run_temporal(gold: Gold, questions: Sequence[Question], systems: dict[str, System], *,
                 seed: int = 0, top: int = TOP,
                 progress: Callable[[int], None] | None = None) -> TemporalReport:
    """Ask every system every question and summarise (see the module docstring).

    A question a system fails on (an error of the library, e.g. an over-long question) counts
    as an abstention of that system and is reported under ``errors``.
    """
    from hopgraph.core.errors import HopgraphError

    outcomes: dict[str, list[Outcome]] = {name: [] for name in systems}
    rows: list[dict[str, Any]] = []
    errors: Counter[str] = Counter()
    for q in questions:
        row: dict[str, Any] = {"id": q.id, "question": q.text, "as_of": q.as_of.isoformat(),
                               "phase": q.phase, "phrasing": q.phrasing,
                               "change": q.change_kind, "expected": q.expected}
        if q.paraphrased_by:
            row["paraphrased_by"] = q.paraphrased_by
            row["template"] = q.template
        for name, system in systems.items():
            try:
                texts, abstained, ms = system(q)
            except HopgraphError as e:
                errors[f"{name}: {type(e).__name__}: {str(e)[:80]}"] += 1
                texts, abstained, ms = [], True, 0.0
            o = score(q, gold, texts, abstained=abstained, latency_ms=ms, top=top)
            outcomes[name].append(o)
            row[name] = {"judged": o.judged, "right1": o.right1, "right5": o.right5,
                         "stale": o.stale, "premature": o.premature, "abstained": o.abstained}
        rows.append(row)
        if progress is not None:
            progress(1)
    summary = {name: summarise(questions, gold, outs, seed=seed)
               for name, outs in outcomes.items()}
    by_phase: dict[str, dict[str, dict[str, Any]]] = {}
    for phase in ("before", "on", "after"):
        idx = [i for i, q in enumerate(questions) if q.phase == phase]
        if not idx:
            continue
        by_phase[phase] = {
            name: {k: v for k, v in summarise([questions[i] for i in idx], gold,
                                              [outs[i] for i in idx], seed=seed).items()
                   if k not in ("ci95",)}
            for name, outs in outcomes.items()}
    tl_kinds = Counter(k for t in gold.timelines for k in t.kinds)
    info = {"pairs": gold.pairs, "edges": gold.edges, "timelines": len(gold.timelines),
            "changes_by_kind": dict(tl_kinds), "questions": len(questions),
            "skipped_edges": dict(gold.skipped.most_common()),
            "skipped_questions": dict(gold.skipped_questions.most_common())}
    return TemporalReport(summary, by_phase, rows, info, errors)


PARAPHRASE_PROMPT = (
    "Viết lại câu hỏi pháp luật sau bằng tiếng Việt, cùng ý nghĩa, giữ nguyên ngày "
    "(dd/mm/yyyy) và mọi số hiệu văn bản, điều, khoản. Chỉ trả lời câu hỏi đã viết lại.\n\n"
    "Câu hỏi: {question}")


def paraphrase(questions: Sequence[Question], chat: Any, *, max_tokens: int = 160
               ) -> tuple[list[Question], Counter[str]]:
    """Ask the chat model to reword each question; keep a rewording only when it still states
    the question's date, else the template (counted by reason). Recorded on each question."""
    from dataclasses import replace

    from hopgraph.core.errors import LLMError

    out: list[Question] = []
    kept: Counter[str] = Counter()
    for q in questions:
        try:
            reply = chat.complete([{"role": "user", "content": PARAPHRASE_PROMPT.format(
                question=q.text)}], max_tokens=max_tokens, temperature=0.3)
        except LLMError:
            kept["LLM call failed: template kept"] += 1
            out.append(q)
            continue
        text = " ".join(str(reply.text).split()).strip().strip('"“”')
        if q.as_of.strftime("%d/%m/%Y") not in text or not 10 <= len(text) <= 600:
            kept["rewording lost the date or is empty/too long: template kept"] += 1
            out.append(q)
            continue
        kept["paraphrased"] += 1
        out.append(replace(q, text=text, paraphrased_by=str(reply.model), template=q.text))
    return out, kept


def render_markdown(report: TemporalReport, *, title: str) -> str:
    """A short Markdown table of the three systems, with intervals and the phases."""
    def fmt(s: dict[str, Any], m: str) -> str:
        v, ci = s.get(m), (s.get("ci95") or {}).get(m)
        if v is None:
            return "–"
        return f"{v:.3f}" + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "")

    lines = [f"# {title}", "",
             "| system | n | right wording top-1 | top-5 | stale | premature | "
             "repealed as applicable | abstention | ms/question |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, s in report.systems.items():
        lines.append(f"| {name} | {s['n']} | " + " | ".join(fmt(s, m) for m in METRICS)
                     + f" | {s.get('mean_latency_ms')} |")
    d = next(iter(report.systems.values()), {}).get("denominators", {})
    lines += ["", "Denominators (questions counted per rate): "
              + ", ".join(f"{k} {v}" for k, v in d.items()), ""]
    lines += ["## By phase (question date relative to the change)", "",
              "| phase | system | n | top-1 | top-5 | stale | premature | abstention |",
              "|---|---|---|---|---|---|---|---|"]
    for phase, per in report.by_phase.items():
        for name, s in per.items():
            lines.append(f"| {phase} | {name} | {s['n']} | "
                         + " | ".join("–" if s.get(m) is None else f"{s[m]:.3f}"
                                      for m in ("top1", "top5", "stale_rate", "premature_rate",
                                                "abstention_rate")) + " |")
    g = report.gold
    lines += ["", f"Gold: {g['pairs']} pairs, {g['edges']} edges, {g['timelines']} unit "
              f"timelines, changes by kind {g['changes_by_kind']}, {g['questions']} questions.",
              "", "Gold edges not turned into questions: "
              + "; ".join(f"{v} {k}" for k, v in g["skipped_edges"].items()) + "."]
    if g.get("skipped_questions"):
        lines += ["", "Dated questions not asked: "
                  + "; ".join(f"{v} {k}" for k, v in g["skipped_questions"].items()) + "."]
    if report.errors:
        lines += ["", "Errors (counted as abstentions): "
                  + "; ".join(f"{v} × {k}" for k, v in report.errors.items())]
    return "\n".join(lines) + "\n"
