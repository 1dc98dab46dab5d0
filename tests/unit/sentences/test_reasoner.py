"""The reasoner's control flow against canned query rows: refinement, hop-by-hop expansion."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from hopgraph.agents.sentences import SentenceReasoner, SentenceRetrievalConfig
from hopgraph.core.errors import RetrievalError
from tests.unit.chat_fakes import PromptChat

from .fakes import FakeEmbedder, RecordingRunner

ANCHORS = [
    {"id": "A#s0", "passage_id": "A", "position": 0, "role": "core", "text": "Film A was directed by Bob.", "score": 0.8},
    {"id": "C#s2", "passage_id": "C", "position": 2, "role": "supplementary", "text": "Unrelated.", "score": 0.5},
]
HOPS: dict[str, list[dict[str, Any]]] = {
    "A#s0": [{"source": "A#s0", "id": "A#topic", "kind": "topic", "passage_id": "A", "position": None,
              "text": "Film A", "edge": "HAS_CORE", "relation": "topic", "method": "heuristic", "similarity": 0.6}],
    "A#topic": [{"source": "A#topic", "id": "B#topic", "kind": "topic", "passage_id": "B", "position": None,
                 "text": "Bob", "edge": "BRIDGE", "relation": "shared_entity", "method": "heuristic", "similarity": 0.4}],
    "B#topic": [{"source": "B#topic", "id": "B#s0", "kind": "core", "passage_id": "B", "position": 0,
                 "text": "Bob was born in Paris.", "edge": "HAS_CORE", "relation": "topic", "method": "heuristic", "similarity": 0.5}],
}


Reads = Callable[[str, Mapping[str, Any]], list[dict[str, Any]]]


def one_query(reads: Reads) -> Reads:
    """``reads`` answering ``sentence/expand_paths`` too, from its per-hop
    ``sentence/expand_frontier`` rows, by the rules ``cypher/sentence/expand_paths`` states
    (the Cypher itself is checked against the hop-by-hop path on a real server in
    ``tests/integration/test_sentences_retrieval.py``)."""
    def answer(key: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        if key != "sentence/expand_paths":
            return reads(key, params)
        paths = {s["id"]: {"id": s["id"], "nodes": [s["id"]], "relations": [], "score": s["score"]}
                 for s in params["seeds"]}
        frontier, found, added, hops = list(paths), [], 0, 0
        while frontier and added < params["expansion_limit"] and hops < params["max_hops"]:
            rows = reads("sentence/expand_frontier", {"frontier": frontier, "visited": list(paths),
                                                     "beam": params["beam"]})
            hops += 1
            decay = params["decay"]
            cands = sorted(({**r, "nodes": [*paths[r["source"]]["nodes"], r["id"]],
                             "relations": [*paths[r["source"]]["relations"],
                                           f"{r['edge']}:{r['relation'] or ''}"],
                             "score": decay * r["similarity"] + (1 - decay) * paths[r["source"]]["score"]}
                            for r in rows), key=lambda c: (-c["score"], c["id"], c["source"]))
            frontier = []
            for c in cands:
                if c["id"] in paths or (c["kind"] != "topic" and added >= params["expansion_limit"]):
                    continue
                added += c["kind"] != "topic"
                paths[c["id"]] = c
                frontier.append(c["id"])
                found.append(c)
        return [{"found": found, "hops": hops}]
    return answer


def _hop_reads(key: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
    if key == "sentence/find_anchor_sentences":
        return ANCHORS[: params["k"]]
    if key == "sentence/expand_frontier":
        return [row for f in params["frontier"] for row in HOPS.get(f, [])
                if row["id"] not in params["visited"]]
    if key == "sentence/get_passage_titles":
        return [{"id": i, "title": f"Title {i}"} for i in params["ids"]]
    return []


_reads = one_query(_hop_reads)


def test_heuristic_refinement_then_bridge_path_reaches_second_passage() -> None:
    runner = RecordingRunner(_reads)
    result = SentenceReasoner(runner, FakeEmbedder()).with_config(
        expand_in_one_query=False).retrieve("Where was the director of Film A born?")
    assert result.refinement == "heuristic" and result.kept == ["A#s0"]  # C#s2 is 0.3 below
    # path scores: B#s0 0.525 (via A#topic 0.7, B#topic 0.55); C#s2, dropped by refinement, is
    # still among the best anchors and keeps its slot (fusion, the default)
    # the answer line puts the sentence closing the bridge first (Bob's passage, "born"); the
    # rest keep their order by score (A#s0 0.8, C#s2 0.5)
    assert [e.id for e in result.evidence] == ["B#s0", "A#s0", "C#s2"]
    assert [e.role for e in result.to_evidence()] == ["expansion", "anchor", "anchor"]
    assert result.evidence[0].path == ("A#s0", "A#topic", "B#topic", "B#s0")
    assert result.evidence[0].relations == ("HAS_CORE:topic", "BRIDGE:shared_entity", "HAS_CORE:topic")
    line = result.answer_line
    assert line is not None and line.kind == "bridge" and line.sentence_ids == ("B#s0",)
    assert "closes the bridge: 'Title B' #0" in line.reason and "shares born" in line.reason
    assert "reached from 'Title A' along HAS_CORE:topic, BRIDGE:shared_entity" in line.reason
    by_score = SentenceReasoner(RecordingRunner(_reads), FakeEmbedder()).with_config(
        answer_first=False).retrieve("Where was the director of Film A born?")
    assert [e.id for e in by_score.evidence] == ["A#s0", "B#s0", "C#s2"]
    hops = runner.params_of("sentence/expand_frontier")
    assert [h["frontier"] for h in hops] == [["A#s0"], ["A#topic"], ["B#topic"], ["B#s0"]]
    assert hops[2]["visited"] == ["A#s0", "A#topic", "B#topic"]
    assert result.hops == 4 and runner.params_of("sentence/expand_paths") == []


def test_expansion_in_one_round_trip_gives_the_same_paths() -> None:
    """The default runs every hop in one query (``sentence/expand_paths``): one call with the
    kept anchors as seeds and the expansion knobs, and the same evidence, paths and hops as the
    query per hop."""
    question = "Where was the director of Film A born?"
    runner = RecordingRunner(_reads)
    result = SentenceReasoner(runner, FakeEmbedder()).retrieve(question)
    hop_by_hop = SentenceReasoner(RecordingRunner(_reads), FakeEmbedder()).with_config(
        expand_in_one_query=False).retrieve(question)
    assert [(e.id, e.path, e.relations, e.score) for e in result.evidence] == [
        (e.id, e.path, e.relations, e.score) for e in hop_by_hop.evidence]
    assert result.hops == hop_by_hop.hops == 4
    assert runner.params_of("sentence/expand_frontier") == []
    [call] = runner.params_of("sentence/expand_paths")
    assert call["seeds"] == [{"id": "A#s0", "score": 0.8}]
    assert (call["beam"], call["decay"], call["expansion_limit"], call["max_hops"]) == (2, 0.5, 12, 4)
    # longer paths than the query writes out go hop by hop
    long = RecordingRunner(_reads)
    SentenceReasoner(long, FakeEmbedder()).with_config(max_path_length=5).retrieve(question)
    assert long.params_of("sentence/expand_paths") == [] and len(long.params_of("sentence/expand_frontier")) == 4


def test_path_length_bounds_expansion() -> None:
    runner = RecordingRunner(_reads)
    reasoner = SentenceReasoner(runner, FakeEmbedder(), config=SentenceRetrievalConfig(max_path_length=2))
    result = reasoner.retrieve("Where was the director of Film A born?")
    assert [e.id for e in result.evidence] == ["A#s0", "C#s2"]  # no sentence within two hops
    assert result.hops == 2 and runner.params_of("sentence/expand_paths")[0]["max_hops"] == 2


def test_ablations_without_expansion_and_without_refinement() -> None:
    no_expand = SentenceReasoner(RecordingRunner(_reads), FakeEmbedder()).with_config(expand=False,
                                                                                      fusion=False)
    assert [e.id for e in no_expand.retrieve("q?").evidence] == ["A#s0"]
    no_refine = SentenceReasoner(RecordingRunner(_reads), FakeEmbedder()).with_config(refine=False, expand=False)
    result = no_refine.retrieve("q?")
    assert result.refinement == "off" and [e.id for e in result.evidence] == ["A#s0", "C#s2"]
    # without refinement every anchor counts as kept: fusion then holds only the anchor slots,
    # and the sentences the paths reach compete for the rest
    off = SentenceReasoner(RecordingRunner(_reads), FakeEmbedder()).with_config(
        refine=False, anchor_slots=1, max_evidence=2, answer_first=False)
    assert [e.id for e in off.retrieve("Where was the director of Film A born?").evidence] == ["A#s0", "B#s0"]


def test_llm_refinement_sufficient_skips_expansion_and_answers() -> None:
    def reply(user: str) -> str:
        if user.startswith("Question"):
            return json.dumps({"relevant": [1], "sufficient": True})
        return "Paris\nbecause..."

    runner = RecordingRunner(_reads)
    chat = PromptChat(reply)
    answer = SentenceReasoner(runner, FakeEmbedder(), chat).answer("Where?")
    assert answer.retrieval.refinement == "llm" and answer.retrieval.kept == ["C#s2"]
    assert runner.params_of("sentence/expand_paths") == []
    assert answer.answer == "Paris" and answer.method == "llm"
    assert answer.retrieval.llm_calls == 2
    assert answer.citations == [("Title C", "C", 2)]


def test_unusable_llm_refinement_falls_back_to_rule() -> None:
    chat = PromptChat(lambda user: "no json here" if user.startswith("Question") else "Bob")
    answer = SentenceReasoner(RecordingRunner(_reads), FakeEmbedder(), chat).answer("Where?")
    assert answer.retrieval.refinement == "heuristic"
    assert answer.answer == "Bob"


def test_retrieval_only_without_llm_and_empty_question() -> None:
    reasoner = SentenceReasoner(RecordingRunner(_reads), FakeEmbedder())
    answer = reasoner.answer("Where was the director of Film A born?")
    assert answer.answer is None and answer.method == "retrieval-only"  # the older spelling
    assert answer.mode == "retrieval_only"  # hopgraph.core.vocabulary.AnswerMode, as legal answers
    assert answer.retrieval.context_tokens > 0
    with pytest.raises(RetrievalError):
        reasoner.answer("  ")
    with pytest.raises(RetrievalError):
        SentenceRetrievalConfig(anchor_k=0)


def test_refinement_keeps_an_anchor_for_each_side_of_a_comparison() -> None:
    anchors = [
        {"id": "M#s0", "passage_id": "M", "position": 0, "role": "core",
         "text": "Arthur's Magazine was an American literary periodical.", "score": 0.9},
        {"id": "M#s1", "passage_id": "M", "position": 1, "role": "core",
         "text": "It was published in Philadelphia from 1844.", "score": 0.85},
        {"id": "X#s0", "passage_id": "X", "position": 0, "role": "core", "text": "Unrelated.", "score": 0.5},
        {"id": "W#s1", "passage_id": "W", "position": 1, "role": "supplementary",
         "text": "It was first published in 1989.", "score": 0.4},
    ]

    def reads(key: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        if key == "sentence/find_anchor_sentences":
            return anchors[: params["k"]]
        if key == "sentence/get_passage_titles":
            titles = {"M": "Arthur's Magazine", "X": "Other", "W": "First for Women"}
            return [{"id": i, "title": titles[i]} for i in params["ids"]]
        return []

    question = "Which magazine was started first, Arthur's Magazine or First for Women?"
    result = SentenceReasoner(RecordingRunner(reads), FakeEmbedder()).retrieve(question)
    # the margin rule alone keeps the two Arthur's Magazine sentences; the passage title of W#s1
    # names the other side, so it is kept too (X#s0 scores higher but names neither)
    assert result.kept == ["M#s0", "M#s1", "W#s1"]
    # the answer line first: one sentence per compared side, those holding the dates ("first"
    # asks for a value), in the order the question names the sides; then the rest by score
    assert [e.id for e in result.evidence] == ["M#s1", "W#s1", "M#s0", "X#s0"]
    assert result.answer_line is not None and result.answer_line.kind == "comparison"
    assert result.answer_line.sentence_ids == ("M#s1", "W#s1")
    assert "'Arthur's Magazine' #1" in result.answer_line.reason
    by_score = SentenceReasoner(RecordingRunner(reads), FakeEmbedder()).with_config(
        answer_first=False).retrieve(question)
    assert [e.id for e in by_score.evidence] == ["M#s0", "M#s1", "X#s0", "W#s1"]
    assert by_score.answer_line is None
    off = SentenceReasoner(RecordingRunner(reads), FakeEmbedder()).with_config(cover_facets=False)
    assert off.retrieve(question).kept == ["M#s0", "M#s1"]


def test_fusion_keeps_the_best_anchors_that_expansion_would_displace() -> None:
    """Evidence budget 2: the path order alone (the old rule) gives the anchor and the bridge
    sentence it reached; with fusion an anchor slot holds the second-best anchor (C#s2, which
    refinement dropped: 0.3 below the best); with one slot the rest compete by score."""
    def run(**changes: Any) -> list[str]:
        reasoner = SentenceReasoner(RecordingRunner(_reads), FakeEmbedder()).with_config(
            **{"max_evidence": 2, "answer_first": False, **changes})  # fusion's own order
        return [e.id for e in reasoner.retrieve("Where was the director of Film A born?").evidence]

    assert run(fusion=False) == ["A#s0", "B#s0"]
    assert run(anchor_slots=2) == ["A#s0", "C#s2"]
    assert run(anchor_slots=1) == ["A#s0", "B#s0"]  # B#s0 0.525 beats C#s2 0.5 for the free slot
    assert run(anchor_slots=1, max_evidence=3) == ["A#s0", "B#s0"]  # nothing else was reached
    # the anchor_pool variant lets the anchors refinement dropped compete for the free slots
    assert run(anchor_slots=1, max_evidence=3, anchor_pool=True) == ["A#s0", "B#s0", "C#s2"]
    assert run(anchor_slots=0, max_evidence=1) == ["A#s0"]  # kept anchors hold their slots
    with pytest.raises(RetrievalError):
        SentenceRetrievalConfig(anchor_slots=-1)


def test_fusion_keeps_every_kept_anchor_before_low_score_expansions() -> None:
    """A comparison side kept by facet coverage (low similarity) stays in the evidence even when
    expansions from the best anchor score higher and the budget is small."""
    anchors = [
        {"id": "M#s0", "passage_id": "M", "position": 0, "role": "core",
         "text": "Arthur's Magazine was an American literary periodical.", "score": 0.9},
        {"id": "W#s1", "passage_id": "W", "position": 1, "role": "supplementary",
         "text": "It was first published in 1989.", "score": 0.3},
    ]
    hops = {"M#s0": [{"source": "M#s0", "id": f"M#s{i}", "kind": "core", "passage_id": "M",
                      "position": i, "text": f"Fact {i}.", "edge": "NN_RELATION",
                      "relation": "sequence", "method": "heuristic", "similarity": 0.5}
                     for i in (1, 2)]}

    def reads(key: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        if key == "sentence/find_anchor_sentences":
            return anchors[: params["k"]]
        if key == "sentence/expand_frontier":
            return [r for f in params["frontier"] for r in hops.get(f, []) if r["id"] not in params["visited"]]
        if key == "sentence/get_passage_titles":
            titles = {"M": "Arthur's Magazine", "W": "First for Women"}
            return [{"id": i, "title": titles[i]} for i in params["ids"]]
        return []

    question = "Which magazine was started first, Arthur's Magazine or First for Women?"
    reasoner = SentenceReasoner(RecordingRunner(one_query(reads)), FakeEmbedder()).with_config(
        max_evidence=2, anchor_slots=1, answer_first=False)
    result = reasoner.retrieve(question)
    assert result.kept == ["M#s0", "W#s1"]
    assert [e.id for e in result.evidence] == ["M#s0", "W#s1"]  # not M#s1 (path score 0.7)
    old = reasoner.with_config(fusion=False).retrieve(question)
    assert [e.id for e in old.evidence] == ["M#s0", "M#s1"]


def test_a_detour_inside_the_anchors_passage_takes_no_evidence_slot() -> None:
    """A#s1 is reached from the anchor A#s0 through its passage's topic node (two edges, never
    leaving passage A): it stays on the paths but is left out of the evidence; B#s0, reached
    across the bridge, stays. With ``trim_detours=False`` it is shown as before."""
    sibling = {"source": "A#topic", "id": "A#s1", "kind": "core", "passage_id": "A", "position": 1,
               "text": "Film A premiered in 1999.", "edge": "HAS_CORE", "relation": "topic",
               "method": "heuristic", "similarity": 0.7}

    def hop_reads(key: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        rows = _hop_reads(key, params)
        if key == "sentence/expand_frontier" and "A#topic" in params["frontier"]:
            rows = [*rows, sibling]
        return rows

    question = "Where was the director of Film A born?"
    trimmed = SentenceReasoner(RecordingRunner(one_query(hop_reads)), FakeEmbedder()).with_config(
        answer_first=False).retrieve(question)
    shown = SentenceReasoner(RecordingRunner(one_query(hop_reads)), FakeEmbedder()).with_config(
        answer_first=False, trim_detours=False).retrieve(question)
    assert [e.id for e in shown.evidence] == ["A#s0", "A#s1", "B#s0", "C#s2"]
    assert [e.id for e in trimmed.evidence] == ["A#s0", "B#s0", "C#s2"]
    assert trimmed.context_tokens < shown.context_tokens


def test_name_keys_and_link_seed_follow_the_loaders_entity_keys() -> None:
    """A kept anchor's title-link seed: the keys of the names its sentence holds (quoted titles,
    every run inside a capitalised span), its own title's key and its title as a phrase."""
    from hopgraph.agents.sentences import link_seed, name_keys
    from hopgraph.retrieval import SentenceHit

    text = 'In 2000, "Linux Format" called Qvwm an impostor; Argentine player Sergio Agüero scored.'
    keys = name_keys(text)
    assert {"linux format", "qvwm", "sergio aguero", "argentine"} <= keys
    assert "sergio aguero" in keys and all(len(k) >= 3 for k in keys)
    anchor = SentenceHit("Qvwm#s3", "Qvwm", 3, "core", text, 0.8, "Qvwm (window manager)")
    seed = link_seed(anchor, {})
    assert (seed.id, seed.passage_id, seed.own, seed.phrase) == (
        "Qvwm#s3", "Qvwm", "qvwm", '"Qvwm"')
    assert "linux format" in seed.keys
    assert link_seed(SentenceHit("D#s0", "D", 0, "core", "x", 0.5, "Dbm"), {}).phrase == ""
    assert link_seed(anchor, {"Qvwm": 'Say "Hi" \\ Now'}).phrase == '"Say  Hi    Now"'


def test_title_links_reach_the_named_passage_and_hold_a_slot() -> None:
    """The kept anchor names "Linux Format": its passage's sentence comes back with the hops
    (one round trip), as a one-edge path ``TITLE:named``; the best link of the anchor holds an
    evidence slot although three anchors score higher (the anchor itself is never its own link);
    ``title_links=False`` asks for no link."""
    anchors = [
        {"id": "Q#s3", "passage_id": "Q", "position": 3, "role": "core", "title": "Qvwm",
         "text": 'In 2000, "Linux Format" called Qvwm "an unusually impressive imposter".',
         "score": 0.83},
        *[{"id": f"X{i}#s0", "passage_id": f"X{i}", "position": 0, "role": "core",
           "title": f"Other {i}", "text": "Unrelated.", "score": 0.67 - i / 100} for i in range(3)],
    ]
    linked = [
        {"source": "Q#s3", "id": "L#s4", "kind": "core", "passage_id": "L", "position": 4,
         "text": "Linux Format is commonly abbreviated to LXF.", "title": "Linux Format",
         "relation": "TITLE:named", "similarity": 0.4},
        {"source": "Q#s3", "id": "Q#s3", "kind": "core", "passage_id": "Q", "position": 3,
         "text": "", "title": "Qvwm", "relation": "TITLE:names", "similarity": 0.9},
    ]

    def reads(key: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        if key == "sentence/find_anchor_sentences":
            return anchors[: params["k"]]
        if key == "sentence/expand_paths":
            # the sentinel seed (no links asked for) names no title
            return [{"found": [], "hops": 1, "linked": linked if params["links"][0]["id"] else []}]
        if key == "sentence/find_title_links":
            return [{"linked": linked}]
        return []

    question = "What is the abbreviation of the magazine that called Qvwm an impostor?"
    runner = RecordingRunner(reads)
    reasoner = SentenceReasoner(runner, FakeEmbedder()).with_config(
        max_evidence=4, anchor_slots=3, answer_first=False)
    result = reasoner.retrieve(question)
    [call] = runner.params_of("sentence/expand_paths")
    [seed] = call["links"]
    assert seed["id"] == "Q#s3" and seed["own"] == "qvwm" and "linux format" in seed["keys"]
    assert call["link_beam"] == 2
    ids = [e.id for e in result.evidence]
    assert "L#s4" in ids and "X2#s0" not in ids  # the link holds a slot, the 4th anchor waits
    link = next(e for e in result.evidence if e.id == "L#s4")
    assert link.path == ("Q#s3", "L#s4") and link.relations == ("TITLE:named",)
    assert link.score == pytest.approx(0.5 * 0.4 + 0.5 * 0.83)
    assert result.titles["L"] == "Linux Format"
    assert next(e for e in result.evidence if e.id == "Q#s3").path == ("Q#s3",)
    per_hop = RecordingRunner(reads)
    same = SentenceReasoner(per_hop, FakeEmbedder()).with_config(
        max_evidence=4, anchor_slots=3, answer_first=False, expand_in_one_query=False
    ).retrieve(question)
    assert [(e.id, e.path) for e in same.evidence] == [(e.id, e.path) for e in result.evidence]
    assert len(per_hop.params_of("sentence/find_title_links")) == 1
    off = RecordingRunner(reads)
    without = SentenceReasoner(off, FakeEmbedder()).with_config(
        max_evidence=4, anchor_slots=3, answer_first=False, title_links=False).retrieve(question)
    assert "L#s4" not in [e.id for e in without.evidence]
    assert off.params_of("sentence/expand_paths")[0]["links"] == [
        {"id": "", "passage_id": "", "keys": [""], "own": "", "phrase": ""}]
    with pytest.raises(RetrievalError):
        SentenceRetrievalConfig(link_beam=0)
