"""``hopgraph dataset build`` on the real server with the samples and a fake OpenAI-compatible
endpoint (``tests/integration/local_http.py``) that reads the contexts in the prompt and answers
in the schema: every hop cited with a span copied from its context, except for tuples of three
contexts, where it cites only the first two (the validator must reject those)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR
from tests.integration.conftest import Server

from .local_http import send_json, serve

pytestmark = pytest.mark.integration
_CONTEXT = re.compile(r"^context_(\d+) \(id [^;]+; .*\):\n(.+)$", re.MULTILINE)


class _QAWriter(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body: dict[str, Any] = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = body["messages"][-1]["content"]
        contexts = _CONTEXT.findall(prompt)
        cited = contexts[:2] if len(contexts) == 3 else contexts
        spans = [(n, " ".join(line.split()[:8])) for n, line in cited]
        content = json.dumps({
            "question": "Câu hỏi kết hợp " + " và ".join(f"ngữ cảnh {n}" for n, _ in contexts),
            "answer": "Kết hợp: " + "; ".join(s for _, s in spans),
            "reasoning": "Mỗi ngữ cảnh góp một phần của câu trả lời.",
            "evidence": [{"context": f"context_{n}", "span": s} for n, s in spans],
        }, ensure_ascii=False)
        reply = json.dumps({
            "id": "qa-1", "object": "chat.completion", "created": 0, "model": "fake-qa",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}},
            ensure_ascii=False).encode()
        send_json(self, reply)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture()
def qa_endpoint() -> Iterator[str]:
    with serve(_QAWriter) as url:
        yield url


def test_dataset_build_with_a_fake_endpoint(runner: Neo4jRunner, neo4j_server: Server,
                                            qa_endpoint: str, tmp_path: Path) -> None:
    env = {"NEO4J_PASSWORD": neo4j_server.password, "HOPGRAPH_LLM_BASE_URL": qa_endpoint,
           "HOPGRAPH_LLM_MODEL": "fake-qa", "HOPGRAPH_EMBED_THREADS": "1"}
    loaded = CliRunner().invoke(cli, ["--uri", neo4j_server.uri, "load", "legal",
                                      str(SAMPLES_DIR)], env=env)
    assert loaded.exit_code == 0, loaded.output
    out = tmp_path / "ds"
    result = CliRunner().invoke(cli, ["--uri", neo4j_server.uri, "dataset", "build", "--out",
                                      str(out), "--per-hop", "2", "--hops", "2,3",
                                      "--graph-per-kind", "2"], env=env)
    assert result.exit_code == 0, result.output
    stats = json.loads((out / "stats.json").read_text(encoding="utf-8"))
    assert stats["contexts"] >= 10 and stats["clusters"]["k"] >= 2
    assert stats["tuples"]["h=2 semantic"] == 2 and stats["tuples"]["h=3 semantic"] >= 1
    assert stats["tuples"].get("h=2 refers_to") == 2 and stats["tuples"].get("h=2 amends") == 2
    # the fake endpoint leaves the third context of every 3-hop tuple uncited
    assert stats["rejections"] == {"not every hop's context is cited by an evidence span":
                                   stats["tuples"]["h=3 semantic"]}
    rows = [json.loads(line) for name in ("train", "test")
            for line in (out / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == stats["accepted"] == 6
    assert {r["kind"] for r in rows} == {"semantic", "refers_to", "amends"}
    for r in rows:
        assert set(r) >= {"query", "answer", "hops", "reasoning", "evidence", "context_ids",
                          "contexts"}
        texts = {c["id"]: c["text"] for c in r["contexts"]}
        assert len({c["title"] for c in r["contexts"]}) == r["hops"] or r["kind"] != "semantic"
        for ev in r["evidence"]:
            assert " ".join(ev["text"].split()) in " ".join(texts[ev["context_id"]].split())
    rejected = (out / "rejected.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(rejected) == stats["tuples"]["h=3 semantic"]


def test_dataset_build_without_an_llm_is_one_line(runner: Neo4jRunner, neo4j_server: Server,
                                                   tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--uri", neo4j_server.uri, "dataset", "build", "--out",
                                      str(tmp_path / "x")],
                                env={"NEO4J_PASSWORD": neo4j_server.password,
                                     "HOPGRAPH_LLM_BASE_URL": "", "OPENAI_BASE_URL": ""})
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1].startswith(
        "Error: dataset build needs an LLM endpoint")
