"""The benchmarks' shared helper (issue 28): the record's four lines, the load line, the commit."""

from __future__ import annotations

import re

import pytest

from tests.benchmarks import _common, index


def test_the_header_is_the_four_lines_the_index_reads() -> None:
    lines = _common.record_header("python -m tests.benchmarks.legal_load --vectors", "3d301b7",
                                  _common.load_line(1.74, 1.52), "a bare write, same run")
    fields = dict(m.groups() for m in map(index._FIELD.match, lines) if m)
    assert list(fields) == list(index.FIELDS)
    assert fields["command"] == "`python -m tests.benchmarks.legal_load --vectors`"
    assert re.fullmatch(r"1\.7 at the start, 1\.5 at the end \(1-minute average, \d+ cores\)",
                        fields["machine load"])


@pytest.mark.parametrize("field", ["command", "commit", "load", "baseline"])
def test_an_empty_or_broken_header_line_is_refused_by_name(field: str) -> None:
    values = {"command": "python -m x", "commit": "abc", "load": "1.0", "baseline": "none"}
    values[field] = "two\nlines" if field == "baseline" else " "
    with pytest.raises(ValueError, match="record header"):
        _common.record_header(values["command"], values["commit"], values["load"],
                              values["baseline"])


def test_the_commit_is_this_checkout_s_head_or_unknown() -> None:
    value = _common.commit()
    assert value == "unknown" or re.fullmatch(r"[0-9a-f]{7,40}", value)
    assert _common.commit("no-such-revision-xyz") == "unknown"


def test_the_load_line_without_an_end_names_only_the_start() -> None:
    assert _common.load_line(0.5).startswith("0.5 at the start (1-minute average, ")
