"""Intra-document logic modelling: core vs supplementary sentences and their RST relations.

Two implementations of the same step (paper §3.1, Appendix A.1/A.2):

* :func:`heuristic_structure` is deterministic and needs no model: the lead sentence is core;
  sentences that open with an anaphor or a satellite discourse marker, or name no entity, are
  supplementary; relation types come from discourse markers; defaults are ``conjunction`` (N-N)
  and ``elaboration`` (N-S). Every edge it makes carries ``method='heuristic'``.
* :func:`llm_structure` asks a :class:`~hopgraph.core.ports.ChatModel` with the prompts below; any
  reply that does not parse or validate falls back to the heuristic for that step, and the edges
  say which method produced them.

Supplementary sentences are assigned to cores by similarity and distance in both cases
(:func:`assign_supplementary`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pydantic import BaseModel, ValidationError

from hopgraph.core.errors import LLMError
from hopgraph.core.ports import ChatModel, parse_json_reply

NN_RELATIONS = ("conjunction", "contrast", "disjunction", "restatement", "sequence")
NS_RELATIONS = (
    "cause", "result", "opposition", "elaboration", "circumstance", "evaluation", "solutionhood",
)
HEURISTIC = "heuristic"
LLM = "llm"
DISTANCE_PENALTY = 0.05
PRECEDING_BONUS = 0.1
MAX_LLM_SENTENCES = 30  # longer passages do not fit the small model's context: heuristic

_ANAPHORS = frozenset({
    "he", "she", "it", "they", "this", "these", "those", "its", "his", "her", "their", "such",
    "there", "him", "them", "that",
})
# Markers are matched at the start of a sentence (lower-cased); the first match wins.
_NN_MARKERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("contrast", ("however", "but ", "in contrast", "whereas", "although", "though", "yet ",
                  "on the other hand", "nevertheless", "by contrast", "unlike")),
    ("disjunction", ("alternatively", "or ", "either", "otherwise")),
    ("restatement", ("in other words", "that is", "i.e.", "namely", "also known as",
                     "in short", "in sum")),
    ("sequence", ("then", "later", "after ", "afterwards", "afterward", "subsequently",
                  "finally", "next", "following", "eventually", "since then", "in 1", "in 2",
                  "by 1", "by 2")),
)
_NS_MARKERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("cause", ("because", "since ", "due to", "owing to", "as a result of")),
    ("result", ("therefore", "thus", "consequently", "as a result", "so ", "hence",
                "this led", "which led", "resulting")),
    ("opposition", ("however", "but ", "although", "though", "despite", "in spite",
                    "nevertheless", "yet ", "whereas")),
    ("circumstance", ("when ", "while ", "during", "after ", "before ", "in 1", "in 2",
                      "at the time", "until", "upon")),
    ("evaluation", ("it is considered", "it was considered", "critics", "is regarded",
                    "was regarded", "praised", "acclaimed", "criticized", "criticised",
                    "notable", "best known", "widely")),
    ("solutionhood", ("to solve", "to address", "in order to", "the solution", "to prevent")),
)
_FIRST_WORD = re.compile(r"[A-Za-z']+")


@dataclass(frozen=True)
class StructEdge:
    """One intra-document edge between sentence positions."""

    kind: str  # 'nn' (core -> core) or 'ns' (core -> supplementary)
    source: int
    target: int
    relation: str
    method: str
    score: float
    evidence: str = ""


@dataclass
class DocumentStructure:
    """Roles and edges of one passage's sentences, and what producing them cost."""

    roles: dict[int, str]
    edges: list[StructEdge]
    method: str
    llm_calls: int = 0
    llm_failures: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def cores(self) -> list[int]:
        return sorted(p for p, r in self.roles.items() if r == "core")


def _marker(text: str, table: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[str, str] | None:
    head = text.lower().lstrip("\"'( ")[:40]
    for relation, markers in table:
        for marker in markers:
            if head.startswith(marker):
                return relation, marker.strip()
    return None


def heuristic_roles(sentences: Sequence[str], has_entity: Sequence[bool], english: bool) -> dict[int, str]:
    """Deterministic core/supplementary roles by position, anaphora, markers and entities.

    Args:
        sentences: the non-empty sentences of a passage, by position (empty ones are skipped).
        has_entity: per position, whether NER found a named entity in it.
        english: False turns off the English cues: only the lead sentence is core.
    """
    roles: dict[int, str] = {}
    live = [i for i, s in enumerate(sentences) if s]
    for rank, i in enumerate(live):
        text = sentences[i]
        if rank == 0:
            roles[i] = "core"
            continue
        if not english:
            roles[i] = "supplementary"
            continue
        first = _FIRST_WORD.match(text.lstrip("\"'( "))
        anaphoric = bool(first) and first.group(0).lower() in _ANAPHORS  # type: ignore[union-attr]
        marked = _marker(text, _NS_MARKERS) is not None and _marker(text, _NN_MARKERS) is None
        roles[i] = "supplementary" if anaphoric or marked or not has_entity[i] else "core"
    return roles


def assign_supplementary(
    roles: dict[int, str], vectors: dict[int, Any]
) -> dict[int, tuple[int, float]]:
    """Assign every supplementary sentence to a core by similarity and distance.

    score = cosine(sup, core) - DISTANCE_PENALTY * (|distance| - 1) + PRECEDING_BONUS if the core
    comes first (anaphora points back). Ties break to the nearer, then earlier, core.

    Returns:
        supplementary position -> (core position, cosine similarity).
    """
    cores = sorted(p for p, r in roles.items() if r == "core")
    out: dict[int, tuple[int, float]] = {}
    if not cores:
        return out
    for pos, role in sorted(roles.items()):
        if role != "supplementary":
            continue
        best: tuple[float, int, int, float] | None = None
        for core in cores:
            sim = float(np.dot(vectors[pos], vectors[core]))
            score = sim - DISTANCE_PENALTY * (abs(pos - core) - 1)
            if core < pos:
                score += PRECEDING_BONUS
            key = (score, -abs(pos - core), -core, sim)
            if best is None or key > best:
                best = key
        assert best is not None
        out[pos] = (-best[2], best[3])
    return out


def heuristic_structure(
    sentences: Sequence[str], has_entity: Sequence[bool], vectors: dict[int, Any], english: bool
) -> DocumentStructure:
    """The whole intra-document step without an LLM; every edge has ``method='heuristic'``."""
    roles = heuristic_roles(sentences, has_entity, english)
    edges = _nn_edges(sentences, roles, vectors) + _ns_edges(sentences, roles, vectors)
    return DocumentStructure(roles, edges, HEURISTIC)


def _nn_edges(sentences: Sequence[str], roles: dict[int, str], vectors: dict[int, Any]) -> list[StructEdge]:
    cores = sorted(p for p, r in roles.items() if r == "core")
    edges = []
    for a, b in itertools.pairwise(cores):
        found = _marker(sentences[b], _NN_MARKERS)
        relation, evidence = found if found else ("conjunction", "")
        sim = float(np.dot(vectors[a], vectors[b]))
        edges.append(StructEdge("nn", a, b, relation, HEURISTIC, sim, evidence))
    return edges


def _ns_edges(sentences: Sequence[str], roles: dict[int, str], vectors: dict[int, Any]) -> list[StructEdge]:
    edges = []
    for sup, (core, sim) in assign_supplementary(roles, vectors).items():
        found = _marker(sentences[sup], _NS_MARKERS)
        relation, evidence = found if found else ("elaboration", "")
        edges.append(StructEdge("ns", core, sup, relation, HEURISTIC, sim, evidence))
    return edges


# ---- LLM path (paper Appendix A.1 / A.2) -------------------------------------------------------

NN_SYSTEM = (
    "You analyse the discourse structure of a document with Rhetorical Structure Theory. "
    "Core sentences carry the main facts of the document; the others support them. "
    "Between core sentences, use only these nucleus-nucleus relations: conjunction (parallel "
    "facts), contrast, disjunction (alternatives), restatement (same fact in other words), "
    "sequence (temporal or logical order). Reply with JSON only."
)
NN_USER = (
    "Document title: {title}\nSentences:\n{numbered}\n\n"
    'Return {{"core": [sentence numbers that are core], "relations": '
    '[{{"from": n, "to": m, "type": "conjunction|contrast|disjunction|restatement|sequence"}}]}}'
)
NS_SYSTEM = (
    "You analyse the discourse structure of a document with Rhetorical Structure Theory. "
    "Each supporting (satellite) sentence depends on a core (nucleus) sentence. Use only these "
    "nucleus-satellite relations: cause, result, opposition, elaboration, circumstance, "
    "evaluation, solutionhood. Reply with JSON only."
)
NS_USER = (
    "Document title: {title}\nPairs (core sentence -> supporting sentence):\n{pairs}\n\n"
    'Return {{"relations": [{{"pair": k, "type": "cause|result|opposition|elaboration|'
    'circumstance|evaluation|solutionhood"}}]}}'
)


class _NNRelation(BaseModel):
    model_config = {"populate_by_name": True}
    source: int
    target: int
    type: str


class _NNReply(BaseModel):
    core: list[int]
    relations: list[dict[str, Any]] = []


class _NSReply(BaseModel):
    relations: list[dict[str, Any]] = []


def _ask(llm: ChatModel, system: str, user: str, max_tokens: int) -> Any:
    reply = llm.complete(
        [{"role": "system", "content": system}, {"role": "user", "content": user}],
        max_tokens=max_tokens, temperature=0.0, json_mode=True,
    )
    return parse_json_reply(reply.text)


def llm_structure(
    title: str,
    sentences: Sequence[str],
    has_entity: Sequence[bool],
    vectors: dict[int, Any],
    llm: ChatModel,
) -> DocumentStructure:
    """Roles and relations from the LLM (A.1 then A.2), each step falling back to the heuristic.

    Sentence numbers in the prompts are positions in the passage. A reply that is not JSON,
    names no valid core, or uses unknown relation types is not trusted: the heuristic result
    is used for that step and counted in ``llm_failures``.
    """
    base = heuristic_structure(sentences, has_entity, vectors, english=True)
    live = [i for i, s in enumerate(sentences) if s]
    if len(live) > MAX_LLM_SENTENCES:
        base.notes.append(f"{len(live)} sentences: too long for the LLM prompt, heuristic used")
        return base
    if len(live) < 2:
        return base  # one sentence: it is the core, nothing to relate
    structure = DocumentStructure(dict(base.roles), [], LLM)
    numbered = "\n".join(f"{i}. {sentences[i]}" for i in live)
    # A.1: core sentences and N-N relations
    nn_edges: list[StructEdge] = []
    structure.llm_calls += 1
    try:
        reply = _NNReply.model_validate(_ask(llm, NN_SYSTEM, NN_USER.format(title=title, numbered=numbered), 256))
        cores = sorted({c for c in reply.core if c in live})
        if not cores:
            raise LLMError("no valid core sentence")
        roles = {i: ("core" if i in cores else "supplementary") for i in live}
        for raw in reply.relations:
            try:
                rel = _NNRelation.model_validate(
                    {"source": raw.get("from"), "target": raw.get("to"), "type": raw.get("type", "")}
                )
            except ValidationError:
                continue
            kind = rel.type.strip().lower()
            if rel.source in cores and rel.target in cores and rel.source != rel.target and kind in NN_RELATIONS:
                a, b = sorted((rel.source, rel.target))
                sim = float(np.dot(vectors[a], vectors[b]))
                nn_edges.append(StructEdge("nn", a, b, kind, LLM, sim))
        structure.roles = roles
        # cores the LLM left unrelated still get the heuristic chain so the graph stays connected
        linked = {e.source for e in nn_edges} | {e.target for e in nn_edges}
        for e in _nn_edges(sentences, roles, vectors):
            if e.source not in linked or e.target not in linked:
                nn_edges.append(e)
    except (LLMError, ValidationError, TypeError, AttributeError):
        structure.llm_failures += 1
        structure.roles = dict(base.roles)
        nn_edges = _nn_edges(sentences, structure.roles, vectors)
    # A.2: N-S relations for the similarity/distance assignment
    assignment = assign_supplementary(structure.roles, vectors)
    heuristic_ns = {e.target: e for e in _ns_edges(sentences, structure.roles, vectors)}
    ns_edges: list[StructEdge] = []
    if assignment:
        pairs = list(assignment.items())
        listing = "\n".join(
            f"{k}. [{sentences[core]}] -> [{sentences[sup]}]" for k, (sup, (core, _)) in enumerate(pairs)
        )
        structure.llm_calls += 1
        typed: dict[int, str] = {}
        try:
            ns_reply = _NSReply.model_validate(_ask(llm, NS_SYSTEM, NS_USER.format(title=title, pairs=listing), 256))
            for raw in ns_reply.relations:
                k, kind = raw.get("pair"), str(raw.get("type", "")).strip().lower()
                if isinstance(k, int) and 0 <= k < len(pairs) and kind in NS_RELATIONS:
                    typed[k] = kind
            if not typed:
                raise LLMError("no valid N-S relation")
        except (LLMError, ValidationError, TypeError, AttributeError):
            structure.llm_failures += 1
        for k, (sup, (core, sim)) in enumerate(pairs):
            if k in typed:
                ns_edges.append(StructEdge("ns", core, sup, typed[k], LLM, sim))
            else:
                ns_edges.append(heuristic_ns[sup])
    structure.edges = nn_edges + ns_edges
    return structure
