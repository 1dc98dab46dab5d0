"""Structured outputs against a real model: the agents' own JSON prompts, in JSON mode and with
their reply's JSON Schema.

The prompts are the ones the agents build (captured by handing each agent a recording chat
model): the LLM judge (``eval/_legal_qa.judge``) over the sample questions with their own
reference answer (should score high) and another question's (should score low); the
Interpreter's routing prompt over the sample questions, the hand-written unanswerable ones and a
few lines of small talk; the reflective loop's relevance grade over each sample question with
each of its gold units' wording (relevant) and with as many units of other documents (not
relevant). Every prompt goes to the endpoint twice through ``OpenAIChatModel``: once with
``json_mode=True`` only (``response_format={"type": "json_object"}``) and once with the schema
the agent sends (``{"type": "json_schema", ...}``), with the agent's own ``max_tokens``. The two
modes alternate in which goes first, so neither always finds the prompt in llama.cpp's cache.

Reported per prompt kind and mode: replies that are JSON as they stand, replies that
``parse_json_reply`` can read, replies that validate against the agent's pydantic model, replies
that used the whole token budget, mean latency and completion tokens, and what the valid replies
said (judge score by pair, grade accuracy, routing intents). Writes
``results/llm_structured_outputs.{md,json}``.

    python -m tests.benchmarks.llm_structured_outputs [--n 30] [--threads 1]

Uses ``HOPGRAPH_LLM_BASE_URL``/``HOPGRAPH_LLM_MODEL`` when set, else starts the bundled
SmolLM2-135M-Instruct with xllamacpp on a free port and stops it afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from hopgraph.agents.legal import Answer
from hopgraph.agents.legal._interpreter import Interpreter, _RouteReply
from hopgraph.agents.legal._reflective import ReflectiveLoop, _Grade
from hopgraph.core.errors import LLMError
from hopgraph.core.ports import ChatResult, Usage, parse_json_reply
from hopgraph.db import free_port
from hopgraph.eval._legal_qa import QAQuestion, _Judge, judge, load_questions
from hopgraph.loaders.legal import SAMPLES_DIR, ParsedDocument, read_file
from hopgraph.models import OpenAIChatModel
from hopgraph.models._llm_server import BUNDLED_MODEL_FILE, DEFAULT_ALIAS, wait_until_ready
from hopgraph.retrieval import ContextItem, Provenance

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
RESULTS = HERE / "results"
NAME = "llm_structured_outputs"
MODES = ("json_object", "json_schema")
SMALL_TALK = ["Xin chào", "Cảm ơn bạn nhiều nhé", "Bạn là ai vậy?", "Hôm nay trời đẹp quá"]
MODELS: dict[str, type[BaseModel]] = {"judge": _Judge, "route": _RouteReply, "grade": _Grade}


@dataclass
class Prompt:
    """One agent request, as the agent made it."""

    kind: str
    label: str
    messages: list[dict[str, str]]
    max_tokens: int
    schema: dict[str, Any]
    expected: Any = None


class _Capture:
    """A ChatModel that records the agent's request and answers with a valid canned reply."""

    model = "capture"

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.calls: list[tuple[list[dict[str, str]], int, dict[str, Any] | None]] = []

    def complete(self, messages: Sequence[Mapping[str, str]], *, max_tokens: int = 512,
                 temperature: float = 0.0, json_mode: bool = False,
                 schema: Mapping[str, Any] | None = None) -> ChatResult:
        self.calls.append(([dict(m) for m in messages], max_tokens,
                           dict(schema) if schema is not None else None))
        return ChatResult(self.reply, 0, 0, 0.0, self.model)


def _taken(capture: _Capture, kind: str, label: str, expected: Any = None) -> Prompt:
    messages, max_tokens, schema = capture.calls.pop()
    if schema is None:
        raise SystemExit(f"the {kind} agent sent no schema: structured outputs are not wired")
    return Prompt(kind, label, messages, max_tokens, schema, expected)


def unit_texts() -> dict[str, str]:
    """Wording of every unit of the shipped sample corpus, by node id."""
    texts: dict[str, str] = {}
    for path in sorted(SAMPLES_DIR.iterdir()):
        if path.name in ("questions.json", "README.md"):
            continue
        for doc in read_file(path):
            if isinstance(doc, ParsedDocument):
                texts.update({doc.unit_id(u): u.text for u in doc.units if u.text.strip()})
    return texts


def _item(node_id: str, text: str) -> ContextItem:
    doc_id, _, position = node_id.partition(":")
    prov = Provenance(doc_id=doc_id, number=doc_id, doc_type=None, title=None, issuer=None,
                      issue_date=None, effective_date=None, expiry_date=None, status=None,
                      position=position, citation=node_id)
    return ContextItem(node_id=node_id, text=text, citation=node_id, role="seed", scores={},
                       path=[], valid_from=None, valid_to=None, applicable=True,
                       validity_note="", provenance=prov, seed_id=node_id, rank=1)


def judge_prompts(questions: list[QAQuestion]) -> list[Prompt]:
    """Each question with its own reference as the answer, and with another question's."""
    capture, out = _Capture('{"score": 3}'), []
    half = len(questions) // 2
    for i, q in enumerate(questions):
        for pair, other in (("match", q), ("mismatch", questions[(i + half) % len(questions)])):
            answer = Answer(question=q.question, text=other.answer, status="answered",
                            mode="llm", as_of=None, claims=[], citations=[], route=[], steps=[])
            judge(capture, q, answer)
            out.append(_taken(capture, "judge", f"{q.id}/{pair}", pair))
    return out


def route_prompts(questions: list[QAQuestion], unanswerable: list[QAQuestion]) -> list[Prompt]:
    """The Interpreter's routing request for every question and line of small talk."""
    capture, out = _Capture('{"intent": "regulatory"}'), []
    interpreter = Interpreter(capture)  # type: ignore[arg-type]
    lines = [(q.id, q.question) for q in [*questions, *unanswerable]]
    lines += [(f"t{i + 1:02d}", text) for i, text in enumerate(SMALL_TALK)]
    for label, text in lines:
        interpreter._ask_llm(text, Usage(), [])
        out.append(_taken(capture, "route", label))
    return out


def grade_prompts(questions: list[QAQuestion], texts: dict[str, str]) -> list[Prompt]:
    """Each question with each gold unit's wording, and as many units of other documents."""
    capture, out = _Capture('{"relevant": true}'), []
    loop = ReflectiveLoop(None, capture)  # type: ignore[arg-type]
    rng = random.Random(0)
    ids = sorted(texts)
    for q in questions:
        gold = [g for g in q.gold_unit_ids if g in texts]
        gold_docs = {g.split(":")[0] for g in q.gold_unit_ids}
        others = [i for i in ids if i.split(":")[0] not in gold_docs and len(texts[i]) > 60]
        for node_id, relevant in [*((g, True) for g in gold),
                                  *((o, False) for o in rng.sample(others, len(gold)))]:
            loop._llm_grade(q.question, _item(node_id, texts[node_id]), Usage())
            out.append(_taken(capture, "grade", f"{q.id}/{node_id}", relevant))
    return out


def ask(chat: OpenAIChatModel, prompt: Prompt, mode: str) -> dict[str, Any]:
    """Send one prompt in one mode; what came back and whether it is usable."""
    record: dict[str, Any] = {"kind": prompt.kind, "label": prompt.label, "mode": mode,
                              "expected": prompt.expected}
    try:
        result = chat.complete(prompt.messages, max_tokens=prompt.max_tokens, json_mode=True,
                               schema=prompt.schema if mode == "json_schema" else None)
    except LLMError as e:
        return {**record, "error": str(e), "json": False, "parsed": False, "valid": False,
                "hit_limit": False, "latency_s": None, "completion_tokens": None}
    try:
        json.loads(result.text)
        strict = True
    except json.JSONDecodeError:
        strict = False
    value: Any = None
    try:
        data = parse_json_reply(result.text)
        parsed = True
        value = MODELS[prompt.kind].model_validate(data).model_dump()
    except LLMError:
        parsed = False
    except ValidationError:
        pass
    return {**record, "text": result.text, "json": strict, "parsed": parsed,
            "valid": value is not None, "value": value,
            "hit_limit": result.completion_tokens >= prompt.max_tokens,
            "latency_s": round(result.latency_s, 4), "prompt_tokens": result.prompt_tokens,
            "completion_tokens": result.completion_tokens}


def summarise(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per prompt kind and mode."""
    rows = []
    for kind in MODELS:
        for mode in MODES:
            rs = [r for r in records if r["kind"] == kind and r["mode"] == mode]
            if not rs:
                continue
            done = [r for r in rs if r["latency_s"] is not None]
            valid = [r for r in rs if r["valid"]]
            row: dict[str, Any] = {
                "kind": kind, "mode": mode, "n": len(rs),
                "errors": len(rs) - len(done),
                "json": sum(r["json"] for r in rs), "parsed": sum(r["parsed"] for r in rs),
                "valid": len(valid), "hit_limit": sum(r["hit_limit"] for r in rs),
                "mean_latency_s": round(statistics.fmean(r["latency_s"] for r in done), 3)
                if done else None,
                "mean_completion_tokens": round(
                    statistics.fmean(r["completion_tokens"] for r in done), 1) if done else None,
                "max_tokens": sorted({r.get("max_tokens", 0) for r in rs}),
            }
            if kind == "judge":
                for pair in ("match", "mismatch"):
                    scores = [r["value"]["score"] for r in valid if r["expected"] == pair]
                    row[f"mean_score_{pair}"] = (round(statistics.fmean(scores), 2)
                                                 if scores else None)
            elif kind == "grade":
                row["grade_correct"] = sum(r["value"]["relevant"] == r["expected"] for r in valid)
                row["said_relevant"] = sum(r["value"]["relevant"] for r in valid)
            else:
                row["intents"] = dict(Counter(r["value"]["intent"] for r in valid))
            rows.append(row)
    return rows


def render(meta: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """The markdown report."""
    lines = [
        "# Structured outputs: JSON mode vs JSON Schema on the local model", "",
        f"- Date: {meta['date']}; commit {meta['commit']}; model `{meta['model']}` "
        f"({meta['server']}); load average (1 min) {meta['load_start']:.2f} at the start, "
        f"{meta['load_end']:.2f} at the end, on {os.cpu_count()} shared CPU cores; wall time "
        f"{meta['wall_s']:.0f} s.",
        "- Prompts: the agents' own requests, captured from the agents (see the script's "
        "docstring), each sent once per mode with the agent's `max_tokens`, modes alternating "
        "which goes first. `json_object` = `response_format={\"type\": \"json_object\"}` (what "
        "the agents sent before); `json_schema` = the reply model's JSON Schema as OpenAI "
        "structured output, which llama.cpp's server compiles into a grammar.",
        f"- Adapter fallback to JSON mode during the run: {meta['structured_fallback']}.",
        "",
        "| prompt | mode | n | JSON as is | parsed | valid (pydantic) | used all tokens | "
        "mean latency s | mean completion tokens | what the valid replies said |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        if r["kind"] == "judge":
            said = (f"mean score {r['mean_score_match']} with its own reference, "
                    f"{r['mean_score_mismatch']} with another question's")
        elif r["kind"] == "grade":
            said = (f"{r['grade_correct']}/{r['valid']} correct, {r['said_relevant']} said "
                    f"relevant (half the pairs are)")
        else:
            said = ", ".join(f"{k} {v}" for k, v in sorted(r["intents"].items())) or "-"
        lines.append(
            f"| {r['kind']} (max {r['max_tokens'][0]}) | {r['mode']} | {r['n']} | {r['json']} | "
            f"{r['parsed']} | {r['valid']} | {r['hit_limit']} | {r['mean_latency_s']} | "
            f"{r['mean_completion_tokens']} | {said} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=30, help="prompts per kind at most")
    parser.add_argument("--threads", type=int, default=1, help="server threads")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per request")
    args = parser.parse_args()
    questions = load_questions(SAMPLES_DIR / "questions.json")
    unanswerable = load_questions(HERE / "legal_qa_unanswerable.json")
    prompts = [
        *judge_prompts(questions)[: args.n],
        *route_prompts(questions, unanswerable)[: args.n],
        *grade_prompts(questions, unit_texts())[: args.n],
    ]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=REPO).stdout.strip() or "unknown"
    base_url = os.environ.get("HOPGRAPH_LLM_BASE_URL")
    model = os.environ.get("HOPGRAPH_LLM_MODEL") or DEFAULT_ALIAS
    server: subprocess.Popen[bytes] | None = None
    where = f"endpoint {base_url}"
    if not base_url:
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "hopgraph.models._llm_server", "--port", str(port),
             "--threads", str(args.threads)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base_url = f"http://127.0.0.1:{port}/v1"
        where = f"{BUNDLED_MODEL_FILE} via xllamacpp, {args.threads} thread(s)"
    load_start, started = os.getloadavg()[0], time.perf_counter()
    records: list[dict[str, Any]] = []
    try:
        wait_until_ready(base_url, timeout_s=120.0)
        with OpenAIChatModel(base_url=base_url, model=model, timeout_s=args.timeout) as chat:
            for i, prompt in enumerate(prompts):
                for mode in MODES if i % 2 == 0 else MODES[::-1]:
                    records.append({**ask(chat, prompt, mode), "max_tokens": prompt.max_tokens})
                if (i + 1) % 10 == 0:
                    print(f"{i + 1}/{len(prompts)} prompts after "
                          f"{time.perf_counter() - started:.0f}s", flush=True)
            fallback = chat.structured_fallback
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
    meta = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": commit,
        "model": model, "server": where, "load_start": load_start,
        "load_end": os.getloadavg()[0], "wall_s": time.perf_counter() - started,
        "structured_fallback": fallback or "none",
        "prompts": dict(Counter(p.kind for p in prompts)),
        "schemas": {p.kind: p.schema for p in prompts},
    }
    rows = summarise(records)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{NAME}.json").write_text(json.dumps(
        {"meta": meta, "rows": rows, "replies": records}, ensure_ascii=False, indent=1),
        encoding="utf-8")
    report = render(meta, rows)
    (RESULTS / f"{NAME}.md").write_text(report, encoding="utf-8")
    print(report)


if __name__ == "__main__":
    main()
