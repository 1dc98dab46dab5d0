"""Every load command installs the schema first (idempotent), as ``load legal`` does.

A load onto a fresh server (``NEO4J_URI`` or a new local instance) would otherwise MERGE on
nodes without their uniqueness constraints and leave retrieval without its indexes.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli, load
from hopgraph.core.errors import DatabaseUnavailable


def _module_of(command: str) -> ModuleType:
    target, _ = load.lazy[command]
    return importlib.import_module(target.partition(":")[0])


def _recording_open_runner(seen: list[dict[str, Any]]) -> Any:
    @contextmanager
    def open_runner(settings: object, **kwargs: Any) -> Iterator[Any]:
        seen.append(kwargs)
        raise DatabaseUnavailable("stop here: the test only records how the runner is opened")
        yield  # pragma: no cover

    return open_runner


@pytest.mark.parametrize("command", ["legal", "sentences", "primekg"])
def test_load_command_opens_its_runner_with_the_schema(command: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    module = _module_of(command)
    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(module, "open_runner", _recording_open_runner(seen))
    if command == "sentences":  # models are built before the runner opens; none is needed here
        monkeypatch.setattr(module, "embedder_from_settings", lambda *a, **k: object())
        monkeypatch.setattr(module.SpacyTagger, "load", classmethod(lambda cls: object()))
        args = ["load", "sentences", "sample", "--no-llm"]
    elif command == "primekg":
        args = ["load", "primekg", "--sample"]
    else:
        args = ["load", "legal", "--no-embed", "loaders/legal/samples"]
    result = CliRunner().invoke(cli, args)
    assert seen == [{"ensure_schema": True}], result.output
    assert result.exit_code == 1 and "stop here" in result.output
