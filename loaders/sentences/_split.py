"""Sentence splitting and the input checks that come with it.

Corpora that are already split (the HotpotQA corpus: a list of sentences per title) keep their
split, so supporting-fact indices stay valid. Free text is split by a deterministic rule-based
splitter that protects common abbreviations and initials. A sentence longer than
:data:`MAX_SENTENCE_CHARS` (a paragraph without punctuation) keeps its one index and its whole
text; it is cut at word boundaries into parts (:attr:`SplitResult.parts`) that are embedded one by
one, so every later sentence keeps the index the source gives it. Both are recorded as notes, and
so is a passage truncated at :data:`MAX_SENTENCES`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

MAX_SENTENCE_CHARS = 1000
MAX_SENTENCES = 400
_ABBREVIATIONS = (
    "mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "vs", "etc", "inc", "ltd", "co", "corp",
    "no", "vol", "fig", "gen", "col", "lt", "sgt", "mt", "ft", "u.s", "e.g", "i.e", "approx",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
)
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")
_WORD = re.compile(r"[A-Za-z']+")
_ENGLISH_STOPWORDS = frozenset(
    ["the", "a", "an", "of", "and", "in", "to", "is", "was", "for", "on", "as", "by", "with", "at", "from", "that", "which", "it", "his", "her", "their", "are", "were", "be", "been", "has", "have", "had", "this", "or", "also", "not", "but", "who", "its"]
)


@dataclass(frozen=True)
class SplitResult:
    """The sentences of one passage and what had to be done to get them."""

    sentences: list[str]
    notes: list[str] = field(default_factory=list)
    parts: dict[int, list[str]] = field(default_factory=dict)
    """Index of an over-long sentence -> its pieces of at most MAX_SENTENCE_CHARS (embedding
    inputs); the sentence itself stays whole at that index."""


def split_text(text: str) -> SplitResult:
    """Split free text into sentences.

    Args:
        text: a passage; any whitespace, possibly empty.

    Returns:
        The non-empty sentences in order, with notes on long sentences cut or truncation.
    """
    pieces: list[str] = []
    for paragraph in re.split(r"\n\s*\n|\r\n\s*\r\n", text):
        paragraph = " ".join(paragraph.split())
        if not paragraph:
            continue
        start = 0
        for match in _BOUNDARY.finditer(paragraph):
            candidate = paragraph[start : match.start()].strip()
            last_word = candidate.rsplit(" ", 1)[-1].rstrip(".").lower()
            if last_word in _ABBREVIATIONS or re.fullmatch(r"[a-z]", last_word):
                continue  # "Dr. Smith", "J. R. R. Tolkien"
            pieces.append(candidate)
            start = match.end()
        pieces.append(paragraph[start:].strip())
    return clean_sentences([p for p in pieces if p])


def clean_sentences(sentences: Sequence[str]) -> SplitResult:
    """Normalise pre-split sentences: strip, cut over-long ones into parts, cap the count.

    Every input keeps its index: empty sentences stay as empty strings (the writer skips them)
    and an over-long one stays whole, its parts listed in :attr:`SplitResult.parts`, so positions
    stay aligned with the source (HotpotQA supporting facts address sentences by index).
    """
    out: list[str] = []
    notes: list[str] = []
    parts: dict[int, list[str]] = {}
    for raw in sentences:
        sentence = " ".join(str(raw).split())
        if len(sentence) > MAX_SENTENCE_CHARS:
            parts[len(out)] = _cut(sentence)
            notes.append(f"sentence {len(out)} of {len(sentence)} chars embedded as "
                         f"{len(parts[len(out)])} parts (its index kept)")
        out.append(sentence)
    if len(out) > MAX_SENTENCES:
        notes.append(f"{len(out)} sentences truncated to {MAX_SENTENCES}")
        out = out[:MAX_SENTENCES]
        parts = {i: p for i, p in parts.items() if i < MAX_SENTENCES}
    return SplitResult(out, notes, parts)


def _cut(sentence: str) -> list[str]:
    chunks: list[str] = []
    words = sentence.split(" ")
    current: list[str] = []
    size = 0
    for word in words:
        if current and size + len(word) + 1 > MAX_SENTENCE_CHARS:
            chunks.append(" ".join(current))
            current, size = [], 0
        current.append(word[:MAX_SENTENCE_CHARS])
        size += len(word) + 1
    if current:
        chunks.append(" ".join(current))
    return chunks


def looks_english(text: str) -> bool:
    """A cheap language check: enough common English function words among the Latin words.

    Not a classifier; it only decides whether English NER and English discourse markers apply.
    """
    words = [w.lower() for w in _WORD.findall(text)]
    letters = sum(ch.isalpha() for ch in text)
    if letters == 0:
        return False
    ascii_letters = sum(ch.isascii() and ch.isalpha() for ch in text)
    if ascii_letters / letters < 0.8:
        return False
    if len(words) < 6:
        return True  # too short to judge; titles and one-liners pass
    return sum(w in _ENGLISH_STOPWORDS for w in words) / len(words) >= 0.08
