"""Reading corpora for the sentence graph: HotpotQA corpus JSON and a simple JSONL.

* HotpotQA corpus JSON: ``{"<title>": ["sentence 0", " sentence 1", ...], ...}``; the passage id
  is the title and the sentences keep their given split (supporting facts index them).
* JSONL: one ``{"id": ..., "title": ..., "text": ...}`` per line; ``text`` is split here.

A malformed record is reported and skipped; the rest of the file loads.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ValidationError

from hopgraph.core.errors import IngestError


@dataclass(frozen=True)
class RawPassage:
    """One passage as read: pre-split ``sentences`` or free ``text`` (then split by the loader)."""

    id: str
    title: str
    text: str | None = None
    sentences: tuple[str, ...] | None = None


class _JsonlRecord(BaseModel):
    id: str
    title: str = ""
    text: str = ""


def read_corpus(path: Path, skipped: list[str]) -> Iterator[RawPassage]:
    """Yield the passages of a corpus file; bad records go to ``skipped`` as one line each, and
    a file without any record (empty, blank lines, ``{}``, ``[]``) is one ``skipped`` line.

    Raises:
        IngestError: the file does not exist or is neither format.
    """
    before = len(skipped)
    found = 0
    for passage in _read_corpus(path, skipped):
        found += 1
        yield passage
    if not found and len(skipped) == before:
        skipped.append(f"{path}: no passages (empty file)")


def _read_corpus(path: Path, skipped: list[str]) -> Iterator[RawPassage]:
    if not path.is_file():
        raise IngestError(f"{path}: no such file")
    if path.suffix.lower() in {".jsonl", ".ndjson"}:
        yield from _read_jsonl(path, skipped)
        return
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as e:
        raise IngestError(f"{path}: not UTF-8 text (byte 0x{e.object[e.start]:02x} at offset "
                          f"{e.start}); convert the file to UTF-8") from e
    except json.JSONDecodeError as e:
        raise IngestError(f"{path}: not valid JSON ({e})") from e
    except RecursionError as e:
        raise IngestError(f"{path}: JSON nested too deeply to be read") from e
    if isinstance(data, dict):
        for title, sentences in data.items():
            if isinstance(sentences, list) and all(isinstance(s, str) for s in sentences):
                yield RawPassage(id=str(title), title=str(title), sentences=tuple(sentences))
            else:
                skipped.append(f"{path}: passage {title!r}: expected a list of sentences")
        return
    if isinstance(data, list):
        for n, item in enumerate(data):
            try:
                rec = _JsonlRecord.model_validate(item)
            except ValidationError as e:
                skipped.append(f"{path}: item {n}: {e.errors()[0]['msg']}")
                continue
            yield RawPassage(id=rec.id, title=rec.title or rec.id, text=rec.text)
        return
    raise IngestError(f"{path}: expected a HotpotQA corpus object or a list of passages")


def _read_jsonl(path: Path, skipped: list[str]) -> Iterator[RawPassage]:
    with path.open("rb") as fh:
        for lineno, raw in enumerate(fh, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:  # this line alone is skipped
                skipped.append(f"{path}:{lineno}: not UTF-8 text (byte 0x{raw[e.start]:02x} at "
                               f"offset {e.start})")
                continue
            if not line.strip():
                continue
            try:
                rec = _JsonlRecord.model_validate_json(line)
            except ValidationError as e:
                skipped.append(f"{path}:{lineno}: {e.errors()[0]['msg']}")
                continue
            yield RawPassage(id=rec.id, title=rec.title or rec.id, text=rec.text)


def sample_corpus_path() -> Path:
    """The hand-written sample corpus shipped with the package (``samples/corpus.jsonl``)."""
    return Path(str(resources.files("hopgraph.loaders.sentences") / "samples" / "corpus.jsonl"))


def sample_questions_path() -> Path:
    """Hand-written sample questions about the sample corpus (``samples/questions.json``)."""
    return Path(str(resources.files("hopgraph.loaders.sentences") / "samples" / "questions.json"))
