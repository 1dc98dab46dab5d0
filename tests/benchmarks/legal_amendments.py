"""Amendment edges and their dates on real amended/amending law pairs (``vn-amend-dev``).

For every pair of ``../shared/data/vn-amend-dev/pairs.json`` the two texts are read together (as
``hopgraph load legal`` reads the inputs of one run) and the amendment edges from units of the
amending document to units of the amended document (AMENDS, SUPPLEMENTS, REPEALS, REPLACES) are
compared with the gold edges the legal portal's inline annotations give:

- **article level**: the target reduced to its article (``Điều 5``), or to the chapter, section or
  annex it names; per pair the set of such keys, precision and recall over all pairs (micro);
  per kind with the gold kind mapped to the relation (sửa đổi → AMENDS or REPLACES, bổ sung →
  SUPPLEMENTS or AMENDS, bãi bỏ → REPEALS, thay thế → AMENDS or REPLACES);
- **exact unit**: the target path itself (``D5.K2.a``); a SUPPLEMENTS edge to an inserted unit
  also counts for the unit it was inserted into (the portal writes the note there);
- **effective dates**: for every gold edge with a date whose article key is found, whether the
  edge found there carries that date; edges with an unknown date are counted apart;
- documents refused, parse warnings per document, parse time per document;
- 46/2014/QH13 → 25/2008/QH12 from ``vn-health/raw/law_dict.json``: AMENDS/SUPPLEMENTS/REPEALS
  edges and unresolved instructions.

Gold edges whose automatic check (``verify``) is ``no_match`` are reported apart (the gold's own
doubtful cases) and left out of the main figures. ``--graph`` also loads each core pair into a
real Neo4j (``NEO4J_URI`` or the local runtime) and reads the edges back from the graph.

Run: ``python -m tests.benchmarks.legal_amendments [--tier core] [--graph]``; writes
``results/legal_amendments.md``/``.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from hopgraph.loaders.legal import ParsedDocument, expand_paths, normalise_doc_number, parse_inputs
from hopgraph.loaders.legal._ids import roman_to_int
from hopgraph.loaders.legal._loader import collect_names

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
AMEND = DATA / "vn-amend-dev"
OUT = Path(__file__).resolve().parent / "results"
CHANGE_TYPES = ("AMENDS", "SUPPLEMENTS", "REPEALS", "REPLACES")
KIND_OK = {
    "sửa đổi": {"AMENDS", "REPLACES"},
    "bổ sung": {"SUPPLEMENTS", "AMENDS"},
    "bãi bỏ": {"REPEALS"},
    "thay thế": {"AMENDS", "REPLACES"},
    "other": set(CHANGE_TYPES),  # the portal's note names a change without its kind
}
_LEVEL_WORD = {"điều": "D", "khoản": "K", "điểm": "", "chương": "C", "mục": "M", "phụ lục": "PL",
               "tiểu mục": "TM", "phần": "P"}


def _verify(g: dict[str, Any]) -> str | None:
    """The gold's own check of an edge: the files call it ``verify_auto`` (the data README says
    ``verify``); either is read."""
    return g.get("verify_auto", g.get("verify"))


def gold_path(unit: str) -> str | None:
    """``Điểm a Khoản 1 Điều 3`` -> ``D3.K1.a``; ``Mục 4 Chương IV`` -> ``C4.M4``; else None."""
    parts = re.findall(r"(Tiểu mục|Phụ lục|Điều|Khoản|Điểm|Chương|Mục|Phần)\s*([\w]*)", unit,
                       re.IGNORECASE)
    if not parts:
        return None
    segs: dict[str, str] = {}
    for word, num in parts:
        prefix = _LEVEL_WORD[word.lower()]
        if prefix in ("C", "M", "PL", "P", "TM") and num and re.fullmatch(r"[IVXLC]+", num):
            num = str(roman_to_int(num) or num)
        segs[prefix] = num
    if "D" in segs:
        path = f"D{segs['D']}"
        if "K" in segs:
            path += f".K{segs['K']}"
        if "" in segs:
            path += f".{segs['']}"
        return path
    if "PL" in segs:
        return f"PL{segs['PL']}" if segs["PL"] else "PL"
    if "C" in segs:
        path = f"C{segs['C']}"
        if "M" in segs:
            path += f".M{segs['M']}"
        return path
    return None


def article_key(path: str) -> str:
    """The article (or the structural unit / annex) a path falls in."""
    head = path.split(".")[0]
    if head.startswith("D"):
        return head
    if head.startswith("PL"):
        return "PL"  # annexes: the portal often writes "Phụ lục" without a number
    return ".".join(p for p in path.split(".") if not p.startswith(("D", "K")))


def predicted(doc: ParsedDocument, target_doc: str) -> list[dict[str, Any]]:
    out = []
    inserted = {n.id for n in doc.new_units if n.kind == "inserted"}
    for rel in doc.relations:
        if rel.type not in CHANGE_TYPES or rel.target_kind != "unit":
            continue
        if not rel.target.startswith(target_doc + ":"):
            continue
        path = rel.target[len(target_doc) + 1:]
        out.append({"type": rel.type, "path": path, "method": rel.method,
                    "date": rel.effective_date.isoformat() if rel.effective_date else None,
                    "inserted": rel.target in inserted, "evidence": rel.evidence[:160]})
    return out


def _parent(path: str) -> str:
    return ".".join(path.split(".")[:-1])


def graph_edges(runner: Any, source_doc: str, target_doc: str) -> list[dict[str, Any]]:
    """The same rows as :func:`predicted`, read back from the graph."""
    out = []
    for r in runner.read("legal/list_change_edges", source_doc=source_doc, target_doc=target_doc):
        when = r["effective_date"]
        out.append({"type": r["type"], "path": r["path"], "method": r["method"],
                    "date": when.iso_format() if when is not None else None,
                    "inserted": r["type"] == "SUPPLEMENTS", "evidence": "",
                    "container": r["container"]})
    return out


def score_pair(pair: dict[str, Any], docs: dict[str, ParsedDocument],
               graph: Any = None) -> dict[str, Any]:
    amended = normalise_doc_number(pair["amended_number"])
    amending = normalise_doc_number(pair["amending_number"])
    gold = [json.loads(line) for line in
            (AMEND / pair["gold_file"]).read_text(encoding="utf-8").splitlines() if line.strip()]
    doubtful = [g for g in gold if _verify(g) == "no_match"]
    gold = [g for g in gold if _verify(g) != "no_match"]
    row: dict[str, Any] = {"pair": pair["slug"], "tier": pair["tier"], "amended": amended,
                           "amending": amending, "gold": len(gold), "gold_doubtful": len(doubtful)}
    if amending not in docs or amended not in docs:
        row["refused"] = True
        pred: list[dict[str, Any]] = []
    elif graph is None:
        row["refused"] = False
        pred = predicted(docs[amending], amended)
    else:
        row["refused"] = False
        pred = graph_edges(graph, amending, amended)
    gold_rows = []
    for g in gold:
        path = gold_path(g["target_unit"])
        gold_rows.append({"path": path, "key": article_key(path) if path else None,
                          "kind": g["kind"], "date": g.get("effective_from"),
                          "unit": g["target_unit"], "by": g["by_unit"]})
    gold_keys = {g["key"] for g in gold_rows if g["key"]}
    pred_keys = {article_key(p["path"]) for p in pred}
    row["article"] = {"tp": len(gold_keys & pred_keys), "gold": len(gold_keys),
                      "pred": len(pred_keys)}
    row["missed_articles"] = sorted(gold_keys - pred_keys)
    row["extra_articles"] = sorted(pred_keys - gold_keys)
    # per kind at article level
    kinds: dict[str, dict[str, int]] = {}
    for kind, ok in KIND_OK.items():
        gk = {g["key"] for g in gold_rows if g["kind"] == kind and g["key"]}
        pk_all = {article_key(p["path"]) for p in pred if p["type"] in ok}
        kinds[kind] = {"tp": len(gk & pk_all), "gold": len(gk)}
    for rel in CHANGE_TYPES:
        pk = {article_key(p["path"]) for p in pred if p["type"] == rel}
        gk = {g["key"] for g in gold_rows if g["key"] and rel in KIND_OK[g["kind"]]}
        kinds[rel] = {"tp": len(pk & gk), "pred": len(pk)}
    row["kinds"] = kinds
    # exact unit
    pred_units: set[str] = set()
    for p in pred:
        pred_units.add(p["path"])
        if p["path"].startswith("PL"):
            pred_units.add("PL")  # the portal writes "Phụ lục" without its number
        if p["type"] == "SUPPLEMENTS" and p["inserted"]:
            # the unit it went into: its parent by id, or (read back from the graph) the
            # structural unit that contains it, e.g. the Mục an inserted article sits in
            pred_units.add(_parent(p["path"]) or p.get("container") or p["path"])
    gold_units = {g["path"] for g in gold_rows if g["path"]}
    row["unit"] = {"tp": len(gold_units & pred_units), "gold": len(gold_units),
                   "pred": len({p["path"] for p in pred}),
                   "pred_tp": sum(1 for u in {p["path"] for p in pred}
                                  if u in gold_units or _parent(u) in gold_units
                                  or (u.startswith("PL") and "PL" in gold_units))}
    row["missed_units"] = sorted(gold_units - pred_units)[:40]
    # dates
    dated = [g for g in gold_rows if g["date"] and g["key"] in pred_keys]
    agree = unknown = 0
    wrong: list[str] = []
    for g in dated:
        dates = {p["date"] for p in pred if article_key(p["path"]) == g["key"]}
        if g["date"] in dates:
            agree += 1
        elif dates == {None}:
            unknown += 1
        else:
            wrong.append(f"{g['unit']}: gold {g['date']}, found {sorted(map(str, dates))}")
    row["dates"] = {"gold_dated_found": len(dated), "agree": agree, "unknown": unknown,
                    "wrong": wrong[:10]}
    row["pred_edges"] = len(pred)
    row["pred_by_type"] = dict(Counter(p["type"] for p in pred))
    return row


def _prf(tp: int, gold: int, pred: int) -> dict[str, float]:
    p = tp / pred if pred else 1.0
    r = tp / gold if gold else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": round(p, 3), "recall": round(r, 3), "f1": round(f, 3)}


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    art: Counter[str] = Counter()
    unit: Counter[str] = Counter()
    for r in rows:
        art.update(r["article"])
        unit.update(r["unit"])
    kinds: dict[str, Any] = {}
    for kind in KIND_OK:
        tp = sum(r["kinds"][kind]["tp"] for r in rows)
        g = sum(r["kinds"][kind]["gold"] for r in rows)
        kinds[kind] = {"recall": round(tp / g, 3) if g else None, "gold": g}
    for rel in CHANGE_TYPES:
        tp = sum(r["kinds"][rel]["tp"] for r in rows)
        p = sum(r["kinds"][rel]["pred"] for r in rows)
        kinds[rel] = {"precision": round(tp / p, 3) if p else None, "pred": p}
    dates: Counter[str] = Counter()
    for r in rows:
        dates.update({k: v for k, v in r["dates"].items() if isinstance(v, int)})
    return {
        "pairs": len(rows),
        "pairs_without_edges": sum(1 for r in rows if r["pred_edges"] == 0),
        "refused_pairs": sum(1 for r in rows if r["refused"]),
        "article": {**_prf(art["tp"], art["gold"], art["pred"]), **dict(art)},
        "unit": {**_prf(unit["tp"], unit["gold"], unit["pred"]),
                 "precision": round(unit["pred_tp"] / unit["pred"], 3) if unit["pred"] else 1.0,
                 **dict(unit)},
        "kinds": kinds,
        "dates": {**dict(dates), "agreement": round(dates["agree"] / dates["gold_dated_found"], 3)
                  if dates["gold_dated_found"] else None},
    }


def law_dict_check() -> dict[str, Any]:
    """46/2014/QH13 -> 25/2008/QH12 from the shipped law_dict.json."""
    path = DATA / "vn-health" / "raw" / "law_dict.json"
    # as "hopgraph load legal ../shared/data/vn-health" reads it: the codification beside it
    # names "Luật Bảo hiểm y tế" -> 25/2008/QH12 (law_dict.json has no titles)
    files, _ = expand_paths([DATA / "vn-health" / "phapdien"])
    docs, problems, _ = parse_inputs([path], collect_names(files))
    alone, _, _ = parse_inputs([path])
    alone_46 = next((d for d in alone if d.meta.doc_id == "46/2014/QH13"), None)
    by_id = {d.meta.doc_id: d for d in docs}
    amending = by_id.get("46/2014/QH13")
    if amending is None:
        return {"error": "46/2014/QH13 not parsed", "problems": [str(p) for p in problems]}
    edges = Counter(r.type for r in amending.relations
                    if r.type in CHANGE_TYPES and r.target.startswith("25/2008/QH12:"))
    unresolved = sum(1 for u in amending.unresolved
                     if u.method == "amendment_target_document_unknown")
    return {"edges_to_25_2008": dict(edges), "unresolved_instructions": unresolved,
            "versions": sum(1 for n in amending.new_units if n.kind == "version"),
            "without_codification_names": {
                "edges_to_25_2008": sum(1 for r in (alone_46.relations if alone_46 else [])
                                        if r.type in CHANGE_TYPES
                                        and r.target.startswith("25/2008/QH12:")),
                "unresolved_instructions": sum(
                    1 for u in (alone_46.unresolved if alone_46 else [])
                    if u.method == "amendment_target_document_unknown")}}


def run_graph(tiers: set[str]) -> dict[str, Any]:
    """Load every pair's two texts (``load_legal``, no embeddings) into a fresh local Neo4j and
    score the edges the graph holds; also the load time per document."""
    from hopgraph.loaders.legal import load_legal
    from tests.benchmarks._common import local_neo4j

    pairs = [p for p in json.loads((AMEND / "pairs.json").read_text(encoding="utf-8"))["pairs"]
             if p["tier"] in tiers]
    files = sorted({p["amended_file"] for p in pairs} | {p["amending_file"] for p in pairs})
    with local_neo4j("hopgraph-bench-amend-", start_timeout_s=600,
                     query_timeout_s=900) as server:
        runner = server.runner
        t0 = time.perf_counter()
        report = load_legal(runner, None, [AMEND / f for f in files], segmenter=lambda t: t)
        load_s = time.perf_counter() - t0
        docs_loaded = set(report.documents)
        rows = []
        for pair in pairs:
            amended = normalise_doc_number(pair["amended_number"])
            amending = normalise_doc_number(pair["amending_number"])
            present: dict[str, Any] = {d: None for d in (amended, amending) if d in docs_loaded}
            rows.append(score_pair(pair, present, graph=runner))
    by_tier = {t: summarise([r for r in rows if r["tier"] == t]) for t in sorted(tiers)
               if any(r["tier"] == t for r in rows)}
    return {"tiers": by_tier, "files": len(files), "documents_loaded": len(docs_loaded),
            "skipped": [str(p) for p in report.skipped], "load_s": round(load_s, 1),
            "load_s_per_document": round(load_s / max(1, len(docs_loaded)), 2),
            "timings": {"parse_s": round(report.parse_s, 1), "write_s": round(report.write_s, 1),
                        "derive_s": round(report.derive_s, 1)},
            "warnings": len(report.warnings), "pairs": rows}


def run(tiers: set[str]) -> dict[str, Any]:
    pairs = [p for p in json.loads((AMEND / "pairs.json").read_text(encoding="utf-8"))["pairs"]
             if p["tier"] in tiers]
    files = sorted({p["amended_file"] for p in pairs} | {p["amending_file"] for p in pairs})
    per_doc: dict[str, dict[str, Any]] = {}
    docs: dict[str, ParsedDocument] = {}
    refused: list[str] = []
    # every file alone, for its parse time, warnings and refusals
    for f in files:
        t0 = time.perf_counter()
        parsed, problems, _ = parse_inputs([AMEND / f])
        dt = time.perf_counter() - t0
        per_doc[f] = {"seconds": round(dt, 3), "refused": [str(p) for p in problems],
                      "warnings": sum(len(d.warnings) for d in parsed),
                      "units": sum(len(d.units) for d in parsed),
                      "doc_id": parsed[0].meta.doc_id if parsed else None}
        if problems:
            refused.append(f)
    rows = []
    for pair in pairs:
        parsed, _problems, _ = parse_inputs([AMEND / pair["amended_file"],
                                             AMEND / pair["amending_file"]])
        docs = {d.meta.doc_id: d for d in parsed}
        rows.append(score_pair(pair, docs))
    by_tier: dict[str, Any] = {}
    for tier in sorted(tiers):
        sel = [r for r in rows if r["tier"] == tier]
        if sel:
            by_tier[tier] = summarise(sel)
    secs = [d["seconds"] for d in per_doc.values()]
    return {
        "tiers": by_tier,
        "all": summarise(rows),
        "documents": {"files": len(files), "refused": refused,
                      "warnings_median": statistics.median(d["warnings"] for d in per_doc.values()),
                      "warnings_max": max(d["warnings"] for d in per_doc.values()),
                      "parse_s_median": round(statistics.median(secs), 3),
                      "parse_s_max": round(max(secs), 3)},
        "per_document": per_doc,
        "law_dict_46_2014": law_dict_check(),
        "pairs": rows,
    }


def _row(name: str, s: dict[str, Any]) -> str:
    a, u, d = s["article"], s["unit"], s["dates"]
    return (f"| {name} | {s['pairs']} | {a['precision']:.3f} | {a['recall']:.3f} | {a['f1']:.3f} | "
            f"{a['gold']} | {u['precision']:.3f} | {u['recall']:.3f} | {u['gold']} | "
            f"{d['agree']}/{d['gold_dated_found']} ({d['unknown']} unknown) | "
            f"{s['pairs_without_edges']} |")


def render_md(result: dict[str, Any]) -> str:
    """The record a reader opens: figures per tier, per kind, documents, the 46/2014 check."""
    head = ("| tier | pairs | article P | article R | article F1 | gold articles | unit P | "
            "unit R | gold units | dates agree | pairs without edges |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|")
    lines = [
        "# Amendment edges on real law pairs (vn-amend-dev)",
        "",
        f"- command: `{result['command'].strip()}`",
        f"- commit: {result['commit']}",
        f"- machine load: {result['load_average_1m']} (1-minute average, 2 cores)",
        "- baseline: `legal_amendments_baseline_08659b3.md`: the loader of 08659b3 in the same "
        "harness (an earlier run); earlier records of this benchmark are in git (the one before "
        "this session's issue-24 work: core graph article P 0.982 / R 0.931, unit P 0.932 / "
        "R 0.832, at 56e212a)",
        "",
        f"Run {result['date']} at commit {result['commit']}, 1-minute load average "
        f"{result['load_average_1m']} (2-core machine). Command: `{result['command']}`. Gold: the legal portal's inline annotations "
        "(`../shared/data/vn-amend-dev`); gold edges whose own check is `no_match` left out. "
        "Article level: targets reduced to their article (or chapter/section/annex); exact "
        "unit: the target path (a SUPPLEMENTS edge to an inserted unit also counts for the unit "
        "it went into). Dates: gold edges with a date whose article was found, and whether the "
        "edge there carries that date.",
        "",
        "## Parsed texts (what the loader extracts, before the database)",
        "",
        head,
    ]
    lines += [_row(t, s) for t, s in result["tiers"].items()]
    lines.append(_row("all", result["all"]))
    if "graph" in result:
        g = result["graph"]
        lines += ["", "## Read back from Neo4j after `load_legal` (no embeddings)", "",
                  f"{g['documents_loaded']} documents from {g['files']} files loaded in one run, "
                  f"{g['load_s']} s ({g['load_s_per_document']} s per document: parse "
                  f"{g['timings']['parse_s']} s, write {g['timings']['write_s']} s, derive "
                  f"{g['timings']['derive_s']} s); skipped: {len(g['skipped'])}; warnings: "
                  f"{g['warnings']}.", "", head]
        lines += [_row(t, s) for t, s in g["tiers"].items()]
    kinds = result["all"]["kinds"]
    lines += ["", "## Per kind (all tiers, parsed)", "",
              "| gold kind | gold articles | recall |", "|---|---|---|"]
    lines += [f"| {k} | {kinds[k]['gold']} | {kinds[k]['recall']} |" for k in KIND_OK]
    lines += ["", "| relation found | article keys | precision |", "|---|---|---|"]
    lines += [f"| {k} | {kinds[k]['pred']} | {kinds[k]['precision']} |" for k in CHANGE_TYPES]
    docs = result["documents"]
    lines += ["", "## Documents", "",
              f"{docs['files']} files, refused: {len(docs['refused'])} "
              f"{docs['refused'] or ''}; parse warnings per document median "
              f"{docs['warnings_median']}, max {docs['warnings_max']}; parse time per document "
              f"median {docs['parse_s_median']} s, max {docs['parse_s_max']} s.",
              "", "## 46/2014/QH13 → 25/2008/QH12 (vn-health/raw/law_dict.json)", "",
              "```", json.dumps(result["law_dict_46_2014"], ensure_ascii=False, indent=1), "```",
              "", "## Misses per pair (article level)", "",
              "| pair | tier | found/gold | missed | extra |", "|---|---|---|---|---|"]
    for r in result["pairs"]:
        if r["missed_articles"] or r["extra_articles"]:
            a = r["article"]
            lines.append(f"| {r['pair']} | {r['tier']} | {a['tp']}/{a['gold']} | "
                         f"{', '.join(r['missed_articles'][:12])} | "
                         f"{', '.join(r['extra_articles'][:8])} |")
    return "\n".join(lines) + "\n"


def _commit() -> str:
    from tests.benchmarks._common import commit

    return commit()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tier", action="append", choices=["core", "minor", "indirect"])
    ap.add_argument("--out", default="legal_amendments")
    ap.add_argument("--show", action="store_true", help="print misses per pair")
    ap.add_argument("--graph", action="store_true",
                    help="also load the pairs into a fresh local Neo4j and score the graph")
    args = ap.parse_args(argv)
    tiers = set(args.tier or ["core", "minor", "indirect"])
    t0 = time.perf_counter()
    result = run(tiers)
    if args.graph:
        result["graph"] = run_graph(tiers)
    result["seconds"] = round(time.perf_counter() - t0, 1)
    result["commit"] = _commit()
    result["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    result["load_average_1m"] = round(os.getloadavg()[0], 2)
    result["command"] = "python -m tests.benchmarks.legal_amendments " + " ".join(
        argv if argv is not None else sys.argv[1:])
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{args.out}.json").write_text(json.dumps(result, ensure_ascii=False, indent=1),
                                          encoding="utf-8")
    (OUT / f"{args.out}.md").write_text(render_md(result), encoding="utf-8")
    for tier, s in result["tiers"].items():
        print(tier, json.dumps({k: s[k] for k in ("article", "unit", "pairs_without_edges",
                                                  "dates")}, ensure_ascii=False))
    print("documents", json.dumps(result["documents"], ensure_ascii=False))
    if "graph" in result:
        for tier, s in result["graph"]["tiers"].items():
            print("graph", tier, json.dumps({k: s[k] for k in ("article", "unit", "dates")},
                                            ensure_ascii=False))
    print("law_dict", json.dumps(result["law_dict_46_2014"], ensure_ascii=False))
    if args.show:
        for r in result["pairs"]:
            print(r["pair"], r["tier"], r["article"], "missed", r["missed_articles"][:20],
                  "extra", r["extra_articles"][:10])
    return 0


if __name__ == "__main__":
    sys.exit(main())
