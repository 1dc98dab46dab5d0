"""``hopgraph crawl`` against a local HTTP server serving saved pages (never the internet), issue 26
item 5: listing pages, full-text and attributes pages, robots.txt, rate limit, retries with
backoff on 503, a 404 that fails alone, resumability from the raw-page cache, and the files it
writes read by the legal parser with the portal's metadata."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit
from urllib.request import Request

import pytest
from click.testing import CliRunner

from hopgraph.cli import cli
from hopgraph.loaders.crawl import CrawlConfig, CrawlError, crawl_listing
from hopgraph.loaders.crawl._portal import _urlopen
from hopgraph.loaders.legal._formats import read_file
from hopgraph.loaders.legal._model import ParsedDocument

pytestmark = pytest.mark.integration

PAGES = Path(__file__).resolve().parents[1] / "unit" / "legal" / "portal_pages"
DELAY = 0.2


class _Portal:
    """What the fake portal serves and what it saw."""

    def __init__(self) -> None:
        listing = (PAGES / "vbpl-listing.html").read_text(encoding="utf-8")
        self.pages = {
            ("/robots.txt", ""): b"User-agent: *\nDisallow: /private/\n",
            ("/TW/Pages/vanban.aspx", "1"): listing.replace("ITEM_A", "111").replace(
                "ITEM_B", "222").encode(),
            ("/TW/Pages/vanban.aspx", "2"): listing.replace("ITEM_A", "333").replace(
                "ITEM_B", "111").encode(),
            ("/TW/Pages/vanban.aspx", "3"): b"<html><body><ul class='listLaw'></ul></body></html>",
            ("/TW/Pages/vbpq-toanvan.aspx", "111"): (PAGES / "vbpl-toanvan-21-2016-ND-MAU.html"
                                                     ).read_bytes(),
            ("/TW/Pages/vbpq-thuoctinh.aspx", "111"): (PAGES / "vbpl-thuoctinh-21-2016-ND-MAU.html"
                                                       ).read_bytes(),
            ("/TW/Pages/vbpq-toanvan.aspx", "333"): (PAGES / "tvpl-30-2017-TT-MAU.html").read_bytes(),
            ("/TW/Pages/vbpq-thuoctinh.aspx", "333"): b"<html><body><p>no attributes</p></body></html>",
        }
        self.busy = {("/TW/Pages/vbpq-toanvan.aspx", "333"): 2}  # 503 twice, then the page
        self.requests: list[tuple[float, str]] = []
        self.lock = threading.Lock()

    def answer(self, path: str, query: str) -> tuple[int, bytes, dict[str, str]]:
        params = parse_qs(query)
        key = (path, (params.get("ItemID") or params.get("Page") or [""])[0])
        with self.lock:
            self.requests.append((time.monotonic(), f"{path}?{query}"))
            if self.busy.get(key, 0) > 0:
                self.busy[key] -= 1
                return 503, b"busy", {"Retry-After": "0"}
        if key in self.pages:
            return 200, self.pages[key], {"Content-Type": "text/html; charset=utf-8"}
        return 404, b"not found", {}


@pytest.fixture
def portal() -> Iterator[tuple[_Portal, str]]:
    state = _Portal()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            status, body, headers = state.answer(parts.path, parts.query)
            self.send_response(status)
            for k, v in {**headers, "Content-Length": str(len(body))}.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _config(**kw: object) -> CrawlConfig:
    return CrawlConfig(delay_s=DELAY, backoff_s=0.05, retries=3, timeout_s=10, **kw)  # type: ignore[arg-type]


def test_a_crawl_is_polite_retries_and_writes_loadable_pages(
        portal: tuple[_Portal, str], tmp_path: Path) -> None:
    state, base = portal
    out = tmp_path / "crawl"
    sent: list[float] = []  # when the crawler sent each request (its own clock)

    def opener(request: Request, timeout: float) -> tuple[int, bytes, dict[str, str]]:
        sent.append(time.monotonic())
        return _urlopen(request, timeout)

    report = crawl_listing(f"{base}/TW/Pages/vanban.aspx?Page=1", out, _config(pages=5),
                           opener=opener)

    # pages 1-2 list 111, 222, 333 (111 twice); page 3 is empty and ends the listing
    assert report.listed == 3
    assert sorted(p.name for p in report.written) == ["vbpl-111.html", "vbpl-333.html"]
    assert len(report.failed) == 1 and "ItemID=222" in report.failed[0] and "HTTP 404" in report.failed[0]
    assert report.retried == 2  # the two 503 answers, then the page
    seen = [u for _, u in state.requests]
    assert seen[0] == "/robots.txt?" and not any("Page=4" in u for u in seen)
    gaps = [b - a for a, b in itertools.pairwise(sent)]
    # one at a time, spaced by the delay (less the microseconds between the crawler's own
    # bookkeeping of a request and the moment it hands it over)
    assert len(sent) == len(state.requests) and min(gaps) >= DELAY - 0.01

    doc = next(iter(read_file(out / "vbpl-111.html")))
    assert isinstance(doc, ParsedDocument), doc
    assert (doc.meta.doc_id, doc.meta.doc_type, doc.meta.status_external) == (
        "21/2016/NĐ-MAU", "Nghị định", "Còn hiệu lực")
    assert [u.path for u in doc.units] == ["D1", "D2", "D2.K1", "D2.K2", "D3"]


def test_a_crawl_resumes_from_its_files_and_cache(portal: tuple[_Portal, str],
                                                  tmp_path: Path) -> None:
    state, base = portal
    out = tmp_path / "crawl"
    listing = f"{base}/TW/Pages/vanban.aspx?Page=1"
    first = crawl_listing(listing, out, _config(limit=1))  # stopped after one document
    assert [p.name for p in first.written] == ["vbpl-111.html"]
    asked = len(state.requests)
    second = crawl_listing(listing, out, _config())
    assert second.already_done == 1 and [p.name for p in second.written] == []
    assert second.requests == 2 and second.cached == 1  # robots.txt, 222 again (404); listing cached
    assert len(state.requests) == asked + 2
    third = crawl_listing(listing, out, _config(refresh_listing=True))
    assert third.requests >= 1 and third.already_done == 1


def test_robots_txt_and_a_dead_portal_are_one_line(portal: tuple[_Portal, str],
                                                   tmp_path: Path) -> None:
    _, base = portal
    with pytest.raises(CrawlError, match=r"disallowed by the site.s robots\.txt"):
        crawl_listing(f"{base}/private/list.aspx", tmp_path / "a", _config())
    result = CliRunner().invoke(cli, ["crawl", f"{base}/TW/Pages/missing.aspx", "--out",
                                      str(tmp_path / "b"), "--delay", "0.1"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: {base}/TW/Pages/missing.aspx: HTTP 404 Not Found"]


def test_the_crawl_command_prints_progress_and_a_summary(portal: tuple[_Portal, str],
                                                         tmp_path: Path) -> None:
    _, base = portal
    result = CliRunner().invoke(cli, ["crawl", f"{base}/TW/Pages/vanban.aspx?Page=1", "--out",
                                      str(tmp_path / "c"), "--pages", "1", "--delay", "0.1"])
    assert result.exit_code == 3, result.output  # one document failed (404)
    assert "listing page 1: 2 new documents" in result.output
    assert "documents listed: 2, written: 1, already there: 0, failed: 1" in result.output
    assert "FAILED " in result.output and "hopgraph load legal" in result.output
