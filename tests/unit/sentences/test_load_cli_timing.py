"""``hopgraph load sentences`` reports the time of the whole command, the models' loading
included, and says that it is loading them (issue 18: "in 1.9s" after 46 s)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli
from tests.unit.sentences.fakes import FakeEmbedder, patch_load_sentences

MODEL_LOAD_S = 0.5


def test_reported_time_counts_the_models(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow_embedder(*args: Any, **kwargs: Any) -> FakeEmbedder:
        time.sleep(MODEL_LOAD_S)
        return FakeEmbedder()

    patch_load_sentences(monkeypatch, slow_embedder)
    result = CliRunner().invoke(cli, ["load", "sentences", "sample", "--no-llm"],
                                env={"HOPGRAPH_EMBED_THREADS": "1"})
    assert result.exit_code == 0, result.output
    assert "loading models: embedder all-MiniLM-L6-v2 (1 threads), spaCy tagger" in result.output
    loaded = next(line for line in result.output.splitlines() if line.startswith("loaded "))
    total = float(loaded.split(" in ")[1].split("s ")[0])
    models = float(loaded.split("(models ")[1].split("s,")[0])
    assert total >= models >= MODEL_LOAD_S
    assert ", graph " in loaded and "sentences/s)" in loaded
