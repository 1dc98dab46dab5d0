"""The one check every question entry point runs (``retrieve``, ``ask``, ``ask-bio``,
``ask-sentences`` and their Python counterparts): text, valid Unicode, not too long, something
to search for. Each failure is one line naming the problem.

And the one reading of a document or unit id a user typed, on every surface (the CLI's
``consolidate`` / ``trace`` / ``unit`` / ``resolve``, ``hg.legal.trace`` / ``consolidate`` /
``resolve``, the HTTP API, the MCP tools): :func:`resolve_document_id` normalises it
(``12/2016/nd-mau``, ``12/2016/ND-MAU``, ``12 / 2016 / NĐ-MAU`` → ``12/2016/NĐ-MAU``), compares it
with the loaded documents and refuses an unknown one with the closest loaded ids
(``doc_id: không có văn bản '12/2061/NĐ-MAU' trong đồ thị (đã nạp 11 văn bản); có phải ý bạn
là 12/2016/NĐ-MAU?``). A refusal is an :class:`InputError`: the field (the parameter's name, as
the caller wrote it) and the problem, in Vietnamese like every line a reader sees.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Collection, Sequence
from typing import Any

from hopgraph.core.errors import RetrievalError
from hopgraph.core.vocabulary import fold, normalise_doc_number

MAX_QUESTION_CHARS = 2_000


def validate_question(question: object, *, max_chars: int = MAX_QUESTION_CHARS,
                      require_word: bool = True) -> str:
    """The question with its whitespace collapsed, in NFC, or the reason it is refused.

    Args:
        question: what the user typed (a command-line argument may carry undecodable bytes as
            lone surrogates: Python's ``surrogateescape``).
        max_chars: the length limit after whitespace is collapsed.
        require_word: refuse a question without a letter or digit (the legal retriever's
            Python API answers one with an empty result and its reason instead).

    Returns:
        The cleaned question.

    Raises:
        InputError: (a :class:`~hopgraph.core.errors.RetrievalError`, field ``question``) not
            a string, not valid UTF-8 text, empty, longer than ``max_chars``, or without a
            letter or digit to search for.
    """
    field = "question"
    if not isinstance(question, str):
        raise InputError(field, f"phải là chuỗi văn bản (nhận được {type(question).__name__})")
    for i, ch in enumerate(question):
        if "\ud800" <= ch <= "\udfff":
            code = ord(ch)
            byte = f"byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"U+{code:04X}"
            raise InputError(field, f"không phải văn bản UTF-8 hợp lệ ({byte} ở ký tự thứ {i + 1}); "
                             "hãy gõ lại hoặc dùng bảng mã (locale) UTF-8")
        if ch == "\x00":
            raise InputError(field, f"chứa ký tự NUL ở ký tự thứ {i + 1}")
    q = unicodedata.normalize("NFC", " ".join(question.split()))
    if not q:
        raise InputError(field, "để trống")
    if len(q) > max_chars:
        raise InputError(field, f"dài {len(q)} ký tự; giới hạn là {max_chars} ký tự")
    if require_word and not any(ch.isalnum() for ch in q):
        raise InputError(field, "không có từ nào để tìm (chỉ có dấu câu hoặc ký hiệu)")
    return q


MAX_ID_CHARS = 200
MAX_SUGGESTIONS = 3


class InputError(RetrievalError):
    """An input refused before it reaches the graph: which field, and what is wrong with it.

    Attributes:
        field: the parameter's name (``as_of``, ``doc_id``, ``k`` …).
        problem: what is wrong, in one line, with what would be accepted.
    """

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


class InputErrors(InputError):
    """Several inputs of one call refused at once, so that a caller corrects them in one go:
    ``errors`` each with its field and problem; ``field`` names them all and the message reads
    ``question: để trống; as_of: …``."""

    def __init__(self, errors: Sequence[InputError]) -> None:
        RetrievalError.__init__(self, "; ".join(str(e) for e in errors))
        self.errors = list(errors)
        self.field = ", ".join(e.field for e in errors)
        self.problem = "; ".join(str(e) for e in errors)


def checked(*checks: Callable[[], Any]) -> list[Any]:
    """Each check's value, in order, every check run: one refusal raises that
    :class:`InputError`, several one :class:`InputErrors` naming each field."""
    values: list[Any] = []
    errors: list[InputError] = []
    for check in checks:
        try:
            values.append(check())
        except InputError as e:
            errors.append(e)
            values.append(None)
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise InputErrors(errors)
    return values


def validate_text(value: object, field: str, *, max_chars: int = MAX_ID_CHARS) -> str:
    """A short identifier or name: a string of valid Unicode, not empty, within ``max_chars``,
    stripped and in NFC.

    Raises:
        InputError: anything else.
    """
    if not isinstance(value, str):
        raise InputError(field, f"phải là chuỗi văn bản (nhận được {type(value).__name__})")
    for i, ch in enumerate(value):
        if "\ud800" <= ch <= "\udfff" or ch == "\x00":
            raise InputError(field, f"không phải văn bản UTF-8 hợp lệ (ký tự thứ {i + 1})")
    text = unicodedata.normalize("NFC", value.strip())
    if not text:
        raise InputError(field, "để trống")
    if len(text) > max_chars:
        raise InputError(field, f"dài {len(text)} ký tự; giới hạn là {max_chars} ký tự")
    return text


def _key(doc_id: str) -> str:
    """An id compared without case, diacritics (Đ/D), spaces or separators."""
    return "".join(ch for ch in fold(doc_id) if ch.isalnum())


def suggest_ids(text: str, ids: Sequence[str], limit: int = MAX_SUGGESTIONS) -> list[str]:
    """The loaded ids closest to ``text`` (compared without diacritics, case or spaces)."""
    from rapidfuzz import fuzz, process

    choices = {i: fold(i) for i in ids}
    hits = process.extract(fold(normalise_doc_number(text)), choices, scorer=fuzz.ratio,
                           limit=limit, score_cutoff=60)
    return [key for _, _, key in hits]


def resolve_document_id(value: object, loaded: Collection[str], field: str = "doc_id") -> str:
    """The loaded document id ``value`` names, read as a user types it: exact, else normalised
    (:func:`~hopgraph.core.vocabulary.normalise_doc_number`: ``ND`` → ``NĐ``, case, spaces),
    else equal up to case, diacritics and separators.

    Args:
        value: what the user typed.
        loaded: the ids of the loaded documents.
        field: the input's name in the refusal.

    Raises:
        InputError: empty, not valid text, or no such document (with the closest loaded ids:
            ``có phải ý bạn là …?``).
    """
    text = validate_text(value, field)
    if text in loaded:
        return text
    norm = normalise_doc_number(text)
    if norm in loaded:
        return norm
    by_key = {_key(d): d for d in loaded}
    if _key(norm) in by_key:
        return by_key[_key(norm)]
    hint = suggest_ids(text, sorted(loaded))
    count = f"đã nạp {len(loaded)} văn bản" if loaded else "chưa nạp văn bản nào"
    raise InputError(field, f"không có văn bản {text!r} trong đồ thị ({count})"
                     + (f"; có phải ý bạn là {_either(hint)}?" if hint else ""))


def _either(ids: Sequence[str]) -> str:
    """``a``, ``a hoặc b``, ``a, b hoặc c``: the closest ids offered in a refusal."""
    return ids[0] if len(ids) == 1 else f"{', '.join(ids[:-1])} hoặc {ids[-1]}"


def resolve_unit_id(value: object, loaded: Collection[str], field: str = "unit_id") -> str:
    """A unit id (``<document>:<path>``, a wording's ``<unit>@<amending document>``) with both
    document parts resolved by :func:`resolve_document_id` and the path in upper-case letters
    for its levels (``d3.k2`` → ``D3.K2``; point letters stay lower case).

    Raises:
        InputError: not ``<document>:<path>``, or a document part that is not loaded.
    """
    text = validate_text(value, field)
    base, at, amending = text.partition("@")
    doc, sep, path = base.partition(":")
    path = "".join(path.split())
    if not sep or not path:
        raise InputError(field, f"{text!r} không phải là mã điều khoản (dạng <số hiệu văn "
                         "bản>:<vị trí>, ví dụ 12/2016/NĐ-MAU:D3.K2)")
    parts = [p[:1].upper() + p[1:] if p[:1].isalpha() and p[1:2].isdigit() else p
             for p in path.split(".")]
    unit = f"{resolve_document_id(doc, loaded, field)}:{'.'.join(parts)}"
    return f"{unit}@{resolve_document_id(amending, loaded, field)}" if at else unit


__all__ = ["MAX_ID_CHARS", "MAX_QUESTION_CHARS", "InputError", "InputErrors", "checked",
           "resolve_document_id", "resolve_unit_id", "suggest_ids", "validate_question",
           "validate_text"]
