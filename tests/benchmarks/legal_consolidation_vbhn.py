"""Consolidation against official consolidated texts (VBHN) of real laws (issue 24).

Loads the 8 plain texts of ``../shared/data/vn-consolidation-dev/clean`` into a server of its own
(``--no-embed``: the wording does not depend on vectors), then per case consolidates the base law
at the case's date and compares it with the official VBHN unit by unit
(``hopgraph.retrieval.compare_consolidation``, the rules of the data README): units equal, the
units the VBHN footnotes (``marks`` of ``cases.json``) equal, laws wrongly out of force, and the
recall of ``--diff base-start as-of`` over the footnoted units (the unit, or one above or below
it, listed).

Run: ``python -m tests.benchmarks.legal_consolidation_vbhn [--uri bolt://… --password …]``
(``--uri`` reuses a server already loaded, for development); writes
``results/legal_consolidation_vbhn.{md,json}``.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from hopgraph.db import Neo4jRunner, connect, install_schema
from hopgraph.loaders.legal import load_legal
from hopgraph.retrieval import compare_consolidation, consolidate, diff_consolidated
from hopgraph.retrieval._legal_compare import Key, inside, unit_key
from tests.benchmarks._common import commit, local_neo4j

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data" / "vn-consolidation-dev"
OUT = Path(__file__).resolve().parent / "results"


def measure(runner: Any) -> dict[str, Any]:
    """Compare every case of ``cases.json`` with the graph ``runner`` reads."""
    cases = json.loads((DATA / "cases.json").read_text(encoding="utf-8"))["cases"]
    out: list[dict[str, Any]] = []
    for case in cases:
        base = case["base"]["number"]
        as_of = dt.date.fromisoformat(case["as_of"])
        doc = consolidate(runner, base, as_of)
        official = (DATA / case["vbhn_file"]).read_text(encoding="utf-8")
        cmp = compare_consolidation(doc, official)
        marks: set[Key] = set()
        for m in case["marks"]:
            k = m["key"]
            marks.add((k[0], k[1] if len(k) > 1 else None, k[2] if len(k) > 2 else None))
        marked = [u for u in cmp.units if any(inside(u.key, mk) for mk in marks)]
        m_equal = sum(u.verdict in ("equal", "repealed_agreed") for u in marked)
        before = consolidate(runner, base, dt.date.fromisoformat(case["diff_from"]))
        listed = {unit_key(d.id) for d in diff_consolidated(before, doc)}
        listed.discard(None)
        hit = sum(any(inside(x, mk) or inside(mk, x) for x in listed if x) for mk in marks)
        eq, n = cmp.equal()
        out.append({
            "case": case["id"], "base": base, "as_of": case["as_of"],
            "units": n, "equal": eq, "marked_units": len(marked), "marked_equal": m_equal,
            "extra": len(cmp.extra), "verdicts": dict(cmp.counts()),
            "out_of_force": [n_ for n_ in doc.notes],
            "diff_marks": len(marks), "diff_listed": hit,
            "not_equal": [{"unit": u.label, "verdict": u.verdict, "marked": u in marked,
                           "reason": u.reason, "ours": u.ours, "official": u.official}
                          for u in cmp.units if u.verdict not in ("equal", "repealed_agreed")]
            + [{"unit": u.label, "verdict": "extra", "ours": u.ours} for u in cmp.extra],
        })
    pooled = {k: sum(c[k] for c in out) for k in
              ("units", "equal", "marked_units", "marked_equal", "extra", "diff_marks",
               "diff_listed")}
    pooled["laws_wrongly_out_of_force"] = sum(bool(c["out_of_force"]) for c in out)
    return {"cases": out, "pooled": pooled}


def render(result: dict[str, Any], meta: dict[str, Any]) -> str:
    p = result["pooled"]
    lines = ["# Consolidation vs official VBHN (vn-consolidation-dev)", "",
             "- command: `python -m tests.benchmarks.legal_consolidation_vbhn`",
             f"- commit: {meta['commit']}",
             f"- machine load: {meta['load']} (1, 5, 15-minute averages at the end, 2 cores)",
             "- baseline: the same comparison at 0f648f7 (before the consolidation engine), "
             "recorded in the data README and reproduced by this script at e2cc088: 3,189 / "
             "3,246 units, 69 / 88 footnoted units, --diff 34 / 37, 9 extra", "",
             f"Run {meta['when']}; load of the 8 texts into an empty graph {meta['load_s']} s "
             "(`--no-embed`: wording does not depend on vectors). Comparison rules: "
             "`hopgraph.retrieval.compare_consolidation` (the data README's *How to compare*); "
             "footnoted units from `cases.json` `marks`.", "",
             "| case | units equal | marked units equal | footnoted units in --diff | extra | "
             "notes at document level |", "|---|---|---|---|---|---|"]
    for c in result["cases"]:
        lines.append(f"| {c['case']} | {c['equal']} / {c['units']} "
                     f"({100 * c['equal'] / max(1, c['units']):.1f}%) | {c['marked_equal']} / "
                     f"{c['marked_units']} | {c['diff_listed']} / {c['diff_marks']} | "
                     f"{c['extra']} | {'; '.join(c['out_of_force']) or '-'} |")
    lines.append(f"| **pooled** | **{p['equal']} / {p['units']} "
                 f"({100 * p['equal'] / max(1, p['units']):.1f}%)** | **{p['marked_equal']} / "
                 f"{p['marked_units']}** | {p['diff_listed']} / {p['diff_marks']} | "
                 f"{p['extra']} | laws wrongly out of force: {p['laws_wrongly_out_of_force']} |")
    lines += ["", "Baseline (the data README, code of 0f648f7): pooled 3,190 / 3,246 units "
              "(98.3%), marked 69 / 88, diff 34 / 37, extra 9; the noise of the crawl caps that "
              "set at 3,203 / 3,246 and 82 / 88 (README, *Known noise*). Since 2026-11-27 the "
              "VBHN reader splits a heading line that also holds the article's first clause, "
              "and joins a heading wrapped onto a lowercase line (20/VBHN Điều 27, 56, 70: the "
              "README's *VBHN layout* noise): those clauses are VBHN units now, so the table's "
              "totals count a few more units and footnoted units than the baseline's 3,246 / 88.",
              "", "## Units not equal", ""]
    for c in result["cases"]:
        lines.append(f"### {c['case']}")
        for u in c["not_equal"]:
            lines.append(f"- {u['unit']}: {u['verdict']}{' [marked]' if u.get('marked') else ''}"
                         f"{' — ' + u['reason'] if u.get('reason') else ''}")
            if u["verdict"] not in ("missing",):
                lines.append(f"  - ours: {(u.get('ours') or '')[:240]}")
                lines.append(f"  - VBHN: {(u.get('official') or '')[:240]}")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--uri")
    ap.add_argument("--password")
    ap.add_argument("--no-load", action="store_true", help="with --uri: graph already loaded")
    ap.add_argument("--out", default=str(OUT / "legal_consolidation_vbhn"))
    args = ap.parse_args(argv)
    if not DATA.is_dir():
        print(f"shared data not found at {DATA}; nothing measured")
        return 0
    files = sorted((DATA / "clean").glob("*.txt"))
    with contextlib.ExitStack() as stack:
        if args.uri:
            driver = connect(args.uri, "neo4j", args.password or "")
            stack.callback(driver.close)
            install_schema(driver, "neo4j", dimension=384)
            runner = Neo4jRunner(driver, database="neo4j", timeout_s=600)
        else:
            runner = stack.enter_context(local_neo4j(
                "hopgraph-bench-vbhn-", start_timeout_s=400, query_timeout_s=600)).runner
        t0 = time.perf_counter()
        if not args.no_load:
            report = load_legal(runner, None, files)
            for w in report.warnings:
                print("warning:", w, file=sys.stderr)
            for s in report.skipped:
                print("skipped:", s, file=sys.stderr)
        load_s = round(time.perf_counter() - t0, 1)
        result = measure(runner)
    meta = {"commit": commit(),
            "when": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "load": " ".join(f"{x:.1f}" for x in os.getloadavg()), "load_s": load_s}
    result["meta"] = meta
    Path(args.out + ".json").write_text(json.dumps(result, ensure_ascii=False, indent=1),
                                        encoding="utf-8")
    Path(args.out + ".md").write_text(render(result, meta) + "\n", encoding="utf-8")
    p = result["pooled"]
    print(f"units {p['equal']}/{p['units']}, marked {p['marked_equal']}/{p['marked_units']}, "
          f"diff {p['diff_listed']}/{p['diff_marks']}, extra {p['extra']}, "
          f"out of force {p['laws_wrongly_out_of_force']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
