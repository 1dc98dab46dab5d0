"""Offline construction of the sentence logic graph (paper §3.1): from passages to Neo4j.

For each batch of passages: split into sentences, embed them (and the topic and passage lines),
tag entities, model the intra-document structure (LLM or the heuristic fallback), then write
everything for the batch in one transaction (``UNWIND $rows`` queries from ``cypher/sentence``).
After the last batch the heuristic cross-document bridges are recomputed over the whole graph,
and, with an LLM, typed. Loading the same input twice gives the same graph.
"""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ValidationError

from hopgraph.core.errors import LLMError
from hopgraph.core.ports import ChatModel, Embedder, parse_json_reply
from hopgraph.db import QueryRunner
from hopgraph.loaders.sentences._entities import EntityTagger, entity_key
from hopgraph.loaders.sentences._inputs import RawPassage
from hopgraph.loaders.sentences._split import clean_sentences, looks_english, split_text
from hopgraph.loaders.sentences._structure import (
    HEURISTIC,
    LLM,
    DocumentStructure,
    heuristic_structure,
    llm_structure,
)

DEFAULT_BATCH_PASSAGES = 200
DEFAULT_MAX_DF = 25
DEFAULT_MAX_BRIDGES = 8
DEFAULT_TITLE_WEIGHT = 2.0
SCORE_DECIMALS = 4
BRIDGE_SYSTEM = (
    "You connect documents through the entities they are about, using your background "
    "knowledge. For each pair of topics, name the relation between them in two to four words "
    "(for example: directed by, born in, member of, located in, same person). Reply with JSON only."
)
BRIDGE_USER = (
    "Topic: {title}\nSummary: {text}\nRelated topics:\n{listing}\n\n"
    'Return {{"relations": [{{"topic": k, "relation": "..."}}]}}'
)
_RELATION_TEXT = re.compile(r"[^a-z0-9 _-]")


@dataclass
class LoadReport:
    """What a load did, for the CLI and the benchmark."""

    passages: int = 0
    sentences: int = 0
    cores: int = 0
    supplementary: int = 0
    edges: Counter[str] = field(default_factory=Counter)
    methods: Counter[str] = field(default_factory=Counter)
    bridges: int = 0
    llm_calls: int = 0
    llm_failures: int = 0
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    # seconds per stage: embed, ner, structure, write, bridges, bridge_typing
    stage_seconds: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))

    @property
    def sentences_per_s(self) -> float:
        return self.sentences / self.seconds if self.seconds else 0.0

    @property
    def llm_calls_per_document(self) -> float:
        return self.llm_calls / self.passages if self.passages else 0.0


@dataclass
class _Prepared:
    raw: RawPassage
    sentences: list[str]
    english: bool
    notes: list[str]
    parts: dict[int, list[str]] = field(default_factory=dict)


def _mean_unit(vectors: Sequence[NDArray[np.float32]]) -> NDArray[np.float32]:
    """One vector for a sentence: itself, or the normalised mean of its parts' vectors."""
    if len(vectors) == 1:
        return vectors[0]
    mean = np.mean(np.stack(vectors), axis=0)
    norm = float(np.linalg.norm(mean))
    unit: NDArray[np.float32] = (mean / norm if norm else mean).astype(np.float32)
    return unit


def _prepare(raw: RawPassage, report: LoadReport) -> _Prepared | None:
    if raw.sentences is not None:
        split = clean_sentences(raw.sentences)
    else:
        split = split_text(raw.text or "")
    if not any(split.sentences):
        report.skipped.append(f"{raw.id}: empty passage, skipped")
        return None
    text = " ".join(s for s in split.sentences if s)
    english = looks_english(text)
    notes = list(split.notes)
    if not english:
        notes.append("not English: English NER and discourse markers not applied")
    if sum(1 for s in split.sentences if s) == 1:
        notes.append("one sentence: a single core, no intra-document relations")
    for note in notes:
        report.notes.append(f"{raw.id}: {note}")
    return _Prepared(raw, split.sentences, english, notes, split.parts)


def _dedupe(passages: Iterable[RawPassage], report: LoadReport) -> list[RawPassage]:
    seen: dict[str, RawPassage] = {}
    for p in passages:
        if not p.id.strip():
            report.skipped.append(f"passage with empty id (title {p.title!r}), skipped")
            continue
        if p.id in seen:
            report.skipped.append(f"{p.id}: duplicate id, the later record wins")
        seen[p.id] = p
    return list(seen.values())


def load_passages(
    runner: QueryRunner,
    passages: Iterable[RawPassage],
    *,
    embedder: Embedder,
    tagger: EntityTagger,
    llm: ChatModel | None = None,
    llm_limit: int | None = None,
    batch_passages: int = DEFAULT_BATCH_PASSAGES,
    max_df: int = DEFAULT_MAX_DF,
    max_bridges: int = DEFAULT_MAX_BRIDGES,
    progress: Callable[[int], None] | None = None,
) -> LoadReport:
    """Build (or refresh) the sentence graph for ``passages``.

    Args:
        runner: where to write.
        passages: the input; bad ones are skipped and reported, never fatal.
        embedder: sentence embedder (dimension must match the vector indexes).
        tagger: named-entity tagger for bridges.
        llm: when given, classification, relation typing and bridge typing use it (with the
            heuristic fallback per step); when None every edge is ``method='heuristic'``.
        llm_limit: use the LLM for at most this many passages (the rest: heuristic).
        batch_passages: passages per write transaction.
        max_df: entities shared by more topics than this do not bridge.
        max_bridges: strongest bridges kept per topic.
        progress: called with the number of passages finished in each batch.

    Returns:
        A :class:`LoadReport`.
    """
    report = LoadReport()
    started = time.perf_counter()
    todo = _dedupe(passages, report)
    llm_ids: list[str] = []
    for start in range(0, len(todo), batch_passages):
        batch = todo[start : start + batch_passages]
        prepared = [p for p in (_prepare(raw, report) for raw in batch) if p is not None]
        if prepared:
            use_llm = []
            for p in prepared:
                allowed = llm is not None and p.english and (
                    llm_limit is None or len(llm_ids) < llm_limit
                )
                use_llm.append(allowed)
                if allowed:
                    llm_ids.append(p.raw.id)
            _write_batch(runner, prepared, use_llm, embedder, tagger, llm, report)
        if progress is not None:
            progress(len(batch))
    mark = time.perf_counter()
    rows = runner.write("sentence/rebuild_bridges", max_df=max_df, max_bridges=max_bridges,
                        title_weight=DEFAULT_TITLE_WEIGHT)
    report.bridges = int(rows[0]["bridges"]) if rows else 0
    report.stage_seconds["bridges"] += time.perf_counter() - mark
    if llm is not None and report.bridges:
        mark = time.perf_counter()
        _type_bridges(runner, [f"{pid}#topic" for pid in llm_ids], llm, report)
        report.stage_seconds["bridge_typing"] += time.perf_counter() - mark
    report.seconds = time.perf_counter() - started
    return report


def _write_batch(
    runner: QueryRunner,
    prepared: Sequence[_Prepared],
    use_llm: Sequence[bool],
    embedder: Embedder,
    tagger: EntityTagger,
    llm: ChatModel | None,
    report: LoadReport,
) -> None:
    # one embedding call per batch: sentences, topic lines, passages
    texts: list[str] = []
    for p in prepared:  # an over-long sentence is embedded part by part (its vector: their mean)
        for pos, s in enumerate(p.sentences):
            if s:
                texts.extend(p.parts.get(pos, [s]))
    topic_texts = [_topic_text(p) for p in prepared]
    passage_texts = [f"{p.raw.title}: " + " ".join(s for s in p.sentences if s) for p in prepared]
    mark = time.perf_counter()
    vectors = embedder.embed_documents(texts + topic_texts + passage_texts)
    report.stage_seconds["embed"] += time.perf_counter() - mark
    sentence_vecs = iter(vectors[: len(texts)])
    topic_vecs = vectors[len(texts) : len(texts) + len(prepared)]
    passage_vecs = vectors[len(texts) + len(prepared) :]
    english_sentences = [s for p in prepared if p.english for s in p.sentences if s]
    mark = time.perf_counter()
    tags = iter(tagger.tag(english_sentences)) if english_sentences else iter(())
    report.stage_seconds["ner"] += time.perf_counter() - mark

    Row = dict[str, Any]
    clear_rows: list[Row] = []
    passage_rows: list[Row] = []
    sentence_rows: list[Row] = []
    core_rows: list[Row] = []
    nn_rows: list[Row] = []
    ns_rows: list[Row] = []
    mention_rows: list[Row] = []
    for p, with_llm, topic_vec, passage_vec in zip(prepared, use_llm, topic_vecs, passage_vecs, strict=True):
        pid, topic_id = p.raw.id, f"{p.raw.id}#topic"
        by_pos: dict[int, Any] = {}
        entities: dict[int, list[tuple[str, str]]] = {}
        for pos, s in enumerate(p.sentences):
            if s:
                vecs = [np.asarray(next(sentence_vecs), dtype=np.float32)
                        for _ in p.parts.get(pos, [s])]
                by_pos[pos] = _mean_unit(vecs)
                entities[pos] = next(tags) if p.english else []
        has_entity = [bool(entities.get(i)) for i in range(len(p.sentences))]
        structure: DocumentStructure
        mark = time.perf_counter()
        if with_llm and llm is not None:
            structure = llm_structure(p.raw.title, p.sentences, has_entity, by_pos, llm)
        else:
            structure = heuristic_structure(p.sentences, has_entity, by_pos, p.english)
        report.stage_seconds["structure"] += time.perf_counter() - mark
        report.llm_calls += structure.llm_calls
        report.llm_failures += structure.llm_failures
        for note in structure.notes:
            report.notes.append(f"{pid}: {note}")
        ids = {pos: f"{pid}#s{pos}" for pos in by_pos}
        clear_rows.append({"id": pid, "topic_id": topic_id, "sentence_ids": list(ids.values())})
        passage_rows.append({
            "id": pid, "title": p.raw.title, "text": " ".join(s for s in p.sentences if s),
            "language": "en" if p.english else "non-en", "method": structure.method,
            "notes": p.notes + structure.notes, "embedding": list(passage_vec),
            "topic_id": topic_id, "topic_text": _topic_text(p), "key": entity_key(p.raw.title),
            "topic_embedding": list(topic_vec),
        })
        for pos, vec in by_pos.items():
            role = structure.roles[pos]
            sentence_rows.append({
                "id": ids[pos], "passage_id": pid, "position": pos, "text": p.sentences[pos],
                "role": role, "embedding": vec.tolist(),
            })
            if role == "core":
                core_rows.append({
                    "topic_id": topic_id, "core_id": ids[pos], "method": structure.method,
                    "score": _round(float(np.dot(vec, np.asarray(topic_vec, dtype=np.float32)))),
                })
                report.cores += 1
            else:
                report.supplementary += 1
        for edge in structure.edges:
            row = {"source": ids[edge.source], "target": ids[edge.target], "relation": edge.relation,
                   "method": edge.method, "score": _round(edge.score), "evidence": edge.evidence}
            (nn_rows if edge.kind == "nn" else ns_rows).append(row)
            report.edges[f"{edge.kind}:{edge.relation}"] += 1
            report.methods[edge.method] += 1
        mentions: dict[str, tuple[str, str]] = {}
        title_key = entity_key(p.raw.title)
        if title_key:
            mentions[title_key] = (p.raw.title, "TITLE")
        for found in entities.values():
            for name, label in found:
                key = entity_key(name)
                if key and len(key) > 1 and key not in mentions:
                    mentions[key] = (name, label)
        mention_rows.extend(
            {"topic_id": topic_id, "entity_id": f"entity:{key}", "name": name, "label": label}
            for key, (name, label) in sorted(mentions.items())
        )
        report.passages += 1
        report.sentences += len(by_pos)
    mark = time.perf_counter()
    runner.write_transaction([
        ("sentence/clear_passage_structure", {"rows": clear_rows}),
        ("sentence/upsert_passages", {"rows": passage_rows}),
        ("sentence/upsert_sentences", {"rows": sentence_rows}),
        ("sentence/upsert_core_links", {"rows": core_rows}),
        ("sentence/upsert_nn_relations", {"rows": nn_rows}),
        ("sentence/upsert_ns_relations", {"rows": ns_rows}),
        ("sentence/upsert_mentions", {"rows": mention_rows}),
    ])
    report.stage_seconds["write"] += time.perf_counter() - mark


def _round(score: float) -> float:
    # Vectors differ in the last bits with the embedding batch's padding; rounded scores do not.
    return round(score, SCORE_DECIMALS)


def _topic_text(p: _Prepared) -> str:
    lead = next((s for s in p.sentences if s), "")
    return f"{p.raw.title}: {lead}"


class _BridgeReply(BaseModel):
    relations: list[dict[str, Any]] = []


def _type_bridges(runner: QueryRunner, topic_ids: list[str], llm: ChatModel, report: LoadReport) -> None:
    """Paper A.3: ask the LLM for the relation on each bridge of the given topics (one call per topic)."""
    if not topic_ids:
        return
    rows = runner.read("sentence/list_bridges", topic_ids=topic_ids)
    by_topic: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if row["method"] == LLM:
            continue
        owner = row["source"] if row["source"] in topic_ids else row["target"]
        by_topic.setdefault(owner, []).append(row)
    typed: list[dict[str, str]] = []
    for owner in sorted(by_topic):
        bridges = by_topic[owner][:5]
        first = bridges[0]
        title, text = ((first["source_title"], first["source_text"]) if first["source"] == owner
                       else (first["target_title"], first["target_text"]))
        listing = "\n".join(
            f"{k}. {b['target_title'] if b['source'] == owner else b['source_title']} "
            f"(shared: {b['evidence']})" for k, b in enumerate(bridges)
        )
        report.llm_calls += 1
        try:
            reply = llm.complete(
                [{"role": "system", "content": BRIDGE_SYSTEM},
                 {"role": "user", "content": BRIDGE_USER.format(title=title, text=text, listing=listing)}],
                max_tokens=200, temperature=0.0, json_mode=True,
            )
            parsed = _BridgeReply.model_validate(parse_json_reply(reply.text))
        except (LLMError, ValidationError):
            report.llm_failures += 1
            continue
        for raw in parsed.relations:
            k = raw.get("topic")
            relation = _RELATION_TEXT.sub("", str(raw.get("relation", "")).lower()).strip()[:40]
            if isinstance(k, int) and 0 <= k < len(bridges) and relation:
                typed.append({"source": bridges[k]["source"], "target": bridges[k]["target"],
                              "relation": relation})
    if typed:
        runner.write("sentence/type_bridges", rows=typed)
    report.methods["llm-bridge"] += len(typed)


__all__ = ["HEURISTIC", "LLM", "LoadReport", "load_passages"]
