"""Reading PrimeKG-style input into typed, canonically directed edge rows.

Two formats: the full PrimeKG ``kg.csv`` (``relation, display_relation, x_id, x_type, x_name,
x_source, y_…``; types given) and a names-only TSV ``head<TAB>RELATION<TAB>tail`` in either
direction (types inferred from each relation's signature and the name's other occurrences).
Every row either becomes an :class:`EdgeRow` or a :class:`RowProblem` naming the line and the
reason; nothing is dropped silently. Decoding is row by row: a row that is not UTF-8 is one
problem and the rest of the file loads.
"""

from __future__ import annotations

import csv
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from hopgraph.core.errors import IngestError
from hopgraph.graph_models import RELATION_SPECS, BioRel, BioType, bio_type_of, relation_of

KG_CSV_COLUMNS = ("relation", "display_relation", "x_id", "x_type", "x_name", "x_source",
                  "y_id", "y_type", "y_name", "y_source")
NAME_SOURCE = "name"
_GENE_SYMBOL = re.compile(r"^[A-Z0-9][A-Z0-9\-.]{0,14}$")
_DISEASE_WORD = re.compile(
    r"(disease|syndrome|disorder|cancer|carcinoma|tumou?r|itis\b|emia\b|oma\b|deficiency|"
    r"infection|failure|fever|palsy|dystrophy|atrophy|anemia|diabetes)", re.IGNORECASE)
# Bytes that are not UTF-8, as Python's ``surrogateescape`` decoding keeps them (U+DC80..U+DCFF).
_ESCAPED_BYTE = re.compile("[\\udc80-\\udcff]")


@dataclass(frozen=True)
class NodeRow:
    """An entity to upsert."""

    id: str
    name: str
    type: BioType
    source: str
    source_id: str


@dataclass(frozen=True)
class EdgeRow:
    """An edge in its stored direction (head type → tail type of the relation's signature)."""

    head: NodeRow
    rel: BioRel
    tail: NodeRow
    relation: str
    display_relation: str
    origin: str


@dataclass(frozen=True)
class RowProblem:
    """A row that was not loaded, and why (``source``: the file, when not the main input)."""

    line: int
    reason: str
    text: str
    source: str | None = None


def _not_utf8(line: int, text: str) -> RowProblem | None:
    """A problem for a row holding bytes that are not UTF-8 (decoded with ``surrogateescape``)."""
    bad = _ESCAPED_BYTE.search(text)
    if bad is None:
        return None
    shown = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return RowProblem(line, f"not UTF-8: byte 0x{ord(bad.group()) - 0xDC00:02x} at character "
                            f"{bad.start() + 1}", shown)


@dataclass
class ReadStats:
    """What reading an input found, for the load report."""

    rows: int = 0
    problems_by_reason: Counter[str] = field(default_factory=Counter)
    unknown_relations: Counter[str] = field(default_factory=Counter)
    examples: list[RowProblem] = field(default_factory=list)
    max_examples: int = 20

    def add(self, problem: RowProblem, unknown_relation: str | None = None) -> None:
        self.problems_by_reason[problem.reason.split(":")[0]] += 1
        if unknown_relation is not None:
            self.unknown_relations[unknown_relation] += 1
        if len(self.examples) < self.max_examples:
            self.examples.append(problem)


def node_id(bio_type: BioType, source: str, source_id: str) -> str:
    """Deterministic entity id: ``<label>:<source>:<source id>``."""
    return f"{bio_type.value}:{source}:{source_id}"


def _node(bio_type: BioType, name: str, source: str, source_id: str) -> NodeRow:
    return NodeRow(node_id(bio_type, source, source_id), name, bio_type, source, source_id)


def orient(a: NodeRow, rel: BioRel, b: NodeRow) -> tuple[NodeRow, NodeRow] | None:
    """Put ``a`` and ``b`` in the stored direction of ``rel``; None if the types do not fit."""
    spec = RELATION_SPECS[rel]
    if spec.head == spec.tail:
        if a.type != spec.head or b.type != spec.head:
            return None
        return (a, b) if a.id <= b.id else (b, a)
    if a.type == spec.head and b.type == spec.tail:
        return a, b
    if b.type == spec.head and a.type == spec.tail:
        return b, a
    return None


def read_kg_csv(path: Path, stats: ReadStats) -> Iterator[EdgeRow]:
    """Stream edges from a PrimeKG ``kg.csv``; problems go to ``stats``.

    Raises:
        IngestError: the file is missing or its header lacks PrimeKG columns.
    """
    try:
        handle = path.open(newline="", encoding="utf-8", errors="surrogateescape")
    except OSError as e:
        raise IngestError(f"{path}: cannot open: {e}") from e
    with handle:
        reader = csv.DictReader(handle)
        missing = [c for c in KG_CSV_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise IngestError(f"{path}: not a PrimeKG kg.csv, missing columns {missing}")
        while True:
            try:
                row = next(reader)
            except StopIteration:
                break
            except csv.Error as e:  # e.g. a field over the csv module's size limit: this row alone
                stats.rows += 1
                stats.add(RowProblem(reader.line_num, f"malformed: {e}", ""))
                continue
            stats.rows += 1
            line = reader.line_num
            bad = _not_utf8(line, "\x00".join(str(v) for v in row.values()))
            if bad is not None:
                stats.add(RowProblem(bad.line, bad.reason, bad.text.replace("\x00", ",")))
                continue
            edge = _kg_row(row, line, stats)
            if edge is not None:
                yield edge


def _kg_row(row: dict[str, str | None], line: int, stats: ReadStats) -> EdgeRow | None:
    text = ",".join(str(row.get(c) or "") for c in KG_CSV_COLUMNS)
    if None in row or any(row.get(c) in (None, "") for c in KG_CSV_COLUMNS if c != "display_relation"):
        stats.add(RowProblem(line, "malformed: missing or extra fields", text))
        return None
    raw_rel = str(row["relation"])
    rel = relation_of(raw_rel)
    if rel is None:
        stats.add(RowProblem(line, f"unknown relation: {raw_rel!r}", text), raw_rel)
        return None
    x_type, y_type = bio_type_of(str(row["x_type"])), bio_type_of(str(row["y_type"]))
    if x_type is None or y_type is None:
        stats.add(RowProblem(line, f"unknown node type: {row['x_type']!r}/{row['y_type']!r}", text))
        return None
    x = _node(x_type, str(row["x_name"]).strip(), str(row["x_source"]), str(row["x_id"]))
    y = _node(y_type, str(row["y_name"]).strip(), str(row["y_source"]), str(row["y_id"]))
    ends = orient(x, rel, y)
    if ends is None:
        stats.add(RowProblem(line, f"type mismatch: {rel.value} cannot join {x_type.value} and {y_type.value}", text))
        return None
    return EdgeRow(ends[0], rel, ends[1], raw_rel, str(row.get("display_relation") or raw_rel), "kg.csv")


def read_triplet_tsv(path: Path, stats: ReadStats) -> list[EdgeRow]:
    """Read a names-only ``head<TAB>RELATION<TAB>tail`` file and infer node types.

    Types are inferred per name: the intersection of the types its relations allow, then
    propagation across rows whose other end is known, then a lexical rule for what is left
    (gene symbols are upper-case tokens). Rows whose types still cannot fit are reported.

    Raises:
        IngestError: the file cannot be opened.
    """
    raw: list[tuple[int, str, BioRel, str, str]] = []
    try:
        lines = path.read_text(encoding="utf-8", errors="surrogateescape").splitlines()
    except OSError as e:
        raise IngestError(f"{path}: cannot read: {e}") from e
    for lineno, line in enumerate(lines, start=1):
        if not line.strip() or line.startswith("#"):
            continue
        stats.rows += 1
        bad = _not_utf8(lineno, line)
        if bad is not None:
            stats.add(bad)
            continue
        parts = line.split("\t")
        if len(parts) != 3 or not all(p.strip() for p in parts):
            stats.add(RowProblem(lineno, f"malformed: expected 3 non-empty tab-separated fields, got {len(parts)}", line))
            continue
        head, rel_name, tail = (p.strip() for p in parts)
        rel = relation_of(rel_name)
        if rel is None:
            stats.add(RowProblem(lineno, f"unknown relation: {rel_name!r}", line), rel_name)
            continue
        if head == tail:
            stats.add(RowProblem(lineno, "malformed: head and tail are the same name", line))
            continue
        raw.append((lineno, head, rel, tail, line))
    types = infer_types((h, r, t) for _, h, r, t, _ in raw)
    edges: list[EdgeRow] = []
    for lineno, head, rel, tail, line in raw:
        ends = _orient_names(head, rel, tail, types)
        if ends is None:
            stats.add(RowProblem(lineno, f"type conflict: cannot type {head!r} / {tail!r} for {rel.value}", line))
            continue
        edges.append(EdgeRow(ends[0], rel, ends[1], rel.value, rel.value.lower().replace("_", " "), "tsv"))
    return edges


def _orient_names(head: str, rel: BioRel, tail: str,
                  types: dict[str, set[BioType]]) -> tuple[NodeRow, NodeRow] | None:
    spec = RELATION_SPECS[rel]
    for a, b in ((head, tail), (tail, head)):
        if spec.head in types.get(a, set()) and spec.tail in types.get(b, set()):
            return orient(_node(spec.head, a, NAME_SOURCE, a), rel, _node(spec.tail, b, NAME_SOURCE, b))
    return None


def infer_types(rows: Iterable[tuple[str, BioRel, str]]) -> dict[str, set[BioType]]:
    """Infer each name's type from the relations it takes part in (see :func:`read_triplet_tsv`).

    Returns a set per name: one type when resolved, several when the evidence allows several.
    """
    rows = list(rows)
    cands: dict[str, set[BioType]] = {}
    for head, rel, tail in rows:
        spec = RELATION_SPECS[rel]
        allowed = {spec.head, spec.tail}
        for name in (head, tail):
            cands[name] = cands[name] & allowed if name in cands else set(allowed)
    by_name: dict[str, list[tuple[BioRel, str]]] = defaultdict(list)
    for head, rel, tail in rows:
        by_name[head].append((rel, tail))
        by_name[tail].append((rel, head))

    def propagate() -> None:
        queue = [n for n, c in cands.items() if len(c) == 1]
        while queue:
            name = queue.pop()
            (known,) = cands[name]
            for rel, other in by_name[name]:
                spec = RELATION_SPECS[rel]
                if spec.head == spec.tail or len(cands[other]) == 1:
                    continue
                implied = {spec.tail} if known == spec.head else {spec.head}
                narrowed = cands[other] & implied
                if narrowed and narrowed != cands[other]:
                    cands[other] = narrowed
                    queue.append(other)

    propagate()
    for name, c in cands.items():
        if len(c) > 1:
            guess = _lexical_type(name, c)
            if guess is not None:
                cands[name] = {guess}
    propagate()
    return cands


def _lexical_type(name: str, allowed: set[BioType]) -> BioType | None:
    if BioType.GENE_PROTEIN in allowed and _GENE_SYMBOL.match(name):
        return BioType.GENE_PROTEIN
    if BioType.DISEASE in allowed and (name[:1].islower() or _DISEASE_WORD.search(name)):
        return BioType.DISEASE
    if BioType.DRUG in allowed and name[:1].isupper():
        return BioType.DRUG
    return None


def read_alias_table(path: Path) -> tuple[dict[str, list[str]], list[RowProblem]]:
    """Read ``name<TAB>alias[<TAB>alias…]`` lines into name → aliases; bad lines are returned.

    Raises:
        IngestError: the file cannot be read.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise IngestError(f"{path}: cannot read alias table: {e}") from e
    table: dict[str, list[str]] = defaultdict(list)
    problems: list[RowProblem] = []
    for lineno, line in enumerate(lines, start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("\t")]
        if len(parts) < 2 or not all(parts):
            problems.append(RowProblem(lineno, "malformed alias line: need name<TAB>alias", line))
            continue
        table[parts[0]].extend(parts[1:])
    return dict(table), problems
