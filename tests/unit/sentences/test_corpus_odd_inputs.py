"""Corpus files that are not clean UTF-8 JSON (issue 18, found by
tests/benchmarks/reliability.py): a bad line is skipped alone, a bad file is one IngestError."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from hopgraph.cli import cli
from hopgraph.core.errors import IngestError
from hopgraph.loaders.sentences._inputs import read_corpus
from tests.unit.sentences.fakes import FakeEmbedder, patch_load_sentences


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


@pytest.mark.parametrize("content", [b"", b"\n  \n", b"[]"])
def test_a_file_without_records_is_one_skipped_line(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / ("c.json" if content == b"[]" else "c.jsonl")
    path.write_bytes(content)
    skipped: list[str] = []
    assert list(read_corpus(path, skipped)) == []
    assert skipped == [f"{path}: no passages (empty file)"]


# ---- the exit status of `hopgraph load sentences` (issue 18): 0 all loaded, 3 some skipped,
# 1 nothing loaded; every skipped record on its own `skipped:` line naming the file


def _patched_load_sentences(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Fake models and runner in the command's module; returns the list of models built."""
    built: list[str] = []

    def embedder(*args: Any, **kwargs: Any) -> FakeEmbedder:
        built.append("embedder")
        return FakeEmbedder()

    patch_load_sentences(monkeypatch, embedder)
    return built


def _load(path: Path) -> Result:
    return CliRunner().invoke(cli, ["load", "sentences", str(path), "--no-llm"])


def test_skipped_lines_exit_3_and_the_good_passages_load(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _patched_load_sentences(monkeypatch)
    path = tmp_path / "corpus.jsonl"
    path.write_bytes(b'{"id": "a", "title": "A", "text": "Ada wrote notes. She was precise."}\n'
                     b'{"id": "x", "title": 5}\n'
                     b'{"id": "b", "title": "B", "text": "\xff\xfe"}\n')
    result = _load(path)
    assert result.exit_code == 3, result.output
    assert "loaded 1 passages" in result.output
    assert f"skipped: {path}:2: Input should be a valid string" in result.output
    assert f"skipped: {path}:3: not UTF-8 text" in result.output


@pytest.mark.parametrize(("content", "problem"), [
    (b"", ": no passages (empty file)"),
    (b"\xbd\xff\x90" * 1365, ":1: not UTF-8 text (byte 0xbd at offset 0)"),
])
def test_nothing_loaded_exits_1_without_loading_the_models(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes, problem: str) -> None:
    built = _patched_load_sentences(monkeypatch)
    path = tmp_path / "noise.jsonl"
    path.write_bytes(content)
    result = _load(path)
    assert result.exit_code == 1, result.output
    assert f"skipped: {path}{problem}" in result.output
    assert f"Error: {path}: no passage was loaded (" in result.output
    assert built == []


def test_a_clean_corpus_exits_0(monkeypatch: pytest.MonkeyPatch) -> None:
    _patched_load_sentences(monkeypatch)
    result = CliRunner().invoke(cli, ["load", "sentences", "sample", "--no-llm"])
    assert result.exit_code == 0, result.output
    assert "skipped:" not in result.output
