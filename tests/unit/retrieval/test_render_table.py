"""``hopgraph retrieve``'s listing speaks Vietnamese: dates dd/mm/yyyy, no internal ids."""

from __future__ import annotations

from datetime import date

from hopgraph.cli._retrieval import render_table
from hopgraph.retrieval import LegalContext
from tests.unit.agents.fakes import NEW, OLD


def test_listing_is_vietnamese_without_ids() -> None:
    ctx = LegalContext(question="Mức thanh toán?", as_of=date(2024, 6, 1), items=[OLD, NEW],
                       seeds=[OLD.node_id], reason_if_empty=None, round_trips=1, latency_ms=12.0)
    out = render_table(ctx)
    assert out.splitlines()[1].startswith("Ngày xét: 01/06/2024")
    assert "[tìm được]" in out and "[nội dung đang áp dụng]" in out
    assert "ĐANG ÁP DỤNG" in out and "không áp dụng" in out
    assert ("chuỗi hiệu lực: được sửa đổi bởi khoản 1 Điều 1 Nghị định 40/2023/NĐ-MAU, có hiệu "
            "lực từ 01/01/2023") in out
    for english in ("as of", "APPLICABLE", "validity:", "path:", "id: ", "2024-06-01"):
        assert english not in out, english
