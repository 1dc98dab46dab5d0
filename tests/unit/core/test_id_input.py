"""A document or unit id is read as a user types it (ND for NĐ, case, spaces) and an unknown one
is refused with the closest loaded ids, by one helper (hopgraph.core.questions) on every surface:
the front door, the serving layer (HTTP, MCP) and the CLI."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from hopgraph import Hopgraph, create_app
from hopgraph.core.errors import HopgraphError, RetrievalError
from hopgraph.core.questions import InputError, resolve_document_id, resolve_unit_id
from tests.unit.fakes import RecordingRunner
from tests.unit.sentences.fakes import FakeEmbedder

LOADED = ["12/2016/NĐ-MAU", "1234/QĐ-TTg", "40/2023/NĐ-MAU"]
HINT = "có phải ý bạn là 12/2016/NĐ-MAU"


def test_typed_ids_resolve_to_the_loaded_one() -> None:
    for typed in ("12/2016/NĐ-MAU", "12/2016/ND-MAU", "12/2016/nd-mau", " 12 / 2016 / NĐ-MAU ",
                  "12/2016/NĐ-MAU".lower()):
        assert resolve_document_id(typed, LOADED) == "12/2016/NĐ-MAU", typed
    assert resolve_document_id("1234/qd-ttg", LOADED) == "1234/QĐ-TTg"
    assert resolve_unit_id("12/2016/nd-mau:d3.k2.a", LOADED) == "12/2016/NĐ-MAU:D3.K2.a"
    assert resolve_unit_id("12/2016/ND-MAU:D3.K2@40/2023/nd-mau", LOADED) == \
        "12/2016/NĐ-MAU:D3.K2@40/2023/NĐ-MAU"


def test_an_unknown_or_malformed_id_is_one_line_with_suggestions() -> None:
    with pytest.raises(InputError) as caught:
        resolve_document_id("12/2061/ND-MAU", LOADED)
    assert caught.value.field == "doc_id"
    assert str(caught.value).startswith("doc_id: không có văn bản '12/2061/ND-MAU' trong đồ "
                                        "thị (đã nạp 3 văn bản); " + HINT)
    assert "\n" not in str(caught.value)
    with pytest.raises(InputError, match=r"\(chưa nạp văn bản nào\)$"):
        resolve_document_id("12/2016/NĐ-MAU", [])
    for bad, problem in (("", "doc_id: để trống"),
                         ("12/2016\udcff", "doc_id: không phải văn bản UTF-8 hợp lệ"),
                         (7, "doc_id: phải là chuỗi văn bản")):
        with pytest.raises(InputError, match=problem):
            resolve_document_id(bad, LOADED)
    with pytest.raises(InputError) as caught:
        resolve_unit_id("12/2016/NĐ-MAU", LOADED)
    assert str(caught.value) == ("unit_id: '12/2016/NĐ-MAU' không phải là mã điều khoản (dạng "
                                 "<số hiệu văn bản>:<vị trí>, ví dụ 12/2016/NĐ-MAU:D3.K2)")


def _runner() -> RecordingRunner:
    def rows(key: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        if key == "legal/list_document_ids":
            return [{"id": d} for d in LOADED]
        if key == "legal/list_documents_coverage":
            return [{"id": d, "units": 1, "change_dates": []} for d in LOADED]
        return []
    return RecordingRunner(rows)


def test_the_front_door_reads_ids_as_typed() -> None:
    runner = _runner()
    hg = Hopgraph(runner, use_llm=False, legal_embedder=FakeEmbedder())
    with pytest.raises(InputError, match=HINT):
        hg.legal.consolidate("12/2061/ND-MAU", "2024-06-01")
    with pytest.raises(InputError, match=r"unit_ids\[0\]: không có văn bản .*" + HINT):
        hg.legal.trace(["12/2061/NĐ-MAU:D3.K2"])
    # one id given as a string is one id, not its characters; typed forms are normalised
    hg.legal.trace("12/2016/nd-mau:d3.k2", as_of="2024-06-01")
    traced = [p for k, p in runner.calls if k not in ("legal/list_document_ids",)]
    assert traced and traced[-1]["seed_ids"] == ["12/2016/NĐ-MAU:D3.K2"]
    with pytest.raises(RetrievalError, match="no document with id '12/2016/NĐ-MAU'"):
        hg.legal.consolidate("12/2016/ND-MAU", "2024-06-01")  # the fake holds no text
    consolidated = [p for k, p in runner.calls if k == "legal/consolidate_document"]
    assert consolidated and consolidated[-1]["doc_id"] == "12/2016/NĐ-MAU"


def test_http_and_mcp_give_the_same_refusal() -> None:
    hg = Hopgraph(_runner(), use_llm=False, legal_embedder=FakeEmbedder())
    client = TestClient(create_app(hg, use_llm=False))
    r = client.get("/api/legal/consolidate", params={"doc_id": "12/2061/ND-MAU"})
    assert r.status_code == 422 and HINT in r.json()["error"]["problem"]
    client.get("/api/legal/consolidate", params={"doc_id": "12/2016/nd-mau"})
    asked = [p for k, p in hg.runner.calls if k == "legal/consolidate_document"]  # type: ignore[attr-defined]
    assert asked and asked[-1]["doc_id"] == "12/2016/NĐ-MAU"
    pytest.importorskip("mcp")
    from mcp.server.mcpserver.exceptions import ToolError

    from hopgraph import build_mcp_server

    server = build_mcp_server(hg)

    async def call() -> Any:
        return await server.call_tool("legal_trace", {"unit_ids": ["12/2061/ND-MAU:D3.K2"]})

    with pytest.raises(ToolError, match=HINT):
        anyio.run(call)


def test_cli_refuses_a_malformed_id_in_one_line_before_connecting() -> None:
    from hopgraph.cli import cli

    env = {"NEO4J_URI": "bolt://127.0.0.1:1", "NEO4J_PASSWORD": "x"}
    for args in (["consolidate", "  "], ["trace", ""], ["unit", "x\udcff"]):
        result = CliRunner().invoke(cli, args, env=env)
        assert result.exit_code == 1, (args, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), lines
        assert lines[0].split(": ", 2)[2] in ("để trống", "không phải văn bản UTF-8 hợp lệ "
                                              "(ký tự thứ 2)"), lines
    assert issubclass(InputError, HopgraphError)


def test_remove_document_reads_the_id_as_typed_and_suggests_the_loaded_one() -> None:
    from hopgraph.cli._maintenance import UnknownDocumentError, remove_legal_document

    runner = RecordingRunner({"legal/list_document_ids": [{"id": d} for d in LOADED]})
    remove_legal_document(runner, "12/2016/nd-mau")  # ND for NĐ, case
    assert runner.committed("legal/clear_document", "doc_id") == ["12/2016/NĐ-MAU"]

    runner = RecordingRunner({"legal/list_document_ids": [{"id": d} for d in LOADED]},
                             refuse={"write_transaction"})
    with pytest.raises(UnknownDocumentError) as caught:
        remove_legal_document(runner, "12/2061/ND-MAU")
    assert str(caught.value).startswith("doc_id: không có văn bản '12/2061/ND-MAU' trong đồ "
                                        "thị (đã nạp 3 văn bản); " + HINT)
    assert isinstance(caught.value, HopgraphError)  # the CLI prints it as one line, exit 1


def test_mcp_on_streamable_http_replies_in_one_json_body_with_the_reason() -> None:
    """``hopgraph mcp --transport streamable-http`` answers a call with one JSON body, not an SSE
    stream per call (serve_concurrency.md), and a refusal carries its reason."""
    pytest.importorskip("mcp")
    from hopgraph import GuardSettings
    from hopgraph._mcp import mcp_http_app

    hg = Hopgraph(_runner(), use_llm=False, legal_embedder=FakeEmbedder())
    app = mcp_http_app(hg, GuardSettings.for_host("127.0.0.1", 8000, None))
    accept = {"accept": "application/json, text/event-stream"}
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        init = client.post("/mcp", headers=accept, json={
            "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "test", "version": "0"}}})
        assert init.status_code == 200 and init.headers["content-type"] == "application/json"
        headers = {**accept, "mcp-session-id": init.headers["mcp-session-id"],
                   "mcp-protocol-version": "2025-06-18"}
        client.post("/mcp", headers=headers,
                    json={"jsonrpc": "2.0", "method": "notifications/initialized"})
        call = client.post("/mcp", headers=headers, json={
            "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
                "name": "legal_trace", "arguments": {"unit_ids": ["12/2061/ND-MAU:D3.K2"]}}})
    assert call.headers["content-type"] == "application/json"
    result = call.json()["result"]
    assert result["isError"] and HINT in result["content"][0]["text"]


def test_mcp_refuses_bad_arguments_in_one_line_and_says_why_a_search_is_empty() -> None:
    """A malformed argument is named with its problem on one line (not pydantic's report with
    the argument model's name and a link); an empty biomedical or sentence search says why."""
    pytest.importorskip("mcp")
    from mcp.server.mcpserver.exceptions import ToolError

    from hopgraph import build_mcp_server

    fake = FakeEmbedder()
    hg = Hopgraph(_runner(), use_llm=False, legal_embedder=fake, english_embedder=fake)
    server = build_mcp_server(hg)

    async def call(tool: str, args: dict[str, Any]) -> Any:
        return await server.call_tool(tool, args)

    for tool, args, reason in (
            ("sentences_retrieve", {"question": ""}, "question: để trống"),
            ("legal_retrieve", {"question": "bảo hiểm", "k": 0},
             "k: phải lớn hơn hoặc bằng 1 (nhận được 0)"),
            ("legal_retrieve", {"question": "bảo hiểm", "k": "năm"},
             "k: phải là số nguyên (nhận được 'năm')"),
            ("legal_consolidate", {}, "doc_id: là tham số bắt buộc")):
        with pytest.raises(ToolError) as caught:
            anyio.run(call, tool, args)
        text = str(caught.value)
        assert text == f"Error executing tool {tool}: {reason}", text
    found = anyio.run(call, "sentences_retrieve", {"question": "Who designed the engine?"})
    payload = found.structured_content
    assert payload["evidence"] == [] and "hopgraph load sentences" in payload["reason_if_empty"]
