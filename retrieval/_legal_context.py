"""Context assembly for legal retrieval: turns the rows of ``legal/expand_context`` into ordered,
bounded :class:`ContextItem` lists with roles, validity notes, paths and provenance."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date
from typing import Any

from hopgraph.core.citations import document_name
from hopgraph.retrieval._legal_consolidate import (
    _CLAUSE_MARK,
    _POINT_MARK,
    PartChange,
    consolidate_text,
    unknown_date_note,
)
from hopgraph.retrieval._legal_types import (
    Candidate,
    ChainStep,
    ContextItem,
    Provenance,
    RetrievalConfig,
    Role,
    vn_date,
)

_LEVEL_WORDS = {
    "Part": "Phần", "Chapter": "Chương", "Section": "Mục", "Subsection": "Tiểu mục",
    "Article": "Điều", "Clause": "khoản", "Point": "điểm", "Annex": "Phụ lục",
}
_PATH_WORDS = {"P": "Phần", "C": "Chương", "M": "Mục", "T": "Tiểu mục", "D": "Điều", "K": "khoản"}
_ABOVE_ARTICLE = ("Part", "Chapter", "Section", "Subsection")


def assemble_context(
    seeds: Sequence[Candidate], row: Mapping[str, Any], as_of: date, cfg: RetrievalConfig
) -> tuple[list[ContextItem], list[str], bool]:
    """Build the ordered, bounded context items.

    Returns:
        (items, warnings, truncated)
    """
    units: dict[str, Mapping[str, Any]] = {u["id"]: u for u in row.get("units") or []}
    by_seed = {s["seed_id"]: s for s in row.get("seeds") or []}
    items: list[ContextItem] = []
    seen: set[str] = set()
    warnings: list[str] = []
    chars = 0
    truncated = False

    def add(item: ContextItem) -> None:
        nonlocal chars, truncated
        if item.node_id in seen:
            # A unit first met as the article holding an earlier seed (its heading alone, a
            # provenance item) and then found itself: its own item, with its text, takes the
            # stand-in's place (else the reader would never see the article's wording).
            at = next((i for i, it in enumerate(items) if it.node_id == item.node_id), None)
            if at is None or items[at].role != "provenance" or item.role == "provenance":
                return
            if chars - len(items[at].text) + len(item.text) > cfg.max_chars:
                truncated = True
                return
            chars += len(item.text) - len(items[at].text)
            items[at] = replace(item, rank=at + 1)
            return
        if len(items) >= cfg.max_items or chars + len(item.text) > cfg.max_chars:
            truncated = True
            return
        seen.add(item.node_id)
        chars += len(item.text)
        items.append(replace(item, rank=len(items) + 1))

    for cand in seeds:
        info = by_seed.get(cand.id)
        unit = units.get(cand.id)
        if info is None or unit is None:
            warnings.append(f"không tìm thấy {cand.id} trong đồ thị (văn bản không có vị trí "
                            f"này, hoặc chưa được nạp)")
            continue
        info = _without_own_parts(unit, info, units)
        applicable_id = info.get("applicable_id")
        events = info.get("events") or []
        decisive = info.get("decisive")
        if info.get("cycles"):
            warnings.append(
                f"chuỗi thay đổi của {info['base_id']} có vòng lặp: bỏ qua {info['cycles']} "
                f"đường vòng"
            )
        for e in events:
            if e.get("cut"):
                warnings.append(
                    f"chuỗi thay đổi của {info['base_id']} dài hơn {cfg.max_chain_depth} bước: "
                    f"dừng tại {e['steps'][-1]['source_id']}"
                )
        seed_applicable = applicable_id == cand.id
        seed_note = _seed_note(unit, info, as_of, seed_applicable, units)
        unknown, not_before = _seed_uncertainty(unit, info, seed_applicable)
        seed_text: str | None = None
        consolidated = False
        if seed_applicable and info.get("parts"):
            # The stored text is the wording as enacted: an article with an amended, inserted
            # or repealed part is shown in its wording at the date, never stale and applicable.
            seed_text, complete, part_notes, part_unknown = _consolidated_seed(unit, info, units)
            unknown = unknown or part_unknown[0]
            not_before = not_before or part_unknown[1]
            if complete:
                consolidated = True
                seed_note += "; trình bày theo nội dung hợp nhất tại ngày xét: " + part_notes
            else:
                seed_text = None
                seed_applicable = False
                seed_note = (f"đã được sửa đổi một phần tại ngày {vn_date(as_of)}: nội dung "
                             f"dưới đây là nội dung ban hành ban đầu, không còn áp dụng nguyên "
                             f"văn; các phần đang áp dụng được nêu riêng ({part_notes})")
        if seed_applicable and _stale_inside(unit, as_of) and not (
                consolidated and _parts_cover(unit, info)):
            # a part changed after this wording was written and the parts read back do not
            # rebuild it (a part deeper than the parts traced, or too many parts)
            seed_text, consolidated, seed_applicable = None, False, False
            seed_note = _stale_inside_note(unit, as_of)
        unworded = _unworded_change(info, as_of)
        if seed_applicable and unworded:
            seed_text, consolidated, seed_applicable = None, False, False
            seed_note = unworded
        if unknown:
            seed_note += "; " + unknown_date_note(not_before)
        # changes enacted but not in force at the date (the last step of each pending chain)
        pending = [_step(e["steps"][-1], as_of) for e in events
                   if not e.get("in_force") and not e.get("cycle") and e.get("steps")]
        add(replace(_item(unit, "seed", cand.id, dict(cand.scores), [], seed_applicable,
                          seed_note, text=seed_text),
                    date_unknown=unknown, not_before=not_before, consolidated=consolidated,
                    pending=pending))
        follow_score = {"seed": cand.score}
        if applicable_id and applicable_id != cand.id and applicable_id in units:
            path = [_step(s, as_of) for s in (decisive or {}).get("steps", [])]
            succ = units[applicable_id]
            if succ.get("is_version") and succ.get("anchor_id"):
                path.append(ChainStep("VERSION_OF", applicable_id, succ["anchor_id"],
                                      effective_date=succ.get("valid_from")))
            note = f"đang có hiệu lực tại ngày {vn_date(as_of)}"
            if path:
                note += "; " + "; ".join(s.describe() for s in path if s.relation != "VERSION_OF"
                                         and s.source_id != applicable_id)
            s_unknown = bool((decisive or {}).get("date_unknown") or succ.get("valid_from_unknown"))
            s_before = (decisive or {}).get("not_before") or succ.get("not_before")
            s_applicable = True
            if _stale_inside(succ, as_of):
                s_applicable, note = False, _stale_inside_note(succ, as_of)
            elif unworded and _later_than(_unworded_day(info, as_of), (decisive or {}).get(
                    "effective")):
                s_applicable, note = False, unworded
            if s_unknown:
                note += "; " + unknown_date_note(s_before)
            add(replace(_item(succ, "successor", cand.id, follow_score, path, s_applicable, note),
                        date_unknown=s_unknown, not_before=s_before if s_unknown else None))
        # the parts a new wording of the whole unit was written with are in that wording,
        # presented just above: not listed again
        listed = info if seed_applicable or applicable_id not in units else _without_own_parts(
            units[applicable_id], info, units)
        for part in outer_parts(listed):
            shown = units.get(part["shown_id"]) if part.get("shown_id") else None
            if shown is None or part["shown_id"] == applicable_id:
                continue
            steps = [ChainStep("CONTAINS", info["base_id"], part["part_id"])]
            if part["kind"] == "VERSION_OF":
                steps.append(ChainStep("VERSION_OF", part["shown_id"], part["part_id"],
                                       effective_date=shown.get("valid_from")))
                note = (f"đang có hiệu lực tại ngày {vn_date(as_of)}: nội dung mới của một "
                        "phần quy định tìm được"
                        + (f", có hiệu lực từ {vn_date(shown['valid_from'])}"
                           if shown.get("valid_from") else ""))
            else:
                note = (f"đang có hiệu lực tại ngày {vn_date(as_of)}: phần được bổ sung vào "
                        "quy định tìm được"
                        + (f", có hiệu lực từ {vn_date(shown['valid_from'])}"
                           if shown.get("valid_from") else ""))
            p_unknown = bool(shown.get("valid_from_unknown"))
            p_applicable = not _stale_inside(shown, as_of)
            if not p_applicable:
                note = _stale_inside_note(shown, as_of)
            if p_unknown:
                note += "; " + unknown_date_note(shown.get("not_before"))
            add(replace(_item(shown, "successor", cand.id, follow_score, steps, p_applicable,
                              note),
                        date_unknown=p_unknown,
                        not_before=shown.get("not_before") if p_unknown else None))
        parent = _containing_article(unit)
        if parent is not None and unit.get("level") not in ("Article", *_ABOVE_ARTICLE):
            add(parent)
        for ref in sorted(info.get("references") or [], key=lambda r: (r["from_id"], r["target_id"])):
            target = units.get(ref["target_id"])
            if target is None:
                continue
            ok = _valid_at(target, as_of) and not _stale_inside(target, as_of)
            step = ChainStep("REFERS_TO", ref["from_id"], ref["target_id"],
                             source_citation=units.get(ref["from_id"], {}).get("citation"),
                             method=ref.get("method"), evidence=ref.get("evidence"))
            note = ("quy định được dẫn chiếu, đang có hiệu lực" if ok else
                    "quy định được dẫn chiếu, không có hiệu lực tại ngày " + vn_date(as_of))
            add(_item(target, "reference", cand.id, follow_score, [step], ok, note))
    return items, list(dict.fromkeys(warnings)), truncated


# parts_changed_from is derived at load (legal/derive_version_validity); the parts the
# trace reads back go two levels down, at most this many (legal/_trace_seeds)
_TRACED_PART_LEVELS = ("Article", "Clause", "Point")
_MAX_TRACED_PARTS = 24


def _without_own_parts(unit: Mapping[str, Any], info: Mapping[str, Any],
                       units: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Any]:
    """``info`` less the parts a seed that is itself a new wording was written with.

    An instruction that rewrites a whole article gives the article's new wording and, inside it,
    new wordings of its clauses, all from one document and one day (``D74@59/2018/NĐ-CP`` holds
    ``D74.K1@59/2018/NĐ-CP``). Traced from the article, those clause wordings are changed parts;
    for the new article wording they are its own text, not a change to consolidate into it (read
    as changes, the new article was served as "changed in part" and not applicable).
    """
    if not unit.get("is_version") or "@" not in str(unit.get("id")):
        return info
    by = str(unit["id"]).rsplit("@", 1)[1]

    def own(part: Mapping[str, Any]) -> bool:
        sid = part.get("shown_id")
        if not sid or part.get("kind") != "VERSION_OF" or str(sid).rsplit("@", 1)[-1] != by:
            return False
        shown = units.get(sid) or {}
        # a wording built on the old text (a phrase edit of the article) does not hold the part's
        # new wording of that day: it is stale inside from then (parts_changed_from)
        inside = unit.get("parts_changed_from")
        return (shown.get("valid_from"), shown.get("not_before")) == (
            unit.get("valid_from"), unit.get("not_before")) and (
            inside is None or shown.get("valid_from") is None or inside > shown["valid_from"])

    parts = info.get("parts") or []
    kept = [p for p in parts if not own(p)]
    return info if len(kept) == len(parts) else {**info, "parts": kept}


def outer_parts(info: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The changed parts traced back for a seed, less those inside another changed part: a
    point of a clause given a new wording (or repealed with it) is in that clause's new wording
    already (every part listed is changed at the date: a version in force, inserted or
    repealed)."""
    parts = info.get("parts") or []
    changed = {p["part_id"] for p in parts}
    return [p for p in parts
            if not any(p["part_id"].startswith(other + ".") for other in changed)]


def _stale_inside(unit: Mapping[str, Any], as_of: date) -> bool:
    """Whether the wording's text still holds a part's earlier wording at ``as_of``: a part of
    it got a new wording, was inserted or repealed after the wording was written."""
    changed = unit.get("parts_changed_from")
    return changed is not None and changed <= as_of


def _parts_cover(unit: Mapping[str, Any], info: Mapping[str, Any]) -> bool:
    """Whether the parts traced back can hold every changed part of the unit (two levels
    down: an article's clauses and points; not a chapter's)."""
    return (unit.get("level") in _TRACED_PART_LEVELS
            and len(info.get("parts") or []) < _MAX_TRACED_PARTS)  # the query's LIMIT not hit


def _stale_inside_note(unit: Mapping[str, Any], as_of: date) -> str:
    changed = unit["parts_changed_from"]
    return (f"không áp dụng nguyên văn tại ngày {vn_date(as_of)}: một phần của quy định này đã "
            f"được sửa đổi, bổ sung hoặc bãi bỏ từ ngày {vn_date(changed)}, nội dung dưới đây "
            f"chưa phản ánh thay đổi đó; các phần đang áp dụng được nêu riêng")


def _unworded_day(info: Mapping[str, Any], as_of: date) -> date | None:
    """The latest in-force amendment of the unit itself whose new wording the graph lacks
    (neither a version nor phrase edits: the instruction's wording was not extracted)."""
    days = [e.get("effective") for e in info.get("events") or []
            if e.get("kind") == "AMENDS" and e.get("scope") == "self" and e.get("in_force")
            and e.get("textual") and not e.get("phrase") and not e.get("cycle")]
    known = [d for d in days if d is not None and d <= as_of]
    return max(known) if known else None


def _later_than(day: date | None, other: date | None) -> bool:
    return day is not None and (other is None or day > other)


def _unworded_change(info: Mapping[str, Any], as_of: date) -> str | None:
    """The note for a unit amended, from a date after its wording in force began, by an
    instruction whose new wording was not extracted; None when there is none."""
    day = _unworded_day(info, as_of)
    decisive = info.get("decisive") or {}
    if not _later_than(day, decisive.get("effective")):
        return None
    steps = sorted({_step(e["steps"][-1], as_of) for e in info.get("events") or []
                    if e.get("effective") == day and e.get("kind") == "AMENDS"
                    and e.get("textual") and not e.get("phrase") and e.get("steps")},
                   key=lambda st: (st.source_id, st.evidence or ""))
    # every instruction of that day, in a stable order (several may change parts of one clause)
    said = "; ".join(_unworded_step(st) for st in steps)
    return (f"không áp dụng nguyên văn tại ngày {vn_date(as_of)}: {said}; nội dung dưới đây là "
            f"nội dung trước khi sửa đổi")


def _unworded_step(step: ChainStep) -> str:
    """One instruction whose new wording the unit's text lacks, as the reader is told it."""
    if step.method == "sub_unit_instruction" and step.evidence:
        # a part numbered with decimals ("Điểm 2.1 Khoản 2 Điều 2"), kept as text of this unit
        return (f"{step.describe()} ({step.evidence}), nhưng nội dung mới của phần đó chưa được "
                f"ghép vào")
    if step.method == "partial_repeal" and step.evidence:
        return (f"{step.describe('bị bãi bỏ một phần bởi')} ({step.evidence}), phần bị bãi bỏ "
                f"chưa được tách khỏi nội dung dưới đây")
    return f"{step.describe()}, nhưng chưa trích xuất được nội dung mới"


def _name_lines(text: str | None) -> str:
    """An article's name from its wording: the lines before its first clause or point, as one
    line ('' for no text); a name that runs over two lines ("… phối hợp của\\ncác cơ quan …")
    is joined."""
    lines: list[str] = []
    for line in (text or "").split("\n"):
        if lines and (_CLAUSE_MARK.match(line) or _POINT_MARK.match(line)):
            break
        lines.append(line.strip())
    return " ".join(x for x in lines if x)


def _containing_article(unit: Mapping[str, Any]) -> ContextItem | None:
    for pos in reversed(unit.get("position") or []):
        if pos.get("level") == "Article" and pos.get("id"):
            doc = unit.get("doc") or {}
            label = pos.get("label") or f"Điều {pos.get('number')}"
            text = _name_lines(pos.get("current_text")) or \
                f"{label}. {pos.get('heading') or ''}".strip(". ")
            prov_unit = {**unit, "id": pos["id"], "level": "Article", "number": pos.get("number"),
                         "citation": None, "path": None,
                         "position": [p for p in unit.get("position") or []
                                      if p.get("level") != "Clause" and p.get("level") != "Point"],
                         "doc": doc}
            step = ChainStep("CONTAINS", pos["id"], unit["id"])
            return _item(prov_unit, "provenance", unit["id"], {}, [step],
                         _valid_at(unit, None), "cấu trúc: điều chứa quy định tìm được",
                         text=text)
    return None


def _item(
    unit: Mapping[str, Any], role: Role, seed_id: str, scores: dict[str, float],
    path: list[ChainStep], applicable: bool, note: str, *, text: str | None = None,
) -> ContextItem:
    prov = provenance_of(unit)
    return ContextItem(
        node_id=unit["id"], text=text if text is not None else (unit.get("text") or ""),
        citation=prov.citation, role=role, scores=scores, path=path,
        valid_from=unit.get("valid_from"), valid_to=unit.get("valid_to"),
        applicable=applicable, validity_note=note, provenance=prov, seed_id=seed_id,
    )


def _step(s: Mapping[str, Any], as_of: date) -> ChainStep:
    eff = s.get("effective_date")
    unknown = bool(s.get("date_unknown"))
    # An unknown date counts from the amending document's issue date; with none, never.
    start = s.get("not_before") if unknown else eff
    return ChainStep(
        relation=s["relation"], source_id=s["source_id"], target_id=s["target_id"],
        source_citation=s.get("source_citation"), effective_date=eff, method=s.get("method"),
        evidence=s.get("evidence"),
        in_force=(start is not None and start <= as_of) if unknown else (eff is None or eff <= as_of),
        date_unknown=unknown, not_before=s.get("not_before") if unknown else None,
    )


def _valid_at(unit: Mapping[str, Any], as_of: date | None) -> bool:
    if as_of is None:
        return True
    vf, vt = unit.get("valid_from"), unit.get("valid_to")
    if unit.get("valid_from_unknown"):
        nb = unit.get("not_before")
        return nb is not None and nb <= as_of and (vt is None or vt > as_of)
    return (vf is None or vf <= as_of) and (vt is None or vt > as_of)


def _seed_uncertainty(unit: Mapping[str, Any], info: Mapping[str, Any],
                      applicable: bool) -> tuple[bool, date | None]:
    """Whether the seed's validity at the date rests on an unknown start date, and the date it
    is not before: its own unknown start (an inserted unit), a change that supersedes it with an
    unknown date (possibly superseded), or a change with neither date nor issue date."""
    if unit.get("valid_from_unknown"):
        return True, unit.get("not_before")
    decisive = info.get("decisive") or {}
    if not applicable and decisive.get("date_unknown"):
        return True, decisive.get("not_before")
    for e in info.get("events") or []:
        if e.get("date_unknown") and not e.get("in_force") and not e.get("cycle") \
                and e.get("kind") != "SUPPLEMENTS" and e.get("not_before") is None:
            return True, None
    return False, None


def _consolidated_seed(unit: Mapping[str, Any], info: Mapping[str, Any],
                       units: Mapping[str, Mapping[str, Any]]
                       ) -> tuple[str, bool, str, tuple[bool, date | None]]:
    """The seed's text with its changed parts in force at the date (see
    :func:`~hopgraph.retrieval._legal_consolidate.consolidate_text`).

    Returns:
        (text, complete, a reading of the parts changed, (any part's date unknown, not before))
    """
    changes: list[PartChange] = []
    readings: list[str] = []
    unknown, not_before = False, None
    # a part inside another changed part is in that part's new wording: applying it again
    # would look for text no longer there
    for part in outer_parts(info):
        orig = units.get(part["part_id"]) or {}
        shown = units.get(part["shown_id"]) if part.get("shown_id") else None
        name = orig.get("citation") or part["part_id"]
        number = str(orig.get("number") or "")
        marker = f"{number})" if orig.get("level") == "Point" else f"{number}."
        # a version's part is numbered in the version's own wording (see PartChange.by_number)
        by_number = bool(unit.get("is_version"))
        if part["kind"] == "REPEALS":
            changes.append(PartChange("REPEALS", orig.get("text") or "", None, marker,
                                      by_number=by_number))
            readings.append(f"{name} bị bãi bỏ")
            continue
        if shown is None:
            continue
        if shown.get("valid_from_unknown"):
            unknown, not_before = True, shown.get("not_before")
        when = (f"có hiệu lực từ {vn_date(shown['valid_from'])}" if shown.get("valid_from")
                else unknown_date_note(shown.get("not_before")))
        inserted_after = orig.get("inserted_after")
        if inserted_after:
            anchor = (units.get(inserted_after) or {}).get("text")
            changes.append(PartChange("SUPPLEMENTS", "", shown.get("text") or "", marker,
                                      anchor_text=anchor))
            readings.append(f"{name} được bổ sung ({when})")
        else:
            changes.append(PartChange("VERSION_OF", orig.get("text") or "",
                                      shown.get("text") or "", marker, by_number=by_number))
            readings.append(f"{name} {_new_wording(shown)}, {when}")
    text, complete = consolidate_text(unit.get("text") or "", changes)
    return text, complete, "; ".join(readings), (unknown, not_before)


def _new_wording(shown: Mapping[str, Any]) -> str:
    """How a part's shown wording came to be, after the part's own name: "theo nội dung được sửa
    đổi bởi Nghị định số …" for a version (its amending document named once), else "theo nội
    dung mới (<its citation>)"."""
    node_id = str(shown.get("id") or "")
    if shown.get("is_version") and "@" in node_id:
        return (f"theo nội dung được {version_verb(shown.get('version_kinds'))} bởi "
                f"{document_name(node_id.split('@', 1)[1])}")
    return f"theo nội dung mới ({provenance_of(shown).citation})"


def _seed_note(unit: Mapping[str, Any], info: Mapping[str, Any], as_of: date, applicable: bool,
               units: Mapping[str, Mapping[str, Any]]) -> str:
    day = vn_date(as_of)
    decisive = info.get("decisive")
    pending = [e for e in info.get("events") or [] if not e.get("in_force") and not e.get("cycle")]
    parts: list[str] = []
    if applicable:
        parts.append(f"đang có hiệu lực tại ngày {day}")
    elif decisive is not None and decisive.get("kind") == "REPEALS":
        steps = [_step(s, as_of) for s in decisive.get("steps", [])]
        parts.append(f"đã bị bãi bỏ, không áp dụng tại ngày {day}: "
                     + "; ".join(s.describe() for s in steps))
    elif info.get("doc_replaced"):
        rep = info["doc_replaced"][0]
        eff = rep.get("effective")
        verb = "bị bãi bỏ" if rep.get("kind") == "REPEALS" else "bị thay thế"
        parts.append(f"không áp dụng tại ngày {day}, văn bản {verb} bởi "
                     f"{document_name(rep.get('number') or rep['doc_id'])}"
                     + (f", có hiệu lực từ {vn_date(eff)}" if eff else ""))
    elif info.get("applicable_id"):
        succ = units.get(info["applicable_id"], {})
        steps = [_step(s, as_of) for s in (decisive or {}).get("steps", [])]
        reading = "; ".join(s.describe() for s in steps if s.source_id != unit.get("id"))
        # the wording in force is named with the document that enacted it: a new wording of
        # the same clause has the same citation, and a note must not name the item itself
        current = provenance_of(succ).citation if succ else str(info["applicable_id"])
        own = provenance_of(unit).citation
        parts.append(f"không còn áp dụng tại ngày {day}"
                     + (f": {reading}" if reading else "")
                     + (f"; nội dung đang áp dụng: {current}" if current != own else ""))
    elif unit.get("valid_from") is not None and unit["valid_from"] > as_of:
        parts.append(f"chưa có hiệu lực tại ngày {day} (có hiệu lực từ "
                     f"{vn_date(unit['valid_from'])})")
    elif unit.get("valid_to") is not None and unit["valid_to"] <= as_of:
        parts.append(f"hết hiệu lực tại ngày {day} (hiệu lực đến {vn_date(unit['valid_to'])})")
    else:
        parts.append(f"không áp dụng tại ngày {day}")
    for e in info.get("events") or []:
        if e.get("kind") == "SUPPLEMENTS" and e.get("in_force") and e.get("steps"):
            step = _step(e["steps"][-1], as_of)
            where = "" if e.get("scope") == "self" else " (ở đơn vị chứa quy định này)"
            parts.append(f"có nội dung bổ sung{where}: " + step.describe())
        if e.get("textual") and e.get("in_force") and e.get("steps"):
            step = _step(e["steps"][-1], as_of)
            parts.append("được sửa đổi một số từ ngữ: " + step.describe()
                         + (f" — {step.evidence}" if step.evidence else ""))
    for e in pending:
        steps = [_step(s, as_of) for s in e.get("steps", [])]
        if steps:
            parts.append("sắp có thay đổi: " + steps[-1].describe())
    return "; ".join(parts)


def version_verb(kinds: Sequence[str] | None) -> str:
    """How a version's wording came about, for its citation: ``bổ sung`` when every edge its
    amending document draws to the unit supplements it (an inserted wording), ``sửa đổi, bổ
    sung`` when it both amends and supplements, ``sửa đổi`` otherwise (and when unknown)."""
    seen = set(kinds or ())
    if seen == {"SUPPLEMENTS"}:
        return "bổ sung"
    if "SUPPLEMENTS" in seen:
        return "sửa đổi, bổ sung"
    return "sửa đổi"


def provenance_of(unit: Mapping[str, Any]) -> Provenance:
    """Document fields and position of a unit row (from ``expand_context``)."""
    doc = unit.get("doc") or {}
    position = _position(unit)
    doc_name = " ".join(x for x in (doc.get("doc_type"), doc.get("number") or unit.get("doc_id"))
                        if x)
    if doc.get("number") and doc.get("title") and doc.get("number") == doc.get("title"):
        doc_name = doc["title"]
    citation = unit.get("citation") or _citation(unit, doc_name)
    if unit.get("is_version"):
        amending = str(unit["id"]).split("@", 1)[-1]
        if "@" in str(unit["id"]) and amending not in citation:
            citation += f" (nội dung {version_verb(unit.get('version_kinds'))} theo " \
                        f"{document_name(amending)})"
    return Provenance(
        doc_id=unit.get("doc_id") or doc.get("id") or "",
        number=doc.get("number"), doc_type=doc.get("doc_type"), title=doc.get("title"),
        issuer=doc.get("issuer"), issue_date=doc.get("issue_date"),
        effective_date=doc.get("effective_date"), expiry_date=doc.get("expiry_date"),
        status=doc.get("status"), position=position, citation=citation,
    )


def _position(unit: Mapping[str, Any]) -> str:
    pos = unit.get("position") or []
    if pos:
        return " › ".join(
            p.get("label") or f"{_LEVEL_WORDS.get(p.get('level') or '', p.get('level') or '')} "
            f"{p.get('number') or ''}".strip()
            for p in pos
        )
    return " › ".join(_path_parts(unit.get("path") or ""))


def _path_parts(path: str) -> list[str]:
    parts = []
    for seg in path.split("."):
        if not seg:
            continue
        head = seg[0]
        if (head in _PATH_WORDS and len(seg) > 1 and seg[1].isdigit()) or seg[:1] in ("P", "C"):
            parts.append(f"{_PATH_WORDS.get(head, head)} {seg[1:]}")
        else:
            parts.append(f"điểm {seg}")
    return parts


def _citation(unit: Mapping[str, Any], doc_name: str) -> str:
    parts = list(reversed(_path_parts(unit.get("path") or "")))
    parts = [p for p in parts if not p.startswith(("Chương", "Phần", "Mục", "Tiểu mục"))]
    body = " ".join(parts) or f"{_LEVEL_WORDS.get(unit.get('level') or '', '')} {unit.get('number') or ''}".strip()
    return f"{body} {doc_name}".strip()
