"""A load checks the free space of the local store's disk before it writes anything (issue 26
item 7): below the threshold (HOPGRAPH_MIN_FREE_MB / --min-free-mb) it stops with one line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli
from hopgraph.core.errors import RuntimeSetupError
from hopgraph.core.settings import DEFAULT_MIN_FREE_MB, Settings
from hopgraph.db import Connection, check_free_space
from hopgraph.loaders.legal import SAMPLES_DIR


def _local(tmp_path: Path) -> tuple[Settings, Connection]:
    settings = Settings.from_env({"HOPGRAPH_HOME": str(tmp_path), "HOPGRAPH_RUNTIME": "local"})
    conn = Connection("local", "bolt://127.0.0.1:1", "neo4j", "x", "neo4j", None)
    return settings, conn


def test_the_threshold_is_a_setting() -> None:
    assert Settings.from_env({}).runtime.min_free_mb == DEFAULT_MIN_FREE_MB == 1024.0
    assert Settings.from_env({"HOPGRAPH_MIN_FREE_MB": "50"}).runtime.min_free_mb == 50.0


def test_too_little_space_is_one_line_naming_the_store(tmp_path: Path) -> None:
    settings, conn = _local(tmp_path)
    free_mb = shutil.disk_usage(tmp_path).free / 1e6
    assert check_free_space(settings, conn, min_free_mb=1.0) == pytest.approx(free_mb, rel=0.05)
    with pytest.raises(RuntimeSetupError) as caught:
        check_free_space(settings, conn, min_free_mb=free_mb * 10)
    message = str(caught.value)
    assert message.startswith("only ") and str(tmp_path) in message
    assert "HOPGRAPH_MIN_FREE_MB" in message and "\n" not in message


def test_a_server_whose_disk_is_not_visible_is_not_checked(tmp_path: Path) -> None:
    settings, _ = _local(tmp_path)
    external = Connection("external", "bolt://db.example:7687", "neo4j", "x", "neo4j", None)
    assert check_free_space(settings, external, min_free_mb=1e15) is None


def test_load_legal_refuses_before_connecting(tmp_path: Path) -> None:
    # nothing listens on the configured port: the refusal must come before any connection
    result = CliRunner().invoke(
        cli, ["load", "legal", "--no-embed", "--min-free-mb", "1e15",
              str(SAMPLES_DIR / "12-2016-ND-MAU-nghi-dinh-huong-dan.txt")],
        env={"HOPGRAPH_HOME": str(tmp_path), "HOPGRAPH_RUNTIME": "local", "NEO4J_URI": "",
             "HOPGRAPH_BOLT_PORT": "1"})
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: only ")
    assert "nothing was loaded" in lines[0]
