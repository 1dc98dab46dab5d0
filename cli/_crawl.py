"""``hopgraph crawl LISTING_URL --out DIR``: the documents a listing page of vbpl.vn links to,
fetched politely into files ``hopgraph load legal DIR`` reads (:mod:`hopgraph.loaders.crawl`).

Exit status as the loads: 0 every listed document written (or already there), 3 some failed
(each on a ``FAILED`` line), 1 none could be fetched or the listing itself failed (one line).
"""

from __future__ import annotations

from pathlib import Path

import click

from hopgraph.cli._exit import EXIT_SKIPPED
from hopgraph.loaders.crawl import (
    DEFAULT_DELAY_S,
    DEFAULT_RETRIES,
    CrawlConfig,
    crawl_listing,
)


@click.command()
@click.argument("listing_url")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              required=True, help="Folder of the pages written (one vbpl-<ItemID>.html each).")
@click.option("--pages", type=click.IntRange(min=1), default=1, show_default=True,
              help="Listing pages to read (the URL's Page=1 … N); stops at a page with nothing new.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="At most this many documents.")
@click.option("--delay", type=click.FloatRange(min=0.1), default=DEFAULT_DELAY_S,
              show_default=True, help="Seconds between two requests (one request at a time).")
@click.option("--retries", type=click.IntRange(min=0), default=DEFAULT_RETRIES,
              show_default=True, help="Tries again after 429/5xx/timeouts, with doubling backoff.")
@click.option("--cache", "cache_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Raw-page cache (default: OUT/.cache); makes a crawl resumable.")
@click.option("--refresh-listing", is_flag=True,
              help="Fetch the listing pages again instead of reading them from the cache.")
@click.pass_context
def crawl(ctx: click.Context, listing_url: str, out_dir: Path, pages: int, limit: int | None,
          delay: float, retries: int, cache_dir: Path | None, refresh_listing: bool) -> None:
    """Fetch the documents a vbpl.vn listing page links to (full text and attributes pages),
    politely and resumably, into files 'hopgraph load legal' reads.

    Robots.txt is obeyed; pages already fetched come from the cache and documents already
    written are skipped, so an interrupted crawl goes on where it stopped.
    """
    if not listing_url.startswith(("http://", "https://")):
        raise click.BadParameter(f"{listing_url!r} is not an http(s) URL", param_hint="LISTING_URL")
    config = CrawlConfig(delay_s=delay, retries=retries, pages=pages, limit=limit,
                         refresh_listing=refresh_listing)
    report = crawl_listing(listing_url, out_dir, config, cache_dir=cache_dir,
                           progress=click.echo)
    for problem in report.failed:
        click.echo(f"FAILED {problem}", err=True)
    click.echo(report.summary())
    if report.written or report.already_done:
        click.echo(f"then: hopgraph load legal {out_dir}")
    if not report.written and not report.already_done:
        raise click.ClickException(f"no document was fetched ({len(report.failed)} failed)")
    if report.failed:
        ctx.exit(EXIT_SKIPPED)
