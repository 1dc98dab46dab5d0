"""25/2008/QH12 + 46/2014/QH13 loaded into Neo4j: as-of-2015 wording vs the official consolidation.

Loads ``vn-health/raw/law_dict.json`` (20 documents, original wording) into a server of its own,
then, for every unit 46/2014/QH13 changes, reads the wording in force on 2015-06-01 through
``legal/get_text_as_of`` and compares it (whitespace-normalised, own marker dropped) with the
codification's consolidated article (``vn-health/phapdien``), where the codification's provenance
note records no later change. Mismatches are classified (spelling variants, missing units).

Run: ``python -m tests.benchmarks.legal_consolidated``; writes ``results/legal_consolidated.md``.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from hopgraph.loaders.legal import ParsedDocument, load_legal, read_file
from hopgraph.loaders.legal._loader import collect_names
from tests.benchmarks._common import local_neo4j

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data"
OUT = Path(__file__).resolve().parent / "results"
AS_OF = dt.date(2015, 6, 1)


def main() -> int:
    from tests.benchmarks.legal_parser import _variant, strip_marker

    if not DATA.is_dir():
        print(f"shared data not found at {DATA}; nothing measured")
        return 0
    pd_files = sorted((DATA / "vn-health" / "phapdien").rglob("*.md"))
    names = collect_names(pd_files)
    codified: dict[str, tuple[Any, str]] = {}
    for f in pd_files:
        for doc in read_file(f, names):
            if isinstance(doc, ParsedDocument) and doc.meta.source_format == "phapdien":
                for rel in doc.relations:
                    if rel.type == "CODIFIES" and rel.target.startswith("25/2008/QH12:"):
                        path = rel.source.split(":", 1)[1]
                        codified[rel.target] = (next(u for u in doc.units if u.path == path),
                                                rel.evidence)
    with local_neo4j("hopgraph-bench-consolidated-", start_timeout_s=400,
                     query_timeout_s=300) as server:
        driver, runner = server.driver, server.runner
        report = load_legal(runner, None, [DATA / "vn-health" / "raw" / "law_dict.json"],
                            names=names)
        changed = sorted({r["target"] for r in driver.execute_query(
            "MATCH (s:LegalNode)-[r:AMENDS|SUPPLEMENTS]->(t:LegalUnit) "
            "WHERE s.id STARTS WITH '46/2014/QH13:' RETURN t.id AS target",
            database_="neo4j").records} | {r["id"] for r in driver.execute_query(
            "MATCH (v:UnitVersion {amended_by: '46/2014/QH13'})-[:VERSION_OF]->(t) "
            "RETURN t.id AS id", database_="neo4j").records} | {r["id"] for r in
            driver.execute_query("MATCH (u:LegalUnit {supplemented_by: '46/2014/QH13'}) "
                                 "RETURN u.id AS id", database_="neo4j").records})
        rows = {r["id"]: r for r in runner.read("legal/get_text_as_of", ids=changed,
                                                 as_of=AS_OF)}
    results: Counter[str] = Counter()
    details = []
    for uid in changed:
        row = rows.get(uid)
        article = uid.split(":")[0] + ":" + uid.split(":")[1].split(".")[0]
        entry = codified.get(article)
        if row is None or row["text"] is None:
            results["no wording in force on 2015-06-01"] += 1
            details.append((uid, "no wording in force", "", ""))
            continue
        if entry is None:
            results["article not in the codification"] += 1
            details.append((uid, "article not in the codification", "", ""))
            continue
        unit, note = entry
        later = sorted({m for m in re.findall(r"bởi\s+[^)]*?(?:số\s+)?(\d+/\d{4}/[\wĐ-]+)", note)
                        if m != "46/2014/QH13"})
        if later:
            results["later change recorded"] += 1
            details.append((uid, f"skipped: later change by {later}", "", ""))
            continue
        for seg in uid.split(":")[1].split(".")[1:]:
            want = seg[1:] if seg.startswith("K") else seg
            unit = next((c for c in unit.children if c.number == want), None)
            if unit is None:
                break
        if unit is None:
            results["unit missing in the codified article"] += 1
            details.append((uid, "mismatch: unit missing in the codified article", "", ""))
            continue
        ours, theirs = strip_marker(row["text"]), strip_marker(unit.text)
        if ours == theirs:
            results["match"] += 1
            continue
        reason = _variant(ours, theirs)
        if reason:
            results["match after spelling normalisation"] += 1
            details.append((uid, f"match after normalising {reason}", "", ""))
            continue
        i = next((k for k in range(min(len(ours), len(theirs))) if ours[k] != theirs[k]),
                 min(len(ours), len(theirs)))
        results["mismatch"] += 1
        details.append((uid, "mismatch", ours[max(0, i - 60): i + 80],
                        theirs[max(0, i - 60): i + 80]))
    OUT.mkdir(parents=True, exist_ok=True)
    payload = {"as_of": AS_OF.isoformat(), "documents": report.documents,
               "skipped": [str(p) for p in report.skipped], "changed_units": len(changed),
               "results": dict(results), "details": details}
    (OUT / "legal_consolidated.json").write_text(json.dumps(payload, ensure_ascii=False,
                                                            indent=1), encoding="utf-8")
    md = ["# 25/2008/QH12 as amended by 46/2014/QH13, read from Neo4j as of 2015-06-01", "",
          f"Loaded {len(report.documents)} documents from law_dict.json; skipped "
          f"{len(report.skipped)}: {[str(p) for p in report.skipped]}.", "",
          f"Units 46/2014/QH13 amends or inserts: {len(changed)}. Results: {dict(results)}.", "",
          "Spelling normalisation covers variants between the raw text and the codification "
          "(hằng/hàng, letter case, '1' read for 'l' in point lists, final punctuation); "
          "each such unit is listed.", "", "| unit | result | ours | codification |",
          "|---|---|---|---|"]
    md += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in details]
    (OUT / "legal_consolidated.md").write_text("\n".join(md) + "\n", encoding="utf-8")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    sys.exit(main())
