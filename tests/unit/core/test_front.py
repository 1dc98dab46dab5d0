"""The front door without a database: injection, lazy construction, closing, settings wiring."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import hopgraph
from hopgraph import Hopgraph
from hopgraph._front import embedder_from_settings
from hopgraph.core.errors import ConfigError, EmbeddingError
from hopgraph.core.settings import Settings
from tests.unit.fakes import RecordingRunner


class FixedEmbedder:
    name = "fixed"
    dimension = 4

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0, 0.0, 0.0, 0.0] for _ in texts]

    def embed_query(self, text: str) -> list[float]:
        return [1.0, 0.0, 0.0, 0.0]


class ClosableChat:
    model = "fake"

    def __init__(self) -> None:
        self.closed = False

    def complete(self, *a: Any, **k: Any) -> Any:
        raise AssertionError("not called")

    def close(self) -> None:
        self.closed = True


def test_package_face() -> None:
    assert {"Hopgraph", "Settings", "__version__"} <= set(hopgraph.__all__)
    assert hopgraph.Hopgraph is Hopgraph
    with pytest.raises(AttributeError):
        _ = hopgraph.nothing_here  # type: ignore[attr-defined]


def test_injected_runner_is_used_and_not_closed() -> None:
    runner = RecordingRunner()
    chat = ClosableChat()
    with Hopgraph(runner, legal_embedder=FixedEmbedder(), chat=chat) as hg:  # type: ignore[arg-type]
        assert hg.runner is runner
        assert hg.chat is chat
        assert hg.connection is None
        ctx = hg.legal.retrieve("Mức hưởng bảo hiểm y tế?", as_of="2024-06-01", k=3)
        assert ctx.items == []
        assert any(key.startswith("legal/") for key, _ in runner.calls)
        with pytest.raises(ConfigError, match="no neo4j driver"):
            _ = hg.driver
    assert not chat.closed  # injected: the caller closes it
    with pytest.raises(ConfigError, match="closed"):
        _ = hg.runner


def test_no_llm_never_builds_a_chat_model() -> None:
    settings = Settings().replace(llm=Settings().llm.__class__(base_url="http://127.0.0.1:9/v1"))
    hg = Hopgraph(RecordingRunner(), settings=settings, use_llm=False)  # type: ignore[arg-type]
    assert hg.chat is None


def test_bad_endpoint_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="int"):
        Hopgraph(42)  # type: ignore[arg-type]


def test_embedder_role_is_checked() -> None:
    hg = Hopgraph(RecordingRunner())  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="role"):
        hg.embedder("french")  # type: ignore[arg-type]


def test_onnx_exports_follow_hopgraph_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The drift of issue 17: with HOPGRAPH_HOME set, the ONNX export went under XDG_DATA_HOME."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    settings = Settings.from_env({"HOPGRAPH_HOME": str(tmp_path / "home")})
    assert settings.embedder.onnx_dir == tmp_path / "home" / "onnx"
    assert settings.embedder.cache_dir == tmp_path / "home" / "embedding-cache"
    seen: dict[str, Any] = {}

    def fake_build(model: str, cache_dir: Path | None = None, **kw: Any) -> FixedEmbedder:
        seen.update(model=model, cache_dir=cache_dir, **kw)
        return FixedEmbedder()

    monkeypatch.setattr("hopgraph.models.build_embedder", fake_build)
    embedder_from_settings(settings, "english")
    assert seen["model"] == "all-MiniLM-L6-v2"
    assert seen["onnx_dir"] == tmp_path / "home" / "onnx"
    assert seen["cache_dir"] == tmp_path / "home" / "embedding-cache"
    # Settings built in code (no from_env) still keep exports under the runtime home.
    plain = Settings().replace(runtime=settings.runtime)
    embedder_from_settings(plain, "legal")
    assert seen["onnx_dir"] == tmp_path / "home" / "onnx"


def test_endpoint_embedder_settings() -> None:
    env = {"HOPGRAPH_LEGAL_EMBEDDER": "openai", "HOPGRAPH_EMBED_BASE_URL": "http://h:1/v1",
           "HOPGRAPH_EMBED_MODEL": "bge-m3", "HOPGRAPH_EMBED_DIMENSION": "1024",
           "HOPGRAPH_EMBED_BATCH_SIZE": "16"}
    s = Settings.from_env(env)
    assert s.embedder.endpoint is not None
    assert (s.embedder.endpoint.model, s.embedder.endpoint.dimension,
            s.embedder.endpoint.batch_size) == ("bge-m3", 1024, 16)
    assert s.embedder.dimension == 1024  # the vector indexes follow the endpoint
    assert Settings.from_env({k: v for k, v in env.items() if "LEGAL" not in k}
                             ).embedder.dimension == 384
    with pytest.raises(ConfigError, match="HOPGRAPH_EMBED_BASE_URL"):
        Settings.from_env({"HOPGRAPH_ENGLISH_EMBEDDER": "openai"})
    with pytest.raises(ConfigError, match="HOPGRAPH_EMBED_MODEL"):
        Settings.from_env({"HOPGRAPH_EMBED_BASE_URL": "http://h:1/v1"})
    with pytest.raises(ConfigError, match="HOPGRAPH_EMBED_DIMENSION"):
        Settings.from_env({"HOPGRAPH_EMBED_BASE_URL": "http://h:1/v1",
                           "HOPGRAPH_EMBED_MODEL": "m"})
    with pytest.raises(ConfigError, match="BATCH_SIZE"):
        Settings.from_env({**env, "HOPGRAPH_EMBED_BATCH_SIZE": "0"})


def test_openai_embedder_needs_an_endpoint() -> None:
    from hopgraph.models import build_embedder

    with pytest.raises(EmbeddingError, match="endpoint"):
        build_embedder("openai")


def test_hopgraph_without_settings_reads_the_environment(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``Hopgraph()`` honours ``NEO4J_*`` / ``HOPGRAPH_*`` as the CLI and ``from_env`` do (it
    connected to 7687 whatever ``HOPGRAPH_BOLT_PORT`` said)."""
    monkeypatch.setenv("HOPGRAPH_HOME", str(tmp_path))
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:17999")
    monkeypatch.setenv("NEO4J_DATABASE", "legal")
    monkeypatch.setenv("HOPGRAPH_EMBED_THREADS", "3")
    hg = Hopgraph(use_llm=False)
    assert hg.settings.neo4j.uri == "bolt://127.0.0.1:17999"
    assert hg.settings.neo4j.database == "legal"
    assert hg.settings.runtime.home == tmp_path
    assert hg.settings.embedder.threads == 3
    given = Settings()
    assert Hopgraph(settings=given, use_llm=False).settings is given  # explicit settings win


@pytest.mark.parametrize(("question", "reason"), [
    ("Which drug \udcff targets ABL1?", "không phải văn bản UTF-8 hợp lệ"),
    ("x" * 100_000, "giới hạn là 2000 ký tự"),
    ("?!…", "không có từ nào để tìm"),
    ("   ", "question: để trống"),
])
def test_biomedical_and_sentence_calls_refuse_what_the_cli_refuses(question: str,
                                                                      reason: str) -> None:
    """Issue 25: one validation layer; the Python API's biomedical and sentence calls accepted
    100 KB questions, bare punctuation and undecodable bytes the CLI refuses. They are refused
    before any query runs."""
    from hopgraph.core.errors import RetrievalError

    runner = RecordingRunner()
    with Hopgraph(runner, english_embedder=FixedEmbedder()) as hg:  # type: ignore[arg-type]
        for call in (hg.biomed.ask, hg.biomed.region, hg.sentences.retrieve, hg.sentences.ask):
            with pytest.raises(RetrievalError, match=reason):
                call(question)
    assert runner.calls == []
