"""Incremental derive (issue 26 item 1): a load that derives only the documents it touches ends
in the graph the whole-graph derive gives, node for node, edge for edge, property for property
(``legal/dump_graph``: every legal node and edge with its labels and properties), on random load
orders of the shipped samples and of texts of our own (the consolidation engine's short laws: a
moved start date two documents away, phrase edits, an insertion the base copy already has, a
partial repeal, a renumbering; the saved portal pages), one document at a time, in batches and
with documents loaded again."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR, LoadReport, derive, derive_scope, load_legal

from .conftest import clear_database
from .test_legal_consolidation_engine import (
    AMENDING,
    BASE,
    LATER_SAME_TITLE,
    MOVER,
    TITLE_ONLY_AMENDER,
)

pytestmark = [pytest.mark.integration, pytest.mark.slow]

PORTAL_PAGES = Path(__file__).resolve().parents[1] / "unit" / "legal" / "portal_pages"
# an amending law that inserts a clause and repeals a point of the base law above, and a
# decree that cites the base law (our own short texts)
INSERTER = """QUỐC HỘI
Luật số: 35/2021/QH15
Hà Nội, ngày 01 tháng 6 năm 2021
LUẬT
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT THỦY LỢI THỬ NGHIỆM
Điều 1. Sửa đổi, bổ sung một số điều của Luật Thủy lợi thử nghiệm số 10/2015/QH13
1. Bổ sung khoản 1a vào sau khoản 1 Điều 2 như sau:
“1a. Phí được nộp vào ngân sách nhà nước.”
2. Bãi bỏ điểm c khoản 1 Điều 3.
3. Thay thế cụm từ “Bộ quản lý” bằng cụm từ “Bộ Nông nghiệp quản lý” tại Điều 1.
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2022.
"""
GUIDE = """CHÍNH PHỦ
Số: 12/2016/NĐ-CP
Hà Nội, ngày 01 tháng 3 năm 2016
NGHỊ ĐỊNH
QUY ĐỊNH CHI TIẾT MỘT SỐ ĐIỀU CỦA LUẬT THỦY LỢI THỬ NGHIỆM
Căn cứ Luật Thủy lợi thử nghiệm số 10/2015/QH13;
Điều 1. Giải thích từ ngữ
Trong Nghị định này, các từ ngữ dưới đây được hiểu như sau:
1. Công trình nhỏ là công trình có dung tích dưới một triệu mét khối.
2. Hộ nghèo là hộ theo chuẩn nghèo của Chính phủ.
Điều 2. Phí thủy lợi
Mức phí theo khoản 2 Điều 2 Luật Thủy lợi thử nghiệm.
Điều 3. Hiệu lực thi hành
Nghị định này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2016.
"""
# the law TITLE_ONLY_AMENDER names by title alone, enacted before it (LATER_SAME_TITLE, which
# carries the same title, is enacted after it: only this one can take what waits for the title)
EARLIER_SAME_TITLE = """QUỐC HỘI
Luật số: 40/2012/QH13
Hà Nội, ngày 01 tháng 6 năm 2012
LUẬT
ĐÊ ĐIỀU THỬ NGHIỆM
Điều 1. Phạm vi
1. Luật này quy định về đê điều thử nghiệm.
2. Đê cấp I do Bộ quản lý.
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2013.
"""
OWN_TEXTS = {"base.txt": BASE, "amending.txt": AMENDING, "mover.txt": MOVER,
             "inserter.txt": INSERTER, "guide.txt": GUIDE, "later.txt": LATER_SAME_TITLE,
             "title-only.txt": TITLE_ONLY_AMENDER}


def _segment(text: str) -> str:
    return text  # pyvi is exercised in the unit tier; keeps this tier fast


def _dump(runner: Neo4jRunner) -> tuple[list[Any], list[Any]]:
    row = runner.read("legal/dump_graph")[0]
    return row["nodes"], row["edges"]


def _differences(got: tuple[list[Any], list[Any]], want: tuple[list[Any], list[Any]]) -> str:
    lines = []
    for kind, a, b in (("nodes", got[0], want[0]), ("edges", got[1], want[1])):
        extra = [x for x in a if x not in b]
        missing = [x for x in b if x not in a]
        if extra or missing:
            lines.append(f"{kind}: only incremental {extra[:2]}; only whole-graph {missing[:2]}")
    return "\n".join(lines)


def _samples() -> list[Path]:
    return sorted(p for p in SAMPLES_DIR.iterdir()
                  if p.suffix in (".txt", ".json") and p.name != "questions.json")


def _own(tmp_path: Path) -> list[Path]:
    paths = []
    for name, text in OWN_TEXTS.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    # the full-text pages (the listing and the attributes page hold no articles)
    pages = [PORTAL_PAGES / "vbpl-toanvan-21-2016-ND-MAU.html", PORTAL_PAGES / "tvpl-30-2017-TT-MAU.html"]
    return paths + pages


def _runs(files: list[Path], seed: int) -> list[list[Path]]:
    """A random order in runs of 1 (seed 0) or 1–3 files, and two files loaded again."""
    rng = random.Random(seed)
    order = rng.sample(files, len(files))
    runs: list[list[Path]] = []
    while order:
        size = 1 if seed == 0 else rng.randint(1, 3)
        runs.append(order[:size])
        order = order[size:]
    runs.insert(rng.randint(2, len(runs)), [rng.choice(files)])
    runs.append(rng.sample(files, 2))
    return runs


def _check_sequence(runner: Neo4jRunner, runs: list[list[Path]]) -> list[LoadReport]:
    """Load each run with the incremental derive; after each, the whole-graph derive must change
    nothing. At the end the graph equals one whole-graph load of every file."""
    reports = []
    for i, run in enumerate(runs):
        report = load_legal(runner, None, run, batch_size=7, segmenter=_segment,
                            incremental=True)
        assert not report.aborted and not report.skipped, (run, report.skipped)
        reports.append(report)
        incremental = _dump(runner)
        derive(runner)  # the whole graph
        whole = _dump(runner)
        problem = _differences(incremental, whole)
        assert not problem, (f"run {i} ({[p.name for p in run]}) of "
                             f"{[[p.name for p in r] for r in runs]}:\n{problem}")
    final = _dump(runner)
    clear_database(runner.driver)
    files = sorted({p for run in runs for p in run})
    load_legal(runner, None, files, batch_size=7, segmenter=_segment, incremental=False)
    problem = _differences(final, _dump(runner))
    assert not problem, f"after {[[p.name for p in r] for r in runs]} vs one load:\n{problem}"
    return reports


@pytest.mark.parametrize("seed", [0, 1])
def test_incremental_derive_equals_the_whole_graph_on_the_samples(
        runner: Neo4jRunner, seed: int) -> None:
    reports = _check_sequence(runner, _runs(_samples(), seed))
    # the derive did run on part of the graph: a load that touches a few of its documents
    scoped = [r for r in reports if r.derived_documents is not None]
    assert len(scoped) == len(reports)
    assert any(r.derived_documents < r.graph_documents for r in scoped), [
        (r.derived_documents, r.graph_documents) for r in scoped]


@pytest.mark.parametrize("seed", [2])
def test_incremental_derive_equals_the_whole_graph_on_texts_of_our_own(
        runner: Neo4jRunner, tmp_path: Path, seed: int) -> None:
    reports = _check_sequence(runner, _runs(_own(tmp_path), seed))
    assert any(r.derived_documents is not None and r.derived_documents < r.graph_documents
               for r in reports)


def test_a_load_chooses_the_whole_graph_when_it_touches_most_of_it(runner: Neo4jRunner) -> None:
    files = _samples()
    first = load_legal(runner, None, files[:1], segmenter=_segment)
    assert first.derived_documents is None  # an empty graph: the whole graph
    everything = load_legal(runner, None, files, segmenter=_segment)
    assert everything.derived_documents is None  # every document touched: the whole graph
    assert "derive" in everything.summary() and "whole graph" in everything.summary()
    one = load_legal(runner, None, [SAMPLES_DIR / "12-2016-ND-MAU-nghi-dinh-huong-dan.txt"],
                     segmenter=_segment)
    assert one.derived_documents is not None and one.derived_documents < one.graph_documents
    assert (f"incremental: {one.derived_documents} of {one.graph_documents} loaded documents"
            in one.summary())


def _first_load_equals_the_whole_graph(runner: Neo4jRunner, path: Path) -> LoadReport:
    """Load ``path`` for the first time, the loader choosing the derive; the whole-graph derive
    must then change nothing."""
    report = load_legal(runner, None, [path], segmenter=_segment)
    assert not report.aborted and not report.skipped, report.skipped
    incremental = _dump(runner)
    derive(runner)
    problem = _differences(incremental, _dump(runner))
    assert not problem, f"first load of {path.name}:\n{problem}"
    return report


def _waiting(runner: Neo4jRunner, pending: str) -> int:
    """Nodes that wait for the title ``pending`` ('~<slug>')."""
    rows = runner.driver.execute_query("MATCH (n:LegalNode {doc_id: $p}) RETURN count(n) AS n",
                                       p=pending, database_=runner.database).records
    return int(rows[0]["n"])


def test_a_first_load_derives_what_it_touches_not_what_waits_elsewhere(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    """A graph holding ids only named (an amended law not loaded; a title no loaded document can
    take yet): a first load of another document derives that document and what it names, not
    every waiting title, so the loader keeps the incremental derive; a first load of the law a
    waiting title names takes what waits, incrementally too. Both equal the whole-graph derive."""
    texts = {"amending.txt": AMENDING, "title-only.txt": TITLE_ONLY_AMENDER,
             "later.txt": LATER_SAME_TITLE, "inserter.txt": INSERTER,
             "earlier.txt": EARLIER_SAME_TITLE}
    paths = {}
    for name, text in texts.items():
        paths[name] = tmp_path / name
        paths[name].write_text(text, encoding="utf-8")
    graph = load_legal(runner, None, [*_samples(), paths["amending.txt"],
                                      paths["title-only.txt"], paths["later.txt"]],
                       segmenter=_segment)
    assert not graph.skipped
    pending = "~luat-de-dieu-thu-nghiem"
    assert _waiting(runner, pending) > 0  # the title-only amendment waits for its law
    # an amending law into 10/2015/QH13, which AMENDING amends too and nobody loaded
    inserter = _first_load_equals_the_whole_graph(runner, paths["inserter.txt"])
    assert inserter.derived_documents == 1, inserter.derive_what()  # itself
    assert inserter.derived_named == 1, inserter.derive_what()  # 10/2015/QH13, only named
    assert pending not in derive_scope(runner, inserter.documents)
    assert "incremental: 1 of " in inserter.summary()
    # the law the title names: what waited moves into it, and it is derived with the other
    # document of that title (the pending id, only named, with them)
    earlier = _first_load_equals_the_whole_graph(runner, paths["earlier.txt"])
    assert earlier.derived_documents == 2 and earlier.derived_named == 1, earlier.derive_what()
    assert _waiting(runner, pending) == 0  # it took what waited for its title
