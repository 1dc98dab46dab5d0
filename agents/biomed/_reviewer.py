"""The Reviewer: verify-and-revise loop for HYBRID hypotheses (ReGraM §3.4).

A :class:`Verifier` scores a hypothesised triplet (accepted when the score is ≥ 0.5). Two come
with hopgraph: :class:`GraphVerifier` (deterministic: the triplet must join two in-region
entities with an allowed relation, and the KG must hold that edge — a region-restricted lookup in
Cypher) and :class:`LLMVerifier` (asks the chat model). A trained classifier, as in the paper,
plugs in by implementing the protocol. Rejected triplets go to a reviser (LLM Prompt 4, or a
deterministic snap to in-region names and allowed relations) and are verified again, at most
:data:`MAX_ROUNDS` times; only accepted triplets become evidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rapidfuzz import fuzz, process

from hopgraph.agents.biomed import _prompts
from hopgraph.core.errors import LLMError
from hopgraph.core.ports import ChatModel, parse_json_reply
from hopgraph.db import QueryRunner
from hopgraph.graph_models import relation_of
from hopgraph.retrieval import Region

MAX_ROUNDS = 2
ACCEPT_SCORE = 0.5
_SNAP_RATIO = 90.0


@dataclass(frozen=True)
class Hypothesis:
    """A triplet proposed by the LLM, by name."""

    head: str
    relation: str
    tail: str

    def text(self) -> str:
        return f"({self.head}, {self.relation}, {self.tail})"


@dataclass(frozen=True)
class Verdict:
    """The Reviewer's judgement of one hypothesis in one round."""

    hypothesis: Hypothesis
    score: float
    accepted: bool
    reason: str
    verifier: str
    round: int


@runtime_checkable
class Verifier(Protocol):
    """Scores a hypothesis against the region; ``score >= 0.5`` accepts it."""

    name: str

    def score(self, hypothesis: Hypothesis, question: str, region: Region) -> tuple[float, str]:
        """Return (score in [0, 1], reason)."""
        ...


def closed_world_problem(h: Hypothesis, region: Region) -> str | None:
    """Why ``h`` breaks the closed-world rule (entity outside V_q, relation outside R), or None."""
    names = region.names
    if h.head.casefold() not in names:
        return f"head {h.head!r} is not in the region"
    if h.tail.casefold() not in names:
        return f"tail {h.tail!r} is not in the region"
    rel = relation_of(h.relation)
    if rel is None or rel.value not in region.relations:
        return f"relation {h.relation!r} is not an allowed region relation"
    return None


class GraphVerifier:
    """Accepts a hypothesis only if the KG holds it between two in-region entities."""

    name = "graph"

    def __init__(self, runner: QueryRunner) -> None:
        self._runner = runner

    def score(self, hypothesis: Hypothesis, question: str, region: Region) -> tuple[float, str]:
        problem = closed_world_problem(hypothesis, region)
        if problem is not None:
            return 0.0, problem
        names = region.names
        rel = relation_of(hypothesis.relation)
        assert rel is not None  # checked by closed_world_problem
        rows = self._runner.read(
            "biomed/check_region_triplet", region_ids=sorted(region.node_ids),
            head_id=names[hypothesis.head.casefold()], relation=rel.value,
            tail_id=names[hypothesis.tail.casefold()],
        )
        found = bool(rows and rows[0]["found"])
        return (1.0, "edge present in the KG between region entities") if found else (
            0.0, "no such edge in the KG between these region entities")


class LLMVerifier:
    """Asks the chat model whether the triplet is true; closed-world violations are rejected first."""

    name = "llm"

    def __init__(self, llm: ChatModel) -> None:
        self._llm = llm

    def score(self, hypothesis: Hypothesis, question: str, region: Region) -> tuple[float, str]:
        problem = closed_world_problem(hypothesis, region)
        if problem is not None:
            return 0.0, problem
        try:
            reply = self._llm.complete([{"role": "user", "content": _prompts.VERIFY.format(
                triplet=hypothesis.text(), question=question)}], max_tokens=64, json_mode=True,
                schema=_prompts.VERIFY_REPLY)
            data = parse_json_reply(reply.text)
        except LLMError as e:
            return 0.0, f"verifier reply unusable: {e}"
        if not isinstance(data, dict):
            return 0.0, "verifier reply is not an object"
        raw = data.get("score", 1.0 if data.get("valid") is True else 0.0)
        try:
            value = max(0.0, min(1.0, float(raw)))
        except (TypeError, ValueError):
            value = 0.0
        if data.get("valid") is False:
            value = min(value, 0.0)
        return value, "llm judgement"


def parse_triplets(data: object, key: str) -> list[Hypothesis]:
    """Triplets from an LLM JSON reply ``{key: [[h, r, t], …]}``; malformed items are skipped."""
    items = None
    if isinstance(data, dict):
        items = next((v for k, v in data.items() if k.lower() == key.lower()), None)
    elif isinstance(data, list):
        items = data
    out: list[Hypothesis] = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, list | tuple) and len(item) == 3 and all(isinstance(x, str) for x in item):
            out.append(Hypothesis(item[0].strip(), item[1].strip(), item[2].strip()))
    return out


def revise_rules(h: Hypothesis, region: Region) -> Hypothesis | None:
    """Snap names to in-region entities (rapidfuzz ≥ 90) and the relation to an allowed one."""
    names = list(region.names)
    head = process.extractOne(h.head.casefold(), names, scorer=fuzz.ratio, score_cutoff=_SNAP_RATIO)
    tail = process.extractOne(h.tail.casefold(), names, scorer=fuzz.ratio, score_cutoff=_SNAP_RATIO)
    rel = relation_of(h.relation)
    allowed = sorted(region.relations)
    if rel is None or rel.value not in allowed:
        match = process.extractOne(h.relation.upper(), allowed, scorer=fuzz.ratio, score_cutoff=70)
        rel_name = match[0] if match else None
    else:
        rel_name = rel.value
    if head is None or tail is None or rel_name is None:
        return None
    return Hypothesis(head[0], rel_name, tail[0])


class Reviewer:
    """The verify-and-revise loop."""

    def __init__(self, verifier: Verifier, llm: ChatModel | None = None,
                 max_rounds: int = MAX_ROUNDS) -> None:
        self._verifier = verifier
        self._llm = llm
        self._rounds = max_rounds

    def _revise(self, h: Hypothesis, question: str, region: Region) -> list[Hypothesis]:
        if self._llm is not None:
            try:
                reply = self._llm.complete([{"role": "user", "content": _prompts.REVISE.format(
                    relations=", ".join(sorted(region.relations)),
                    entities=", ".join(sorted({t.head for t in region.triplets} | {t.tail for t in region.triplets})),
                    triplet=h.text(), question=question)}], max_tokens=256, json_mode=True,
                    schema=_prompts.REVISE_REPLY)
                revised = parse_triplets(parse_json_reply(reply.text), "revised_triplets")
                if revised:
                    return revised
            except LLMError:
                pass
        fixed = revise_rules(h, region)
        return [fixed] if fixed is not None and fixed != h else []

    def review(self, hypotheses: Sequence[Hypothesis], question: str,
               region: Region) -> tuple[list[Hypothesis], list[Verdict]]:
        """Return the accepted hypotheses and every verdict (all rounds)."""
        accepted: list[Hypothesis] = []
        verdicts: list[Verdict] = []
        pending = list(hypotheses)
        for rnd in range(self._rounds + 1):
            rejected: list[Hypothesis] = []
            for h in pending:
                score, reason = self._verifier.score(h, question, region)
                ok = score >= ACCEPT_SCORE
                verdicts.append(Verdict(h, score, ok, reason, self._verifier.name, rnd))
                (accepted if ok else rejected).append(h)
            if not rejected or rnd == self._rounds:
                break
            pending = [r for h in rejected for r in self._revise(h, question, region)]
            if not pending:
                break
        return accepted, verdicts
