"""The domain vocabulary every area shares: document numbers and text folds.

One place, so the loader, the question interpreter and retrieval write a document number and
fold a text the same way (issue 17). A question scoped to ``Quyết định 1234/QĐ-TTg`` gets the
filter ``1234/QĐ-TTg``: the id the loader gave that document.

- :func:`normalise_doc_number`: the canonical document id (``96/2023/nd-cp`` ->
  ``96/2023/NĐ-CP``, ``1234/qđ-ttg`` -> ``1234/QĐ-TTg``).
- :func:`fold`: lower case without diacritics (``đ`` -> ``d``), for lenient keyword matching
  in Python.
- :func:`name_form`: lower case, NFC, single spaces, diacritics kept: the form a name is compared
  in with what Cypher stores or computes (``toLower``, whitespace split and joined).
- :class:`AnswerMode` and :class:`AnswerStatus`: how an answer was made and what it is, one
  spelling everywhere (``retrieval_only``; the sentence answers' older ``method`` field keeps
  ``retrieval-only`` for existing readers, see ``SentenceAnswer.method``).
"""

from __future__ import annotations

import re
import unicodedata
from enum import StrEnum

__all__ = ["AnswerMode", "AnswerStatus", "fold", "name_form", "normalise_doc_number"]

# ASCII spellings of agency codes that carry a Đ (ND-CP -> NĐ-CP).
_ASCII_CODES = {
    "ND": "NĐ", "QD": "QĐ", "BLDTBXH": "BLĐTBXH", "HDTP": "HĐTP", "HDND": "HĐND",
    "DCSVN": "ĐCSVN",
}


def normalise_doc_number(raw: str) -> str:
    """Canonical document id: NFC, no spaces, upper case codes, ``ND-CP`` -> ``NĐ-CP``.

    ``TTg`` keeps its conventional lower-case ``g``.
    """
    text = unicodedata.normalize("NFC", raw).strip().rstrip(".,;:")
    text = re.sub(r"\s+", "", text)
    parts = re.split(r"([/-])", text)
    out: list[str] = []
    for part in parts:
        if part in "/-" or part.isdigit():
            out.append(part)
            continue
        upper = part.upper()
        upper = _ASCII_CODES.get(upper, upper)
        out.append("TTg" if upper == "TTG" else upper)
    return "".join(out)


def fold(text: str) -> str:
    """Lowercase without diacritics (``đ`` → ``d``), for lenient keyword matching."""
    decomposed = unicodedata.normalize("NFD", text.lower().replace("đ", "d"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def name_form(text: str) -> str:
    """Lower-case, NFC, collapse spaces: the form names are compared in (also in Cypher)."""
    return " ".join(unicodedata.normalize("NFC", text).lower().split())


class AnswerMode(StrEnum):
    """How an answer was made: by the LLM, or from the retrieved evidence alone (no LLM, or the
    LLM failed). The value is what JSON output carries (a ``StrEnum`` equals its value)."""

    LLM = "llm"
    RETRIEVAL_ONLY = "retrieval_only"


class AnswerStatus(StrEnum):
    """What a legal answer is: ``answered`` (LLM, audited), ``retrieval_only`` (extracted
    evidence, no LLM), ``abstained``, ``clarify``, ``chitchat`` or ``out_of_scope``."""

    ANSWERED = "answered"
    RETRIEVAL_ONLY = "retrieval_only"
    ABSTAINED = "abstained"
    CLARIFY = "clarify"
    CHITCHAT = "chitchat"
    OUT_OF_SCOPE = "out_of_scope"


# -- Action words of amending instructions ---------------------------------------------------
# The one vocabulary of the verbs an amending text changes another text with (issue 28): the
# loader's layout repair (``_layout``), its structure parser (``_parser``), its instruction reader
# (``_relations``), the Pháp điển reader's provenance lines (``_formats``) and the VBHN reader
# (``retrieval._legal_compare``) build their patterns from these, so a new spelling is added once.
# Each is a regular-expression fragment without groups, to be used with ``re.IGNORECASE``.
AMEND_WORD = r"sửa\s+đổi"
SUPPLEMENT_WORD = r"bổ\s+sung"
REPEAL_WORD = r"bãi\s+bỏ"
ANNUL_WORD = r"hủy\s+bỏ|huỷ\s+bỏ"  # both placements of the tone mark are in use
REPLACE_WORD = r"thay\s+thế"
RENUMBER_WORD = r"đánh\s+số(?:\s+lại)?"
# the four verbs a unit is changed by (sửa đổi, bổ sung, bãi bỏ, thay thế), in this order
CHANGE_VERBS = rf"{AMEND_WORD}|{SUPPLEMENT_WORD}|{REPEAL_WORD}|{REPLACE_WORD}"
# the object of a phrase edit: "từ", "cụm từ", "các cụm từ", "một số cụm từ"
PHRASE_OBJECT = r"(?:các\s+|một\s+số\s+)?(?:cụm\s+)?từ"
