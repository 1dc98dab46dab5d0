"""Dates as Vietnamese legal texts write them, and the effectiveness sentences that carry them."""

from __future__ import annotations

import re
from datetime import date

_WORDS = re.compile(r"ngày\s+(\d{1,2})\s+tháng\s+(\d{1,2})\s+năm\s+(\d{4})", re.IGNORECASE)
_NUMERIC = re.compile(r"(?<!\d)(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?!\d)")
_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_EFFECTIVE = re.compile(
    r"có\s+hiệu\s+lực(?:\s+thi\s+hành)?(?:\s+(?:kể\s+)?từ|\s+kể\s+từ)\s+ngày\s+"
    r"(?P<date>\d{1,2}\s+tháng\s+\d{1,2}\s+năm\s+\d{4}|\d{1,2}/\d{1,2}/\d{4}|ký(?:\s+ban\s+hành)?)",
    re.IGNORECASE,
)


def _make(y: str, m: str, d: str) -> date | None:
    try:
        return date(int(y), int(m), int(d))
    except ValueError:
        return None


def parse_date(text: str) -> date | None:
    """The first date in ``text``: ``ngày 01 tháng 7 năm 2009``, ``01/07/2009`` or ISO."""
    candidates: list[tuple[int, date]] = []
    for pattern, order in ((_WORDS, (3, 2, 1)), (_NUMERIC, (3, 2, 1)), (_ISO, (1, 2, 3))):
        match = pattern.search(text)
        if match:
            value = _make(*(match.group(i) for i in order))
            if value is not None:
                candidates.append((match.start(), value))
    return min(candidates)[1] if candidates else None


def find_effective_dates(text: str, signed: date | None) -> list[tuple[int, date, str]]:
    """Every ``có hiệu lực … từ ngày …`` in ``text``: (offset, date, matched text).

    ``kể từ ngày ký`` resolves to ``signed`` (skipped when that is unknown).
    """
    found: list[tuple[int, date, str]] = []
    for match in _EFFECTIVE.finditer(text):
        raw = match.group("date")
        value = signed if raw.lower().startswith("ký") else parse_date("ngày " + raw if "tháng" in raw else raw)
        if value is not None:
            found.append((match.start(), value, match.group(0)))
    return found


def impossible_dates(text: str) -> list[str]:
    """The dates of ``có hiệu lực … từ ngày …`` sentences in ``text`` that no calendar has
    (``ngày 31 tháng 13 năm 2020``): a start date read from them would be wrong, so none is."""
    out: list[str] = []
    for match in _EFFECTIVE.finditer(text):
        raw = match.group("date")
        if raw.lower().startswith("ký"):
            continue
        if parse_date("ngày " + raw if "tháng" in raw else raw) is None:
            out.append(raw)
    return out
