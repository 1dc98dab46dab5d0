"""The HTTP app (hopgraph._http.create_app) and the MCP server (hopgraph._mcp.build_mcp_server)
in process over a fake query runner: the loaded documents come from the recorded rows; refusals
carry field and reason (HTTP 422 JSON, MCP ToolError text); the unit view reads the timeline."""

from __future__ import annotations

from datetime import date
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from hopgraph import Hopgraph, create_app

DOC = {"id": "12/2016/NĐ-MAU", "number": "12/2016/NĐ-MAU", "doc_type": "Nghị định",
       "title": "NGHỊ ĐỊNH MẪU", "issuer": "CHÍNH PHỦ", "issue_date": date(2016, 1, 15),
       "effective_date": date(2016, 3, 1), "expiry_date": None, "status": "amended", "units": 35,
       "change_dates": [date(2018, 2, 15), date(2023, 1, 1)]}
UNIT = {"unit": {"id": "12/2016/NĐ-MAU:D3.K2", "doc_id": "12/2016/NĐ-MAU", "level": "Clause",
                 "label": "Khoản 2", "citation": "Khoản 2 Điều 3 Nghị định số 12/2016/NĐ-MAU",
                 "text": "2. … 40% …", "valid_from": date(2016, 3, 1),
                 "valid_to": date(2023, 1, 1), "date_unknown": False},
        "doc": {"id": "12/2016/NĐ-MAU", "doc_type": "Nghị định",
                "effective_date": date(2016, 3, 1)},
        "versions": [{"id": "12/2016/NĐ-MAU:D3.K2@40/2023/NĐ-MAU", "text": "2. … 70% …",
                      "valid_from": date(2023, 1, 1), "valid_to": None, "date_unknown": False,
                      "not_before": date(2022, 11, 1), "amended_by": "40/2023/NĐ-MAU"}],
        "changes": [{"kind": "AMENDS", "source_id": "40/2023/NĐ-MAU:D1.K1",
                     "source_doc": "40/2023/NĐ-MAU",
                     "source_citation": "Khoản 1 Điều 1 Nghị định số 40/2023/NĐ-MAU",
                     "effective_date": date(2023, 1, 1), "date_unknown": False,
                     "evidence": "Sửa đổi khoản 2 Điều 3"}]}


class FakeRunner:
    """Answers the serving layer's reads from fixed rows; records every call."""

    database = "neo4j"

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def read(self, key: str, **params: Any) -> list[dict[str, Any]]:
        self.calls.append((key, params))
        if key == "legal/list_documents_coverage":
            return [DOC]
        if key == "legal/list_missing_documents":
            return [{"doc_id": "88/2019/NĐ-MAU", "relations": ["AMENDS"],
                     "named_by": ["77/2031/NĐ-MAU"]}]
        if key == "legal/list_unit_versions":
            return [UNIT] if params["unit_id"] == UNIT["unit"]["id"] else []
        return []

    def write(self, key: str, **params: Any) -> list[dict[str, Any]]:
        raise AssertionError("the serving layer never writes")


@pytest.fixture()
def client() -> TestClient:
    return TestClient(create_app(Hopgraph(FakeRunner(), use_llm=False), use_llm=False))


def test_http_refusals_name_field_and_problem(client: TestClient) -> None:
    r = client.post("/api/legal/retrieve", json={"question": "bảo hiểm", "k": 101})
    assert r.status_code == 422 and r.json()["error"]["field"] == "k"
    r = client.get("/api/legal/consolidate", params={"doc_id": "12/2017/nd-mau"})
    assert r.status_code == 422
    assert r.json()["error"] == {
        "type": "invalid_request", "field": "doc_id",
        "problem": "no document '12/2017/nd-mau' in the graph (1 document is loaded); "
                   "did you mean 12/2016/NĐ-MAU?"}
    r = client.get("/api/legal/diff", params={"doc_id": "12/2016/ND-MAU", "date_from": "2024-01-01",
                                              "date_to": "01/01/2019"})
    assert r.status_code == 422 and r.json()["error"]["field"] == "date_from"
    r = client.post("/api/legal/trace", json={"unit_ids": ["no-colon"]})
    assert r.status_code == 422 and "not a unit id" in r.json()["error"]["problem"]
    r = client.post("/api/legal/ask", json={"question": "x" * 2001})
    assert r.status_code == 422 and "limit is 2000" in r.json()["error"]["problem"]


def test_http_coverage_and_unit_timeline(client: TestClient) -> None:
    cov = client.get("/api/legal/coverage").json()
    assert cov["documents"][0]["fictional"] and cov["first_date"] == "2016-01-15"
    assert cov["missing"][0]["doc_id"] == "88/2019/NĐ-MAU"
    # a wording's id opens its unit; the badge and current wording follow the date
    unit = client.get("/api/legal/unit", params={
        "unit_id": "12/2016/nd-mau:D3.K2@40/2023/NĐ-MAU", "as_of": "01/06/2024"}).json()
    assert unit["badge"] == "đã được sửa đổi" and "70%" in unit["text"]
    assert [w["current"] for w in unit["timeline"]] == [False, True]
    assert unit["timeline"][1]["made_by"].startswith("Khoản 1 Điều 1")
    before = client.get("/api/legal/unit", params={"unit_id": "12/2016/NĐ-MAU:D3.K2",
                                                   "as_of": "2020-01-01"}).json()
    assert before["badge"] == "đang áp dụng" and "40%" in before["text"]
    early = client.get("/api/legal/unit", params={"unit_id": "12/2016/NĐ-MAU:D3.K2",
                                                  "as_of": "2015-01-01"}).json()
    assert early["badge"] == "chưa có hiệu lực" and early["text"] == ""
    assert client.get("/").text.startswith("<!doctype html>")


def test_mcp_tools_raise_tool_errors_with_reasons() -> None:
    pytest.importorskip("mcp")
    from mcp.server.mcpserver.exceptions import ToolError

    from hopgraph import build_mcp_server

    server = build_mcp_server(Hopgraph(FakeRunner(), use_llm=False))

    async def call(name: str, args: dict[str, Any]) -> Any:
        return await server.call_tool(name, args)

    with pytest.raises(ToolError, match="did you mean 12/2016/NĐ-MAU"):
        anyio.run(call, "legal_consolidate", {"doc_id": "12/2017/NĐ-MAU"})
    with pytest.raises(ToolError, match="as_of: '2024-13-01' is not a date"):
        anyio.run(call, "legal_unit", {"unit_id": "12/2016/NĐ-MAU:D3.K2", "as_of": "2024-13-01"})
    result = anyio.run(call, "legal_coverage", {})
    assert "88/2019/NĐ-MAU" in str(result)
