"""The consolidated wording against the phenomena of issue 24, on short texts written for these
tests (not real laws): a moved start date, phrase edits, a new title that keeps the clauses,
a repealed clause that takes its points, an amendment whose wording was not captured, and an
amending law that names by title a law enacted after it."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.retrieval import consolidate, diff_consolidated
from tests.retrieval_fixtures import load_texts

pytestmark = pytest.mark.integration

BASE = """QUỐC HỘI
Luật số: 10/2015/QH13
Hà Nội, ngày 01 tháng 6 năm 2015
LUẬT
THỦY LỢI THỬ NGHIỆM
Điều 1. Quản lý công trình
1. Ủy ban nhân dân cấp huyện quản lý công trình nhỏ, gồm:
a) Kênh mương do cấp huyện xây dựng;
b) Trạm bơm nhỏ.
2. Công trình lớn do Bộ quản lý.
Điều 2. Phí thủy lợi
1. Phí được thu hằng năm.
2. Mức phí do xã, phường và thị trấn quyết định.
3. Phí được miễn cho hộ nghèo.
Điều 3. Cấp phép
1. Các hoạt động phải có giấy phép:
a) Xây dựng công trình;
b) Khai thác cát;
c) Nuôi trồng thủy sản.
2. Bộ quy định thủ tục cấp phép.
Điều 4. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2016.
"""

AMENDING = """QUỐC HỘI
Luật số: 20/2019/QH14
Hà Nội, ngày 01 tháng 6 năm 2019
LUẬT
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT THỦY LỢI THỬ NGHIỆM
Điều 1. Sửa đổi, bổ sung một số điều của Luật Thủy lợi thử nghiệm số 10/2015/QH13
1. Sửa đổi, bổ sung tên Điều 2 như sau:
“Điều 2. Phí và giá dịch vụ thủy lợi”
2. Thay thế cụm từ “cấp huyện” bằng cụm từ “cấp xã” tại khoản 1 Điều 1.
3. Bỏ cụm từ “và thị trấn” tại khoản 2 Điều 2.
4. Bãi bỏ khoản 1 Điều 3.
5. Sửa đổi, bổ sung khoản 2 Điều 1.
6. Sửa đổi, bổ sung khoản 9 Điều 1 như sau:
“9. Khoản mà luật không có.”
Điều 2. Hiệu lực thi hành
1. Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2021.
"""

MOVER = """QUỐC HỘI
Luật số: 30/2020/QH14
Hà Nội, ngày 01 tháng 3 năm 2020
LUẬT
SỬA ĐỔI LUẬT SỐ 20/2019/QH14
Điều 1. Sửa đổi, bổ sung khoản 1 Điều 2 của Luật số 20/2019/QH14 như sau:
“1. Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2020.”
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 3 năm 2020.
"""

LATER_SAME_TITLE = """QUỐC HỘI
Luật số: 50/2022/QH15
Hà Nội, ngày 01 tháng 6 năm 2022
LUẬT
ĐÊ ĐIỀU THỬ NGHIỆM
Điều 1. Phạm vi
1. Luật này quy định về đê điều.
2. Đê cấp I do Bộ quản lý.
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2023.
"""

TITLE_ONLY_AMENDER = """QUỐC HỘI
Luật số: 25/2018/QH14
Hà Nội, ngày 01 tháng 11 năm 2018
LUẬT
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT ĐÊ ĐIỀU THỬ NGHIỆM
Điều 1. Sửa đổi, bổ sung một số điều của Luật Đê điều thử nghiệm
1. Sửa đổi, bổ sung khoản 2 Điều 1 như sau:
“2. Đê cấp I và cấp II do Bộ quản lý.”
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2019.
"""


def test_amendments_are_applied_unit_for_unit(runner: Neo4jRunner, tmp_path: Path) -> None:
    report = load_texts(runner, tmp_path, {"base.txt": BASE, "amending.txt": AMENDING,
                                      "mover.txt": MOVER})
    # 7. an instruction naming a clause its law lacks is reported
    missing = [str(w) for w in report.warnings if "10/2015/QH13:D1.K9" in str(w)]
    assert missing and "amending.txt" in missing[0] and "does not have" in missing[0]
    # 2. the start date of 20/2019/QH14 moved from 01/01/2021 to 01/07/2020 by 30/2020/QH14:
    # its changes are in force in between
    doc = consolidate(runner, "10/2015/QH13", date(2020, 8, 1))
    units = {u.id.split(":")[1]: u for u in doc.units}
    # 4. a new title keeps the clauses of the article
    assert units["D2"].state == "amended"
    assert units["D2"].text == "Điều 2. Phí và giá dịch vụ thủy lợi"
    assert [units[k].shown for k in ("D2.K1", "D2.K2", "D2.K3")] == [True, True, True]
    # 3. phrase edits applied, in the unit and its points, with the instruction as provenance
    assert units["D1.K1"].text == "1. Ủy ban nhân dân cấp xã quản lý công trình nhỏ, gồm:"
    assert units["D1.K1.a"].text == "a) Kênh mương do cấp xã xây dựng;"
    assert units["D1.K1"].state == "amended" and units["D1.K1"].change is not None
    assert "20/2019/QH14" in units["D1.K1"].mark() and "01/07/2020" in units["D1.K1"].mark()
    assert units["D2.K2"].text == "2. Mức phí do xã, phường quyết định."
    # 5. a repealed clause takes its points with it
    assert units["D3.K1"].state == "repealed"
    assert [units[k].shown for k in ("D3.K1.a", "D3.K1.b", "D3.K1.c")] == [False] * 3
    assert units["D3.K2"].state == "original"
    assert units["D1.K9"].shown  # from the instruction's date, and reported above
    # 6. an instruction in force without its new wording is said, not served silently
    assert units["D1.K2"].state == "original"
    assert "chưa trích xuất được nội dung mới" in units["D1.K2"].mark()
    # the amending law itself is in force from the moved date
    assert not consolidate(runner, "20/2019/QH14", date(2020, 8, 1)).notes
    # before the moved date nothing of it applies
    early = {u.id.split(":")[1]: u for u in consolidate(runner, "10/2015/QH13",
                                                        date(2020, 6, 30)).units}
    assert early["D1.K1"].text == "1. Ủy ban nhân dân cấp huyện quản lý công trình nhỏ, gồm:"
    assert early["D3.K1.a"].shown
    # --diff lists the phrase edits and the new title
    changed = {d.id.split(":")[1] for d in diff_consolidated(
        consolidate(runner, "10/2015/QH13", date(2016, 1, 1)), doc)}
    assert {"D1.K1", "D1.K1.a", "D2", "D2.K2", "D3.K1"} <= changed


def test_a_title_never_resolves_to_a_later_law(runner: Neo4jRunner, tmp_path: Path) -> None:
    # 1. the 2018 law names "Luật Đê điều thử nghiệm" by title; the only loaded law of that title
    # was enacted in 2022: it is not the one amended
    load_texts(runner, tmp_path, {"later.txt": LATER_SAME_TITLE, "amender.txt": TITLE_ONLY_AMENDER})
    doc = consolidate(runner, "50/2022/QH15", date(2024, 1, 1))
    units = {u.id.split(":")[1]: u for u in doc.units}
    assert units["D1.K2"].state == "original"
    assert units["D1.K2"].text == "2. Đê cấp I do Bộ quản lý."
    assert not units["D1.K2"].mark()


# a portal copy of a base law that already holds the article a later law inserted, glued on
# one line; the amending law inserts it with its own wording
COPY_WITH_INSERTION = """QUỐC HỘI
Luật số: 11/2015/QH13
Hà Nội, ngày 01 tháng 6 năm 2015
LUẬT
CẢNG THỬ NGHIỆM
Điều 1. Phạm vi
Luật này quy định về cảng thử nghiệm.
Điều 2. Quy hoạch cảng
1. Quy hoạch cảng do Bộ lập.
Điều 2a. Quy hoạch bến 1. Quy hoạch bến được lập cho từng vùng. 2. Bộ phê duyệt.
Điều 3. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2016.
"""

INSERTER = """QUỐC HỘI
Luật số: 21/2019/QH14
Hà Nội, ngày 01 tháng 6 năm 2019
LUẬT
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT CẢNG THỬ NGHIỆM
Điều 1. Sửa đổi, bổ sung một số điều của Luật Cảng thử nghiệm số 11/2015/QH13
1. Bổ sung Điều 2a vào sau Điều 2 như sau:
“Điều 2a. Quy hoạch bến
1. Quy hoạch bến được lập cho từng vùng.
2. Bộ phê duyệt quy hoạch bến.”
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2020.
"""


@pytest.mark.parametrize("order", [("copy.txt", "inserter.txt"), ("inserter.txt", "copy.txt")])
def test_an_insertion_the_base_copy_already_has_takes_the_inserted_wording(
        runner: Neo4jRunner, tmp_path: Path, order: tuple[str, str]) -> None:
    texts = {"copy.txt": COPY_WITH_INSERTION, "inserter.txt": INSERTER}
    for name in order:  # two loads, in either order: the same wording
        load_texts(runner, tmp_path, {name: texts[name]})
    units = {u.id.split(":")[1]: u for u in consolidate(runner, "11/2015/QH13",
                                                        date(2021, 1, 1)).units if u.shown}
    assert units["D2a"].text == "Điều 2a. Quy hoạch bến"
    assert units["D2a.K1"].text == "1. Quy hoạch bến được lập cho từng vùng."
    assert units["D2a.K2"].text == "2. Bộ phê duyệt quy hoạch bến."
    assert "21/2019/QH14" in units["D2a"].mark()


PARTIAL_REPEALER = """QUỐC HỘI
Luật số: 22/2019/QH14
Hà Nội, ngày 01 tháng 6 năm 2019
LUẬT
SỬA ĐỔI MỘT SỐ ĐIỀU CỦA LUẬT THỦY LỢI THỬ NGHIỆM
Điều 1. Hiệu lực và điều khoản thi hành
1. Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2020.
2. Bãi bỏ các quy định liên quan đến trạm bơm nhỏ tại khoản 1 Điều 1 của Luật Thủy lợi thử \
nghiệm số 10/2015/QH13.
"""


def test_a_partial_repeal_by_content_flags_the_unit_and_keeps_it(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    # 5. "Bãi bỏ các quy định liên quan đến … tại khoản 1 Điều 1": the clause and its points stay
    # in force, with a note that part of it was repealed and that the part cannot be computed
    load_texts(runner, tmp_path, {"base.txt": BASE, "partial.txt": PARTIAL_REPEALER})
    units = {u.id.split(":")[1]: u for u in consolidate(runner, "10/2015/QH13",
                                                        date(2021, 1, 1)).units}
    assert units["D1.K1"].shown and units["D1.K1"].state != "repealed"
    assert [units[k].shown for k in ("D1.K1.a", "D1.K1.b")] == [True, True]
    mark = units["D1.K1"].mark()
    assert "một phần nội dung bị bãi bỏ bởi" in mark and "22/2019/QH14" in mark
    assert "phạm vi bãi bỏ không xác định được" in mark
    before = {u.id.split(":")[1]: u for u in consolidate(runner, "10/2015/QH13",
                                                         date(2019, 12, 31)).units}
    assert "bãi bỏ" not in before["D1.K1"].mark()


EARLY_AMENDER = """QUỐC HỘI
Luật số: 23/2015/QH13
Hà Nội, ngày 15 tháng 6 năm 2015
LUẬT
SỬA ĐỔI LUẬT THỦY LỢI THỬ NGHIỆM
Điều 1. Sửa đổi, bổ sung một số điều của Luật Thủy lợi thử nghiệm số 10/2015/QH13
1. Sửa đổi, bổ sung khoản 2 Điều 1 như sau:
“2. Công trình lớn do Bộ và tỉnh quản lý.”
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.
"""


def test_a_wording_dated_before_its_unit_starts_is_reported(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    # 2. an inverted interval: the new wording starts (01/07/2015) before the law it amends
    # takes effect (01/01/2016); the load says so in one line naming the file
    report = load_texts(runner, tmp_path, {"base.txt": BASE, "early.txt": EARLY_AMENDER})
    lines = [str(w) for w in report.warnings if "interval would be inverted" in str(w)]
    assert lines and "early.txt" in lines[0] and "10/2015/QH13:D1.K2" in lines[0]
    assert "01/07/2015" in lines[0] and "01/01/2016" in lines[0]
    units = {u.id.split(":")[1]: u for u in consolidate(runner, "10/2015/QH13",
                                                        date(2016, 1, 1)).units}
    assert units["D1.K2"].text == "2. Công trình lớn do Bộ và tỉnh quản lý."


RENUMBERER = """QUỐC HỘI
Luật số: 24/2019/QH14
Hà Nội, ngày 01 tháng 6 năm 2019
LUẬT
SỬA ĐỔI LUẬT THỦY LỢI THỬ NGHIỆM
Điều 1. Sửa đổi, bổ sung một số điều của Luật Thủy lợi thử nghiệm số 10/2015/QH13
1. Đánh số lại khoản 3 Điều 2 thành khoản 4.
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2020.
"""


def test_a_renumbering_is_said_not_skipped(runner: Neo4jRunner, tmp_path: Path) -> None:
    # 1. a renumbering is recorded; this text does not move the unit, and says so
    load_texts(runner, tmp_path, {"base.txt": BASE, "renumber.txt": RENUMBERER})
    units = {u.id.split(":")[1]: u for u in consolidate(runner, "10/2015/QH13",
                                                        date(2021, 1, 1)).units}
    assert "được đánh số lại bởi" in units["D2.K3"].mark()
    assert "24/2019/QH14" in units["D2.K3"].mark()
