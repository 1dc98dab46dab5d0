"""A parsed document as the parameter rows of the ``cypher/legal`` write queries."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hopgraph.core.errors import IngestError
from hopgraph.loaders.legal._citations import TITLE_PLACEHOLDER, title_slugs
from hopgraph.loaders.legal._ids import citation, doc_label, slugify, split_unit_id
from hopgraph.loaders.legal._model import SCOPED, ParsedDocument, Problem, Unit

Row = dict[str, Any]
EMBED_LEVELS = ("Article", "Clause", "Point", "Annex")
# One fixed query per relation type (a type-switching query is three times slower).
RELATION_QUERIES = {
    "AMENDS": "legal/merge_amends", "SUPPLEMENTS": "legal/merge_supplements",
    "REPLACES": "legal/merge_replaces", "REPEALS": "legal/merge_repeals",
    "REFERS_TO": "legal/merge_refers_to", "GUIDES": "legal/merge_guides",
    "BASED_ON": "legal/merge_based_on", "CODIFIES": "legal/merge_codifies",
}
DEFAULT_EMBED_CHARS = 1000


@dataclass
class WritePlan:
    """Rows per write query for one document, in the order they must run."""

    doc_id: str
    documents: list[Row] = field(default_factory=list)
    units: list[Row] = field(default_factory=list)
    inserted: list[Row] = field(default_factory=list)
    contains: list[Row] = field(default_factory=list)  # inserted units only (units carry parent)
    versions: list[Row] = field(default_factory=list)
    relations: list[Row] = field(default_factory=list)
    unresolved: list[Row] = field(default_factory=list)

    def steps(self, batch_size: int) -> list[tuple[str, dict[str, Any]]]:
        """(query key, params) in order, each list cut into batches of ``batch_size``."""
        out: list[tuple[str, dict[str, Any]]] = []
        by_type: dict[str, list[Row]] = {}
        for rel in self.relations:
            by_type.setdefault(rel["type"], []).append(rel)
        for key, rows in (
            ("legal/upsert_documents", self.documents), ("legal/upsert_units", self.units),
            ("legal/upsert_supplemented_units", self.inserted), ("legal/link_units", self.contains),
            ("legal/link_versions", self.versions),
            *[(RELATION_QUERIES[t], by_type[t]) for t in RELATION_QUERIES if t in by_type],
            ("legal/merge_unresolved", self.unresolved),
        ):
            for start in range(0, len(rows), batch_size):
                out.append((key, {"rows": rows[start:start + batch_size]}))
        return out

    def embed_targets(self) -> list[Row]:
        """The unit rows whose text gets an embedding (clause-sized levels)."""
        return [r for r in self.units + self.inserted
                if r["level"] in EMBED_LEVELS and r["props"].get("text")]


def _kind(node_id: str) -> str:
    return "unit" if ":" in node_id else "document"


def _unit_props(doc: ParsedDocument, unit: Unit, label: str, segment: Callable[[str], str]
                ) -> dict[str, Any]:
    valid_from = None
    for u in [unit, *unit.ancestors()]:
        if u.path in doc.unit_dates:
            valid_from = doc.unit_dates[u.path]
            break
    # a start that is the document's own moves when another document changes that start
    date_from_doc = doc.meta.doc_id if valid_from is None else None
    return {
        "doc_id": doc.meta.doc_id, "level": unit.level, "number": unit.number, "path": unit.path,
        "label": unit.label, "heading": unit.heading, "text": unit.text,
        "text_segmented": segment(unit.text), "ordinal": unit.ordinal,
        "valid_from": valid_from or doc.meta.effective_date, "date_from_doc": date_from_doc,
        "made_from_instruction": None,  # a unit its own document writes is not made up
        "citation": citation(unit.chain(), label), "source_line": unit.line,
        "supplemented_by": None, "inserted_after": None, "amended_by": None,
        # events (amendment, repeal, replacement) change these in the derive step
        "status": "in_force", "valid_to": None,
    }


def plan_document(doc: ParsedDocument, segment: Callable[[str], str]) -> WritePlan:
    """Rows for every node and edge the document implies."""
    meta = doc.meta
    plan = WritePlan(meta.doc_id)
    label = doc_label(meta.doc_type, meta.number, meta.title)
    plan.documents.append({"id": meta.doc_id, "props": {
        "number": meta.number, "doc_type": meta.doc_type, "issuer": meta.issuer,
        "title": meta.title, "issue_date": meta.issue_date, "effective_date": meta.effective_date,
        # the start date the document states; effective_date follows a later change of it
        "effective_date_stated": meta.effective_date,
        "expiry_stated": meta.expiry_stated, "status_external": meta.status_external,
        "source_file": meta.source_file, "source_format": meta.source_format,
        # the keys of title placeholders this document answers to, and how citations name it
        "name_slugs": title_slugs(meta.title, meta.issue_date) if meta.title else [],
        "citation_label": _label_for(meta.doc_id),
        # "<name key>|<placeholder key>|<number>" for each name a codification's provenance
        # lines give: later loads resolve the name, re-homing finds the document
        "cited_names": [f"{key}|{slugify(key)}|{number}"
                        for key, number in sorted(doc.cited_names.items())],
    }})
    for unit in doc.units:
        uid = doc.unit_id(unit)
        parent = doc.unit_id(unit.parent) if unit.parent else meta.doc_id
        plan.units.append({"id": uid, "level": unit.level, "version": False,
                           "parent": parent, "parent_kind": _kind(parent),
                           "parent_doc": meta.doc_id,
                           "props": _unit_props(doc, unit, label, segment)})
    taken = {r["id"] for r in plan.units}
    for new in doc.new_units:
        if new.id in taken:
            # two instructions give one unit new wording twice (or insert it twice): the first
            # stands, the second is reported, and the rest of the document is written
            doc.warnings.append(Problem(meta.source_file, new.line, (
                f"a second new wording for {new.id} is skipped (the instruction at line "
                f"{new.line or '?'} repeats a unit an earlier instruction already gave)")))
            continue
        taken.add(new.id)
        target_doc_label = new.doc_id
        chain_parts = [(_level_of(seg), seg.lstrip("DK") if seg[:1] in "DK" else seg)
                       for seg in new.path.split(".")]
        props = {
            "doc_id": new.doc_id, "level": new.level, "number": new.number, "path": new.path,
            "label": f"{_word(new.level)} {new.number}",
            "heading": new.heading, "text": new.text, "text_segmented": segment(new.text),
            "ordinal": None, "valid_from": new.valid_from,
            # unknown is a value: no start date found in the amending document's text
            "valid_from_unknown": new.valid_from is None, "not_before": new.not_before,
            "citation": citation(chain_parts, _label_for(target_doc_label)),
            "pending_label": _label_for(target_doc_label)
            if target_doc_label.startswith(TITLE_PLACEHOLDER) else None,
            "source_line": new.line, "amended_by": new.by_doc if new.kind == "version" else None,
            "supplemented_by": new.by_doc if new.kind == "inserted" else None,
            "inserted_after": new.inserted_after, "date_from_doc": new.date_from_doc,
            "scope": new.scope, "doc_start": new.doc_start,
            # a new name or opening words as written: derive_phrase_versions writes the whole
            # wording (text) from it and the wording it changes
            "scope_text": new.text if new.scope in SCOPED else None,
            # an article's new body quoted without its name (derive_phrase_versions adds it)
            "body_text": new.text if new.name_from_base else None,
            "made_from_instruction": None,
        }
        if new.kind == "version":
            plan.units.append({"id": new.id, "level": new.level, "version": True,
                               "parent": new.parent_id, "parent_kind": "unit",
                               "parent_doc": new.doc_id, "props": props})
            plan.versions.append({"version": new.id, "target": new.target_id,
                                  "target_doc": new.doc_id})
        else:
            plan.inserted.append({"id": new.id, "level": new.level,
                                  "supplemented_by": new.by_doc, "props": props})
            if new.parent_id:
                plan.contains.append({"parent": new.parent_id, "child": new.id,
                                      "parent_kind": _kind(new.parent_id),
                                      "parent_doc": new.doc_id})
    seen: dict[str, Any] = {}
    for row in plan.units + plan.inserted:
        if row["id"] in seen:
            raise IngestError(f"{meta.source_file}:{row['props'].get('source_line') or 1}: "
                              f"two units would share the id {row['id']}")
        seen[row["id"]] = row
    for rel in doc.relations:
        if rel.type not in RELATION_QUERIES:
            raise ValueError(f"relation type {rel.type!r} is not in the allow-list")
        plan.relations.append({
            "source": rel.source, "source_kind": rel.source_kind,
            "source_doc": split_unit_id(rel.source)[0], "target": rel.target,
            "target_kind": rel.target_kind, "target_doc": split_unit_id(rel.target)[0],
            "type": rel.type, "method": rel.method, "evidence": rel.evidence,
            "effective_date": rel.effective_date, "origin": rel.origin,
            "written_by": meta.doc_id, "date_from_doc": rel.date_from_doc, "edits": rel.edits,
        })
    for item in doc.unresolved:
        key = hashlib.sha1(f"{item.method}|{item.text}".encode()).hexdigest()[:12]
        plan.unresolved.append({"source": item.source, "id": f"{item.source}#{key}",
                                "text": item.text, "method": item.method})
    return plan


def _level_of(seg: str) -> str:
    if seg.startswith("PL"):
        return "Annex"
    if seg.startswith("D"):
        return "Article"
    if seg.startswith("K"):
        return "Clause"
    return "Point"


def _word(level: str) -> str:
    return {"Article": "Điều", "Clause": "Khoản", "Point": "Điểm", "Annex": "Phụ lục"}.get(
        level, level)


def _label_for(doc_id: str) -> str:
    if doc_id.startswith(TITLE_PLACEHOLDER):
        return f"Văn bản {doc_id}"
    from hopgraph.loaders.legal._ids import doc_type_of_number

    return doc_label(doc_type_of_number(doc_id), doc_id, None)
