"""CLI commands about named legal units: ``hopgraph trace`` (validity of given units at a date)
and ``hopgraph unit`` (one unit's badge and version timeline). Ids are read as typed
(``12/2016/nd-mau:d3.k2``, ``ND`` for ``NĐ``); an unknown document gets ``có phải ý bạn là …?``."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import click

from hopgraph import Hopgraph
from hopgraph.cli._context import settings_of
from hopgraph.core.questions import validate_text
from hopgraph.core.samples import mark_fictional


def vn_day(value: Any) -> str:
    """``2024-06-01`` (or a date) as ``01/06/2024``; ``—`` for none."""
    if value is None:
        return "—"
    day = value if isinstance(value, date) else date.fromisoformat(str(value))
    return day.strftime("%d/%m/%Y")


def render_unit(view: dict[str, Any]) -> str:
    """A unit view (``Service.legal_unit``) for a reader: the document, the badge at the date,
    the wording in force and every wording with its dates and what made it."""
    # the unit's citation names its article and document ("Khoản 2 Điều 3 Nghị định số …"); a
    # bare label ("Khoản 2") would not say which article
    head = view.get("citation") or f"{view['label'] or ''} — {view['document']}".strip(" —")
    lines = [mark_fictional(head),
             f"Tại ngày {vn_day(view['as_of'])}: {view['badge']}"]
    if view.get("repeal"):
        rep = view["repeal"]
        lines.append(mark_fictional(f"Bãi bỏ bởi {rep['by']}"
                                    + (f", từ {vn_day(rep['effective_date'])}"
                                       if rep.get("effective_date") else "")))
    if view["text"]:
        lines.append(f"Nội dung: {view['text']}")
    lines.append("Các lần thay đổi nội dung:")
    for w in view["timeline"]:
        span = f"từ {vn_day(w['valid_from'])}" if w["valid_from"] else "chưa rõ ngày bắt đầu"
        if w["valid_to"]:
            span += f" đến {vn_day(w['valid_to'])}"
        if w["date_unknown"]:
            span += " (ngày hiệu lực chưa xác định)"
        mark = " ← đang áp dụng" if w["current"] else ""
        lines.append(mark_fictional(f"- {span}: {w['made_by']}{mark}"))
    return "\n".join(lines)


@click.command(name="trace")
@click.argument("unit_ids", nargs=-1, required=True)
@click.option("--as-of", "as_of", default=None,
              help="Validity date YYYY-MM-DD or dd/mm/yyyy (default today).")
@click.option("--json", "as_json", is_flag=True, help="Print the context as JSON.")
@click.pass_context
def trace(ctx: click.Context, unit_ids: tuple[str, ...], as_of: str | None,
          as_json: bool) -> None:
    """Trace the validity of given units at a date (no search): wording in force, chain,
    references."""
    from hopgraph import check_date
    from hopgraph.cli._retrieval import render_table

    for i, u in enumerate(unit_ids):
        validate_text(u, f"UNIT_IDS[{i}]")
    day = check_date(as_of, "--as-of")
    with Hopgraph(settings=settings_of(ctx), use_llm=False) as hg:
        result = hg.legal.trace(list(unit_ids), as_of=day)
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        click.echo(render_table(result).split("\n", 1)[1])


@click.command(name="unit")
@click.argument("unit_id")
@click.option("--as-of", "as_of", default=None, help="Date YYYY-MM-DD or dd/mm/yyyy "
              "(default today).")
@click.option("--json", "as_json", is_flag=True, help="Print the unit view as JSON.")
@click.pass_context
def unit(ctx: click.Context, unit_id: str, as_of: str | None, as_json: bool) -> None:
    """Show one unit at a date: its validity badge and every wording with its dates."""
    from hopgraph import Service, check_date

    validate_text(unit_id, "UNIT_ID")
    check_date(as_of, "--as-of")
    with Hopgraph(settings=settings_of(ctx), use_llm=False) as hg:
        view = Service(hg).legal_unit(unit_id, as_of)
    if as_json:
        click.echo(json.dumps(view, ensure_ascii=False, indent=2))
    else:
        click.echo(render_unit(view))


@click.command(name="resolve")
@click.argument("citation")
@click.option("--as-of", "as_of", default=None, help="Date YYYY-MM-DD or dd/mm/yyyy when the "
              "citation id has none (default today).")
@click.option("--json", "as_json", is_flag=True, help="Print the evidence as JSON.")
@click.pass_context
def resolve(ctx: click.Context, citation: str, as_of: str | None, as_json: bool) -> None:
    """Show the wording a citation id names (vn/nd/2016/12/cp/dieu_3/khoan_2@2024-06-01), in
    force at its date."""
    from hopgraph import Service, check_date
    from hopgraph.core.citations import parse_citation_id

    parse_citation_id(citation)
    check_date(as_of, "--as-of")
    with Hopgraph(settings=settings_of(ctx), use_llm=False) as hg:
        found = Service(hg).legal_resolve(citation, as_of)
    if as_json:
        click.echo(json.dumps(found, ensure_ascii=False, indent=2))
        return
    ev = found["evidence"]
    click.echo(mark_fictional(f"{ev['citation']} — tại ngày {vn_day(found['as_of'])}"))
    click.echo(f"Hiệu lực: {ev['validity_note']}")
    click.echo(ev["text"])
    click.echo(f"Mã trích dẫn: {found['citation_id']}")
