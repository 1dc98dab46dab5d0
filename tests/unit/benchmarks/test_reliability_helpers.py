"""The reliability benchmark's pure helpers: the graph digest, percentiles, the one-line check
and the input mutations (the benchmark itself needs a server and is not part of the suite)."""

from __future__ import annotations

import json

from tests.benchmarks.reliability import (
    graph_digest,
    nested_json,
    one_line_for,
    percentile,
    renumber_articles,
    truncate,
)


class _Date:
    def __init__(self, iso: str) -> None:
        self.iso = iso

    def iso_format(self) -> str:
        return self.iso


def test_digest_ignores_row_order_and_dropped_properties() -> None:
    a = {"id": "a", "labels": ["Document"], "props": {"source_file": "/x/a.txt",
                                                      "issued": _Date("2020-01-01")}}
    b = {"id": "b", "labels": ["Article"], "props": {"text": "Điều 1"}}
    edge = {"source": "a", "target": "b", "type": "CONTAINS", "props": {}}
    moved = {**a, "props": {**a["props"], "source_file": "/y/a.txt"}}
    assert graph_digest([a, b], [edge]) == graph_digest([b, a], [edge])
    assert graph_digest([a, b], [edge]) != graph_digest([moved, b], [edge])
    assert graph_digest([a, b], [edge], drop_props=["source_file"]) == \
        graph_digest([moved, b], [edge], drop_props=["source_file"])
    assert graph_digest([a, b], [edge]) != graph_digest([a, b], [])
    changed = {**a, "props": {**a["props"], "issued": _Date("2020-01-02")}}
    assert graph_digest([a, b], [edge]) != graph_digest([changed, b], [edge])


def test_percentile_interpolates() -> None:
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([1.0, 2.0], 95) == 1.95
    assert percentile([5.0], 95) == 5.0
    assert percentile([], 50) != percentile([], 50)  # NaN


def test_one_line_for_counts_lines_about_the_input_only() -> None:
    out = ("SKIPPED /t/copy-a.txt: document 1/QH is also in /t/copy-b.txt: not loaded\n"
           "SKIPPED /t/copy-b.txt: document 1/QH is also in /t/copy-a.txt: not loaded\n"
           "documents loaded: 1, skipped: 2\n")
    assert one_line_for(out, "copy-a.txt") and one_line_for(out, "copy-b.txt")
    assert not one_line_for(out, "absent.txt")
    assert not one_line_for("SKIPPED /t/x.txt: a\nSKIPPED /t/x.txt: b\n", "x.txt")
    assert not one_line_for("Traceback\n  File /t/x.txt\n", "x.txt")


def test_mutations() -> None:
    text = "Điều 1. A\nĐiều 2. B\nĐiều 3. C\n"
    assert renumber_articles(text, {2: 1, 3: 7}) == "Điều 1. A\nĐiều 1. B\nĐiều 7. C\n"
    data = "ĐĐĐĐ".encode()
    inside = truncate(data, 0.5, inside_char=True)
    assert len(inside) == 5 and inside[-1] & 0xC0 != 0x80  # ends on a lead byte
    assert truncate(data, 0.5).decode() == "ĐĐ"
    assert json.loads(nested_json(3)) == [[[]]]
    assert nested_json(50).count("[") == 50
