"""Do `trace` and `consolidate` say the same wording is in force?

hopgraph has two readers of the wording in force at a date: validity tracing (``trace``,
``retrieve``, ``ask``: one unit and its change chain) and consolidation (``consolidate``: a whole
document). For every clause and point with no sub-unit of every document a vn-amend-dev tier's
texts amend, at the day after the document's last change and at a fixed later day, this compares
the wording ``consolidate`` shows with the applicable items ``trace`` serves for the unit: equal
(one applicable item holds the same words), different, or no applicable item. Units
``consolidate`` shows as repealed or not shown are left out, and units of a document that is not
in force at the date (``consolidate``'s note: replaced, repealed, not yet in force) are counted
apart: there ``trace`` must serve none. Neither reader is the gold: a difference is where one of
them is wrong (the record lists them).

    python -m tests.benchmarks.legal_trace_consistency --tier core

Writes tests/benchmarks/results/legal_trace_consistency.{md,json}.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from collections import Counter, defaultdict
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hopgraph.core.errors import HopgraphError
from hopgraph.db import Neo4jRunner
from hopgraph.eval.temporal_gold import read_pairs
from hopgraph.loaders.legal import load_legal
from hopgraph.retrieval import LegalRetriever, RetrievalConfig, consolidate
from tests.benchmarks._common import commit, load_line, local_neo4j, machine_load, record_header
from tests.retrieval_fixtures import HashEmbedder

RESULTS = Path(__file__).parent / "results"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "vn-amend-dev"
LATER = date(2026, 11, 1)
BATCH = 100
# every item of a trace, no reference hop: the unit's own wordings only
WHOLE = RetrievalConfig(max_items=100_000, max_chars=10**8, max_references=0)


def _flat(text: str | None) -> str:
    return " ".join((text or "").split())


def compare(runner: Neo4jRunner) -> dict[str, Any]:
    """Counts and examples of the comparison over the amended documents of the graph."""
    rows = runner.driver.execute_query(
        "MATCH (v:UnitVersion)-[:VERSION_OF]->(t:LegalUnit) WHERE v.valid_from IS NOT NULL "
        "RETURN t.doc_id AS doc, max(v.valid_from) AS last ORDER BY doc",
        database_="neo4j").records
    retriever = LegalRetriever(runner, HashEmbedder())
    counts: Counter[str] = Counter()
    examples: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        last = row["last"].to_native()
        for day in sorted({last + timedelta(days=1), max(LATER, last + timedelta(days=1))}):
            try:
                doc = consolidate(runner, row["doc"], day)
            except HopgraphError as e:
                counts["document not consolidated"] += 1
                examples["not consolidated"].append({"doc": row["doc"], "error": str(e)[:200]})
                continue
            # "văn bản đã bị thay thế / bãi bỏ bởi …" (or not yet in force): a document-level note
            ended = any(n.startswith(("văn bản đã bị", "văn bản chưa có hiệu lực"))
                        for n in doc.notes)
            ids = [u.id for u in doc.units]
            leaves = [u for u in doc.units if u.shown and u.state != "repealed"
                      and u.level in ("Clause", "Point")
                      and not any(o.startswith(u.id + ".") for o in ids)]
            for i in range(0, len(leaves), BATCH):
                batch = leaves[i:i + BATCH]
                ctx = retriever.trace([u.id for u in batch], as_of=day, config=WHOLE)
                served = defaultdict(list)
                for it in ctx.items:
                    if it.applicable and it.role in ("seed", "successor"):
                        served[it.seed_id].append(it)
                for u in batch:
                    case = {"doc": row["doc"], "as_of": day.isoformat(), "unit": u.id,
                            "state": u.state, "consolidated": _flat(u.text)[:200]}
                    items = served.get(u.id, [])
                    if ended:
                        # consolidate says the whole document no longer applies; trace must
                        # serve none of its wordings as applicable
                        key = "document ended: " + ("none applicable (agree)" if not items
                                                    else "served applicable (differ)")
                        counts[key] += 1
                        if items:
                            examples["document ended, served applicable"].append(case)
                    elif not items:
                        counts["no applicable item"] += 1
                        examples["no applicable item"].append(case)
                    elif any(_flat(it.text) == _flat(u.text) for it in items):
                        counts["equal"] += 1
                    else:
                        counts["different"] += 1
                        examples["different"].append({**case, "traced": [
                            {"id": it.node_id, "text": _flat(it.text)[:200]} for it in items]})
    return {"documents": len(rows), "counts": dict(counts), "examples": dict(examples)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tier", default="core")
    ap.add_argument("--data", type=Path, default=SHARED)
    ap.add_argument("--out", default="legal_trace_consistency")
    args = ap.parse_args()
    logging.getLogger("neo4j").setLevel(logging.ERROR)
    if not args.data.exists():
        print(f"skip: {args.data} not found")
        return
    started, load0, rev = time.perf_counter(), machine_load(), commit()
    gold = read_pairs(args.data, tier=args.tier)
    with local_neo4j("hopgraph-bench-consistency-") as server:
        report = load_legal(server.runner, None, gold.files)
        result = compare(server.runner)
    result.update({"tier": args.tier, "files": len(gold.files), "skipped": len(report.skipped),
                   "seconds": round(time.perf_counter() - started, 1)})
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{args.out}.json").write_text(json.dumps(result, indent=1, ensure_ascii=False),
                                              encoding="utf-8")
    c = result["counts"]
    total = sum(v for k, v in c.items()
                if k != "document not consolidated" and not k.startswith("document ended"))
    md = ["# Trace against consolidate: the wording in force, read two ways", "",
          *record_header(f"python -m tests.benchmarks.legal_trace_consistency --tier {args.tier}",
                         rev, load_line(load0, machine_load()),
                         "none: two readers of the product compared with each other"), "",
          f"vn-amend-dev tier `{args.tier}`: {result['files']} files loaded without vectors "
          f"({result['skipped']} skipped), {result['documents']} amended documents, every clause "
          f"and point without sub-units that `consolidate` shows, at the day after the "
          f"document's last change and at {LATER.isoformat()}; {result['seconds']} s.", "",
          "| outcome | units | share |", "|---|---|---|"]
    for key in ("equal", "different", "no applicable item"):
        md.append(f"| {key} | {c.get(key, 0)} | {c.get(key, 0) / total:.4f} |" if total
                  else f"| {key} | 0 | – |")
    md += ["", f"Units of documents not in force at the date (`consolidate` notes the document "
           f"replaced, repealed or not yet in force; left out of the table): "
           f"{c.get('document ended: none applicable (agree)', 0)} with no applicable item in "
           f"`trace` too, {c.get('document ended: served applicable (differ)', 0)} served "
           f"applicable by `trace`. Documents `consolidate` refused: "
           f"{c.get('document not consolidated', 0)}.", ""]
    for key in ("different", "no applicable item", "document ended, served applicable"):
        cases = result["examples"].get(key, [])
        if cases:
            md += [f"## {key} ({len(cases)})", ""]
            md += [f"- {x['unit']} at {x['as_of']} ({x['state']}): consolidate "
                   f"“{x['consolidated'][:120]}”"
                   + (f"; trace {', '.join(t['id'] for t in x['traced'])}" if "traced" in x
                      else "") for x in cases[:40]]
            md.append("")
    (RESULTS / f"{args.out}.md").write_text("\n".join(md), encoding="utf-8")
    print("\n".join(md[:16]))


if __name__ == "__main__":
    main()
