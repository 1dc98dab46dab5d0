"""Inputs that are not plain files, and file names that are not plain text (issue 18, found by
tests/benchmarks/reliability.py): each gets one line that names it and says what it is."""

from __future__ import annotations

import os
from pathlib import Path

from hopgraph.loaders.legal._formats import expand_paths
from hopgraph.loaders.legal._model import Problem, printable_name


def test_a_named_pipe_is_not_called_missing(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.txt"
    os.mkfifo(pipe)
    files, problems = expand_paths([pipe])
    assert files == []
    assert [str(p) for p in problems] == [
        f"{pipe}: not a regular file (a named pipe, socket or device): only files and folders "
        "are read"]


def test_a_dangling_symlink_says_so(tmp_path: Path) -> None:
    link = tmp_path / "gone.txt"
    link.symlink_to(tmp_path / "nowhere.txt")
    _, problems = expand_paths([link, tmp_path / "absent.txt"])
    assert [p.message for p in problems] == [
        "a symbolic link to nothing (its target does not exist)", "no such file or directory"]


def test_a_problem_stays_on_one_line_whatever_the_file_name() -> None:
    line = str(Problem("/t/bad\nname.txt", 1, "not UTF-8 text"))
    assert line == "/t/bad\\nname.txt:1: not UTF-8 text"
    assert str(Problem(os.fsdecode(b"/t/bad-\xff.txt"), None, "x")) == "/t/bad-\\xff.txt: x"
    assert printable_name("Luật_Bảo_vệ_môi_trường_2020.txt") == "Luật_Bảo_vệ_môi_trường_2020.txt"
    assert printable_name("a\u202eb\tc") == "a\\u202eb\\tc"
