"""Splitting, language check, heuristic roles/relations and the LLM step with its fallback."""

from __future__ import annotations

import json

import numpy as np

from hopgraph.loaders.sentences import (
    NN_RELATIONS,
    NS_RELATIONS,
    entity_key,
    heuristic_structure,
    llm_structure,
    looks_english,
    split_text,
)
from hopgraph.loaders.sentences._split import MAX_SENTENCE_CHARS, clean_sentences
from tests.unit.chat_fakes import PromptChat

from .fakes import FakeEmbedder


def _vectors(sentences: list[str]) -> dict[int, np.ndarray]:
    emb = FakeEmbedder()
    return {i: np.asarray(emb.embed_query(s)) for i, s in enumerate(sentences) if s}


def test_split_keeps_abbreviations_and_initials() -> None:
    result = split_text("Dr. Smith met J. R. Tolkien in Oxford. They talked.\n\nA new paragraph here!")
    assert result.sentences == ["Dr. Smith met J. R. Tolkien in Oxford.", "They talked.",
                                "A new paragraph here!"]


def test_split_empty_and_whitespace() -> None:
    assert split_text("").sentences == []
    assert split_text("   \n\n  ").sentences == []


def test_very_long_sentence_is_cut_into_parts_and_noted() -> None:
    text = " ".join(["word"] * 2000)  # 9,999 chars without punctuation
    result = split_text(text)
    assert result.sentences == [text]
    assert len(result.parts[0]) > 1 and " ".join(result.parts[0]) == text
    assert all(len(s) <= MAX_SENTENCE_CHARS for s in result.parts[0])
    assert "embedded as" in result.notes[0] and "index kept" in result.notes[0]


def test_a_long_sentence_does_not_shift_the_indexes_of_later_ones() -> None:
    long = " ".join(["word"] * 600)  # 2,999 chars
    result = clean_sentences(["First.", long, "", "Fourth."])
    assert result.sentences == ["First.", long, "", "Fourth."]  # supporting fact (title, 3) holds
    assert list(result.parts) == [1] and len(result.parts[1]) == 3


def test_presplit_sentences_keep_positions_for_empty_entries() -> None:
    result = clean_sentences(["First one.", "  ", " Second one."])
    assert result.sentences == ["First one.", "", "Second one."]


def test_language_check() -> None:
    assert looks_english("The river flows through the city and it is the longest in the country.")
    assert not looks_english("Sông Hồng chảy qua Hà Nội và là con sông dài nhất miền Bắc Việt Nam.")
    assert not looks_english("Der Fluss fließt durch die Stadt und ist der längste im ganzen Land.")


def test_entity_key_matches_titles_and_mentions() -> None:
    assert entity_key("Lilu (mythology)") == entity_key("Lilu")
    assert entity_key("The Beatles") == entity_key("Beatles")
    assert entity_key("Babbage's") == "babbage"


def test_heuristic_roles_and_markers() -> None:
    sentences = [
        "Charles Babbage was an English engineer.",
        "He was born in London.",
        "However, Babbage never finished the Engine.",
        "Because funding stopped, the work ended.",
        "Later Babbage designed the Difference Engine.",
    ]
    has_entity = [True, True, True, False, True]
    s = heuristic_structure(sentences, has_entity, _vectors(sentences), english=True)
    assert s.roles == {0: "core", 1: "supplementary", 2: "core", 3: "supplementary", 4: "core"}
    nn = {(e.source, e.target): e.relation for e in s.edges if e.kind == "nn"}
    assert nn == {(0, 2): "contrast", (2, 4): "sequence"}
    ns = {e.target: (e.source, e.relation) for e in s.edges if e.kind == "ns"}
    assert ns[1] == (0, "elaboration")
    assert ns[3][1] == "cause"
    assert {e.method for e in s.edges} == {"heuristic"}


def test_non_english_has_lead_core_only() -> None:
    sentences = ["Sông Hồng chảy qua Hà Nội.", "Nó dài nhất miền Bắc."]
    s = heuristic_structure(sentences, [False, False], _vectors(sentences), english=False)
    assert s.roles == {0: "core", 1: "supplementary"}
    assert [(e.kind, e.relation) for e in s.edges] == [("ns", "elaboration")]


def test_llm_structure_uses_valid_reply() -> None:
    sentences = ["Ada Lovelace was a mathematician.", "She wrote an algorithm.",
                 "Babbage built the Engine.", "Its design was praised."]

    def reply(user: str) -> str:
        if "Pairs" in user:
            return json.dumps({"relations": [{"pair": 0, "type": "result"},
                                             {"pair": 1, "type": "evaluation"}]})
        return json.dumps({"core": [0, 2], "relations": [{"from": 0, "to": 2, "type": "contrast"}]})

    chat = PromptChat(reply)
    s = llm_structure("Ada", sentences, [True, False, True, False], _vectors(sentences), chat)
    assert s.llm_calls == 2 and s.llm_failures == 0
    assert s.roles == {0: "core", 1: "supplementary", 2: "core", 3: "supplementary"}
    assert {(e.kind, e.relation, e.method) for e in s.edges} == {
        ("nn", "contrast", "llm"), ("ns", "result", "llm"), ("ns", "evaluation", "llm")}
    assert all(e.relation in NN_RELATIONS + NS_RELATIONS for e in s.edges)


def test_llm_structure_falls_back_on_garbage_and_marks_edges() -> None:
    sentences = ["Ada Lovelace was a mathematician.", "She wrote an algorithm.",
                 "Babbage built the Engine."]
    chat = PromptChat(lambda user: "I am a small model and I like turtles")
    s = llm_structure("Ada", sentences, [True, False, True], _vectors(sentences), chat)
    assert s.llm_calls == 2 and s.llm_failures == 2
    assert s.edges and {e.method for e in s.edges} == {"heuristic"}


def test_llm_structure_rejects_unknown_relation_types() -> None:
    sentences = ["Ada Lovelace was a mathematician.", "Babbage built the Engine."]
    chat = PromptChat(lambda user: json.dumps(
        {"core": [0, 1], "relations": [{"from": 0, "to": 1, "type": "friendship"}]}))
    s = llm_structure("Ada", sentences, [True, True], _vectors(sentences), chat)
    nn = [e for e in s.edges if e.kind == "nn"]
    assert [(e.relation, e.method) for e in nn] == [("conjunction", "heuristic")]
