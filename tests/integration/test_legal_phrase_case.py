"""Phrase edits whose phrase the unit writes with a capital first letter, and a phrase edit beside
a new wording of the same unit from the same document. Found in the shared corpus: "Bãi bỏ cụm
từ “khoản 1” tại khoản 1 Điều 17" on a text that writes "Khoản 1 Điều 26"; "Bổ sung cụm từ
“…” sau cụm từ “trường hợp” tại khoản 2" where the clause opens "Trường hợp …"; "Thay thế cụm
từ “Tổng cục Hải quan” tại … khoản 2 Điều 24" beside a new wording of that clause. The decree's
second article names no document: its title, in capitals, does. Short texts written for this
test."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.retrieval import LegalRetriever, consolidate
from tests.retrieval_fixtures import HashEmbedder, load_texts

pytestmark = pytest.mark.integration

BASE = """NGHỊ ĐỊNH
Số: 08/2015/NĐ-MAU
Hà Nội, ngày 21 tháng 01 năm 2015
NGHỊ ĐỊNH QUY ĐỊNH CHI TIẾT LUẬT HẢI QUAN MẪU
Điều 1. Danh mục hàng hóa
1. Danh mục được xây dựng theo quy định tại Khoản 1 Điều 26 Luật Hải quan.
Điều 2. Điều chỉnh quy hoạch
1. Cơ quan có thẩm quyền điều chỉnh quy hoạch.
2. Trường hợp do yêu cầu quản lý mà làm thay đổi cơ cấu sử dụng đất thì được điều chỉnh.
Điều 3. Xác định trước
1. Tổ chức nộp hồ sơ đến Tổng cục Hải quan.
2. Trách nhiệm của Tổng cục Hải quan:
a) Từ chối hồ sơ không đủ điều kiện;
b) Thông báo kết quả.
Điều 4. Thủ tục
1. Hồ sơ gồm tờ khai.
2. Thời hạn giải quyết:
a) Cấp mới trong 10 ngày;
b) Cấp lại trong 05 ngày.
Điều 5. Hiệu lực
Nghị định này có hiệu lực thi hành từ ngày 15 tháng 3 năm 2015.
"""

AMENDER = """NGHỊ ĐỊNH
Số: 167/2025/NĐ-MAU
Hà Nội, ngày 30 tháng 6 năm 2025
NGHỊ ĐỊNH SỬA ĐỔI NGHỊ ĐỊNH SỐ 08/2015/NĐ-MAU
Điều 1. Sửa đổi, bổ sung một số điều của Nghị định số 08/2015/NĐ-MAU
1. Sửa đổi, bổ sung khoản 2 Điều 3 như sau:
“2. Trách nhiệm của Cục Hải quan:
a) Từ chối hồ sơ không đủ điều kiện trong 05 ngày;
b) Thông báo kết quả.”
Điều 2. Thay thế, bãi bỏ một số cụm từ
1. Thay thế cụm từ “Tổng cục Hải quan” tại khoản 1, khoản 2 Điều 3 bằng cụm từ “Cục Hải quan”.
2. Bãi bỏ cụm từ “khoản 1” tại khoản 1 Điều 1.
3. Bổ sung cụm từ “người sử dụng đất đã nộp tiền nhưng” sau cụm từ “trường hợp” tại khoản 2 \
Điều 2.
Điều 3. Hiệu lực
Nghị định này có hiệu lực thi hành từ ngày 15 tháng 8 năm 2025.
"""


def test_a_phrase_written_with_a_capital_and_one_beside_a_new_wording(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    load_texts(runner, tmp_path, {"08.txt": BASE, "167.txt": AMENDER})
    units = {u.id.split(":")[1]: u for u in consolidate(runner, "08/2015/NĐ-MAU",
                                                        date(2026, 1, 1)).units}
    # "cụm từ “khoản 1”" removed where the text writes "Khoản 1"
    assert units["D1.K1"].text == "1. Danh mục được xây dựng theo quy định tại Điều 26 Luật Hải quan."
    assert not units["D1.K1"].notes
    # added after "trường hợp" where the clause opens with "Trường hợp"; the new words take the
    # capital, the phrase they follow is not written twice
    assert units["D2.K2"].text == ("2. Trường hợp người sử dụng đất đã nộp tiền nhưng do yêu cầu "
                                   "quản lý mà làm thay đổi cơ cấu sử dụng đất thì được điều chỉnh.")
    # the phrase edit applied where the unit has no new wording of its own
    assert units["D3.K1"].text == "1. Tổ chức nộp hồ sơ đến Cục Hải quan."
    # the clause the same decree worded anew: that wording, and no note that the phrase was
    # not found in it
    k2 = units["D3.K2"]
    assert k2.state == "amended" and k2.text == "2. Trách nhiệm của Cục Hải quan:"
    assert units["D3.K2.a"].text == "a) Từ chối hồ sơ không đủ điều kiện trong 05 ngày;"
    assert not any("không tìm thấy cụm từ" in n for n in k2.notes), k2.notes
    # before the decree: the enacted wording
    early = {u.id.split(":")[1]: u for u in consolidate(runner, "08/2015/NĐ-MAU",
                                                        date(2020, 1, 1)).units}
    assert "Khoản 1 Điều 26" in early["D1.K1"].text
    assert early["D2.K2"].text.startswith("2. Trường hợp do yêu cầu")


ADDER = """NGHỊ ĐỊNH
Số: 291/2025/NĐ-MAU
Hà Nội, ngày 06 tháng 11 năm 2025
NGHỊ ĐỊNH SỬA ĐỔI NGHỊ ĐỊNH SỐ 08/2015/NĐ-MAU
Điều 1. Sửa đổi, bổ sung một số điều của Nghị định số 08/2015/NĐ-MAU
1. Bổ sung nội dung: “Trường hợp thuê đất thì được trừ vào tiền thuê đất” vào cuối khoản 1 \
Điều 2.
2. Bổ sung vào cuối khoản 1 Điều 3 nội dung: “; trường hợp nộp trực tuyến thì gửi qua cổng \
thông tin.”
3. Bổ sung vào cuối khoản 1 Điều 1 nội dung như sau:
“và Danh mục của Tổ chức Hải quan thế giới”.
4. Bổ sung nội dung: “Thời hạn là 05 ngày.” vào cuối khoản 2 Điều 3.
5. Bổ sung nội dung: “và bản sao giấy tờ tùy thân” tại cuối khoản 1 Điều 4.
6. Sửa đổi, bổ sung một số điểm của khoản 2 Điều 4 như sau:
a) Sửa đổi, bổ sung điểm a như sau:
Bổ sung nội dung: “, kể từ ngày nhận đủ hồ sơ” tại đoạn cuối điểm a.
7. Bổ sung đoạn mở đầu vào trước khoản 1 Điều 2 như sau:
“Việc điều chỉnh quy hoạch thực hiện như sau:”.
8. Thay thế cụm từ “05 ngày” thành “03 ngày làm việc”; bổ sung nội dung: “, kể từ ngày nhận đủ hồ sơ” tại cuối điểm b khoản 2 Điều 4.
Điều 2. Hiệu lực
Nghị định này có hiệu lực thi hành từ ngày 06 tháng 11 năm 2025.
"""


def test_a_text_added_at_the_end_of_a_unit(runner: Neo4jRunner, tmp_path: Path) -> None:
    """"Bổ sung nội dung: “…” vào cuối khoản 3 Điều 31", "Bổ sung vào cuối khoản 3 Điều 48 nội
    dung: “; …”", "… tại cuối khoản 8", "Bổ sung nội dung: “…” tại đoạn cuối tiết b1 điểm b"
    under "Sửa đổi, bổ sung tiết b1 điểm b như sau:" (291/2025/NĐ-CP on 103/2024/NĐ-CP): the
    text is added to the unit's wording; a clause with points is left as it was and said to be
    changed without its new wording. "Bổ sung đoạn mở đầu vào trước khoản 1 Điều 51 như sau:
    “…”" (61/2020/QH14 on 66/2014/QH13) gives the article opening words."""
    load_texts(runner, tmp_path, {"08.txt": BASE, "291.txt": ADDER})
    units = {u.id.split(":")[1]: u for u in consolidate(runner, "08/2015/NĐ-MAU",
                                                        date(2026, 1, 1)).units}
    # a sentence of its own after the clause's last one, ending as the clause did
    assert units["D2.K1"].text == ("1. Cơ quan có thẩm quyền điều chỉnh quy hoạch. Trường hợp "
                                   "thuê đất thì được trừ vào tiền thuê đất.")
    # a text opening with ';' goes on the sentence, before its final stop
    assert units["D3.K1"].text == ("1. Tổ chức nộp hồ sơ đến Tổng cục Hải quan; trường hợp nộp "
                                   "trực tuyến thì gửi qua cổng thông tin.")
    # words in lower case on the next line go on the sentence too
    assert units["D1.K1"].text == ("1. Danh mục được xây dựng theo quy định tại Khoản 1 Điều 26 "
                                   "Luật Hải quan và Danh mục của Tổ chức Hải quan thế giới.")
    assert units["D2.K1"].state == "amended" and not units["D2.K1"].notes
    # a clause with points: where its end lies is not known; unchanged, and said so
    k2 = units["D3.K2"]
    assert k2.text == "2. Trách nhiệm của Tổng cục Hải quan:"
    assert any("chưa trích xuất được nội dung mới" in n for n in k2.notes), k2.notes
    ctx = LegalRetriever(runner, HashEmbedder()).trace(["08/2015/NĐ-MAU:D3.K2"],
                                                       as_of="2026-01-01")
    assert not ctx.items[0].applicable
    assert "chưa trích xuất được nội dung mới" in ctx.items[0].validity_note
    assert units["D4.K1"].text == "1. Hồ sơ gồm tờ khai và bản sao giấy tờ tùy thân."
    assert units["D4.K2.a"].text == "a) Cấp mới trong 10 ngày, kể từ ngày nhận đủ hồ sơ;"
    # a phrase edit that names no place, then a text added at the end of a unit: both there
    assert units["D4.K2.b"].text == "b) Cấp lại trong 03 ngày làm việc, kể từ ngày nhận đủ hồ sơ."
    # opening words put before the first clause; the clauses stay
    assert "Việc điều chỉnh quy hoạch thực hiện như sau:" in units["D2"].text
    assert units["D2"].state == "amended" and units["D2.K2"].state == "original"
    # trace serves the clause's new wording as the one in force
    served = LegalRetriever(runner, HashEmbedder()).trace(["08/2015/NĐ-MAU:D2.K1"],
                                                          as_of="2026-01-01")
    now = [i for i in served.items if i.applicable]
    assert now and now[0].text.endswith("được trừ vào tiền thuê đất.")
