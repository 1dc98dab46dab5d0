"""The fictional sample regulations are marked wherever a citation names one."""

from __future__ import annotations

from hopgraph.core.samples import FICTIONAL_MARK, is_sample_document, mark_fictional


def test_sample_numbers_are_marked_once_and_ids_are_left_alone() -> None:
    cited = "Khoản 2 Điều 3 Nghị định số 12/2016/NĐ-MAU: mức hưởng 40%."
    marked = mark_fictional(cited)
    assert marked == f"Khoản 2 Điều 3 Nghị định số 12/2016/NĐ-MAU {FICTIONAL_MARK}: mức hưởng 40%."
    assert mark_fictional(marked) == marked
    assert mark_fictional("[Luật 01/2015/QH-MAU], 1234/QĐ-MAU.") == (
        f"[Luật 01/2015/QH-MAU {FICTIONAL_MARK}], 1234/QĐ-MAU {FICTIONAL_MARK}.")
    for untouched in ("id: 12/2016/NĐ-MAU:D3.K2", "12/2016/NĐ-MAU:D3.K2@40/2023/NĐ-MAU",
                      "Luật 25/2008/QH12", "Nghị định 146/2018/NĐ-CP"):
        assert mark_fictional(untouched) == untouched
    assert is_sample_document("40/2023/NĐ-MAU") and not is_sample_document("25/2008/QH12")
