"""Document identity and failure isolation of the legal loader against a real Neo4j (issue 18):
a re-load replaces a document whole, two inputs with one document id are refused (or the later
replaces the earlier when asked), and a strange input fails alone."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal

from .conftest import clear_database

pytestmark = pytest.mark.integration

LAW = "12-2016-ND-MAU-nghi-dinh-huong-dan.txt"
AMENDING = "20-2018-ND-MAU-sua-doi-lan-1.txt"


def _load(runner: Neo4jRunner, paths: list[Path], **kwargs: Any) -> Any:
    return load_legal(runner, None, paths, batch_size=50, segmenter=lambda t: t, **kwargs)


def _dump(runner: Neo4jRunner) -> tuple[list[Any], list[Any]]:
    row = runner.read("legal/dump_graph")[0]
    return row["nodes"], row["edges"]


def _nodes(runner: Neo4jRunner) -> dict[str, dict[str, Any]]:
    return {n["id"]: n for n in _dump(runner)[0]}


def _corrected_law(text: str) -> str:
    """12/2016 without Điều 7 (amended by 20/2018), Điều 8 (cites Điều 5–7 of its own text)
    and the clause that replaces 99/2010; Điều 10 reworded."""
    lines = text.splitlines()
    start = lines.index("Điều 7. Tạm ứng và quyết toán")
    end = lines.index("Chương III")
    kept = lines[:start] + lines[end:]
    kept = [x for x in kept if not x.startswith("2. Nghị định này thay thế")]
    return "\n".join(x.replace("Các Bộ trưởng,", "Các Bộ trưởng (đã đính chính),")
                     for x in kept) + "\n"


def _corrected_amending(text: str) -> str:
    """20/2018 without its instruction 1 (new wording of khoản 2 Điều 3) and 3 (repeal of
    điểm c khoản 1 Điều 5), the others renumbered."""
    lines = text.splitlines()
    out: list[str] = []
    skip_quote = False
    renumber = {"2.": "1.", "4.": "2.", "5.": "3.", "6.": "4."}
    in_article_1 = False
    for line in lines:
        if line.startswith("Điều 1."):
            in_article_1 = True
        elif line.startswith("Điều 2."):
            in_article_1 = False
        if in_article_1 and line.startswith("1. Sửa đổi, bổ sung khoản 2 Điều 3"):
            skip_quote = True
            continue
        if skip_quote:
            skip_quote = False
            continue
        if in_article_1 and line.startswith("3. Bãi bỏ điểm c"):
            continue
        head = line.split(" ", 1)[0]
        if in_article_1 and head in renumber:
            line = renumber[head] + line[len(head):]
        out.append(line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("name, correct", [(LAW, _corrected_law), (AMENDING, _corrected_amending)])
def test_a_corrected_document_replaces_the_old_one_whole(
        runner: Neo4jRunner, tmp_path: Path, name: str, correct: Any) -> None:
    fixed_dir = tmp_path / "fixed"
    fixed_dir.mkdir()
    fixed = fixed_dir / name
    fixed.write_text(correct((SAMPLES_DIR / name).read_text(encoding="utf-8")), encoding="utf-8")
    rest = tmp_path / "rest"
    shutil.copytree(SAMPLES_DIR, rest)
    (rest / name).unlink()

    # the corrected document loaded over the whole sample set ...
    first = _load(runner, [rest, SAMPLES_DIR / name])
    assert not first.skipped, first.summary()
    report = _load(runner, [fixed])
    assert not report.skipped and len(report.documents) == 1, report.summary()
    reloaded = _dump(runner)
    nodes = _nodes(runner)
    # ... is the graph a single load of the corrected set gives
    clear_database(runner.driver)
    fresh_report = _load(runner, [rest, fixed])
    assert not fresh_report.skipped, fresh_report.summary()
    fresh = _dump(runner)
    assert reloaded[0] == fresh[0]
    assert reloaded[1] == fresh[1]

    if name == LAW:
        # a removed article nothing else cites is gone, with its own references
        assert "12/2016/NĐ-MAU:D8" not in nodes
        assert not [e for e in reloaded[1] if e["source"] == "12/2016/NĐ-MAU:D8"]
        # an article another document inserted after it stays, no longer attached
        assert nodes["12/2016/NĐ-MAU:D8a"]["props"]["supplemented_by"] == "30/2020/NĐ-MAU"
        # a removed article another document amends stays as a Placeholder: its edges survive
        assert nodes["12/2016/NĐ-MAU:D7.K2"]["labels"] == ["LegalNode", "Placeholder"]
        assert ("20/2018/NĐ-MAU:D1.K5", "12/2016/NĐ-MAU:D7.K2", "REPEALS") in {
            (e["source"], e["target"], e["type"]) for e in reloaded[1]}
        # (one with new wording is a unit of the law through that wording alone, as when the
        # amendment is loaded before the law)
        assert nodes["12/2016/NĐ-MAU:D7.K1"]["props"]["supplemented_by"] == "20/2018/NĐ-MAU"
        # new wordings other documents wrote into it stay
        assert "12/2016/NĐ-MAU:D3.K2@20/2018/NĐ-MAU" in nodes
        assert "đã đính chính" in nodes["12/2016/NĐ-MAU:D10"]["props"]["text"]
        # 99/2010 is no longer replaced: its units are in force again
        assert nodes["99/2010/NĐ-MAU:D2.K1"]["props"]["status"] == "in_force"
        assert nodes["99/2010/NĐ-MAU:D2.K1"]["props"].get("valid_to") is None
    else:
        # the instructions the corrected amendment no longer has left no version and no repeal
        assert "12/2016/NĐ-MAU:D3.K2@20/2018/NĐ-MAU" not in nodes
        assert "12/2016/NĐ-MAU:D3.K2@30/2020/NĐ-MAU" in nodes
        assert nodes["12/2016/NĐ-MAU:D5.K1.c"]["props"]["status"] == "in_force"
        assert not [e for e in reloaded[1] if e["type"] == "REPEALS"
                    and e["target"] == "12/2016/NĐ-MAU:D5.K1.c"]


def test_two_inputs_with_one_document_id_are_refused_and_name_each_other(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    _load(runner, [SAMPLES_DIR / "99-2010-ND-MAU-nghi-dinh-cu.txt"])
    before = _dump(runner)
    text = (SAMPLES_DIR / "99-2010-ND-MAU-nghi-dinh-cu.txt").read_text(encoding="utf-8")
    a, b = tmp_path / "a-copy.txt", tmp_path / "b-copy.txt"
    a.write_text(text.replace("Điều 2.", "Điều 2. (bản A)"), encoding="utf-8")
    b.write_text(text + "Điều 99. Điều thêm của bản B\nNội dung bản B.\n", encoding="utf-8")
    report = _load(runner, [tmp_path])
    assert report.documents == []
    messages = [str(p) for p in report.skipped]
    assert len(messages) == 2
    assert all("a-copy.txt" in m and "b-copy.txt" in m for m in messages)
    assert _dump(runner) == before

    # asked to, the later input replaces the earlier (and the graph's copy)
    report = _load(runner, [tmp_path], replace_duplicates=True)
    assert report.documents == ["99/2010/NĐ-MAU"] and not report.skipped
    assert any("a-copy.txt" in str(w) and "replaced by" in str(w) for w in report.warnings)
    nodes = _nodes(runner)
    assert nodes["99/2010/NĐ-MAU"]["props"]["source_file"].endswith("b-copy.txt")
    assert "99/2010/NĐ-MAU:D99" in nodes
    assert "(bản A)" not in nodes["99/2010/NĐ-MAU:D2"]["props"]["text"]


def test_a_strange_input_fails_alone_and_a_bad_jsonl_line_is_named(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    shutil.copy(SAMPLES_DIR / "99-2010-ND-MAU-nghi-dinh-cu.txt", tmp_path / "a-good.txt")
    (tmp_path / "b-deep.json").write_text("[" * 50_000 + "]" * 50_000, encoding="utf-8")
    (tmp_path / "c-scan.pdf").write_bytes(b"%PDF-1.7\n%binary")
    (tmp_path / "d-renamed.txt").write_bytes(b"%PDF-1.4\n%binary")
    record = '{"Id": "%s", "Content": "Số: %s\\nĐiều 1. A\\nNội dung %s.\\n"}'
    (tmp_path / "e-records.jsonl").write_text("\n".join([
        record % ("5/2020/NĐ-CP", "5/2020/NĐ-CP", "năm"),
        '{"Id": "6/2020/NĐ-CP", "Content": "Số: 6/20',
        "[1, 2]",
        record % ("7/2020/NĐ-CP", "7/2020/NĐ-CP", "bảy"),
    ]) + "\n", encoding="utf-8")
    report = _load(runner, [tmp_path])
    assert sorted(report.documents) == ["5/2020/NĐ-CP", "7/2020/NĐ-CP", "99/2010/NĐ-MAU"]
    skipped = {(Path(p.file).name, p.line): p.message for p in report.skipped}
    assert "nested too deeply" in skipped[("b-deep.json", None)]
    assert "not a readable PDF" in skipped[("c-scan.pdf", None)]
    assert "accepted: plain text (.txt)" in skipped[("d-renamed.txt", None)]
    assert "truncated JSON" in skipped[("e-records.jsonl", 2)]
    assert "unknown record" in skipped[("e-records.jsonl", 3)]
    assert len(skipped) == 5
