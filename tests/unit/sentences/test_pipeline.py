"""The load pipeline against a recording runner: rows, batching, bad input, LLM accounting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hopgraph.core.errors import IngestError
from hopgraph.loaders.sentences import RawPassage, load_passages, read_corpus
from tests.unit.chat_fakes import PromptChat

from .fakes import FakeEmbedder, FakeTagger, RecordingRunner

WRITE_KEYS = [
    "sentence/clear_passage_structure", "sentence/upsert_passages", "sentence/upsert_sentences",
    "sentence/upsert_core_links", "sentence/upsert_nn_relations", "sentence/upsert_ns_relations",
    "sentence/upsert_mentions",
]


def _passages() -> list[RawPassage]:
    return [
        RawPassage("a", "Charles Babbage", text="Charles Babbage was an engineer. He died in Marylebone."),
        RawPassage("b", "Marylebone", sentences=("Marylebone is an area in London.", " It has a park.")),
        RawPassage("empty", "Nothing", text="   "),
        RawPassage("one", "One", text="Only One sentence here."),
        RawPassage("vi", "Sông Hồng", text="Sông Hồng chảy qua Hà Nội. Nó là con sông dài nhất miền Bắc."),
    ]


def test_load_writes_one_transaction_per_batch_and_reports_bad_input() -> None:
    runner = RecordingRunner()
    report = load_passages(runner, _passages(), embedder=FakeEmbedder(), tagger=FakeTagger(),
                           batch_passages=2)
    keys = [k for k, _ in runner.calls]
    assert keys.count("sentence/upsert_passages") == 3  # batches of 2: [a,b], [empty,one], [vi]
    assert keys[:7] == WRITE_KEYS
    assert keys[-1] == "sentence/rebuild_bridges"
    assert report.passages == 4
    assert report.skipped == ["empty: empty passage, skipped"]
    assert any(n.startswith("one: one sentence") for n in report.notes)
    assert any(n.startswith("vi: not English") for n in report.notes)
    passages = {r["id"]: r for p in runner.params_of("sentence/upsert_passages") for r in p["rows"]}
    assert passages["vi"]["language"] == "non-en"
    assert passages["a"]["method"] == "heuristic"
    sentences = {r["id"]: r for p in runner.params_of("sentence/upsert_sentences") for r in p["rows"]}
    assert sentences["a#s1"]["role"] == "supplementary"
    assert sentences["b#s1"]["text"] == "It has a park."  # pre-split text is stripped
    ns = [r for p in runner.params_of("sentence/upsert_ns_relations") for r in p["rows"]]
    assert {"source": "a#s0", "target": "a#s1"}.items() <= next(
        r for r in ns if r["target"] == "a#s1").items()
    assert all(r["method"] == "heuristic" for r in ns)
    mentions = [r for p in runner.params_of("sentence/upsert_mentions") for r in p["rows"]]
    assert {"topic_id": "a#topic", "entity_id": "entity:marylebone", "name": "Marylebone",
            "label": "PERSON"} in mentions
    assert {"topic_id": "b#topic", "entity_id": "entity:marylebone", "name": "Marylebone",
            "label": "TITLE"} in mentions
    assert report.llm_calls == 0


def test_llm_is_used_up_to_the_limit_and_counted() -> None:
    chat = PromptChat(lambda user: json.dumps({"core": [0], "relations": []}) if "Sentences" in user
                      else json.dumps({"relations": [{"pair": 0, "type": "cause"}]}))
    runner = RecordingRunner()
    report = load_passages(runner, _passages(), embedder=FakeEmbedder(), tagger=FakeTagger(),
                           llm=chat, llm_limit=1)
    assert report.llm_calls == 2  # A.1 + A.2 for the first passage only
    methods = {r["id"]: r["method"] for p in runner.params_of("sentence/upsert_passages")
               for r in p["rows"]}
    assert methods["a"] == "llm" and methods["b"] == "heuristic"
    ns = {r["target"]: r for p in runner.params_of("sentence/upsert_ns_relations") for r in p["rows"]}
    assert (ns["a#s1"]["relation"], ns["a#s1"]["method"]) == ("cause", "llm")


def test_read_corpus_formats_and_bad_records(tmp_path: Path) -> None:
    hotpot = tmp_path / "corpus.json"
    hotpot.write_text(json.dumps({"T1": ["A.", " B."], "T2": "not a list"}))
    skipped: list[str] = []
    got = list(read_corpus(hotpot, skipped))
    assert [(p.id, p.sentences) for p in got] == [("T1", ("A.", " B."))]
    assert "T2" in skipped[0]
    jsonl = tmp_path / "c.jsonl"
    jsonl.write_text('{"id": "x", "title": "X", "text": "Hello."}\n{"title": "no id"}\nnot json\n')
    skipped = []
    assert [p.id for p in read_corpus(jsonl, skipped)] == ["x"]
    assert len(skipped) == 2
    with pytest.raises(IngestError, match="no such file"):
        list(read_corpus(tmp_path / "missing.json", []))
