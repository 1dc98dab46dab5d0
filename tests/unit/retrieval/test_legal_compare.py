"""Comparison with an official consolidated text (issue 24 item 4): splitting, normalising,
classifying, on a short hand-written VBHN."""

from __future__ import annotations

from datetime import date

from hopgraph.retrieval import ConsolidatedDocument, ConsolidatedUnit, compare_consolidation
from hopgraph.retrieval._legal_compare import normalise, split_official, unit_key

VBHN = """VĂN BẢN HỢP NHẤT
LUẬT MẪU
Chương I
QUY ĐỊNH CHUNG
Điều 1. Phạm vi
1. Luật này quy định về thủy sản.
2.[1] Thời hạn không quá 50 năm.
Văn bản hợp nhất 99/VBHN-VPQH năm 2024. Mục
1. QUẢN LÝ
Điều
2. Quản lý
1. Ủy ban nhân dân cấp tỉnh quản lý.
a) Điểm một;
b) Điểm hai.
2.[2] (được bãi bỏ)
Điều 3. Điều
kiện hoạt động
1. Có giấy phép.
XÁC THỰC VĂN BẢN HỢP NHẤT
[1] Khoản này được sửa đổi bởi Luật số 1/2024/QH15.
[2] Khoản này được bãi bỏ bởi Luật số 1/2024/QH15.
"""


def _u(uid: str, text: str, state: str = "original", level: str = "Clause"
       ) -> ConsolidatedUnit:
    return ConsolidatedUnit(id=uid, level=level, label=uid, depth=1, state=state,  # type: ignore[arg-type]
                            text=text)


def test_split_follows_the_vbhn_layout() -> None:
    units = split_official(VBHN)
    assert list(units) == [("1", None, None), ("1", "1", None), ("1", "2", None),
                           ("2", None, None), ("2", "1", None), ("2", "1", "a"),
                           ("2", "1", "b"), ("2", "2", None), ("3", None, None),
                           ("3", "1", None)]
    assert units[("3", None, None)].text == "Điều 3. Điều kiện hoạt động"
    assert [k for k, u in units.items() if u.marked] == [("1", "2", None), ("2", "2", None)]


def test_normalise_unifies_spelling_quotes_and_notes() -> None:
    assert normalise("Uỷ ban “A”  [3] ( x )") == normalise("Ủy ban \"A\" (x)")
    assert normalise("kỹ thuật, tỷ lệ") == normalise("kĩ thuật, tỉ lệ")
    assert unit_key("18/2017/QH14:D44.K4.a") == ("44", "4", "a")
    assert unit_key("18/2017/QH14:D5.b") == ("5", None, "b")
    assert unit_key("18/2017/QH14:C1") is None


def test_verdicts() -> None:
    doc = ConsolidatedDocument(doc_id="9/2017/QH14", number="9/2017/QH14", doc_type="Luật",
                               title="Luật Mẫu", as_of=date(2024, 9, 16), units=[
        _u("9/2017/QH14:D1", "Điều 1. Phạm vi", level="Article"),
        _u("9/2017/QH14:D1.K1", "1. Luật này quy định về thủy sản."),
        _u("9/2017/QH14:D1.K2", "2. Thời hạn không quá 30 năm."),
        _u("9/2017/QH14:D2", "Điều 2. Quản lý", level="Article"),
        _u("9/2017/QH14:D2.K1", "1. Uỷ ban nhân dân cấp tỉnh quản lý."),
        _u("9/2017/QH14:D2.K1.a", "a) Điểm một,", level="Point"),
        _u("9/2017/QH14:D2.K2", "2. Nội dung cũ."),
        _u("9/2017/QH14:D2.K3", "3. Khoản thừa."),
        _u("9/2017/QH14:D3", "Điều 3. Điều kiện hoạt động", level="Article"),
        _u("9/2017/QH14:D3.K1", "1. (bãi bỏ)", state="repealed"),
    ])
    result = compare_consolidation(doc, VBHN)
    verdicts = {u.key: u.verdict for u in result.units}
    assert verdicts == {
        ("1", None, None): "equal", ("1", "1", None): "equal", ("1", "2", None): "stale",
        ("2", None, None): "equal", ("2", "1", None): "equal",
        ("2", "1", "a"): "equal_punctuation", ("2", "1", "b"): "missing",
        ("2", "2", None): "repealed_shown", ("3", None, None): "equal",
        ("3", "1", None): "repealed_wrongly"}
    assert [u.key for u in result.extra] == [("2", "3", None)]
    assert result.equal() == (5, 10)
    assert result.equal(marked_only=True) == (0, 2)
    text = result.render()
    assert "tại ngày 16/09/2024" in text
    assert "Khoản 2 Điều 1: chưa cập nhật sửa đổi [có chú thích]" in text
