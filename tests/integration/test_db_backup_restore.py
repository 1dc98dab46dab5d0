"""Nothing lost when the store breaks (issue 26 item 7), with the CLI on a local runtime this test
starts itself (its own hopgraph home and free ports; it stops only that server):

``load legal`` refuses to start below the free-space threshold; ``db backup`` dumps the graph;
after the transaction log is damaged, ``db start`` does not say "up" but names the database's
state and the server's reason, and ``db status`` says the same in one line; ``db restore`` loads
the dump back and the graph is the one it came from.

Slow by nature (three server starts and two runs of neo4j-admin): one test.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from hopgraph.cli import cli
from hopgraph.core.settings import Settings
from hopgraph.db import free_port, local_instance
from hopgraph.loaders.legal import SAMPLES_DIR

pytestmark = [pytest.mark.integration, pytest.mark.slow]  # starts its own Neo4j server

CACHE = Path.home() / ".local" / "share" / "hopgraph" / "cache"
SAMPLE = SAMPLES_DIR / "12-2016-ND-MAU-nghi-dinh-huong-dan.txt"


@pytest.fixture
def home(tmp_path: Path) -> Iterator[dict[str, str]]:
    if not CACHE.exists():
        pytest.skip(f"no assembled Neo4j runtime in {CACHE}")
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "cache").symlink_to(CACHE)  # the assembled NEO4J_HOME, not a new one
    env = {"HOPGRAPH_HOME": str(tmp_path / "home"), "HOPGRAPH_RUNTIME": "local",
           "HOPGRAPH_BOLT_PORT": str(free_port()), "HOPGRAPH_HTTP_PORT": str(free_port()),
           "NEO4J_URI": "", "NEO4J_PASSWORD": "", "HOPGRAPH_EMBED_THREADS": "1"}
    try:
        yield env
    finally:
        local_instance(Settings.from_env(env)).stop()  # this test's server only


def _run(env: dict[str, str], *args: str) -> Result:
    return CliRunner().invoke(cli, list(args), env=env)


def _nodes(env: dict[str, str]) -> int:
    status = _run(env, "db", "status", "--json")
    assert status.exit_code == 0, status.output
    import json

    return int(json.loads(status.output)["nodes"])


def test_a_backup_brings_back_a_graph_whose_store_broke(home: dict[str, str],
                                                        tmp_path: Path) -> None:
    started = _run(home, "db", "start")
    assert started.exit_code == 0 and "is up" in started.output, started.output

    refused = _run(home, "load", "legal", "--no-embed", "--min-free-mb", "1e12", str(SAMPLE))
    assert refused.exit_code == 1
    assert refused.output.startswith("Error: only ") and "nothing was loaded" in refused.output
    assert len(refused.output.strip().splitlines()) == 1
    assert _nodes(home) == 0

    loaded = _run(home, "load", "legal", "--no-embed", str(SAMPLE))
    assert loaded.exit_code == 0, loaded.output
    before = _nodes(home)
    assert before > 10

    assert _run(home, "db", "stop").exit_code == 0
    backup = _run(home, "db", "backup", "--to", str(tmp_path / "backups"))
    assert backup.exit_code == 0, backup.output
    dumps = list((tmp_path / "backups").glob("neo4j-*.dump"))
    assert len(dumps) == 1 and dumps[0].stat().st_size > 0

    # damage the transaction log as a crash on a full disk can: the database cannot recover
    logs = Path(home["HOPGRAPH_HOME"]) / "instance" / "data" / "transactions" / "neo4j"
    for log in logs.glob("neostore.transaction.db*"):
        with open(log, "r+b") as f:
            f.write(b"\xff" * 64)
            f.flush()
            os.fsync(f.fileno())
    broken = _run(home, "db", "start")
    assert broken.exit_code == 1, broken.output
    assert "is up" not in broken.output
    line = broken.output.strip().splitlines()[-1]
    assert line.startswith("Error: Neo4j answers at ") and "its database 'neo4j' is " in line
    assert "hopgraph db restore" in line
    status = _run(home, "db", "status")
    assert status.exit_code == 1 and "Traceback" not in status.output
    assert status.output.strip().splitlines()[-1].startswith("Error: database 'neo4j' is ")

    restored = _run(home, "db", "restore", str(dumps[0]), "--yes")
    assert restored.exit_code == 0, restored.output
    assert _nodes(home) == before
