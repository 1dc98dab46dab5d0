"""The local runtime keeps an instance private (issue 18): the directory is its user's alone,
nothing in it is readable by others, and the password is on no command line."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hopgraph.core.settings import default_home
from hopgraph.db import LocalInstance, _runtime, connect, free_port

pytestmark = [pytest.mark.integration, pytest.mark.slow]  # starts its own Neo4j server


def test_instance_is_private_and_the_password_never_an_argument(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = Path(os.environ.get("HOPGRAPH_HOME") or default_home())
    if not (_runtime.neo4j_home(home / "cache") / ".complete").exists():
        pytest.skip("the local runtime is not assembled in the hopgraph cache")
    argvs: list[list[str]] = []
    real_run, real_popen = subprocess.run, subprocess.Popen

    def run(cmd: list[str], *args: Any, **kwargs: Any) -> Any:
        argvs.append(list(cmd))
        return real_run(cmd, *args, **kwargs)

    class Popen(real_popen):  # type: ignore[misc, valid-type]
        def __init__(self, cmd: list[str], *args: Any, **kwargs: Any) -> None:
            argvs.append(list(cmd))
            super().__init__(cmd, *args, **kwargs)

    monkeypatch.setattr(_runtime.subprocess, "run", run)
    monkeypatch.setattr(_runtime.subprocess, "Popen", Popen)
    root = tmp_path / "instance"
    root.mkdir(mode=0o755)  # an existing, world-readable directory is made private too
    inst = LocalInstance(root=root, cache_root=home / "cache", bolt_port=free_port(),
                         http_port=free_port())
    pid = inst.start()
    try:
        password = inst.password()
        # the initial password was set from the file: the server accepts it
        connect(inst.uri, "neo4j", password).close()
        assert any("set-initial-password" in a for argv in argvs for a in argv)
        assert not [argv for argv in argvs if any(password in a for a in argv)]
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        assert password not in cmdline
        assert stat.S_IMODE(root.stat().st_mode) == 0o700
        exposed = []
        for dirpath, dirnames, filenames in os.walk(root):
            for name in [*dirnames, *filenames]:
                path = Path(dirpath) / name
                mode = path.lstat().st_mode
                if not stat.S_ISLNK(mode) and stat.S_IMODE(mode) & 0o077:
                    exposed.append(f"{path.relative_to(root)} {oct(stat.S_IMODE(mode))}")
        assert not exposed
        assert (root / "data" / "dbms" / "auth.ini").exists()
        assert stat.S_IMODE(inst.password_file.stat().st_mode) == 0o600
    finally:
        inst.stop()
