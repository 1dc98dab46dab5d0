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
    """Each refusal names the parameter as the caller wrote it and says the problem in
    Vietnamese, whether the service's checks or the request schema (pydantic) refuse it."""
    def refusal(r: Any) -> tuple[str, str]:
        assert r.status_code == 422, r.text
        return r.json()["error"]["field"], r.json()["error"]["problem"]

    assert refusal(client.post("/api/legal/retrieve", json={"question": "bảo hiểm", "k": 101})) \
        == ("k", "phải nhỏ hơn hoặc bằng 100 (nhận được 101)")
    assert refusal(client.post("/api/legal/retrieve", json={"question": "  "})) \
        == ("question", "để trống")
    assert refusal(client.post("/api/legal/ask", json={"question": "bảo hiểm",
                                                       "as_of": "2024-13-01"})) \
        == ("as_of", "'2024-13-01' không phải là ngày hợp lệ (dạng YYYY-MM-DD hoặc dd/mm/yyyy)")
    assert refusal(client.post("/api/legal/ask", json={})) == ("question", "là tham số bắt buộc")
    r = client.get("/api/legal/consolidate", params={"doc_id": "12/2017/nd-mau"})
    assert r.status_code == 422
    assert r.json()["error"] == {
        "type": "invalid_request", "field": "doc_id",
        "problem": "không có văn bản '12/2017/nd-mau' trong đồ thị (đã nạp 1 văn bản); "
                   "có phải ý bạn là 12/2016/NĐ-MAU?"}
    r = client.get("/api/legal/diff", params={"doc_id": "12/2016/ND-MAU", "date_from": "2024-01-01",
                                              "date_to": "01/01/2019"})
    assert refusal(r) == ("date_from", "2024-01-01 sau date_to 2019-01-01 (ngày đầu phải trước "
                                       "ngày cuối)")
    field, problem = refusal(client.post("/api/legal/trace", json={"unit_ids": ["no-colon"]}))
    assert field == "unit_ids[0]" and problem.startswith("'no-colon' không phải là mã điều khoản")
    assert refusal(client.post("/api/legal/ask", json={"question": "x" * 2001})) \
        == ("question", "dài 2001 ký tự; giới hạn là 2000 ký tự")


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

    with pytest.raises(ToolError) as caught:
        anyio.run(call, "legal_consolidate", {"doc_id": "12/2016/ND-MAUX"})
    assert str(caught.value) == (
        "Error executing tool legal_consolidate: doc_id: không có văn bản '12/2016/ND-MAUX' "
        "trong đồ thị (đã nạp 1 văn bản); có phải ý bạn là 12/2016/NĐ-MAU?")
    with pytest.raises(ToolError) as caught:
        anyio.run(call, "legal_unit", {"unit_id": "12/2016/NĐ-MAU:D3.K2", "as_of": "2024-13-01"})
    assert str(caught.value) == (
        "Error executing tool legal_unit: as_of: '2024-13-01' không phải là ngày hợp lệ (dạng "
        "YYYY-MM-DD hoặc dd/mm/yyyy)")
    with pytest.raises(ToolError, match=r"legal_unit: unit_id: 'D3' không phải là mã điều "):
        anyio.run(call, "legal_unit", {"unit_id": "D3"})
    result = anyio.run(call, "legal_coverage", {})
    assert "88/2019/NĐ-MAU" in str(result)
