"""Citation ids on the loaded samples, against the real server (issue 25 item 3): every legal
evidence item carries one, and each surface (front door, HTTP, MCP, CLI) resolves it back to the
same wording; the date picks the version; a bad id is one line."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from hopgraph import Hopgraph, create_app
from hopgraph.cli import cli
from hopgraph.core.questions import InputError
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal
from tests.integration.conftest import Server
from tests.unit.sentences.fakes import FakeEmbedder

pytestmark = pytest.mark.integration
CLAUSE = "12/2016/NĐ-MAU:D3.K2"
CITE = "vn/nd/2016/12/mau/dieu_3/khoan_2"


@pytest.fixture()
def hg(runner: Neo4jRunner) -> Hopgraph:
    report = load_legal(runner, None, [SAMPLES_DIR])  # no vectors: tracing needs none
    assert not report.skipped
    return Hopgraph(runner, use_llm=False, legal_embedder=FakeEmbedder())


def test_every_evidence_item_resolves_back_to_itself(hg: Hopgraph) -> None:
    units = [CLAUSE, "12/2016/NĐ-MAU:D4", "40/2023/NĐ-MAU:D1.K1", "01/2015/QH-MAU:D8"]
    for day in ("2017-01-01", "2019-06-01", "2024-06-01", "2032-01-01"):
        evidence = hg.legal.trace(units, as_of=day).to_evidence()
        cited = [ev for ev in evidence if ev.role in ("seed", "successor")]
        assert cited, day
        for ev in cited:
            assert ev.citation_id and ev.citation_id.startswith("vn/"), ev
            back = hg.legal.resolve(ev.citation_id)
            assert back.citation_id == ev.citation_id
            assert (back.id, back.text) == (ev.id, ev.text), (day, ev.citation_id)


def test_the_date_picks_the_wording(hg: Hopgraph) -> None:
    wordings = {day: hg.legal.resolve(f"{CITE}@{day}") for day in
                ("2017-01-01", "2019-06-01", "2024-06-01", "2032-01-01")}
    assert "40%" in wordings["2017-01-01"].text and wordings["2017-01-01"].id == CLAUSE
    assert "60%" in wordings["2019-06-01"].text
    assert wordings["2019-06-01"].id == f"{CLAUSE}@20/2018/NĐ-MAU"
    assert "70%" in wordings["2024-06-01"].text
    assert wordings["2032-01-01"].id == f"{CLAUSE}@55/2030/NĐ-MAU"
    assert all(w.validity == "in_force" for w in wordings.values())


def test_bad_citation_ids_are_one_line_on_every_surface(hg: Hopgraph,
                                                        schema_installed: Server) -> None:
    with pytest.raises(InputError, match="có phải ý bạn là 12/2016/NĐ-MAU"):
        hg.legal.resolve("vn/nd/2061/12/mau/dieu_3@2024-06-01")
    with pytest.raises(InputError, match="không có điều khoản 12/2016/NĐ-MAU:D99 trong đồ thị"):
        hg.legal.resolve("vn/nd/2016/12/mau/dieu_99@2024-06-01")
    client = TestClient(create_app(hg, use_llm=False))
    ok = client.get("/api/legal/resolve", params={"citation": f"{CITE}@2019-06-01"}).json()
    assert ok["citation_id"] == f"{CITE}@2019-06-01" and "60%" in ok["evidence"]["text"]
    bad = client.get("/api/legal/resolve", params={"citation": f"{CITE}@2019-13-01"})
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "citation"
    # evidence of a retrieval over HTTP carries the ids too
    traced = client.post("/api/legal/trace", json={"unit_ids": [CLAUSE],
                                                   "as_of": "2024-06-01"}).json()
    assert f"{CITE}@2024-06-01" in {e["citation_id"] for e in traced["evidence"]}

    pytest.importorskip("mcp")
    from mcp.server.mcpserver.exceptions import ToolError

    from hopgraph import build_mcp_server

    server = build_mcp_server(hg)

    async def call(args: dict[str, Any]) -> Any:
        return await server.call_tool("legal_resolve", args)

    result = anyio.run(call, {"citation": f"{CITE}@2024-06-01"})
    assert "70%" in str(result) and f"{CITE}@2024-06-01" in str(result)
    with pytest.raises(ToolError, match=r"citation: '12/2016/NĐ-MAU:D3\.K2' không phải là mã "
                                         "trích dẫn"):
        anyio.run(call, {"citation": "12/2016/NĐ-MAU:D3.K2"})

    args = ["--uri", schema_installed.uri, "--password", schema_installed.password, "resolve"]
    out = CliRunner().invoke(cli, [*args, f"{CITE}@2019-06-01"])
    assert out.exit_code == 0, out.output
    assert "60%" in out.output and f"Mã trích dẫn: {CITE}@2019-06-01" in out.output
    refused = CliRunner().invoke(cli, [*args, "vn/nd/2016/12/nd-mau/dieu_3@2024-06-01"])
    assert refused.exit_code == 1 and len(refused.output.strip().splitlines()) == 1
