"""Instructions aimed at parts numbered with decimals (``Điểm 2.1 Khoản 2 Điều 2``, ``Tiết đ
Điểm 1.2``), the numbering of Bảo hiểm xã hội Việt Nam's procedures, whose parser keeps such
parts as text of their clause. Before: the quote of point 2.1 became the whole clause's wording
in force, a supplemented tiết was written as a new clause over the old one, and the repeal of
point 2.3 repealed the whole clause. Now the clause is marked changed from the date, in its
enacted wording, never served as the wording in force. Short texts written for this test."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.retrieval import LegalRetriever, consolidate
from tests.retrieval_fixtures import HashEmbedder, load_texts

pytestmark = pytest.mark.integration

PROCEDURE = """QUYẾT ĐỊNH
Số: 595/QĐ-BHXH
Hà Nội, ngày 14 tháng 4 năm 2017
QUYẾT ĐỊNH BAN HÀNH QUY TRÌNH THU THỬ NGHIỆM
Điều 1. Phạm vi
1. Quy trình này quy định việc thu.
Điều 2. Giải thích từ ngữ
1. Các từ viết tắt
1.1. BHXH: bảo hiểm xã hội.
1.2. BHYT: bảo hiểm y tế.
2. Các từ ngữ
2.1. Đơn vị: cơ quan, tổ chức.
2.2. Người tham gia: người lao động.
2.3. Sổ: sổ bảo hiểm.
Điều 3. Hiệu lực
Quyết định này có hiệu lực từ ngày 01 tháng 5 năm 2017.
"""

AMENDER = """QUYẾT ĐỊNH
Số: 505/QĐ-BHXH
Hà Nội, ngày 27 tháng 3 năm 2020
QUYẾT ĐỊNH SỬA ĐỔI QUY TRÌNH THU THỬ NGHIỆM
Điều 1. Sửa đổi, bổ sung một số điều của Quy trình thu ban hành kèm theo Quyết định số \
595/QĐ-BHXH như sau:
1. Sửa đổi, bổ sung Điểm 2.1 Khoản 2 Điều 2 như sau:
“2.1. Đơn vị: cơ quan, tổ chức, doanh nghiệp.”
2. Bổ sung Tiết đ Điểm 1.2 Khoản 1 Điều 2 như sau:
“đ) BHTN: bảo hiểm thất nghiệp.”
3. Bãi bỏ Điểm 2.3 Khoản 2 Điều 2.
4. Sửa đổi, bổ sung Khoản 1 Điều 1 như sau:
“1. Quy trình này quy định việc thu và cấp sổ.”
Điều 2. Hiệu lực
Quyết định này có hiệu lực từ ngày 01 tháng 5 năm 2020.
"""


def test_a_decimal_part_changes_its_clause_without_becoming_its_wording(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    report = load_texts(runner, tmp_path, {"595.txt": PROCEDURE, "505.txt": AMENDER})
    said = [str(w) for w in report.warnings if "numbered with decimals" in str(w)]
    assert len(said) == 3 and any("Tiết đ Điểm 1.2" in w for w in said)
    assert not any("second new wording" in str(w) for w in report.warnings)

    units = {u.id.split(":")[1]: u for u in consolidate(runner, "595/QĐ-BHXH",
                                                        date(2021, 1, 1)).units}
    # the clause stays, whole, with its other parts; never repealed, never the quote alone
    k2 = units["D2.K2"]
    assert k2.shown and k2.state != "repealed"
    assert "2.2. Người tham gia" in k2.text and "doanh nghiệp" not in k2.text
    mark = k2.mark()
    # the note names the part the instruction changed
    assert "Sửa đổi, bổ sung Điểm 2.1 Khoản 2 Điều 2" in mark and "505/QĐ-BHXH" in mark
    assert "nội dung mới chưa được ghép vào" in mark
    assert "một phần nội dung bị bãi bỏ" in mark and "Bãi bỏ Điểm 2.3" in mark
    assert "Bổ sung Tiết đ Điểm 1.2" in units["D2.K1"].mark()
    assert "1.2. BHYT" in units["D2.K1"].text  # no new clause written over it
    # the control: a clause amended whole takes its new wording
    assert units["D1.K1"].text == "1. Quy trình này quy định việc thu và cấp sổ."
    before = {u.id.split(":")[1]: u for u in consolidate(runner, "595/QĐ-BHXH",
                                                         date(2019, 1, 1)).units}
    assert "505/QĐ-BHXH" not in before["D2.K2"].mark()

    # trace: the enacted wording is not served as the wording in force after the date
    ctx = LegalRetriever(runner, HashEmbedder()).trace(["595/QĐ-BHXH:D2.K2"], as_of="2021-01-01")
    item = ctx.items[0]
    assert item.node_id == "595/QĐ-BHXH:D2.K2" and not item.applicable
    assert "không áp dụng nguyên văn" in item.validity_note
    # both instructions of the day are named, in a stable order (the CI once drew the other)
    assert "(Sửa đổi, bổ sung Điểm 2.1 Khoản 2 Điều 2)" in item.validity_note
    assert "bị bãi bỏ một phần bởi Khoản 3 Điều 1" in item.validity_note
    assert "(Bãi bỏ Điểm 2.3 Khoản 2 Điều 2" in item.validity_note
    early = LegalRetriever(runner, HashEmbedder()).trace(["595/QĐ-BHXH:D2.K2"],
                                                         as_of="2019-01-01").items[0]
    assert early.applicable
