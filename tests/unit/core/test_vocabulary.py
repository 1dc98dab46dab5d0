"""One vocabulary (issue 17): the loader, the interpreter and retrieval write a document number
and fold a text with the same functions, so a question's document filter matches the loaded id."""

from __future__ import annotations

import json
from datetime import date

import pytest

from hopgraph.agents.legal import Interpreter, _parsing, _types
from hopgraph.agents.sentences import SentenceAnswer
from hopgraph.core import vocabulary
from hopgraph.loaders.legal import _ids
from hopgraph.loaders.legal import normalise_doc_number as loader_normalise
from hopgraph.retrieval import _legal_query, prepare_question


def test_every_area_uses_the_one_normaliser_and_fold() -> None:
    assert _ids.normalise_doc_number is vocabulary.normalise_doc_number
    assert loader_normalise is vocabulary.normalise_doc_number
    assert _parsing.normalise_doc_number is vocabulary.normalise_doc_number
    assert _parsing.fold is vocabulary.fold
    assert _legal_query.fold is vocabulary.name_form


@pytest.mark.parametrize(("raw", "canonical"), [
    ("1234/QĐ-TTg", "1234/QĐ-TTg"),
    ("1234/qđ-ttg", "1234/QĐ-TTg"),
    ("96/2023/nd-cp", "96/2023/NĐ-CP"),
    ("96 / 2023 / NĐ - CP.", "96/2023/NĐ-CP"),
    ("12/QD-UBND", "12/QĐ-UBND"),  # UBND keeps its D: only whole codes are restored
    ("01/2020/TT-BLDTBXH", "01/2020/TT-BLĐTBXH"),
    ("35-L/CTN", "35-L/CTN"),
])
def test_document_numbers_have_one_canonical_form(raw: str, canonical: str) -> None:
    assert vocabulary.normalise_doc_number(raw) == canonical


def test_folds() -> None:
    assert vocabulary.fold("Điều  Khoản Được") == "dieu  khoan duoc"
    assert vocabulary.name_form("  Bảo   Hiểm\tY tế ") == "bảo hiểm y tế"


def test_a_question_scoped_to_a_ttg_decision_gets_the_loaded_id_as_filter() -> None:
    question = "Theo Quyết định 1234/QĐ-TTg, ai được hỗ trợ chi phí khám bệnh?"
    reading, _ = Interpreter(today=date(2025, 1, 1)).interpret(question, use_llm=False)
    assert reading.filters.doc_ids == ("1234/QĐ-TTg",)  # was 1234/QĐ-TTG: matched nothing
    assert [r.number for r in reading.doc_refs] == ["1234/QĐ-TTg"]
    assert prepare_question(question).doc_numbers == ("1234/QĐ-TTg",)


def test_one_spelling_for_answer_status_and_mode() -> None:
    assert _types.Status is vocabulary.AnswerStatus and _types.Mode is vocabulary.AnswerMode
    assert vocabulary.AnswerStatus.RETRIEVAL_ONLY == vocabulary.AnswerMode.RETRIEVAL_ONLY
    assert vocabulary.AnswerMode.RETRIEVAL_ONLY == "retrieval_only"  # the wire value
    assert SentenceAnswer.__dataclass_fields__["mode"].type in ("AnswerMode", vocabulary.AnswerMode)
    assert json.dumps({"status": vocabulary.AnswerStatus.ABSTAINED}) == '{"status": "abstained"}'


def test_the_action_words_of_instructions_are_spelled_once() -> None:
    """Issue 28: the verbs of amending instructions live in ``hopgraph.core.vocabulary``; the
    layout repair, the parser, the instruction reader and the two consolidation readers build
    their patterns from it. A module that spells the four-verb group again fails here."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    group = "sửa\\s+đổi|bổ\\s+sung|bãi\\s+bỏ|thay\\s+thế"
    annul = "hủy\\s+bỏ|huỷ\\s+bỏ"
    spelled = [str(p.relative_to(root)) for folder in ("loaders", "retrieval", "agents", "eval")
               for p in sorted((root / folder).rglob("*.py"))
               if group in p.read_text(encoding="utf-8") or annul in p.read_text(encoding="utf-8")]
    assert spelled == [], f"action words spelled outside hopgraph.core.vocabulary: {spelled}"
    pattern = re.compile(rf"^(?:{vocabulary.CHANGE_VERBS})\b", re.IGNORECASE)
    for text in ("Sửa đổi khoản 2", "bổ sung điểm c", "Bãi bỏ Điều 7", "Thay thế Phụ lục I"):
        assert pattern.match(text), text
    assert re.fullmatch(vocabulary.ANNUL_WORD, "huỷ bỏ") and re.fullmatch(
        vocabulary.ANNUL_WORD, "hủy bỏ")
    assert re.fullmatch(vocabulary.PHRASE_OBJECT, "một số cụm từ")
