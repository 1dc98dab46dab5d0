"""``hopgraph crawl``: fetch the documents a listing page of the official portal (vbpl.vn) links
to, politely, into files ``hopgraph load legal`` reads.

Example::

    from hopgraph.loaders.crawl import CrawlConfig, crawl_listing

    report = crawl_listing("https://vbpl.vn/TW/Pages/vanban.aspx?Page=1", Path("crawl"),
                           CrawlConfig(delay_s=2.0, pages=3))
    print(report.summary())
"""

from hopgraph.loaders.crawl._portal import (
    DEFAULT_DELAY_S,
    DEFAULT_RETRIES,
    CrawlConfig,
    CrawlError,
    CrawlReport,
    PoliteFetcher,
    crawl_listing,
    listing_items,
)

__all__ = ["DEFAULT_DELAY_S", "DEFAULT_RETRIES", "CrawlConfig", "CrawlError", "CrawlReport", "PoliteFetcher", "crawl_listing",
           "listing_items"]
