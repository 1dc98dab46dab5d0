"""A new name or new opening words of an article, in the graph (issue 27): the version served
as the article's wording in force is the whole article with that part replaced and its clauses
kept, on short texts written for this test (not real laws)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import load_legal
from hopgraph.retrieval import consolidate
from tests.unit.legal.test_named_parts import BASE, _amending

pytestmark = pytest.mark.integration


AMENDING = _amending("""1. Sửa đổi, bổ sung tên Điều 2 và khoản 2 Điều 2 như sau:
“Điều 2. Giấy phép và hạn ngạch khai thác
2. Giấy phép có thời hạn 10 năm.”
2. Sửa đổi, bổ sung tên Điều, đoạn mở đầu của Điều 3 và bổ sung khoản 3 vào sau khoản 2 Điều 3 như sau:
a) Sửa đổi, bổ sung tên Điều như sau:
“Điều 3. Sổ nhật ký và báo cáo khai thác”;
b) Sửa đổi, bổ sung đoạn mở đầu như sau:
“Sổ nhật ký và báo cáo khai thác gồm các nội dung chủ yếu sau đây:”;
c) Bổ sung khoản 3 vào sau khoản 2 như sau:
“3. Vị trí khai thác.”.
3. Bãi bỏ khoản 1 Điều 2.""")


def test_a_new_name_and_opening_words_keep_the_clauses(runner: Neo4jRunner,
                                                       tmp_path: Path) -> None:
    paths = []
    for name, text in (("base.txt", BASE), ("amending.txt", AMENDING)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(tmp_path / name)
    report = load_legal(runner, None, paths)
    assert not report.skipped and not report.aborted, (report.skipped, report.aborted)
    rows = {r["id"].split(":")[1]: r for r in runner.read(
        "legal/get_text_as_of", ids=["12/2012/QH13:D2", "12/2012/QH13:D3"],
        as_of=date(2016, 7, 1))}
    # the article served at the date: its new name (and opening words), its clauses as they
    # are that day (a clause the same law rewrites or repeals, one it inserts), none stale
    assert rows["D2"]["version_id"] == "12/2012/QH13:D2@40/2016/QH14"
    assert rows["D2"]["text"] == ("Điều 2. Giấy phép và hạn ngạch khai thác\n"
                                  "1. (bãi bỏ)\n"
                                  "2. Giấy phép có thời hạn 10 năm.")
    assert rows["D3"]["text"] == ("Điều 3. Sổ nhật ký và báo cáo khai thác\n"
                                  "Sổ nhật ký và báo cáo khai thác gồm các nội dung chủ yếu sau "
                                  "đây:\n1. Tên tàu.\n2. Sản lượng.\n3. Vị trí khai thác.")
    before = {r["id"].split(":")[1]: r for r in runner.read(
        "legal/get_text_as_of", ids=["12/2012/QH13:D3"], as_of=date(2016, 6, 30))}
    assert "@" not in (before["D3"]["version_id"] or "") and before["D3"]["text"].startswith(
        "Điều 3. Sổ nhật ký\nSổ nhật ký khai thác gồm")
    # the consolidated law: the new clause 2 and the inserted clause 3 beside the new name
    units = {u.id.split(":")[1]: u for u in consolidate(runner, "12/2012/QH13",
                                                        date(2016, 7, 1)).units}
    assert units["D2"].text == "Điều 2. Giấy phép và hạn ngạch khai thác"
    assert units["D2.K1"].state == "repealed" and units["D2.K2"].state == "amended"
    assert units["D3"].text.endswith("gồm các nội dung chủ yếu sau đây:")
    assert [units[k].shown for k in ("D3.K1", "D3.K2", "D3.K3")] == [True, True, True]
    # derived again (a second load), the wording is the same
    assert not load_legal(runner, None, paths).aborted
    again = runner.read("legal/get_text_as_of", ids=["12/2012/QH13:D3"], as_of=date(2016, 7, 1))
    assert again[0]["text"] == rows["D3"]["text"]
