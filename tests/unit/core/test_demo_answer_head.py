"""`hopgraph demo` shows each sample answer's first lines: cut between evidence items, never
between a citation and its wording."""

from __future__ import annotations

from hopgraph.cli._demo import answer_head

ANSWER = "\n".join([
    "[Trích xuất nguyên văn]",
    "Hiệu lực xét tại ngày 01/06/2019.",
    "- Khoản 2 Điều 3 (đang áp dụng):",
    '  "2. Sáu mươi phần trăm."',
    "- Điều 3 (đang áp dụng):",
    '  "Điều 3. Mức hưởng …"',
    "  Chuỗi hiệu lực: được sửa đổi bởi …",
    "- Khoản 1 Điều 3 (đang áp dụng):",
    '  "1. Người tham gia …"',
])


def test_a_cut_falls_between_items_and_says_what_was_left_out() -> None:
    # 8 lines would end on "- Khoản 1 Điều 3 …:" without its wording
    head = answer_head(ANSWER, 8)
    assert head[:7] == ANSWER.splitlines()[:7]
    assert head[7] == "(… và 1 căn cứ khác: xem đầy đủ bằng `hopgraph ask`)"
    assert len(head) == 8
    # a cut inside the second item drops it whole
    head = answer_head(ANSWER, 6)
    assert head[-2:] == ['  "2. Sáu mươi phần trăm."',
                         "(… và 2 căn cứ khác: xem đầy đủ bằng `hopgraph ask`)"]


def test_a_short_answer_and_a_long_first_item_are_shown_whole() -> None:
    assert answer_head(ANSWER, 20) == ANSWER.splitlines()
    head = answer_head(ANSWER, 3)  # the first item ends on line 4: shown whole all the same
    assert head[:4] == ANSWER.splitlines()[:4] and head[4].startswith("(… và 2 căn cứ khác")
    assert answer_head("một\nhai\nba", 2) == ["một", "hai"]  # no item: a plain cut
