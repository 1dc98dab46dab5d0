"""Plain data the parser, the relation rules and the writer pass along (no I/O here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date


@dataclass
class Problem:
    """Something wrong in an input, named by file and line."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        name = printable_name(self.file)
        where = f"{name}:{self.line}" if self.line else name
        return f"{where}: {self.message}"


def printable_name(name: str) -> str:
    """A file name on one printable line: a newline or other control character in it is
    escaped (``\\n``), and a byte that was not UTF-8 (kept by Python as a lone surrogate) is
    shown as ``\\xNN``, so a report line names the file whatever its name holds."""
    if name.isprintable():
        return name
    out = []
    for c in name:
        if c.isprintable():
            out.append(c)
        elif "\udc80" <= c <= "\udcff":  # os.fsdecode's surrogateescape of byte 0x80-0xff
            out.append(f"\\x{ord(c) - 0xDC00:02x}")
        else:
            out.append(c.encode("unicode_escape").decode("ascii"))
    return "".join(out)


@dataclass
class Quote:
    """A quoted block (new wording) inside an amending instruction; lines without the quotes."""

    lines: list[tuple[int, str]]

    @property
    def text(self) -> str:
        return "\n".join(t for _, t in self.lines)


@dataclass
class Unit:
    """One unit of the hierarchy as parsed. ``path`` is relative to the document."""

    level: str
    number: str
    path: str
    label: str
    line: int
    ordinal: int
    heading: str | None = None
    parent: Unit | None = None
    children: list[Unit] = field(default_factory=list)
    start: int = 0  # index of the marker entry in the parse body
    end: int = 0  # exclusive
    own_end: int = 0  # first child's start, or end
    text: str = ""  # complete wording, marker line included
    own_text: str = ""  # marker line and text before the first child, quotes left out
    quotes: list[Quote] = field(default_factory=list)
    annotations: list[tuple[int, str]] = field(default_factory=list)

    def ancestors(self) -> list[Unit]:
        out: list[Unit] = []
        node = self.parent
        while node is not None:
            out.append(node)
            node = node.parent
        return out

    def chain(self) -> list[tuple[str, str]]:
        """(level, number) from the article (or the outermost unit) down to this unit."""
        items = [(u.level, u.number) for u in [*reversed(self.ancestors()), self]
                 if u.level in ("Article", "Clause", "Point", "Annex")]
        return items or [(self.level, self.number)]


@dataclass
class DocumentMeta:
    """What the header, the source format and the final provisions say about a document."""

    doc_id: str
    number: str | None = None
    doc_type: str | None = None
    issuer: str | None = None
    title: str | None = None
    issue_date: date | None = None
    effective_date: date | None = None
    expiry_stated: date | None = None
    status_external: str | None = None
    source_file: str = ""
    source_format: str = ""


@dataclass
class Relation:
    """One rule-extracted edge; ends are node ids (documents or units)."""

    source: str
    target: str
    type: str
    method: str
    evidence: str
    effective_date: date | None = None
    origin: str = "text"
    source_kind: str = "unit"
    target_kind: str = "unit"
    # the document whose own start date ``effective_date`` is (None: a date the text states for
    # this provision): a later change of that document's start moves it too
    date_from_doc: str | None = None
    # phrase edits: [old1, new1, old2, new2, ...] applied to the target's wording (and its
    # sub-units'), an insertion written as its anchor and the anchor with the words added
    edits: list[str] | None = None


# the scopes of a new wording that replaces a part of its target's own lines, not all of it
SCOPED = ("title", "lead", "head")


@dataclass
class NewUnit:
    """A unit written by another document: a UnitVersion or an inserted (supplemented) unit."""

    id: str
    doc_id: str  # the target document
    level: str
    number: str
    path: str
    text: str
    valid_from: date | None
    by_doc: str  # the amending document
    kind: str  # "version" or "inserted"
    target_id: str | None = None  # versions: the unit whose wording changes
    parent_id: str | None = None
    inserted_after: str | None = None
    heading: str | None = None
    line: int | None = None
    own_text: str = ""  # the wording before its first sub-unit (references are read here)
    not_before: date | None = None  # the amending document's issue date: never in force before
    date_from_doc: str | None = None  # valid_from is this document's own start date
    # what of the target the new wording replaces: None (all of it), "title" (an article's or a
    # chapter's name only), "lead" (the opening words before its sub-units only) or "head"
    # (both); text is then that part only (SCOPED)
    scope: str | None = None
    # the wording states the start date of the document it amends (``Luật này có hiệu lực thi
    # hành từ ngày …`` written into that document's own provision)
    doc_start: date | None = None
    # an article's whole new wording quoted without its name ("Điều 49 được sửa đổi, bổ sung như
    # sau: “1. …”"): text is its body; derive_phrase_versions puts the name of the article it
    # changes before it
    name_from_base: bool = False


@dataclass
class Unresolved:
    """A reference that names no loadable target."""

    source: str
    text: str
    method: str


@dataclass
class ParsedDocument:
    """A document ready to be written: metadata, units, relations, new units elsewhere."""

    meta: DocumentMeta
    units: list[Unit]
    preamble: list[tuple[int, str]] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    new_units: list[NewUnit] = field(default_factory=list)
    unresolved: list[Unresolved] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    unit_dates: dict[str, date] = field(default_factory=dict)  # per-provision start dates
    # name key -> document number a codification's provenance lines give (``luật bảo hiểm y
    # tế`` -> ``25/2008/QH12``)
    cited_names: dict[str, str] = field(default_factory=dict)
    # title placeholders (``~luat-x``) its instructions target -> the title the text names
    title_targets: dict[str, str] = field(default_factory=dict)

    def unit_id(self, unit: Unit) -> str:
        return f"{self.meta.doc_id}:{unit.path}"
