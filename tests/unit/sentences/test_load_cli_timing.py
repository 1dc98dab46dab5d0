"""``hopgraph load sentences`` reports the time of the whole command, the models' loading
included, and says that it is loading them (issue 18: "in 1.9s" after 46 s)."""

from __future__ import annotations

import importlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli, load
from tests.unit.sentences.fakes import FakeEmbedder, FakeTagger, RecordingRunner

MODEL_LOAD_S = 0.5


def test_reported_time_counts_the_models(monkeypatch: pytest.MonkeyPatch) -> None:
    module = importlib.import_module(load.lazy["sentences"][0].partition(":")[0])

    def slow_embedder(*args: Any, **kwargs: Any) -> FakeEmbedder:
        time.sleep(MODEL_LOAD_S)
        return FakeEmbedder()

    @contextmanager
    def open_runner(settings: object, **kwargs: Any) -> Iterator[tuple[RecordingRunner, None]]:
        yield RecordingRunner(), None

    monkeypatch.setattr(module, "embedder_from_settings", slow_embedder)
    monkeypatch.setattr(module.SpacyTagger, "load", classmethod(lambda cls: FakeTagger()))
    monkeypatch.setattr(module, "open_runner", open_runner)
    result = CliRunner().invoke(cli, ["load", "sentences", "sample", "--no-llm"],
                                env={"HOPGRAPH_EMBED_THREADS": "1"})
    assert result.exit_code == 0, result.output
    assert "loading models: embedder all-MiniLM-L6-v2 (1 threads), spaCy tagger" in result.output
    loaded = next(line for line in result.output.splitlines() if line.startswith("loaded "))
    total = float(loaded.split(" in ")[1].split("s ")[0])
    models = float(loaded.split("(models ")[1].split("s,")[0])
    assert total >= models >= MODEL_LOAD_S
    assert ", graph " in loaded and "sentences/s)" in loaded
