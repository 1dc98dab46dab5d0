"""Edit operations read from amending instructions (issue 24): phrase edits as substitution
pairs, a title or opening words amended alone, a moved start date, and a title that never
resolves to a law enacted after the citing one."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from hopgraph.loaders.legal import parse_inputs
from hopgraph.loaders.legal._citations import NameIndex
from hopgraph.loaders.legal._relations import mask_quotes, phrase_edits


def _edits(text: str) -> list[str] | None:
    quotes = [q[1:-1] for q in __import__("re").findall(r"“[^”]*”", text)]
    return phrase_edits(mask_quotes(text), quotes)


def test_phrase_edits_as_pairs() -> None:
    assert _edits("Thay thế cụm từ “tuyến huyện” bằng cụm từ “cấp cơ bản” tại khoản 3 Điều 6") \
        == ["tuyến huyện", "cấp cơ bản"]
    assert _edits("thay thế các cụm từ “A”, “B” bằng cụm từ “C” tại Điều 2") == \
        ["A", "C", "B", "C"]
    assert _edits("Bỏ cụm từ “và thị trấn” tại khoản 2 Điều 2") == \
        [" và thị trấn", "", "và thị trấn", ""]
    assert _edits("Bổ sung cụm từ “, cấp xã” vào sau cụm từ “cấp huyện” tại khoản 1 Điều 3") == \
        ["cấp huyện", "cấp huyện , cấp xã"]
    assert _edits("Cụm từ “hồ” tại khoản 3 Điều 2 được thay thế bằng cụm từ “hồ chứa”") == \
        ["hồ", "hồ chứa"]
    # quotations and masks that disagree, or no verb that says what to do: nothing applied
    assert phrase_edits("Thay thế cụm từ “…” tại khoản 1", []) is None
    assert _edits("Sửa đổi cụm từ “A” tại khoản 1") is None


def test_a_title_never_names_a_later_law() -> None:
    index = NameIndex()
    index.add("Luật Đất đai", "31/2024/QH15", date(2024, 1, 18))
    assert index.scoped(date(2018, 11, 24)).resolve("luật đất đai") is None
    assert index.scoped(date(2024, 6, 29)).resolve("luật đất đai") == "31/2024/QH15"
    # the citing text states the number beside the title: that number, though not loaded
    scoped = index.scoped(date(2018, 11, 24), {"luật đất đai": "45/2013/QH13"})
    assert scoped.resolve("luật đất đai") == "45/2013/QH13"


AMENDING = """QUỐC HỘI
Luật số: 20/2019/QH14
Hà Nội, ngày 01 tháng 6 năm 2019
LUẬT
SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT THỬ NGHIỆM
Điều 1. Sửa đổi, bổ sung một số điều của Luật thử nghiệm số 10/2015/QH13
1. Sửa đổi, bổ sung tên Điều 2 như sau:
“Điều 2. Phí và giá dịch vụ”
2. Sửa đổi, bổ sung khổ đầu khoản 4 Điều 3 như sau:
“4. Các hoạt động sau đây phải có giấy phép:”
3. Sửa đổi, bổ sung khoản 1 Điều 9 như sau:
“1. Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2016, trừ khoản 2 Điều này.”
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2020.
"""


def test_scopes_and_a_moved_start(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text(AMENDING, encoding="utf-8")
    docs, problems, _ = parse_inputs([path])
    assert not problems
    new = {n.path: n for n in docs[0].new_units}
    assert new["D2"].scope == "title"
    assert new["D3.K4"].scope == "lead"
    assert new["D9.K1"].scope is None
    assert new["D9.K1"].doc_start == date(2016, 7, 1)
    assert new["D2"].doc_start is None
    # every date here is the amending law's own start: a change of that start moves them
    assert {n.date_from_doc for n in new.values()} == {"20/2019/QH14"}
    assert {r.date_from_doc for r in docs[0].relations if r.type == "AMENDS"} == \
        {"20/2019/QH14"}


def test_an_amendment_of_a_later_document_is_dropped(tmp_path: Path) -> None:
    later = tmp_path / "later.txt"
    later.write_text("QUỐC HỘI\nLuật số: 10/2025/QH15\nHà Nội, ngày 01 tháng 6 năm 2025\nLUẬT\n"
                     "THỬ NGHIỆM\nĐiều 1. Phạm vi\n1. Nội dung.\n", encoding="utf-8")
    early = tmp_path / "early.txt"
    early.write_text(AMENDING.replace("Luật thử nghiệm số 10/2015/QH13",
                                      "Luật thử nghiệm số 10/2025/QH15"), encoding="utf-8")
    docs, _, _ = parse_inputs([later, early])
    amending = next(d for d in docs if d.meta.doc_id == "20/2019/QH14")
    assert not [r for r in amending.relations if r.target.startswith("10/2025/QH15")]
    assert not amending.new_units
    assert any("cannot change 10/2025/QH15" in str(w) for w in amending.warnings)


def test_an_impossible_start_date_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "bad-date.txt"
    path.write_text("QUỐC HỘI\nLuật số: 11/2015/QH13\nHà Nội, ngày 01 tháng 6 năm 2015\nLUẬT\n"
                    "THỬ NGHIỆM\nĐiều 1. Phạm vi\n1. Nội dung.\nĐiều 2. Hiệu lực thi hành\n"
                    "Luật này có hiệu lực thi hành từ ngày 01 tháng 13 năm 2016.\n",
                    encoding="utf-8")
    docs, problems, _ = parse_inputs([path])
    assert not problems and docs[0].meta.effective_date is None
    warned = [str(w) for w in docs[0].warnings if "impossible start date" in str(w)]
    assert len(warned) == 1 and "bad-date.txt:8" in warned[0] and "01 tháng 13" in warned[0]
