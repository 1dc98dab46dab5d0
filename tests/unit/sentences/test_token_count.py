"""count_tokens counts words and punctuation marks, whatever else the module names a pattern.

Issue 28: ``agents/sentences/_reasoner.py`` rebound ``_TOKEN`` to a lower-case-word pattern below
``count_tokens``, which looks the name up at call time, so every context-token figure counted
only lower-case words and digits (capitalised words split, punctuation dropped): ~18 % low.
"""

from __future__ import annotations

import re

from hopgraph.agents.sentences import _reasoner, count_tokens
from hopgraph.agents.sentences._reasoner import EvidenceSentence, SentenceRetrieval


def test_words_and_punctuation_are_tokens() -> None:
    # 'Scott', 'Derrickson', "'", 's', 'film', ',', '"', 'Sinister', '"', '(', '2012', ')', '.'
    assert count_tokens("Scott Derrickson's film, \"Sinister\" (2012).") == 13
    # the shadowed pattern [a-z0-9]+ read this as 'cott', 'errickson', 's', 'film', 'inister', '2012'
    assert count_tokens("Scott Derrickson's film, \"Sinister\" (2012).") != len(
        re.findall(r"[a-z0-9]+", "Scott Derrickson's film, \"Sinister\" (2012)."))


def test_the_module_pattern_is_the_one_count_tokens_documents() -> None:
    # a later rebinding of the module name changes count_tokens silently: pin the name's value
    assert _reasoner._TOKEN.pattern == r"\w+|[^\w\s]"
    assert count_tokens("Ab, CD.") == 4
    assert count_tokens("") == 0


def test_retrieval_context_tokens_use_the_same_count() -> None:
    evidence = [EvidenceSentence("P#s0", "P", 0, "Ed Wood (1994) is a film.", 0.9, ("P#s0",), ()),
                EvidenceSentence("P#s1", "P", 1, "It stars Johnny Depp.", 0.8, ("P#s1",), ())]
    result = SentenceRetrieval("q?", [], [], False, "off", evidence)
    assert result.context_tokens == 9 + 5
