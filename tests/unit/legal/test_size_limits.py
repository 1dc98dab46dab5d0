"""Size limits of the legal loader and bounded word segmentation (issue 18: a 15 MB article or a
2 MB line hung the load in pyvi). No database: a fake runner records the transactions."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from hopgraph.cli import cli
from hopgraph.loaders.legal import bounded_chunks, load_legal
from tests.unit.fakes import RecordingRunner

GOOD = "Số: 8/2020/NĐ-CP\nĐiều 1. Phạm vi\nNội dung ngắn.\n"


# a server that accepts every transaction; the loader writes in transactions only
ONLY_TRANSACTIONS = {"write", "read_transaction"}


def test_a_file_over_the_size_limit_is_skipped_unread_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "good.txt").write_text(GOOD, encoding="utf-8")
    big = tmp_path / "big.txt"
    big.write_text("Số: 9/2020/NĐ-CP\nĐiều 1. A\n" + "x" * 30_000 + "\n", encoding="utf-8")
    seen: list[str] = []
    runner = RecordingRunner(refuse=ONLY_TRANSACTIONS)
    report = load_legal(runner, None, [tmp_path], max_file_mb=0.02,
                        segmenter=lambda t: seen.append(t) or t)
    documents = runner.committed("legal/clear_document", "doc_id")
    assert documents == report.documents == ["8/2020/NĐ-CP"]
    (problem,) = report.skipped
    assert str(problem) == (f"{big}: the file is 0.0 MB; the limit is 0.02 MB (--max-file-mb): "
                            "not read")
    assert not any("x" * 100 in t for t in seen)
    assert report.files == 2


def test_a_unit_over_the_character_limit_skips_its_document_before_segmentation(
        tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(GOOD, encoding="utf-8")
    (tmp_path / "b.txt").write_text("Số: 9/2020/NĐ-CP\nĐiều 1. Dài\n1. " + "chữ " * 5_000
                                    + "\nĐiều 2. Ngắn\nNội dung.\n", encoding="utf-8")
    seen: list[str] = []
    runner = RecordingRunner(refuse=ONLY_TRANSACTIONS)
    report = load_legal(runner, None, [tmp_path], max_unit_chars=10_000,
                        segmenter=lambda t: seen.append(t) or t)
    assert report.documents == ["8/2020/NĐ-CP"]
    (problem,) = report.skipped
    assert problem.file.endswith("b.txt") and problem.line == 3
    assert "Khoản 1 of document 9/2020/NĐ-CP is 20,002 characters; the limit is 10,000 per unit " \
           "(--max-unit-chars)" in problem.message
    assert not any("chữ chữ" in t for t in seen)  # never segmented


def test_bounded_chunks_cut_at_sentence_ends_then_spaces_and_lose_nothing() -> None:
    sentence = "Người lao động được hưởng bảo hiểm xã hội. "
    text = (sentence * 200).strip()
    pieces = bounded_chunks(text, 500)
    assert len(pieces) > 1 and all(len(p) <= 500 for p in pieces)
    assert all(p.endswith(".") for p in pieces)  # each cut at a sentence end
    assert " ".join(pieces) == text
    words = " ".join(["bảo"] * 1_000)  # no punctuation: cut at spaces
    pieces = bounded_chunks(words, 300)
    assert all(len(p) <= 300 for p in pieces) and " ".join(pieces) == words
    assert bounded_chunks("x" * 1_000, 300) == ["x" * 300] * 3 + ["x" * 100]  # no space at all
    assert bounded_chunks("ngắn", 300) == ["ngắn"]


def test_the_default_segmenter_segments_a_long_line_in_pieces() -> None:
    from pyvi import ViTokenizer

    from hopgraph.loaders.legal._loader import SEGMENT_CHUNK_CHARS, default_segmenter

    sentence = "Người lao động được hưởng bảo hiểm xã hội theo quy định của pháp luật. "
    line = (sentence * (3 * SEGMENT_CHUNK_CHARS // len(sentence))).strip()
    segment = default_segmenter()
    out = segment(line + "\nĐiều 2. Bảo hiểm y tế")
    pieces = bounded_chunks(line)
    assert len(pieces) >= 3
    assert out.split("\n") == [" ".join(ViTokenizer.tokenize(p) for p in pieces),
                               ViTokenizer.tokenize("Điều 2. Bảo hiểm y tế")]
    assert "bảo_hiểm xã_hội" in out


def test_load_legal_offers_the_limits_as_options() -> None:
    result = CliRunner().invoke(cli, ["load", "legal", "--help"])
    assert "--max-file-mb" in result.output and "--max-unit-chars" in result.output
    bad = CliRunner().invoke(cli, ["load", "legal", "--max-file-mb", "0", "x.txt"])
    assert bad.exit_code == 2 and "max-file-mb" in bad.output
