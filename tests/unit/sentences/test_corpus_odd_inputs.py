"""Corpus files that are not clean UTF-8 JSON (issue 18, found by
tests/benchmarks/reliability.py): a bad line is skipped alone, a bad file is one IngestError."""

from __future__ import annotations

from pathlib import Path

import pytest

from hopgraph.errors import IngestError
from hopgraph.loaders.sentences._inputs import read_corpus


def test_a_line_that_is_not_utf8_is_skipped_alone(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_bytes(b'{"id": "a", "title": "A", "text": "Fine."}\n'
                     b'{"id": "b", "title": "B", "text": "\xff\xfe"}\n'
                     b'{"id": "c", "title": "C", "text": "Also fine."}\n')
    skipped: list[str] = []
    assert [p.id for p in read_corpus(path, skipped)] == ["a", "c"]
    assert skipped == [f"{path}:2: not UTF-8 text (byte 0xff at offset 35)"]


def test_a_json_file_too_deep_or_not_utf8_is_one_error(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(IngestError, match=r"deep\.json: JSON nested too deeply"):
        list(read_corpus(deep, []))
    binary = tmp_path / "noise.json"
    binary.write_bytes(b"\x90\x00\xff")
    with pytest.raises(IngestError, match=r"noise.json: not UTF-8 text \(byte 0x90 at offset 0\)"):
        list(read_corpus(binary, []))
