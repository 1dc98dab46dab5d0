"""A polite crawler of the official portal's listing pages (vbpl.vn).

What it does, for one listing URL (a search or browse result of vbpl.vn, ``…?Page=1``):

1. fetches the listing pages (``Page=1 … pages``; it stops early at a page with no new item),
   and reads each item's ``ItemID`` from its links (``vbpq-toanvan.aspx?ItemID=…``, the
   ``ul.listLaw li p.title a`` of the portal);
2. for each item, fetches the full-text page (``vbpq-toanvan.aspx``) and the attributes page
   (``vbpq-thuoctinh.aspx``) and writes them, one after the other, to ``<out>/vbpl-<ItemID>.html``:
   ``hopgraph load legal`` reads the text from the first and the number, type, issuer, dates and
   status from the second (``loaders/legal/_html.py``).

Politeness: one request at a time, at least ``delay_s`` apart; ``robots.txt`` is obeyed; a
``429`` or ``5xx`` answer, a timeout or a dropped connection is tried again after an exponential
backoff (``Retry-After`` when the server gives one), up to ``retries`` times; other answers
(``404``) are not retried. Resumable: every page fetched is kept in a cache folder (by URL hash,
with an ``index.jsonl``), and an item whose output file exists is skipped, so a crawl stopped
half-way goes on where it stopped without asking the portal again. Only the standard library.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
import urllib.robotparser
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from html.parser import HTMLParser
from pathlib import Path

from hopgraph.core.errors import IngestError

DEFAULT_DELAY_S = 2.0
DEFAULT_RETRIES = 4
DEFAULT_BACKOFF_S = 2.0
MAX_BACKOFF_S = 120.0
DEFAULT_TIMEOUT_S = 30.0
USER_AGENT = "hopgraph-crawl/0.1 (legal research; polite: one request every few seconds)"
RETRY_STATUS = frozenset({429, 500, 502, 503, 504})
_ITEM_ID = re.compile(r"ItemID=(\d+)", re.IGNORECASE)
_PAGE_PARAM = re.compile(r"^page$", re.IGNORECASE)


class CrawlError(IngestError):
    """A page could not be fetched (after the retries it was worth)."""


@dataclass(frozen=True)
class CrawlConfig:
    """How politely and how far to crawl."""

    delay_s: float = DEFAULT_DELAY_S  # at least this long between two requests
    retries: int = DEFAULT_RETRIES  # further tries of a retryable failure
    backoff_s: float = DEFAULT_BACKOFF_S  # first wait before a retry, doubled each time
    timeout_s: float = DEFAULT_TIMEOUT_S
    pages: int = 1  # listing pages to read (Page=1 … pages)
    limit: int | None = None  # at most this many documents
    refresh_listing: bool = False  # fetch the listing pages again (new documents)
    user_agent: str = USER_AGENT


@dataclass
class CrawlReport:
    """What a crawl did; ``failed`` names each URL and its problem."""

    listed: int = 0
    written: list[Path] = field(default_factory=list)
    already_done: int = 0
    requests: int = 0
    cached: int = 0
    retried: int = 0
    failed: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (f"documents listed: {self.listed}, written: {len(self.written)}, already "
                f"there: {self.already_done}, failed: {len(self.failed)}; requests: "
                f"{self.requests} ({self.retried} retries), from cache: {self.cached}")


# (request, timeout) -> (status, body, headers); urllib's by default, a fake in unit tests
Opener = Callable[[urllib.request.Request, float], tuple[int, bytes, dict[str, str]]]


def _urlopen(request: urllib.request.Request, timeout: float) -> tuple[int, bytes, dict[str, str]]:
    with urllib.request.urlopen(request, timeout=timeout) as reply:
        return int(reply.status), reply.read(), dict(reply.headers.items())


class PoliteFetcher:
    """GET with a rate limit, retries with backoff, ``robots.txt`` and a cache of raw pages.

    Args:
        cache_dir: where raw pages are kept (``<sha256 of the URL>.html`` + ``index.jsonl``).
        config: delay, retries, backoff, timeout, user agent.
        report: counts requests, retries and cache hits into it.
        sleep: the clock's sleep (tests pass a recording one).
    """

    def __init__(self, cache_dir: Path, config: CrawlConfig, report: CrawlReport, *,
                 sleep: Callable[[float], None] = time.sleep, opener: Opener = _urlopen) -> None:
        self.cache_dir = cache_dir
        self.config = config
        self.report = report
        self._sleep = sleep
        self._open = opener
        self._last: float | None = None
        self._robots: dict[str, urllib.robotparser.RobotFileParser | None] = {}
        cache_dir.mkdir(parents=True, exist_ok=True)

    def cache_path(self, url: str) -> Path:
        return self.cache_dir / f"{hashlib.sha256(url.encode()).hexdigest()[:32]}.html"

    def get(self, url: str, *, use_cache: bool = True) -> bytes:
        """The page at ``url`` (from the cache when it is there and ``use_cache``).

        Raises:
            CrawlError: ``robots.txt`` disallows it, the server answered with a status that is
                not retried, or every try failed.
        """
        path = self.cache_path(url)
        if use_cache and path.exists():
            self.report.cached += 1
            return path.read_bytes()
        if not self._allowed(url):
            raise CrawlError(f"{url}: disallowed by the site's robots.txt")
        body = self._fetch(url)
        tmp = path.with_suffix(".part")
        tmp.write_bytes(body)
        os.replace(tmp, path)  # a crawl killed mid-write leaves no half page in the cache
        with (self.cache_dir / "index.jsonl").open("a", encoding="utf-8") as index:
            index.write(json.dumps({"url": url, "file": path.name, "bytes": len(body),
                                    "fetched": datetime.now(UTC).isoformat(timespec="seconds")},
                                   ensure_ascii=False) + "\n")
        return body

    def _fetch(self, url: str) -> bytes:
        delay = self.config.backoff_s
        last = ""
        for attempt in range(self.config.retries + 1):
            self._wait_turn()
            request = urllib.request.Request(url, headers={"User-Agent": self.config.user_agent})
            self.report.requests += 1
            retry_after: float | None = None
            try:
                status, body, _ = self._open(request, self.config.timeout_s)
                if status == 200:
                    return body
                last = f"HTTP {status}"
                if status not in RETRY_STATUS:
                    raise CrawlError(f"{url}: HTTP {status}")
            except urllib.error.HTTPError as e:
                e.close()  # the error holds the answer's open connection
                last = f"HTTP {e.code}"
                if e.code not in RETRY_STATUS:
                    raise CrawlError(f"{url}: HTTP {e.code} {e.reason}") from e
                retry_after = _retry_after(e.headers.get("Retry-After") if e.headers else None)
            except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
                last = str(getattr(e, "reason", e))
            if attempt < self.config.retries:
                self.report.retried += 1
                wait = retry_after if retry_after is not None else delay
                self._sleep(min(wait, MAX_BACKOFF_S))
                delay = min(delay * 2, MAX_BACKOFF_S)
        raise CrawlError(f"{url}: gave up after {self.config.retries + 1} tries ({last})")

    def _wait_turn(self) -> None:
        now = time.monotonic()
        if self._last is not None and now - self._last < self.config.delay_s:
            self._sleep(self.config.delay_s - (now - self._last))
        self._last = time.monotonic()

    def _allowed(self, url: str) -> bool:
        parts = urllib.parse.urlsplit(url)
        site = f"{parts.scheme}://{parts.netloc}"
        if site not in self._robots:
            robots: urllib.robotparser.RobotFileParser | None = None
            try:
                text = self._fetch(site + "/robots.txt")
                robots = urllib.robotparser.RobotFileParser()
                robots.parse(text.decode("utf-8", "replace").splitlines())
            except CrawlError:
                robots = None  # no robots.txt (404) or none reachable: nothing is disallowed
            self._robots[site] = robots
        robots = self._robots[site]
        return robots is None or robots.can_fetch(self.config.user_agent, url)


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    if value.strip().isdigit():
        return float(value.strip())
    try:
        return max(0.0, (parsedate_to_datetime(value) - datetime.now(UTC)).total_seconds())
    except (TypeError, ValueError):
        return None


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.hrefs.append(href)


def listing_items(html: str, base_url: str) -> list[tuple[str, str]]:
    """(ItemID, full-text page URL) of every document a listing page links to, in page order."""
    parser = _Links()
    parser.feed(html)
    parser.close()
    items: dict[str, str] = {}
    for href in parser.hrefs:
        m = _ITEM_ID.search(href)
        if m is None or "vbpq-" not in href.lower():
            continue
        url = urllib.parse.urljoin(base_url, href)
        page = re.sub(r"vbpq-[a-z]+\.aspx", "vbpq-toanvan.aspx", url, flags=re.IGNORECASE)
        items.setdefault(m.group(1), page)
    return list(items.items())


def _page_url(url: str, page: int) -> str:
    parts = urllib.parse.urlsplit(url)
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
             if not _PAGE_PARAM.match(k)]
    query.append(("Page", str(page)))
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


def crawl_listing(listing_url: str, out_dir: Path, config: CrawlConfig | None = None, *,
                  cache_dir: Path | None = None, sleep: Callable[[float], None] = time.sleep,
                  opener: Opener = _urlopen,
                  progress: Callable[[str], None] | None = None) -> CrawlReport:
    """Fetch the documents ``listing_url`` lists into ``out_dir`` (one ``vbpl-<ItemID>.html``
    each); see the module docstring. A document that fails is named in ``failed`` and the
    others go on; a listing page that fails stops the listing there.

    Raises:
        CrawlError: the first listing page cannot be fetched.
    """
    config = config or CrawlConfig()
    report = CrawlReport()
    out_dir.mkdir(parents=True, exist_ok=True)
    fetcher = PoliteFetcher(cache_dir or out_dir / ".cache", config, report, sleep=sleep,
                            opener=opener)
    say = progress or (lambda line: None)
    items: dict[str, str] = {}
    for page in range(1, config.pages + 1):
        url = _page_url(listing_url, page) if config.pages > 1 else listing_url
        try:
            html = fetcher.get(url, use_cache=not config.refresh_listing).decode("utf-8", "replace")
        except CrawlError as e:
            if page == 1:
                raise
            report.failed.append(str(e))
            break
        new = [(i, u) for i, u in listing_items(html, url) if i not in items]
        say(f"listing page {page}: {len(new)} new documents")
        if not new:
            break
        items.update(new)
    chosen = list(items.items())[: config.limit] if config.limit is not None else list(items.items())
    report.listed = len(chosen)
    for n, (item_id, page_url) in enumerate(chosen, start=1):
        target = out_dir / f"vbpl-{item_id}.html"
        if target.exists():
            report.already_done += 1
            continue
        attributes_url = page_url.replace("vbpq-toanvan.aspx", "vbpq-thuoctinh.aspx")
        try:
            text_page = fetcher.get(page_url)
            attributes = fetcher.get(attributes_url)
        except CrawlError as e:
            report.failed.append(str(e))
            say(f"[{n}/{len(chosen)}] {item_id}: {e}")
            continue
        tmp = target.with_suffix(".part")
        tmp.write_bytes(b"<!-- hopgraph crawl: " + page_url.encode() + b" -->\n" + text_page +
                        b"\n<!-- hopgraph crawl: " + attributes_url.encode() + b" -->\n" +
                        attributes)
        os.replace(tmp, target)
        report.written.append(target)
        say(f"[{n}/{len(chosen)}] {item_id}: {target.name}")
    return report
