"""How quoted new wordings and article names sit on lines in real copies (found by listing the
instructions of the shared corpus whose quotes gave no wording); the texts are written here.

- a straight quote opening the wording right after ``như sau: `` (``… như sau: "Điều 24. …``) was
  taken for a quote closed before an article, and the wording was lost;
- one wording closed with ``”`` and the next opened with ``"`` on the same line;
- a double quote typed as two single ones (``‘‘Điều 58. …”``);
- a wording left open and the next one opened on the same line (``… thông quan “9. …``);
- an article's name wrapped onto the next line, which opens in lower case.
"""

from __future__ import annotations

from pathlib import Path

from hopgraph.loaders.legal import ParsedDocument
from hopgraph.loaders.legal._layout import repair_layout
from tests.unit.legal._texts import parse_texts

AMENDED = """LUẬT
Luật số: 10/2010/QH12
Hà Nội, ngày 01 tháng 6 năm 2010
LUẬT THUẾ MẪU
Điều 1. Phạm vi
Luật này quy định về thuế mẫu.
Điều 2. Thu nhập chịu thuế
1. Thu nhập từ kinh doanh.
2. Thu nhập từ tiền lương, bao gồm:
a) Tiền lương;
b) Tiền công.
3. Thu nhập từ chuyển nhượng, bao gồm:
a) Chuyển nhượng vốn;
b) Chuyển nhượng chứng khoán.
Điều 3. Trách nhiệm của tổ chức trả
thu nhập
1. Khấu trừ thuế.
2. Cung cấp thông tin.
Điều 4. Hồ sơ hoàn thuế
1. Văn bản đề nghị.
Điều 5. Hành vi vi phạm
1. Khai sai.
2. Khai thiếu.
Điều 6. Hiệu lực
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2011.
"""


def _amending(body: str) -> str:
    return ("LUẬT\nLuật số: 30/2015/QH13\nHà Nội, ngày 10 tháng 3 năm 2015\n"
            "LUẬT SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT THUẾ MẪU\n"
            "Điều 1. Sửa đổi, bổ sung một số điều của Luật thuế mẫu số 10/2010/QH12\n"
            f"{body}\n"
            "Điều 2. Hiệu lực\nLuật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.\n")


def _load(tmp_path: Path, body: str) -> tuple[ParsedDocument, ParsedDocument]:
    by = parse_texts(tmp_path, a=AMENDED, b=_amending(body))
    return by["10/2010/QH12"], by["30/2015/QH13"]


def _wordings(doc: ParsedDocument) -> dict[str, str]:
    return {n.path: n.text for n in doc.new_units if n.kind == "version"}


def test_a_straight_quote_after_nhu_sau_opens_the_article_wording(tmp_path: Path) -> None:
    body = ('1. Điều 4 được sửa đổi, bổ sung như sau: "Điều 4. Hồ sơ hoàn thuế\n'
            "1. Văn bản đề nghị hoàn thuế.\n"
            '2. Tài liệu liên quan."')
    _, doc = _load(tmp_path, body)
    words = _wordings(doc)
    assert words["D4"].startswith("Điều 4. Hồ sơ hoàn thuế\n1. Văn bản đề nghị hoàn thuế.")
    assert words["D4"].endswith("2. Tài liệu liên quan.")


def test_the_wording_closes_before_the_next_article_without_a_name(tmp_path: Path) -> None:
    body = ('1. Điều 4 được sửa đổi, bổ sung như sau: "Điều 4. Hồ sơ hoàn thuế\n'
            '1. Văn bản đề nghị hoàn thuế."Điều 2.\n'
            "Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.")
    amending = ("LUẬT\nLuật số: 30/2015/QH13\nHà Nội, ngày 10 tháng 3 năm 2015\n"
                "LUẬT SỬA ĐỔI LUẬT THUẾ MẪU\nĐiều 1. Sửa đổi Luật thuế mẫu số 10/2010/QH12\n"
                f"{body}\n")
    doc = parse_texts(tmp_path, a=AMENDED, b=amending)["30/2015/QH13"]
    assert _wordings(doc)["D4"].endswith("1. Văn bản đề nghị hoàn thuế.")
    assert [u.path for u in doc.units if u.level == "Article"] == ["D1", "D2"]


def test_two_wordings_on_one_line_with_mixed_quotes(tmp_path: Path) -> None:
    body = ("1. Khoản 2 và khoản 3 Điều 2 được sửa đổi, bổ sung như sau:\n"
            "“2. Thu nhập từ tiền lương, tiền công, bao gồm:\n"
            "a) Tiền lương, tiền công;\n"
            'b) Phụ cấp.” "3. Thu nhập từ chuyển nhượng vốn, bao gồm:\n'
            "a) Chuyển nhượng phần vốn góp;\n"
            'b) Chuyển nhượng cổ phần."')
    _, doc = _load(tmp_path, body)
    words = _wordings(doc)
    # the clause takes its own points only, never the next clause's
    assert words["D2.K2"].endswith("b) Phụ cấp.") and "vốn góp" not in words["D2.K2"]
    assert words["D2.K3"].startswith("3. Thu nhập từ chuyển nhượng vốn")
    assert words["D2.K3.b"] == "b) Chuyển nhượng cổ phần."


def test_a_double_quote_typed_as_two_single_ones(tmp_path: Path) -> None:
    body = ("1. Điều 4 được sửa đổi, bổ sung như sau: ‘‘Điều 4. Hồ sơ hoàn thuế\n"
            "1. Văn bản đề nghị hoàn thuế.\n"
            "2. Tài liệu liên quan.”")
    _, doc = _load(tmp_path, body)
    assert _wordings(doc)["D4"].startswith("Điều 4. Hồ sơ hoàn thuế")


def test_a_wording_left_open_before_the_next_one_on_its_line(tmp_path: Path) -> None:
    body = ("1. Khoản 1 và khoản 2 Điều 5 được sửa đổi, bổ sung như sau:\n"
            "“1. Khai sai với thực tế hàng hóa đã được thông quan “2. Khai thiếu số thuế phải "
            "nộp.”")
    _, doc = _load(tmp_path, body)
    words = _wordings(doc)
    assert words["D5.K1"] == "1. Khai sai với thực tế hàng hóa đã được thông quan"
    assert words["D5.K2"] == "2. Khai thiếu số thuế phải nộp."


def test_an_article_name_wrapped_onto_a_lower_case_line_is_one_name(tmp_path: Path) -> None:
    amended, _ = _load(tmp_path, "1. Bãi bỏ khoản 2 Điều 3.")
    d3 = next(u for u in amended.units if u.path == "D3")
    assert d3.heading == "Trách nhiệm của tổ chức trả thu nhập"
    assert [u.path for u in amended.units if u.path.startswith("D3.")] == ["D3.K1", "D3.K2"]


def test_only_a_lower_case_line_continues_a_name() -> None:
    lines = [(1, "Điều 7. Cơ cấu tổ chức của Ủy ban nhân dân phường"),
             (2, "Ủy ban nhân dân phường gồm Chủ tịch, Phó Chủ tịch."),
             (3, "Điều 8. Đánh giá tác động hạn chế cạnh"),
             (4, "tranh một cách đáng kể"),
             (5, "a) điểm thứ nhất;"),
             (6, "Điều 9. Sửa đổi, bổ sung một số điều của Luật"),
             (7, "đất đai như sau:"),
             (8, "10. Điều 17 được sửa đổi, bổ sung như sau: “Điều 17. Địa điểm làm thủ tục hải "
                 "quan"),
             (9, "Địa điểm làm thủ tục hải quan là trụ sở Chi cục Hải quan.”")]
    out = [t for _, t in repair_layout(lines)]
    # a quoted article's name and its first line, which opens with "Đ" (upper case)
    assert "“Điều 17. Địa điểm làm thủ tục hải quan" in out
    assert out[0] == "Điều 7. Cơ cấu tổ chức của Ủy ban nhân dân phường"  # "Ủ" is upper case
    assert "Điều 8. Đánh giá tác động hạn chế cạnh tranh một cách đáng kể" in out
    assert "a) điểm thứ nhất;" in out  # a point is never part of a name
