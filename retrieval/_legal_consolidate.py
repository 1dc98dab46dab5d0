"""The consolidated wording of a document at a date (văn bản hợp nhất) and what changed between
two dates.

``legal/consolidate_document`` picks, per unit, the version in force at the date (a start date
that is unknown counts from the amending document's issue date and is flagged; a version with
neither date is never chosen), repeals and the change edges; this module puts the units in
document order, keeps of each wording only the unit's own lines (its sub-units print
themselves), drops units that a newer wording of a containing unit no longer has, and names for
every changed unit the instruction and date that changed it. :func:`consolidate_text` applies the
same reading to one unit's text for retrieval (an article shown with its amended parts in force).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any, Literal

from hopgraph.core.errors import RetrievalError
from hopgraph.db import QueryRunner
from hopgraph.retrieval._legal_query import parse_as_of
from hopgraph.retrieval._legal_types import _jsonable, to_native

CONSOLIDATE_QUERY = "legal/consolidate_document"

UnitState = Literal["original", "amended", "inserted", "repealed", "not_yet", "removed"]

# Marker at the start of a line, per level of a sub-unit.
_MARKERS = {
    "Part": re.compile(r"^\s*phần\b", re.IGNORECASE),
    "Chapter": re.compile(r"^\s*chương\b", re.IGNORECASE),
    "Section": re.compile(r"^\s*mục\s+\d", re.IGNORECASE),
    "Subsection": re.compile(r"^\s*tiểu\s+mục\b", re.IGNORECASE),
    "Article": re.compile(r"^\s*điều\s+\d", re.IGNORECASE),
    "Clause": re.compile(r"^\s*\d+[a-zđ]?\.\s"),
    "Point": re.compile(r"^\s*[a-zđ]\d*\)\s"),
    "Annex": re.compile(r"^\s*(phụ\s+lục|mẫu\s+số)\b", re.IGNORECASE),
}
_VERB = {"AMENDS": "sửa đổi, bổ sung bởi", "SUPPLEMENTS": "bổ sung bởi",
         "REPEALS": "bãi bỏ bởi", "REPLACES": "thay thế bởi"}
# listed_phrase_removal: a place of "Bãi bỏ cụm từ “X” tại A, B, …" (loaders.legal)
_TEXTUAL = ("textual_substitution", "phrase_removal", "listed_phrase_removal")
_TEXTUAL_ALL = (*_TEXTUAL, "phrase_addition")


def vn_date(day: date) -> str:
    """``DD/MM/YYYY``."""
    return day.strftime("%d/%m/%Y")


def unknown_date_note(not_before: date | None) -> str:
    """The flag every answer shows for a wording whose start date is unknown."""
    if not_before is None:
        return "ngày có hiệu lực chưa xác định"
    return f"ngày có hiệu lực chưa xác định (không trước {vn_date(not_before)})"


@dataclass(frozen=True)
class Change:
    """The instruction that changed a unit: the amending unit, the method and the date.

    Attributes:
        kind: AMENDS, SUPPLEMENTS, REPEALS or REPLACES.
        source_id: the amending unit (or document) id.
        source_citation: its citation.
        method: the rule that found the instruction (``amend_instruction`` …).
        effective_date: the date the change took effect; ``None`` when unknown.
        date_unknown: the amending text states no start date.
        not_before: the amending document's issue date (the change is not in force before it).
        evidence: the matched instruction text, where kept.
    """

    kind: str
    source_id: str
    source_citation: str | None
    method: str | None
    effective_date: date | None
    date_unknown: bool
    not_before: date | None
    evidence: str | None = None

    def describe(self) -> str:
        """A Vietnamese one-line reading: ``sửa đổi, bổ sung bởi … , hiệu lực từ 01/01/2023``."""
        # the rule that found the instruction (``method``) stays in the JSON: a reader sees the
        # provision that made the change and its date
        return f"{_VERB.get(self.kind, self.kind.lower())} {self.provision()}"

    def provision(self) -> str:
        """The amending provision and its date: ``Khoản 1 Điều 1 …, hiệu lực từ 01/01/2023``."""
        text = self.source_citation or self.source_id
        if self.date_unknown or self.effective_date is None:
            return text + "; " + unknown_date_note(self.not_before)
        return text + f", hiệu lực từ {vn_date(self.effective_date)}"


@dataclass(frozen=True)
class ConsolidatedUnit:
    """One unit of the consolidated document.

    Attributes:
        id: the original unit's id (an inserted unit's own id).
        level, label, depth: its level, label (``Điều 3``) and depth below the document (0: top).
        state: ``original`` (never changed at the date), ``amended`` (a version is in force),
            ``inserted`` (added by an amending document), ``repealed``, ``not_yet`` (inserted
            later than the date) or ``removed`` (a newer wording of a containing unit lacks it).
        text: the unit's own lines in force (its sub-units are units of their own); for a
            repealed unit its marker and ``(bãi bỏ)``; empty when not shown.
        version_id: the UnitVersion whose wording is shown (``None``: the original).
        change: the instruction that gave the shown state, where one did.
        date_unknown / not_before: the shown wording's start date is unknown; not before this.
        possibly_superseded: a version of the unit exists whose date and issue date are both
            unknown: the wording shown may no longer be the one in force.
        notes: textual amendments in force (phrases replaced or removed in the wording shown).
    """

    id: str
    level: str
    label: str
    depth: int
    state: UnitState
    text: str
    version_id: str | None = None
    change: Change | None = None
    date_unknown: bool = False
    not_before: date | None = None
    possibly_superseded: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def shown(self) -> bool:
        """Whether the unit is part of the document at the date."""
        return self.state not in ("not_yet", "removed")

    @property
    def changed(self) -> bool:
        """Whether the unit differs from the document as enacted."""
        return self.state in ("amended", "inserted", "repealed") or bool(self.notes)

    def mark(self) -> str:
        """The bracketed mark printed under a changed unit (empty for an unchanged one)."""
        parts: list[str] = []
        if self.change is not None:
            parts.append(self.change.describe())
        elif self.date_unknown:
            parts.append(unknown_date_note(self.not_before))
        parts.extend(self.notes)
        if self.possibly_superseded:
            parts.append("có sửa đổi chưa xác định được ngày có hiệu lực: có thể không còn áp dụng")
        return "; ".join(parts)


@dataclass(frozen=True)
class ConsolidatedDocument:
    """The answer of :func:`consolidate`: a document as in force at ``as_of``.

    Attributes:
        doc_id, number, doc_type, title: the document.
        as_of: the date.
        units: every unit in document order (those not shown included, with their state).
        notes: document-level notes (not yet in force, replaced or repealed at the date).
        not_loaded: amending documents a loaded text says changed this one that the graph has
            not loaded: their changes are missing (an official consolidation lists its sources).
    """

    doc_id: str
    number: str | None
    doc_type: str | None
    title: str | None
    as_of: date
    units: list[ConsolidatedUnit]
    notes: list[str] = field(default_factory=list)
    not_loaded: list[str] = field(default_factory=list)
    issue_date: date | None = None

    def shown_units(self) -> list[ConsolidatedUnit]:
        """The units that make up the document at the date, in order."""
        return [u for u in self.units if u.shown]

    def changed_units(self) -> list[ConsolidatedUnit]:
        """The shown units that differ from the document as enacted."""
        return [u for u in self.units if u.shown and u.changed]

    def render(self) -> str:
        """The consolidated text, each changed unit followed by its bracketed mark."""
        name = " ".join(x for x in (self.doc_type, self.number or self.doc_id) if x)
        lines = [f"{name} — {self.title}" if self.title else name,
                 f"Văn bản hợp nhất tại ngày {vn_date(self.as_of)} (từ các văn bản đã nạp; "
                 f"{len(self.changed_units())} đơn vị được sửa đổi, bổ sung hoặc bãi bỏ)"]
        lines.extend(f"Lưu ý: {n}" for n in self.notes)
        if self.not_loaded:
            lines.append("Lưu ý: chưa cập nhật các văn bản: " + ", ".join(self.not_loaded)
                         + " (đã sửa đổi văn bản này nhưng chưa được nạp vào đồ thị)")
        lines.append("")
        for u in self.shown_units():
            if u.text:
                lines.append(u.text)
            mark = u.mark()
            if mark:
                lines.append(f"    [{mark}]")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (dates as ISO strings)."""
        return dict(_jsonable(asdict(self)))


@dataclass(frozen=True)
class UnitDiff:
    """One unit whose consolidated wording differs between two dates."""

    id: str
    label: str
    before: ConsolidatedUnit
    after: ConsolidatedUnit

    @property
    def kind(self) -> Literal["added", "removed", "changed"]:
        """``added`` (not in the document before), ``removed``, or ``changed`` wording."""
        if not self.before.shown or self.before.state == "repealed":
            return "added" if self.after.shown and self.after.state != "repealed" else "changed"
        if not self.after.shown or self.after.state == "repealed":
            return "removed"
        return "changed"


def consolidate(runner: QueryRunner, doc_id: str,
                as_of: date | str | None = None) -> ConsolidatedDocument:
    """The document ``doc_id`` as in force at ``as_of``, one database round trip.

    Args:
        runner: executes the registered query ``legal/consolidate_document``.
        doc_id: the document's id (its normalised number, e.g. ``12/2016/NĐ-CP``).
        as_of: the date (``date`` or ``YYYY-MM-DD``); today by default.

    Returns:
        A :class:`ConsolidatedDocument`; :meth:`~ConsolidatedDocument.render` prints it.

    Raises:
        RetrievalError: an empty id, a bad date, or no such document in the graph.
        DatabaseError: the server failed.
    """
    if not isinstance(doc_id, str) or not doc_id.strip():
        raise RetrievalError("consolidate needs a document id, got an empty one")
    day = parse_as_of(as_of, date.today())
    rows = runner.read(CONSOLIDATE_QUERY, doc_id=doc_id.strip(), as_of=day)
    row = to_native(rows[0]) if rows else {}
    doc = row.get("doc")
    if not doc:
        raise RetrievalError(f"no document with id {doc_id.strip()!r} in the graph "
                             "(ids are normalised numbers such as 12/2016/NĐ-CP)")
    return build_consolidated(doc, row.get("units") or [], day)


def diff_consolidated(before: ConsolidatedDocument,
                      after: ConsolidatedDocument) -> list[UnitDiff]:
    """The units whose state or wording differs between two consolidations, in document order
    (``after``'s, then units only ``before`` has)."""
    old = {u.id: u for u in before.units}
    out: list[UnitDiff] = []
    seen: set[str] = set()
    for u in after.units:
        seen.add(u.id)
        b = old.get(u.id)
        if b is None:
            continue
        if (b.shown, b.state == "repealed", b.text) != (u.shown, u.state == "repealed", u.text):
            out.append(UnitDiff(u.id, u.label, b, u))
    return out


def render_diff(before: ConsolidatedDocument, after: ConsolidatedDocument) -> str:
    """What changed between the two dates, unit by unit, with the instruction at the later one."""
    diffs = diff_consolidated(before, after)
    lines = [f"{after.doc_type or ''} {after.number or after.doc_id}: thay đổi từ "
             f"{vn_date(before.as_of)} đến {vn_date(after.as_of)} ({len(diffs)} đơn vị)".strip()]
    sign = {"added": "+", "removed": "-", "changed": "~"}
    for d in diffs:
        lines.append("")
        lines.append(f"{sign[d.kind]} {full_label(d.id, d.label)}")
        if d.before.shown and d.before.text:
            lines.append(f"  trước: {_flat(d.before.text)}")
        if d.after.shown and d.after.text:
            lines.append(f"  sau:   {_flat(d.after.text)}")
        mark = d.after.mark() if d.after.shown else (
            "không còn trong văn bản (nội dung mới của đơn vị chứa nó không có)"
            if d.after.state == "removed" else "")
        if mark:
            lines.append(f"  [{mark}]")
    return "\n".join(lines)


# --- assembly (pure) ---------------------------------------------------------------------------


def build_consolidated(doc: Mapping[str, Any], rows: Sequence[Mapping[str, Any]],
                       as_of: date) -> ConsolidatedDocument:
    """Assemble the query's rows (``doc``, ``units``) into a :class:`ConsolidatedDocument`."""
    by_id = {r["id"]: r for r in rows}
    children: dict[str | None, list[Mapping[str, Any]]] = {}
    for r in rows:
        parent = r.get("parent_id") if r.get("parent_id") in by_id else None
        children.setdefault(parent, []).append(r)
    units: list[ConsolidatedUnit] = []

    def walk(parent: str | None, depth: int, context: _Context | None,
             repealed: ConsolidatedUnit | None) -> None:
        for r in document_order(children.get(parent, [])):
            if repealed is not None:
                # a repealed unit takes its sub-units with it
                label = r.get("label") or f"{r.get('level')} {r.get('number') or ''}".strip()
                unit = ConsolidatedUnit(id=r["id"], level=r.get("level") or "", label=label,
                                        depth=depth, state="removed", text="",
                                        change=repealed.change)
            else:
                unit = _consolidated_unit(r, depth, context, children.get(r["id"], []), as_of)
            units.append(unit)
            walk(r["id"], depth + 1, _Context.of(r, unit, context),
                 repealed if repealed is not None else
                 unit if unit.state == "repealed" or (
                     unit.change is not None and unit.change.kind == "REPLACES") else None)

    walk(None, 0, None, None)
    notes: list[str] = []
    eff = doc.get("effective_date")
    if eff is not None and eff > as_of:
        notes.append(f"văn bản chưa có hiệu lực tại ngày {vn_date(as_of)} "
                     f"(có hiệu lực từ {vn_date(eff)})")
    for rep in doc.get("replaced_by") or []:
        start = rep.get("effective_date") or rep.get("not_before")
        if start is not None and start <= as_of:
            verb = "bãi bỏ" if rep.get("kind") == "REPEALS" else "thay thế"
            notes.append(f"văn bản đã bị {verb} bởi {rep.get('number') or rep['doc_id']}"
                         + (f" từ {vn_date(rep['effective_date'])}" if rep.get("effective_date")
                            else "; " + unknown_date_note(rep.get("not_before"))))
    return ConsolidatedDocument(
        doc_id=doc["id"], number=doc.get("number"), doc_type=doc.get("doc_type"),
        title=doc.get("title"), as_of=as_of, units=units, notes=notes,
        not_loaded=sorted(doc.get("not_loaded") or []), issue_date=doc.get("issue_date"),
    )


@dataclass(frozen=True)
class _Context:
    """The nearest containing unit whose wording is a version: that wording's document and start."""

    amended_by: str
    start: date | None
    change: Change | None

    @staticmethod
    def of(row: Mapping[str, Any], unit: ConsolidatedUnit,
           outer: _Context | None) -> _Context | None:
        # only a wording written in full decides which sub-units the unit has: a new title,
        # new opening words or replaced phrases keep them
        chosen = row.get("chosen")
        whole = row["whole"] if "whole" in row else (
            chosen if chosen and not chosen.get("scope") else None)
        if unit.state == "amended" and whole:
            return _Context(whole["amended_by"], whole.get("start"), unit.change)
        return outer


def document_order(siblings: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Siblings in document order: enacted units by ordinal; an inserted unit right after the
    unit it was inserted after (and after earlier insertions there), else at the end."""
    placed = sorted((r for r in siblings if r.get("ordinal") is not None),
                    key=lambda r: (r["ordinal"], r["id"]))
    rest = sorted((r for r in siblings if r.get("ordinal") is None),
                  key=lambda r: _number_key(r.get("number") or r["id"]))
    for r in rest:
        ids = [x["id"] for x in placed]
        anchor = r.get("inserted_after")
        if anchor in ids:
            i = ids.index(anchor) + 1
            while i < len(placed) and placed[i].get("ordinal") is None:
                i += 1
            placed.insert(i, r)
        else:
            placed.append(r)
    return placed


def _number_key(number: str) -> tuple[int, str]:
    m = re.match(r"(\d+)(.*)", number)
    return (int(m.group(1)), m.group(2)) if m else (10**9, number)


def _consolidated_unit(r: Mapping[str, Any], depth: int, context: _Context | None,
                       kids: Sequence[Mapping[str, Any]], as_of: date) -> ConsolidatedUnit:
    label = r.get("label") or f"{r.get('level')} {r.get('number') or ''}".strip()
    changes = [_change(c) for c in r.get("changes") or []]
    chosen = r.get("chosen")
    base: dict[str, Any] = {"id": r["id"], "level": r.get("level") or "", "label": label,
                            "depth": depth,
                            "possibly_superseded": bool(r.get("undated_versions"))}
    raw_changes = r.get("changes") or []
    version_docs = set(r.get("version_docs") or [])
    written_docs = set(r.get("written_docs") or [])
    # a phrase edit not applied is said, unless the same document gave the unit a wording
    # written in full (its phrase is already in that wording: "Thay thế cụm từ “Tổng cục Hải
    # quan” tại … khoản 2 Điều 24" beside a new wording of khoản 2 Điều 24 with "Cục Hải quan")
    notes = [("chưa áp dụng được vào câu chữ (không đọc được cụm từ của lệnh): "
              if not raw.get("edits") else
              "chưa áp dụng được vào câu chữ (không tìm thấy cụm từ trong đơn vị): ")
             + c.describe() + (f" — {c.evidence}" if c.evidence else "")
             for raw, c in zip(raw_changes, changes, strict=True)
             if c.kind == "AMENDS" and c.method in _TEXTUAL_ALL and _started(c, as_of)
             and not raw.get("applied") and c.source_id.split(":", 1)[0] not in written_docs]
    for c in changes:
        # an instruction that rewrites the unit, in force, whose new wording was not captured:
        # the wording below may be the old one; say so rather than serve it as in force
        by = c.source_id.split(":", 1)[0]
        if c.kind == "AMENDS" and c.method == "renumbering" and _started(c, as_of):
            # "Điều 5 được đánh số thành Điều 5a": recorded, not moved in this text; say so
            notes.append(f"được đánh số lại bởi {c.provision()}: {c.evidence} — bản hợp nhất này vẫn "
                         "để đơn vị ở số cũ")
            continue
        if c.kind == "AMENDS" and c.method == "partial_repeal" and _started(c, as_of):
            # "Bãi bỏ các quy định liên quan đến … tại khoản 1 Điều 19": the unit stays, with
            # what was repealed of it, since the part cannot be computed from the instruction
            notes.append(f"một phần nội dung bị bãi bỏ bởi {c.provision()}: {c.evidence} — phạm vi "
                         "bãi bỏ không xác định được từ lệnh; nội dung dưới đây có thể còn phần "
                         "đã bị bãi bỏ")
            continue
        if c.kind == "AMENDS" and c.method == "sub_unit_instruction" and _started(c, as_of):
            # "Sửa đổi, bổ sung Điểm 2.1 Khoản 2 Điều 2": a part numbered with decimals, kept as
            # text of this unit; the instruction says which part changed
            notes.append(f"{c.describe()}: {c.evidence} — phần này được đánh số thập phân và "
                         "nằm trong câu chữ của đơn vị, nội dung mới chưa được ghép vào: nội dung "
                         "dưới đây có thể không còn áp dụng ở phần đó")
            continue
        if c.kind == "AMENDS" and c.method not in (*_TEXTUAL_ALL, "renumbering",
                                                   "partial_repeal") \
                and _started(c, as_of) \
                and by not in version_docs and r.get("supplemented_by") != by \
                and (context is None or context.amended_by != by):
            notes.append(f"{c.describe()}, nhưng chưa trích xuất được nội dung mới: nội dung "
                         "dưới đây có thể không còn áp dụng")
    if not r.get("started"):
        return ConsolidatedUnit(**base, state="not_yet", text="")
    # A newer wording of a containing unit that has no version of this unit leaves it out.
    own_start = chosen.get("start") if chosen else None
    if context is not None and context.amended_by not in (r.get("version_docs") or []) \
            and r.get("supplemented_by") != context.amended_by \
            and (own_start is None or (context.start is not None and own_start < context.start)):
        return ConsolidatedUnit(**base, state="removed", text="", change=context.change)
    replaced = next((raw for raw, c in zip(raw_changes, changes, strict=True)
                     if c.kind == "REPLACES" and _started(c, as_of)), None)
    if replaced is not None and r.get("repeal") is None:
        # an annex (or unit) replaced whole: the new wording where the replacing document has
        # it, else the marker and that it was replaced; its old parts go with it
        rep_change = _change(replaced)
        new_text = replaced.get("new_text")
        return ConsolidatedUnit(**base, state="amended",
                                text=new_text.strip() if new_text else
                                f"{_marker(r)} (được thay thế)",
                                change=rep_change, date_unknown=rep_change.date_unknown,
                                not_before=rep_change.not_before if rep_change.date_unknown
                                else None)
    repeal = r.get("repeal")
    if repeal is not None:
        rep = _change(repeal)
        return ConsolidatedUnit(**base, state="repealed", text=f"{_marker(r)} (bãi bỏ)",
                                change=rep, date_unknown=rep.date_unknown,
                                not_before=rep.not_before if rep.date_unknown else None)
    wording = (chosen.get("text") if chosen else r.get("text")) or ""
    text = lead_text(wording, kids)
    if chosen:
        phrase = chosen.get("scope") == "phrase"
        ch: Change | None = next((c for c in changes if c.kind == "AMENDS"
                                  and c.source_id.split(":", 1)[0] == chosen["amended_by"]
                                  and (c.method in _TEXTUAL_ALL) == phrase), None)
        if ch is None and context is not None and context.amended_by == chosen["amended_by"]:
            ch = context.change
        if ch is None:
            ch = Change("AMENDS", chosen["amended_by"], chosen["amended_by"], None,
                        chosen.get("valid_from"), bool(chosen.get("date_unknown")),
                        chosen.get("not_before"))
        unknown = bool(chosen.get("date_unknown"))
        return ConsolidatedUnit(**base, state="amended", text=text, version_id=chosen["id"],
                                change=ch, date_unknown=unknown,
                                not_before=chosen.get("not_before") if unknown else None,
                                notes=notes)
    if r.get("supplemented_by"):
        inserted_by = next((c for c in changes if c.kind == "SUPPLEMENTS"), None) or Change(
            "SUPPLEMENTS", r["supplemented_by"], r["supplemented_by"], None,
            r.get("valid_from"), bool(r.get("date_unknown")), r.get("not_before"))
        unknown = bool(r.get("date_unknown"))
        return ConsolidatedUnit(**base, state="inserted", text=text, change=inserted_by,
                                date_unknown=unknown,
                                not_before=r.get("not_before") if unknown else None, notes=notes)
    return ConsolidatedUnit(**base, state="original", text=text, notes=notes)


def _started(c: Change, as_of: date) -> bool:
    start = c.effective_date if c.effective_date is not None else c.not_before
    return start is not None and start <= as_of


def _change(c: Mapping[str, Any]) -> Change:
    return Change(kind=c["kind"], source_id=c["source_id"],
                  source_citation=c.get("source_citation"), method=c.get("method"),
                  effective_date=c.get("effective_date"),
                  date_unknown=bool(c.get("date_unknown")), not_before=c.get("not_before"),
                  evidence=c.get("evidence"))


def _marker(r: Mapping[str, Any]) -> str:
    number = r.get("number") or ""
    level = r.get("level")
    if level == "Clause":
        return f"{number}."
    if level == "Point":
        return f"{number})"
    return r.get("label") or number


def lead_text(text: str, kids: Sequence[Mapping[str, Any]]) -> str:
    """A unit's own lines: its wording up to the first line where a sub-unit starts (found by
    the sub-units' own wordings, else by their level's marker)."""
    if not kids:
        return text.strip()
    lines = text.split("\n")
    starts = {(k.get("text") or "").split("\n", 1)[0].strip() for k in kids}
    starts |= {((k.get("chosen") or {}).get("text") or "").split("\n", 1)[0].strip() for k in kids}
    starts.discard("")
    markers = [_MARKERS[lv] for lv in {k.get("level") for k in kids} if lv in _MARKERS]
    for i, line in enumerate(lines):
        if i == 0:
            continue  # the unit's own marker line
        if line.strip() in starts or any(m.match(line) for m in markers):
            return "\n".join(lines[:i]).strip()
    return text.strip()


# --- one unit's text with its changed parts (retrieval) ----------------------------------------


@dataclass(frozen=True)
class PartChange:
    """A changed sub-unit of a unit shown in retrieval: its original text and what is in force."""

    kind: Literal["VERSION_OF", "SUPPLEMENTS", "REPEALS"]
    original: str
    shown: str | None
    marker: str
    anchor_text: str | None = None
    # The unit shown is a later wording (a version) of the unit whose part this is: when the
    # part's own original text is not in it, the part is the one its marker numbers there.
    by_number: bool = False


def consolidate_text(text: str, parts: Sequence[PartChange]) -> tuple[str, bool]:
    """``text`` with each changed part replaced by its wording in force (an inserted part placed
    after the part it follows, a repealed one reduced to its marker and ``(bãi bỏ)``). Parts are
    given in document order.

    Returns:
        (text, complete): ``complete`` is False when a part could not be placed in the text (the
        caller must then not present the text as the wording in force).
    """
    out = text
    complete = True
    # Insertions first, at their anchors' original text; the last of several after one anchor
    # first, so that they end up in their given order.
    ordered = [p for p in parts if p.kind == "SUPPLEMENTS"][::-1] + [
        p for p in parts if p.kind != "SUPPLEMENTS"]
    for p in ordered:
        if p.kind == "SUPPLEMENTS":
            if p.shown is None:
                continue
            anchor = p.anchor_text
            if anchor and anchor in out:
                i = out.index(anchor) + len(anchor)
                out = out[:i] + "\n" + p.shown + out[i:]
            elif anchor or (placed := _place_by_number(out, p.shown, p.marker)) is None:
                complete = False
            else:
                out = placed
            continue
        if not p.original or p.original not in out:
            if p.kind == "VERSION_OF" and p.shown and p.shown == p.original and (
                    placed := _place_by_number(out, p.shown, p.marker)) is not None:
                # a part inserted with no part named before it ("Bổ sung khoản 4 vào Điều
                # 100"): its wording is its own text, which the text does not hold yet
                out = placed
                continue
            if p.by_number and (p.shown or p.kind == "REPEALS") and (placed := _replace_by_number(
                    out, p.shown if p.kind == "VERSION_OF" and p.shown
                    else f"{p.marker} (bãi bỏ)", p.marker)) is not None:
                # an article re-worded by one law whose clause a later law re-words: the
                # clause is the article's new one, not the original text of the clause
                out = placed
                continue
            complete = False
            continue
        new = p.shown if p.kind == "VERSION_OF" and p.shown else f"{p.marker} (bãi bỏ)"
        out = out.replace(p.original, new, 1)
    return out, complete


_POINT_ORDER = "abcdđeghiklmnopqrstuvxy"
_CLAUSE_MARK = re.compile(r"^\s*(\d{1,3})([a-zđ]?)\.(?:\s|$)")
_POINT_MARK = re.compile(r"^\s*([a-zđ])(\d?)\)(?:\s|$)")


def _place_by_number(text: str, new: str, marker: str) -> str | None:
    """``text`` with ``new`` (a clause ``4.`` or a point ``đ)``, as ``marker`` says) before the
    first line of its level whose number comes after it, or at the end; None when the marker
    is neither."""
    def key(line: str) -> tuple[int, str] | None:
        m = (_CLAUSE_MARK if clause else _POINT_MARK).match(line)
        if m is None:
            return None
        if clause:
            return int(m.group(1)), m.group(2)
        return (_POINT_ORDER.index(m.group(1)) if m.group(1) in _POINT_ORDER else 99), m.group(2)

    clause = _CLAUSE_MARK.match(marker) is not None
    if not clause and _POINT_MARK.match(marker) is None:
        return None
    own = key(marker)
    lines = text.split("\n")
    for i, line in enumerate(lines[1:], start=1):
        k = key(line)
        if k is not None and own is not None and k > own:
            return "\n".join([*lines[:i], new, *lines[i:]])
    return f"{text}\n{new}"


def _replace_by_number(text: str, new: str, marker: str) -> str | None:
    """``text`` with the one clause (``1.``) or point (``a)``) that ``marker`` numbers, from its
    line up to the next line of its level or above, replaced by ``new``; None when the marker is
    neither, or no line or more than one line of the text carries it."""
    clause = _CLAUSE_MARK.match(marker) is not None
    mark = _CLAUSE_MARK if clause else _POINT_MARK
    own = mark.match(marker)
    if own is None:
        return None
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if i > 0 and (
        m := mark.match(line)) is not None and m.groups() == own.groups()]
    if len(starts) != 1:
        return None
    start = starts[0]
    end = next((j for j in range(start + 1, len(lines)) if _CLAUSE_MARK.match(lines[j])
                or (not clause and _POINT_MARK.match(lines[j]))), len(lines))
    return "\n".join([*lines[:start], new, *lines[end:]])


_LEVEL_WORD = {"D": "Điều", "K": "khoản", "C": "Chương", "M": "Mục", "P": "Phần", "PL": "Phụ lục"}


def full_label(unit_id: str, label: str = "") -> str:
    """A unit named as a lawyer names it, from the smallest part up: ``Điểm a khoản 2 Điều 3``
    for ``…:D3.K2.a`` (``Khoản 2`` alone does not say which article); ``label`` when the id
    is not a path of articles, clauses and points."""
    path = unit_id.split(":", 1)[1] if ":" in unit_id else ""
    parts: list[str] = []
    for seg in path.split(".") if path else []:
        if re.fullmatch(r"D\d+[a-zđ]?", seg):
            parts.append(f"Điều {seg[1:]}")
        elif re.fullmatch(r"K\d+[a-zđ]?", seg):
            parts.append(f"khoản {seg[1:]}")
        elif re.fullmatch(r"[a-zđ]\d?", seg):
            parts.append(f"điểm {seg}")
        elif re.fullmatch(r"PL\w+", seg):
            parts.append(f"Phụ lục {seg[2:]}")
        else:
            return label or unit_id
    if not parts:
        return label or unit_id
    text = " ".join(reversed(parts))
    return text[0].upper() + text[1:]


def _flat(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
