"""Shared fixtures for retrieval tests: a hashing embedder, a small amendment graph builder, and
a loader of written legal texts.

The graph follows the legal graph contract (``graph_models/_legal.py``): Documents, units with
``LegalUnit`` + level label, CONTAINS, AMENDS/REPLACES/SUPPLEMENTS/REPEALS/REFERS_TO, UnitVersion
nodes ``<target>@<amending doc>`` with VERSION_OF.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

import neo4j

from hopgraph.loaders.legal import LoadReport, load_legal

DIM = 384


class HashEmbedder:
    """Bag-of-words hashed into 384 dimensions, L2-normalised: deterministic, no model."""

    name = "hash-bow"
    dimension = DIM

    def _vec(self, text: str) -> list[float]:
        v = [0.0] * DIM
        for tok in text.lower().split():
            h = int(hashlib.md5(tok.strip(".,;:?").encode()).hexdigest(), 16)
            v[h % DIM] += 1.0
        n = math.sqrt(sum(x * x for x in v)) or 1.0
        return [x / n for x in v]

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._vec(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vec(text)


def write_graph(driver: neo4j.Driver, docs: list[dict[str, Any]], units: list[dict[str, Any]],
                edges: list[dict[str, Any]], database: str = "neo4j") -> None:
    """Write a fixture graph directly (tests only; the product writes through the loader)."""
    emb = HashEmbedder()
    for u in units:
        u.setdefault("text_segmented", u["text"])
        u.setdefault("embedding", emb._vec(u["text"]))
        u.setdefault("valid_from", None)
        u.setdefault("valid_to", None)
        u.setdefault("parent", None)
        u.setdefault("version_of", None)
        u.setdefault("heading", None)
    with driver.session(database=database) as s:
        s.run("""UNWIND $docs AS d MERGE (n:LegalNode {id: d.id}) SET n:Document,
                 n.number = d.number, n.doc_type = d.doc_type, n.title = d.title,
                 n.issuer = d.issuer, n.issue_date = d.issue_date,
                 n.effective_date = d.effective_date, n.status = d.status""", docs=docs).consume()
        for level in ("Article", "Clause", "Point", "UnitVersion", "Chapter"):
            rows = [u for u in units if u["level"] == level]
            s.run(f"""UNWIND $rows AS u MERGE (n:LegalNode {{id: u.id}}) SET n:LegalUnit:{level},
                 n.doc_id = u.doc_id, n.level = u.level, n.number = u.number, n.path = u.path,
                 n.text = u.text, n.text_segmented = u.text_segmented, n.heading = u.heading,
                 n.embedding = u.embedding, n.valid_from = u.valid_from,
                 n.valid_to = u.valid_to, n.citation = u.citation""", rows=rows).consume()
        s.run("""UNWIND $rows AS u MATCH (c:LegalNode {id: u.id})
                 MATCH (p:LegalNode {id: coalesce(u.parent, u.doc_id)})
                 WHERE u.version_of IS NULL MERGE (p)-[:CONTAINS]->(c)""", rows=units).consume()
        s.run("""UNWIND $rows AS u MATCH (c:LegalNode {id: u.id}) MATCH (t:LegalNode {id: u.version_of})
                 MERGE (c)-[:VERSION_OF]->(t)""",
              rows=[u for u in units if u["version_of"]]).consume()
        for rel in ("AMENDS", "REPLACES", "SUPPLEMENTS", "REPEALS", "REFERS_TO"):
            rows = [e for e in edges if e["rel"] == rel]
            s.run(f"""UNWIND $rows AS e MATCH (a:LegalNode {{id: e.src}}) MATCH (b:LegalNode {{id: e.dst}})
                 MERGE (a)-[r:{rel}]->(b) SET r.method = 'fixture', r.evidence = e.evidence,
                 r.effective_date = e.effective_date, r.origin = 'text', r.edits = e.edits""",
                  rows=[{"edits": None, **e} for e in rows]).consume()


def amendment_chain(depth: int, *, base_doc: str = "1/2010/QH12",
                    start_year: int = 2012) -> tuple[list[dict[str, Any]], list[dict[str, Any]],
                                                     list[dict[str, Any]], list[date]]:
    """A law whose Điều 5 khoản 2 is amended ``depth`` times by successive laws, one a year.

    Returns (docs, units, edges, effective dates of the amendments).
    """
    docs = [{"id": base_doc, "number": base_doc, "doc_type": "Luật", "title": "Luật thử nghiệm",
             "issuer": "Quốc hội", "issue_date": date(2010, 6, 1),
             "effective_date": date(2011, 1, 1), "status": "con_hieu_luc"}]
    target = f"{base_doc}:D5.K2"
    units: list[dict[str, Any]] = [
        {"id": f"{base_doc}:D5", "doc_id": base_doc, "level": "Article", "number": "5",
         "path": "D5", "text": "Điều 5. Mức hưởng bảo hiểm", "heading": "Mức hưởng bảo hiểm"},
        {"id": target, "doc_id": base_doc, "level": "Clause", "number": "2", "path": "D5.K2",
         "parent": f"{base_doc}:D5",
         "text": "Người tham gia bảo hiểm được hưởng mức chi trả tám mươi phần trăm chi phí khám bệnh."},
    ]
    edges: list[dict[str, Any]] = []
    dates = []
    for i in range(1, depth + 1):
        doc = f"{i}/{start_year + i - 1}/QH13"
        eff = date(start_year + i - 1, 7, 1)
        dates.append(eff)
        docs.append({"id": doc, "number": doc, "doc_type": "Luật",
                     "title": f"Luật sửa đổi lần {i}", "issuer": "Quốc hội",
                     "issue_date": date(start_year + i - 1, 1, 15), "effective_date": eff,
                     "status": "con_hieu_luc"})
        instr = f"{doc}:D1.K1"
        units.append({"id": instr, "doc_id": doc, "level": "Clause", "number": "1",
                      "path": "D1.K1", "text": f"Sửa đổi khoản 2 Điều 5 lần {i} như sau",
                      "citation": f"khoản 1 Điều 1 Luật {doc}"})
        units.append({"id": f"{target}@{doc}", "doc_id": base_doc, "level": "UnitVersion",
                      "number": "2", "path": "D5.K2", "version_of": target, "valid_from": eff,
                      "text": f"Người tham gia bảo hiểm được hưởng mức chi trả phiên bản {i} "
                              f"chi phí khám bệnh."})
        edges.append({"rel": "AMENDS", "src": instr, "dst": target, "effective_date": eff,
                      "evidence": f"Sửa đổi khoản 2 Điều 5 (lần {i})"})
    return docs, units, edges, dates


def load_texts(runner: Any, folder: Path, texts: Mapping[str, str]) -> LoadReport:
    """Write each text to ``folder / name`` and load them in that order, without vectors;
    nothing may be skipped."""
    paths = []
    for name, text in texts.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    report = load_legal(runner, None, paths)
    assert not report.skipped, report.skipped
    return report
