"""The answer line without an LLM (issue 29): which evidence sentence answers, and why."""

from __future__ import annotations

from hopgraph.agents.sentences import EvidenceSentence, answer_line
from hopgraph.agents.sentences._reasoner import question_facets

TITLES = {"ae": "Analytical Engine", "cb": "Charles Babbage", "ma": "Marylebone",
          "al": "Ada Lovelace", "am": "Arthur's Magazine", "fw": "First for Women"}


def _s(pid: str, pos: int, text: str, score: float, path: tuple[str, ...] = (),
       relations: tuple[str, ...] = ()) -> EvidenceSentence:
    sid = f"{pid}#s{pos}"
    return EvidenceSentence(sid, pid, pos, text, score, path or (sid,), relations)


def test_the_bridge_closes_in_the_passage_the_question_does_not_name() -> None:
    q = "In which area did the designer of the Analytical Engine die?"
    evidence = [
        _s("ae", 0, "The Analytical Engine was a proposed mechanical general-purpose computer "
                    "designed by Charles Babbage.", 0.8),
        _s("al", 1, "She worked with Charles Babbage on the Analytical Engine.", 0.7),
        _s("cb", 1, "He was born in Walworth, Surrey, in 1791.", 0.4, ("ae#s0", "cb#s1"),
           ("BRIDGE:shared_entity",)),
        # "area" is asked too, but Marylebone is two bridges away; Babbage's passage is one
        _s("ma", 0, "Marylebone is an area in London, England.", 0.35, ("ae#s0", "cb#s3", "ma#s0"),
           ("BRIDGE:shared_entity", "BRIDGE:shared_entity")),
        _s("cb", 3, "He died in Marylebone in 1871.", 0.3, ("ae#s0", "cb#s3"),
           ("BRIDGE:shared_entity",)),
    ]
    line = answer_line(q, evidence, TITLES, question_facets(q))
    assert line is not None and line.kind == "bridge" and line.sentence_ids == ("cb#s3",)
    assert line.reason.startswith("closes the bridge: 'Charles Babbage' #3")
    assert "reached from 'Analytical Engine' along BRIDGE:shared_entity" in line.reason
    assert "shares die" in line.reason  # "die" matches "died"


def test_a_comparison_answers_with_one_sentence_per_side_holding_the_values() -> None:
    q = "Which magazine was started first, Arthur's Magazine or First for Women?"
    evidence = [
        _s("am", 0, "Arthur's Magazine was an American literary periodical.", 0.9),
        _s("fw", 0, "First for Women is a woman's magazine published by Bauer Media Group.", 0.8),
        _s("am", 1, "It was published in Philadelphia from 1844.", 0.6),
        _s("fw", 1, "The magazine was started in 1989.", 0.5),
    ]
    line = answer_line(q, evidence, TITLES, question_facets(q))
    assert line is not None and line.kind == "comparison"
    assert line.sentence_ids == ("am#s1", "fw#s1")  # the years, in the order the question names
    assert "the compared values: 'Arthur's Magazine' #1 for 'Arthur's Magazine'" in line.reason


def test_no_shared_word_keeps_the_best_scored_sentence_first_and_says_so() -> None:
    q = "What nationality was the creator of the Analytical Engine?"
    evidence = [_s("ae", 0, "The Analytical Engine was designed by Charles Babbage.", 0.8),
                _s("ma", 0, "Marylebone is in London.", 0.3)]
    line = answer_line(q, evidence, TITLES, question_facets(q))
    assert line is not None and line.sentence_ids == ("ae#s0",)
    assert line.reason.startswith("no evidence sentence shares a word the question asks about")
    assert answer_line(q, [], TITLES, question_facets(q)) is None


def test_entity_facets_leave_out_modifiers_numbers_and_leading_words() -> None:
    from hopgraph.agents.sentences import entity_facets

    q = ("When was the Welsh singer born who is known for her husky voice and whose third album "
         'is "Diamond Cut" (1979)?')
    assert entity_facets(q, question_facets(q)) == ["Diamond Cut"]
    q2 = "If Gallu is a demon Lilu is what?"
    assert entity_facets(q2, question_facets(q2)) == ["Gallu", "Lilu"]
    q3 = "What author was more popular in the 70's, Richard Wright or Richard Bach?"
    assert entity_facets(q3, question_facets(q3)) == ["Richard Wright", "Richard Bach"]


def test_the_bridge_sentence_is_not_the_one_naming_a_modifier_of_the_question() -> None:
    """"Welsh" only qualifies the singer asked about: the singer's own sentence naming it still
    closes the bridge (it was read as a passage the question names, and lost to the album's)."""
    q = ("When was the Welsh singer born who is known for her husky voice and whose third album "
         'is "Diamond Cut" (1979)?')
    titles = {"dc": "Diamond Cut (album)", "bt": "Bonnie Tyler"}
    evidence = [
        _s("dc", 0, "Diamond Cut is the third studio album by Welsh singer Bonnie Tyler.", 0.8),
        _s("bt", 1, "Tyler came to prominence with the release of her 1977 album.", 0.6,
           ("dc#s0", "bt#s1"), ("TITLE:named",)),
        _s("bt", 0, "Bonnie Tyler (born 8 June 1951) is a Welsh singer, known for her distinctive "
                    "husky voice.", 0.55, ("dc#s0", "bt#s0"), ("TITLE:named",)),
    ]
    line = answer_line(q, evidence, titles, question_facets(q))
    assert line is not None and line.sentence_ids == ("bt#s0",)
    assert "one bridge from the question's entities" in line.reason
    assert "along TITLE:named" in line.reason


def test_a_comparison_side_is_the_passage_titled_with_it() -> None:
    """Two passages' titles name "Pterocarya": the one titled exactly so holds the side's value."""
    q = "Which plant is larger, the Pterocarya or the Cotula?"
    titles = {"cp": "Cryptantha pterocarya", "pt": "Pterocarya", "co": "Cotula"}
    evidence = [
        _s("cp", 0, "Cryptantha pterocarya is a species of flowering plant.", 0.8),
        _s("co", 0, "Cotula is a genus of flowering plant in the sunflower family.", 0.75),
        _s("pt", 0, "Pterocarya are trees in the walnut family.", 0.7),
    ]
    line = answer_line(q, evidence, titles, question_facets(q))
    assert line is not None and line.kind == "comparison"
    assert line.sentence_ids == ("pt#s0", "co#s0")
