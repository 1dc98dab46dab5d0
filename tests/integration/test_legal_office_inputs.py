"""Word, PDF and saved portal pages loaded into a real Neo4j (issue 26 item 5): each document
with the metadata its file states, an unreadable file named in the report, the rest loaded."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal

pytestmark = pytest.mark.integration

PAGES = Path(__file__).resolve().parents[1] / "unit" / "legal" / "portal_pages"


def test_word_and_portal_pages_load_with_their_metadata(runner: Neo4jRunner,
                                                        tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    for line in (SAMPLES_DIR / "12-2016-ND-MAU-nghi-dinh-huong-dan.txt").read_text(
            encoding="utf-8").splitlines():
        document.add_paragraph(line)
    document.save(str(tmp_path / "a-nghi-dinh.docx"))
    shutil.copy(PAGES / "vbpl-toanvan-21-2016-ND-MAU.html", tmp_path / "b-vbpl.html")
    shutil.copy(PAGES / "tvpl-30-2017-TT-MAU.html", tmp_path / "c-tvpl.htm")
    (tmp_path / "d-broken.docx").write_bytes(b"PK\x03\x04 truncated")

    report = load_legal(runner, None, [tmp_path], batch_size=50, segmenter=lambda t: t)

    assert sorted(report.documents) == ["12/2016/NĐ-MAU", "21/2016/NĐ-MAU", "30/2017/TT-MAU"]
    assert [(Path(p.file).name, "not a readable Word .docx file" in p.message)
            for p in report.skipped] == [("d-broken.docx", True)]
    nodes = {n["id"]: n["props"] for n in runner.read("legal/dump_graph")[0]["nodes"]}
    vbpl = nodes["21/2016/NĐ-MAU"]
    assert (vbpl["source_format"], vbpl["status_external"], vbpl["issuer"]) == (
        "vbpl-html", "Còn hiệu lực", "Chính phủ")
    assert str(vbpl["effective_date"]) == "2016-03-01"
    tvpl = nodes["30/2017/TT-MAU"]
    assert (tvpl["source_format"], tvpl["status_external"]) == ("tvpl-html", "Hết hiệu lực một phần")
    assert nodes["12/2016/NĐ-MAU"]["source_format"] == "docx"
    assert "30/2017/TT-MAU:D2.K2" in nodes and "21/2016/NĐ-MAU:D3" in nodes
