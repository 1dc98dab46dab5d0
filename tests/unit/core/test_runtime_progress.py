"""The first assembly of the local Neo4j says what it is doing while Maven downloads (issue 18):
a line naming the versions and the target, the transfers counted as Maven logs them, the time
it took. Maven and Java are stand-in scripts here: no network, no JDK."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from hopgraph.core.errors import RuntimeSetupError
from hopgraph.db import _runtime

FAKE_MVN = """#!/bin/sh
echo "[INFO] Scanning for projects..."
echo "[INFO] Downloading from central: https://repo.maven.apache.org/maven2/org/neo4j/neo4j/5.26/neo4j.pom"
echo "[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/neo4j/neo4j/5.26/neo4j.pom (12 kB at 40 kB/s)"
echo "[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/neo4j/neo4j/5.26/neo4j.jar (2.5 MB at 3 MB/s)"
echo "Downloaded from central: https://repo.maven.apache.org/maven2/apoc.jar (900 B at 1 kB/s)"
if [ -n "$FAIL" ]; then echo "[ERROR] Could not resolve dependencies for project x"; exit 1; fi
echo "[INFO] BUILD SUCCESS"
"""


@pytest.fixture
def fake_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, text in (("mvn", FAKE_MVN), ("java", "#!/bin/sh\nexit 0\n")):
        tool = bin_dir / name
        tool.write_text(text)
        tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return tmp_path


def test_first_assembly_reports_what_it_does(fake_tools: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_runtime, "PROGRESS_EVERY_S", 0.0)  # a count line after every log line
    lines: list[str] = []
    home = _runtime.assemble(fake_tools / "cache", progress=lines.append)
    assert (home / ".complete").exists()
    assert lines[0].startswith(f"assembling Neo4j {_runtime.NEO4J_VERSION} with APOC, GDS ")
    assert str(home) in lines[0]
    assert "  maven: 3 files downloaded (2.5 MB) in all" in lines
    assert "  maven: 1 files downloaded (0.0 MB)" in lines  # counted as they come
    assert not any("Scanning" in line for line in lines)  # quiet: Maven's own log stays out
    assert lines[-1].startswith("Neo4j assembled in ")
    again: list[str] = []
    assert _runtime.assemble(fake_tools / "cache", progress=again.append) == home
    assert again == []  # cached: nothing to say


def test_a_verbose_assembly_streams_maven_and_a_failure_names_the_cause(
        fake_tools: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines: list[str] = []
    monkeypatch.setenv("FAIL", "1")
    with pytest.raises(RuntimeSetupError, match="Could not resolve dependencies for project x"):
        _runtime.assemble(fake_tools / "cache", quiet=False, progress=lines.append)
    assert "  maven: [INFO] Scanning for projects..." in lines
    assert not list((fake_tools / "cache").glob("*/neo4j-home-*"))  # staging removed
