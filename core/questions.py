"""The one check every question entry point runs (``retrieve``, ``ask``, ``ask-bio``,
``ask-sentences`` and their Python counterparts): text, valid Unicode, not too long, something
to search for. Each failure is one line naming the problem."""

from __future__ import annotations

import unicodedata

from hopgraph.core.errors import RetrievalError

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
        RetrievalError: not a string, not valid UTF-8 text, empty, longer than ``max_chars``,
            or without a letter or digit to search for.
    """
    if not isinstance(question, str):
        raise RetrievalError(f"question must be a string, got {type(question).__name__}")
    for i, ch in enumerate(question):
        if "\ud800" <= ch <= "\udfff":
            code = ord(ch)
            byte = f"byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"U+{code:04X}"
            raise RetrievalError(
                f"question is not valid UTF-8 text ({byte} at character {i + 1}); "
                "retype it or set a UTF-8 locale")
        if ch == "\x00":
            raise RetrievalError(f"question contains a NUL character at character {i + 1}")
    q = unicodedata.normalize("NFC", " ".join(question.split()))
    if not q:
        raise RetrievalError("question is empty")
    if len(q) > max_chars:
        raise RetrievalError(f"question is {len(q)} characters long; the limit is {max_chars}")
    if require_word and not any(ch.isalnum() for ch in q):
        raise RetrievalError("question has no word to search for (only punctuation or symbols)")
    return q


__all__ = ["MAX_QUESTION_CHARS", "validate_question"]
