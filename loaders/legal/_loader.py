"""``load_legal``: parse inputs, embed, write one transaction per document, derive validity.

An input whose reading, parse or plan fails for any reason, and a document whose write fails,
change nothing (its transaction rolls back) and are reported with the reason; the others go on.
Losing the server stops the load at once: the report names the documents committed before.
Each document's transaction first takes out what an earlier load of it wrote
(``legal/clear_document``), so a re-load replaces it whole. Two inputs of one run with the same
document id are refused (both named) unless the later is asked to replace the earlier. After the
documents, one transaction derives ``valid_to`` and ``status`` from the events: of the documents
the load touched (incremental derive, below) or of the whole graph, with the same result, so the
final graph does not depend on load order.

A load records in the graph that it started (``legal/mark_load_started``, before its first
document) and the derive transaction that it finished (``legal/mark_load_finished``). A load
killed in between leaves the graph un-derived: the next load derives first
(``LoadReport.repaired``), and :func:`repair` (``hopgraph db repair``) derives at once.

Incremental derive (issue 26 item 1). Every derive step writes only on nodes of one document:
its units and their versions (``doc_id``), the Document, its defined terms (``doc_id|key``), and
two edge properties, ``effective_date`` of a change edge (owned by its source's document,
``date_from_doc``) and ``applied`` of a phrase edit (owned by its target's). Each step takes
``$doc_ids`` (null: the whole graph) and writes on those documents alone, reading whatever it
reads anywhere. A load then derives the documents ``legal/list_derive_scope`` names, computed
after its writes and, for documents already in the graph, before them too (a re-load takes out
what they wrote before). Step by step, what a derived value of a document X reads, and so which
writes must put X in the scope:

- ``rehome_title_placeholders`` (no ``$doc_ids``): starts from the nodes that wait for a title
  (``doc_id`` '~slug'), so it stays whole-graph; it moves them into the one document carrying
  the title. Where a title lands changes only through that title: a document written carries
  or (a codification) names it, is named by it, or wrote something under it. Scope part (5)
  names, for those titles alone and while something waits for them, the pending id and every
  document the title may land on. The other titles stay pending as they were (the real corpus
  keeps 26: laws named by title and never loaded, or two loaded documents with one title);
  counting them made every load's scope look like a third of the graph.
- ``link_inserted_units``: an inserted unit of X (``doc_id`` X) hangs under the parent of its
  anchor, a unit of X: X is written (1), or the inserting document is (2: it wrote the unit).
- ``derive_version_only_units``: a Placeholder of X with new wording becomes a unit of X once
  X is loaded: X is written (1), or the document writing the wording is (2).
- ``derive_document_start``: X's start reads X's versions that state it (written by the
  amending document: (2)) and its stated date (1); it then moves every unit, version and change
  edge dated from X (``date_from_doc`` X), which may sit in documents X writes into: part (6)
  adds those documents when X's start can move (X has such a version, or was moved before).
  A start never reads another start, so one such hop is enough.
- ``derive_phrase_versions``: X's phrase versions read the phrase edits aimed at X's units or
  at X (edges into X: their writer is in the scope (3), (4)), the edge's ``effective_date`` and
  the amending document's dates (moved only through (6)), and X's full versions (2).
- ``derive_unit_validity`` / ``derive_version_validity``: X's units and versions read their
  versions (2), repeals aimed at them or at X (3), (4), with dates from the repealing document
  ((6) when that moves); ``parts_changed_from`` of a wording reads the changes of its parts,
  which may be units of another document (a codification's): part (7) adds the documents whose
  units contain, or are contained by, units of the scope.
- ``derive_document_status``: X's status reads replacements and repeals of X and changes of
  X's units: (3), (4), dated as above.
- ``derive_defined_terms``: X's terms read X's definitions article, its inserted clauses and
  its clauses' new wordings: (1), (2).

The scope holds loaded documents and ids that are only named (a document cited or amended but
not loaded, a title waiting for one: their placeholders and the wordings written into them are
derived too, and cost little). The share that picks the whole graph counts the loaded ones.

Nothing reads the other way (an amending document's derived values never read its targets'
ones, except the ``applied`` count, which belongs to the target). The whole-graph pass stays
for :func:`repair`, for a graph left by an unfinished load, for a first load into an empty
graph, and whenever the scope holds more than ``INCREMENTAL_MAX_SHARE`` of the graph's loaded
documents. ``tests/integration/test_legal_incremental_derive.py`` checks that the incremental
graph equals the whole-graph one, node for node, edge for edge, property for property.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from hopgraph.core.errors import DatabaseUnavailable, HopgraphError
from hopgraph.cypher import load_registry
from hopgraph.db import QueryRunner
from hopgraph.loaders.legal._citations import NameIndex, stated_names, title_aliases
from hopgraph.loaders.legal._formats import codification_names, expand_paths, read_file, read_text
from hopgraph.loaders.legal._model import ParsedDocument, Problem
from hopgraph.loaders.legal._relations import extract_relations
from hopgraph.loaders.legal._rows import DEFAULT_EMBED_CHARS, WritePlan, plan_document

if TYPE_CHECKING:
    from hopgraph.core.ports import Embedder

DEFAULT_BATCH_SIZE = 1000
# Size limits (issue 18: a 15 MB article or a 2 MB line did not load within 240 s). An input over
# one is skipped with one line naming it, before it is parsed or segmented; the rest loads. The
# largest real input (a Pháp điển topic, duoc.md) is 3.1 MB and no real article comes near the
# unit limit; segmentation runs at roughly 100 000 characters a second on one core.
DEFAULT_MAX_FILE_MB = 10.0  # ``--max-file-mb``: the size of one input file
DEFAULT_MAX_UNIT_CHARS = 200_000  # ``--max-unit-chars``: a unit's own wording (before its sub-units)
# pyvi builds its output by string concatenation (quadratic in the length of what it is given):
# a line longer than this is segmented in pieces cut at a sentence end or a space.
SEGMENT_CHUNK_CHARS = 2_000
_CHUNK_CUTS = (". ", "; ", ": ", ", ", " ")
DERIVE_STEPS = ("legal/rehome_title_placeholders", "legal/link_inserted_units", "legal/derive_version_only_units",
                "legal/derive_document_start", "legal/derive_phrase_versions",
                "legal/derive_unit_validity",
                "legal/derive_version_validity", "legal/derive_document_status",
                "legal/derive_defined_terms")
# A load derives only what its documents touch unless their scope holds more than this share of
# the graph's loaded documents (ids only named do not count: they hold placeholders): then one
# pass over the whole graph costs about as much and reads less.
INCREMENTAL_MAX_SHARE = 0.25


@dataclass
class LoadReport:
    """What a load did: documents, units, edges, placeholders, unresolved, skipped inputs."""

    files: int = 0
    documents: list[str] = field(default_factory=list)
    units_by_level: Counter[str] = field(default_factory=Counter)
    edges_by_type: Counter[str] = field(default_factory=Counter)
    new_units: Counter[str] = field(default_factory=Counter)
    unresolved: int = 0
    skipped: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    graph: dict[str, dict[str, int]] = field(default_factory=dict)
    parse_s: float = 0.0
    embed_s: float = 0.0
    write_s: float = 0.0
    derive_s: float = 0.0
    # loaded documents the derive steps ran on (None: the whole graph), ids only named (not
    # loaded: placeholders, titles waiting for a document) derived with them, and the graph's
    # loaded documents
    derived_documents: int | None = None
    derived_named: int = 0
    graph_documents: int = 0
    embedded: int = 0
    aborted: str | None = None  # why the load stopped before its end (the server went away)
    repaired: str | None = None  # the previous load had not finished: derived before this one

    def derive_what(self) -> str:
        """What the derive steps ran on: the whole graph, or how many of its documents."""
        if self.derived_documents is None:
            return "whole graph"
        named = (f", and {self.derived_named:,} ids only named (placeholders)"
                 if self.derived_named else "")
        return (f"incremental: {self.derived_documents:,} of {self.graph_documents:,} loaded "
                f"documents{named}")

    @property
    def placeholders(self) -> dict[str, int]:
        return self.graph.get("placeholders", {})

    def summary(self) -> str:
        """A human-readable report (the CLI prints it)."""
        lines = [f"files: {self.files}, documents loaded: {len(self.documents)}, "
                 f"skipped: {len(self.skipped)}"]
        if self.repaired:
            lines.append(f"REPAIRED first: {self.repaired}")
        if self.aborted:
            lines.append(f"STOPPED: {self.aborted}")
            lines.append("committed before the stop: " + (", ".join(self.documents) or "none"))
        lines.append("units written by level: " + ", ".join(
            f"{k} {v}" for k, v in sorted(self.units_by_level.items())))
        if self.new_units:
            lines.append("units written into other documents: " + ", ".join(
                f"{k} {v}" for k, v in sorted(self.new_units.items())))
        lines.append("edges written by type: " + ", ".join(
            f"{k} {v}" for k, v in sorted(self.edges_by_type.items())))
        lines.append(f"unresolved references written: {self.unresolved}")
        for kind in ("documents", "units", "edges", "placeholders", "unresolved"):
            if kind in self.graph:
                lines.append(f"graph {kind}: " + ", ".join(
                    f"{k} {v}" for k, v in sorted(self.graph[kind].items())))
        lines.append(f"time: parse {self.parse_s:.1f}s, embed {self.embed_s:.1f}s "
                     f"({self.embedded} texts), write {self.write_s:.1f}s, "
                     f"derive {self.derive_s:.1f}s ({self.derive_what()})")
        for p in self.skipped:
            lines.append(f"SKIPPED {p}")
        for p in self.warnings[:50]:
            lines.append(f"warning {p}")
        if len(self.warnings) > 50:
            lines.append(f"… {len(self.warnings) - 50} more warnings")
        return "\n".join(lines)


def default_segmenter(cache_size: int = 200_000) -> Callable[[str], str]:
    """pyvi word segmentation (``bảo hiểm`` -> ``bảo_hiểm``) for the full-text index.

    Segments line by line with a cache: a unit's text contains its sub-units' lines, so each
    line is segmented once however deeply it is nested. A line longer than
    ``SEGMENT_CHUNK_CHARS`` is segmented in pieces (:func:`bounded_chunks`), so the time stays
    linear in its length.
    """
    from functools import lru_cache

    from pyvi import ViTokenizer

    @lru_cache(maxsize=cache_size)
    def line(text: str) -> str:
        if not text.strip():
            return text
        return " ".join(str(ViTokenizer.tokenize(piece)) for piece in bounded_chunks(text))

    def segment(text: str) -> str:
        return "\n".join(line(x) for x in text.split("\n")) if text else ""

    return segment


def bounded_chunks(text: str, limit: int = SEGMENT_CHUNK_CHARS) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters (one piece when it is not longer).

    Each cut is at the last sentence end (``. ``) in the piece, else the last ``;``, ``:``,
    ``,`` or space, else at ``limit``; the whitespace at a cut is dropped, so pieces joined by
    one space give the text back up to that whitespace.
    """
    if len(text) <= limit:
        return [text]
    pieces: list[str] = []
    start = 0
    while len(text) - start > limit:
        end = start + limit
        cut = -1
        for mark in _CHUNK_CUTS:
            at = text.rfind(mark, start + 1, end)
            if at > start:
                cut = at + len(mark.rstrip())
                break
        if cut < 0:
            cut = end
        piece = text[start:cut].strip()
        if piece:
            pieces.append(piece)
        start = cut
    rest = text[start:].strip()
    if rest:
        pieces.append(rest)
    return pieces


def oversized_unit(doc: ParsedDocument, max_chars: int) -> Problem | None:
    """The problem of the first unit whose own wording is longer than ``max_chars``, or None."""
    for unit in doc.units:
        if len(unit.own_text) > max_chars:
            return Problem(doc.meta.source_file, unit.line or None, (
                f"{unit.label or unit.path} of document {doc.meta.doc_id} is "
                f"{len(unit.own_text):,} characters; the limit is {max_chars:,} per unit "
                f"(--max-unit-chars): the document is not loaded"))
    return None


def oversized_file(path: Path, max_mb: float) -> Problem | None:
    """The problem of a file larger than ``max_mb`` megabytes (10^6 bytes), or None."""
    try:
        size = path.stat().st_size
    except OSError:
        return None  # reading it reports the problem
    if size <= max_mb * 1_000_000:
        return None
    return Problem(str(path), None, f"the file is {size / 1_000_000:.1f} MB; the limit is "
                                    f"{max_mb:g} MB (--max-file-mb): not read")


def collect_names(files: Sequence[Path]) -> dict[str, str]:
    """Document names known from codification provenance lines among the inputs."""
    names: dict[str, str] = {}
    for f in files:
        if f.suffix.lower() == ".md":
            try:
                names.update(codification_names(read_text(f)))
            except Exception:  # the file's own read reports it
                continue
    return names


def _failure(where: str, e: BaseException) -> Problem:
    """One input's unexpected failure as a one-line problem (isolation: the rest goes on)."""
    if isinstance(e, HopgraphError):
        return Problem(where, None, str(e).removeprefix(where).lstrip(": ") or type(e).__name__)
    if isinstance(e, RecursionError):
        return Problem(where, None, "nested too deeply to be read (recursion limit)")
    detail = str(e).splitlines()[0][:200] if str(e) else ""
    return Problem(where, None, f"could not be read: {type(e).__name__}"
                   + (f": {detail}" if detail else ""))


def _one_per_id(docs: list[ParsedDocument], replace: bool
                ) -> tuple[list[ParsedDocument], list[Problem], list[Problem]]:
    """The documents with one input per id; (kept, refused, replaced notes).

    Two inputs with one id are both refused, each message naming the other files, unless
    ``replace``: then the later input (in the stable input order) replaces the earlier ones.
    """
    groups: dict[str, list[ParsedDocument]] = {}
    for doc in docs:
        groups.setdefault(doc.meta.doc_id, []).append(doc)
    kept: list[ParsedDocument] = []
    refused: list[Problem] = []
    notes: list[Problem] = []
    for doc in docs:
        group = groups[doc.meta.doc_id]
        if len(group) == 1:
            kept.append(doc)
            continue
        files = [d.meta.source_file for d in group]
        if replace:
            if doc is group[-1]:
                kept.append(doc)
            else:
                notes.append(Problem(doc.meta.source_file, None, (
                    f"document {doc.meta.doc_id} is replaced by the later input "
                    f"{group[-1].meta.source_file} (--replace-duplicates)")))
            continue
        others = ", ".join(f for f in files if f != doc.meta.source_file) or files[0]
        refused.append(Problem(doc.meta.source_file, None, (
            f"document {doc.meta.doc_id} is also in {others}: inputs with one document id are "
            f"not loaded (remove one, or pass --replace-duplicates to let the later replace "
            f"the earlier)")))
    return kept, refused, notes


def parse_inputs(paths: Sequence[Path | str], names: Mapping[str, str] | None = None,
                 known_documents: Sequence[tuple[str, str | None, date | None]] = (),
                 *, replace_duplicates: bool = False, notes: list[Problem] | None = None,
                 max_file_mb: float = DEFAULT_MAX_FILE_MB,
                 ) -> tuple[list[ParsedDocument], list[Problem], int]:
    """Every document in ``paths`` parsed, the problems met, and the number of files read.

    Documents are read twice over: first their structure and header, then their relations,
    with every title of the run and of ``known_documents`` (id, title, issue date: what the
    graph holds) as names, so an amending text that names its law by title finds it whatever
    the order of the files or of the loads. Any exception one input raises (a parse error,
    a nesting too deep for Python) is that input's problem; the others go on. Two inputs with
    one document id are both refused, unless ``replace_duplicates``: then the later replaces
    the earlier, and ``notes`` (when given) receives a line saying so. A file larger than
    ``max_file_mb`` is not read: it is one problem.
    """
    found, problems = expand_paths([Path(p) for p in paths])
    files: list[Path] = []
    for f in found:
        too_big = oversized_file(f, max_file_mb)
        if too_big is None:
            files.append(f)
        else:
            problems.append(too_big)
    given = dict(collect_names(files))
    given.update(names or {})
    docs: list[ParsedDocument] = []
    for f in files:  # first pass: structures and headers only; relations below
        try:
            for item in read_file(f, given, relations=False):
                if isinstance(item, ParsedDocument):
                    docs.append(item)
                else:
                    problems.append(item)
        except Exception as e:  # isolation: one input's failure is its own
            problems.append(_failure(str(f), e))
    docs, refused, replaced = _one_per_id(docs, replace_duplicates)
    problems.extend(refused)
    if notes is not None:
        notes.extend(replaced)
    index = NameIndex()
    for key, number in given.items():
        index.add(key, number, known=False)
    for doc_id, title, issued in known_documents:
        for alias in title_aliases(title or ""):
            index.add(alias, doc_id, issued)
        index.numbers.add(doc_id)
    for doc in docs:
        if doc.meta.title and doc.meta.source_format != "phapdien":
            for alias in title_aliases(doc.meta.title):
                index.add(alias, doc.meta.doc_id, doc.meta.issue_date)
        index.numbers.add(doc.meta.doc_id)
    related: list[ParsedDocument] = []
    for doc in docs:
        try:
            local = stated_names([t for _, t in doc.preamble] + [
                u.heading or u.own_text.split("\n")[0] for u in doc.units
                if u.level in ("Part", "Chapter", "Section", "Article")])
            # a codification keeps the provenance relations its reader added
            extract_relations(doc, index.scoped(doc.meta.issue_date, local),
                              reset=doc.meta.source_format != "phapdien")
        except Exception as e:  # isolation: one input's failure is its own
            problems.append(_failure(doc.meta.source_file, e))
            continue
        related.append(doc)
    issue_dates = {doc_id: day for doc_id, _, day in known_documents}
    issue_dates.update({d.meta.doc_id: d.meta.issue_date for d in related})
    for doc in related:
        drop_later_targets(doc, issue_dates)
    return related, problems, len(found)


_CHANGES = ("AMENDS", "SUPPLEMENTS", "REPEALS", "REPLACES")


def drop_later_targets(doc: ParsedDocument, issued: Mapping[str, date | None]) -> None:
    """A document never amends, repeals or replaces one issued after it: such an instruction
    read the wrong law (a title shared by a later law); it is dropped with a warning naming the
    file and line, and its new wording with it."""
    own = doc.meta.issue_date
    if own is None:
        return
    lines = {doc.unit_id(u): u.line for u in doc.units}
    late: set[tuple[str, str]] = set()
    kept = []
    for rel in doc.relations:
        target_doc = rel.target.split(":", 1)[0]
        day = issued.get(target_doc)
        if rel.type in _CHANGES and day is not None and day > own and target_doc != doc.meta.doc_id:
            if (rel.source, target_doc) not in late:
                doc.warnings.append(Problem(doc.meta.source_file, lines.get(rel.source), (
                    f"{rel.source} cannot change {target_doc}: that document was issued on "
                    f"{day:%d/%m/%Y}, after this one ({own:%d/%m/%Y}); the instruction is "
                    "skipped (it names another law of the same title)")))
            late.add((rel.source, target_doc))
            continue
        kept.append(rel)
    dropped = {n.id for n in doc.new_units
               if n.doc_id != doc.meta.doc_id and _after(issued.get(n.doc_id), own)}
    doc.relations[:] = [r for r in kept if r.source not in dropped]
    doc.new_units[:] = [n for n in doc.new_units if n.id not in dropped]
    doc.unresolved[:] = [u for u in doc.unresolved if u.source not in dropped]


def _after(day: date | None, own: date) -> bool:
    return day is not None and day > own


EMBED_CHUNK = 256  # texts per embedder call: progress to show, and a vector cache that fills as it goes


def _embed(plans: list[WritePlan], embedder: Embedder, max_chars: int,
           progress: bool = False) -> int:
    """Embed every unit the plans embed, ``EMBED_CHUNK`` texts per call: a corpus takes minutes
    to hours on CPU cores, so the operator sees it advance, and a cached embedder stores each
    chunk as it is done (a load stopped half-way embeds only the rest when run again)."""
    rows = [r for plan in plans for r in plan.embed_targets()]
    if not rows:
        return 0
    texts = [r["props"]["text"][:max_chars] for r in rows]
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(texts), desc="embedding passages", unit="text")
    try:
        for start in range(0, len(texts), EMBED_CHUNK):
            chunk = texts[start:start + EMBED_CHUNK]
            vectors = embedder.embed_documents(chunk)
            for row, vec in zip(rows[start:start + EMBED_CHUNK], vectors, strict=True):
                row["props"]["embedding"] = [float(x) for x in vec]
            if bar is not None:
                bar.update(len(chunk))
    finally:
        if bar is not None:
            bar.close()
    return len(rows)


def load_legal(
    runner: QueryRunner,
    embedder: Embedder | None,
    paths: Sequence[Path | str],
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    replace_duplicates: bool = False,
    names: Mapping[str, str] | None = None,
    segmenter: Callable[[str], str] | None = None,
    progress: bool = False,
    embed_chars: int = DEFAULT_EMBED_CHARS,
    max_file_mb: float = DEFAULT_MAX_FILE_MB,
    max_unit_chars: int = DEFAULT_MAX_UNIT_CHARS,
    incremental: bool | None = None,
) -> LoadReport:
    """Load legal documents into the graph.

    Args:
        runner: the query runner (one ``write_transaction`` per document).
        embedder: an ``Embedder`` (cached by model and text hash), or None for no embeddings.
        paths: files or directories (plain text, ALQAC/crawl/article-keyed JSON, Pháp điển).
        batch_size: rows per ``UNWIND`` batch.
        replace_duplicates: two inputs with one document id: the later replaces the earlier
            (default: both are refused and reported).
        names: extra document names -> numbers for resolving documents cited by name.
        segmenter: word segmenter for ``text_segmented`` (pyvi by default).
        progress: show a tqdm progress bar.
        embed_chars: texts are cut to this many characters before embedding.
        max_file_mb: a larger input file is skipped unread (one problem).
        max_unit_chars: a document with a unit whose own wording is longer is skipped before
            segmentation (one problem).
        incremental: derive only the documents the load touches (True), the whole graph
            (False), or choose (None: incremental unless the graph was empty, the previous
            load did not finish, or the touched documents are more than
            ``INCREMENTAL_MAX_SHARE`` of the graph's).

    Returns:
        The report; skipped documents are listed with the reason, never raised. When the
        server goes away the load stops there: ``report.aborted`` says why, and
        ``report.documents`` lists what was committed before.
    """
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    if max_file_mb <= 0 or max_unit_chars < 1:
        raise ValueError("max_file_mb and max_unit_chars must be positive")
    report = LoadReport()
    t0 = time.perf_counter()
    previous = load_state(runner)
    scoped = incremental is not False and not previous.unfinished
    if previous.unfinished:
        # the graph holds documents the derive steps never saw; deriving now makes it right
        # even if this load dies too
        derive(runner)
        report.repaired = (f"the previous load ({previous.describe()}) did not finish; its "
                           f"documents were derived (validity, defined terms, re-homing)")
    known = [(r["id"], r["title"], _as_date(r["issue_date"]))
             for r in runner.read("legal/list_document_names")]
    # names codifications already in the graph give beside a number (a later run of the
    # amending text alone still finds "Luật Bảo hiểm y tế")
    cited = {r["name"]: r["number"] for r in runner.read("legal/list_cited_names")}
    docs, problems, report.files = parse_inputs(
        paths, {**cited, **(names or {})}, known, replace_duplicates=replace_duplicates,
        notes=report.warnings, max_file_mb=max_file_mb)
    report.skipped.extend(problems)
    segment = segmenter or default_segmenter()
    plans: list[tuple[ParsedDocument, WritePlan]] = []
    for doc in docs:
        too_big = oversized_unit(doc, max_unit_chars)
        if too_big is not None:
            report.skipped.append(too_big)
            continue
        try:
            plan = plan_document(doc, segment)
        except Exception as e:  # isolation: one input's failure is its own
            report.skipped.append(_failure(doc.meta.source_file, e))
            continue
        report.warnings.extend(doc.warnings)
        for placeholder, name in sorted(doc.title_targets.items()):
            report.warnings.append(Problem(
                doc.meta.source_file, None,
                f"{name!r} is named by title only and no document loaded carries that title: "
                f"its instructions are kept against {placeholder} until one does"))
        plans.append((doc, plan))
    report.parse_s = time.perf_counter() - t0
    if embedder is not None:
        t1 = time.perf_counter()
        report.embedded = _embed([p for _, p in plans], embedder, embed_chars, progress)
        report.embed_s = time.perf_counter() - t1
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(plans), desc="legal documents", unit="doc")
    loaded_before = {doc_id for doc_id, _, _ in known}
    scope: dict[str, bool] = {}  # id -> a loaded document (False: only named)
    scope_s = 0.0
    scoped = scoped and (incremental is True or bool(loaded_before))
    again = sorted({plan.doc_id for _, plan in plans} & loaded_before)
    if scoped and again:
        # what the documents loaded again wrote before is taken out with them: derive there too
        ts = time.perf_counter()
        scope |= _read_scope(runner, again)
        scope_s = time.perf_counter() - ts
    t2 = time.perf_counter()
    if plans:
        try:
            runner.write_transaction([("legal/mark_load_started", {"documents": len(plans)})])
        except HopgraphError as e:
            report.aborted = f"the load could not start writing (nothing was written): {e}"
            return report
    for doc, plan in plans:
        try:
            # what an earlier load of this document wrote goes first, in the same transaction
            runner.write_transaction([("legal/clear_document", {"doc_id": plan.doc_id}),
                                      *plan.steps(batch_size)])
        except DatabaseUnavailable as e:
            # the server is gone: every later document would wait for it in turn
            report.aborted = f"the database went away while writing {doc.meta.doc_id}: {e}"
            break
        except Exception as e:  # isolation: one document's failure is its own
            report.skipped.append(Problem(doc.meta.source_file, None,
                                          f"document {doc.meta.doc_id} not written: {e}"))
        else:
            report.documents.append(doc.meta.doc_id)
            report.units_by_level.update(r["level"] for r in plan.units if not r["version"])
            report.new_units.update(
                ["UnitVersion"] * sum(1 for r in plan.units if r["version"])
                + ["inserted"] * len(plan.inserted))
            report.edges_by_type.update(f"{r['type']}/{r['origin']}" for r in plan.relations)
            report.unresolved += len(plan.unresolved)
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    report.write_s = time.perf_counter() - t2
    if report.aborted:
        return report
    t3 = time.perf_counter()
    stage = "deriving validity"
    try:
        report.graph_documents = len(loaded_before | set(report.documents))
        if scoped:
            # read after the write: an id named before it may be a loaded document now
            scope |= _read_scope(runner, report.documents)
            loaded = sum(1 for held in scope.values() if held)
            if incremental is None and loaded > INCREMENTAL_MAX_SHARE * report.graph_documents:
                scoped = False
            else:
                report.derived_documents = loaded
                report.derived_named = len(scope) - loaded
        derive(runner, sorted(scope) if scoped else None)
        report.derive_s = time.perf_counter() - t3 + scope_s
        stage = "reading the graph's counts and the load's warnings (validity was derived)"
        report.graph = graph_counts(runner)
        files = {d.meta.doc_id: d.meta.source_file for d, _ in plans}
        for row in runner.read("legal/list_missing_targets", doc_ids=report.documents or [""]):
            source = str(row["source"] or "")
            where = files.get(source.split(":", 1)[0], source)
            if row["kind"] == "inverted":
                day, start = (_as_date(row.get(k)) for k in ("day", "start"))
                said = [d.strftime("%d/%m/%Y") if d else "?" for d in (day, start)]
                report.warnings.append(Problem(where, row.get("line"), (
                    f"{source} gives {row['target']} new wording from {said[0]}, before "
                    f"the unit takes effect ({said[1]}): the interval would be inverted; "
                    "the new wording applies from the unit's own start (check the dates)")))
                continue
            report.warnings.append(Problem(
                where, row.get("line"),
                f"{source} names {row['target']}, which its law as loaded does not have: "
                + ("nothing is changed there" if row["kind"] == "missing" else
                   "it is shown from that wording's date as a unit of that law")
                + " (check the instruction, or load the document that inserted it)"))
    except DatabaseUnavailable as e:
        report.aborted = ("the database went away after the documents, "
                          + ("before validity was derived" if stage == "deriving validity"
                             else f"while {stage}") + f": {e}")
    except HopgraphError as e:
        # any other failure of the derive (a query over its time limit, the server's memory):
        # the documents are committed, the graph is marked unfinished and the next load, or
        # 'hopgraph db repair', derives it whole
        report.aborted = (f"{stage} failed after the documents were committed ({e})"
                          + ("; 'hopgraph db repair' derives it again"
                             if stage == "deriving validity" else ""))
    return report


def _as_date(value: object) -> date | None:
    if value is None:
        return None
    to_native = getattr(value, "to_native", None)
    native = to_native() if callable(to_native) else value
    return native if isinstance(native, date) else None


def derive_steps(doc_ids: Sequence[str] | None = None) -> list[tuple[str, dict[str, object]]]:
    """The derive steps as ``(key, params)`` for ``write_transaction``: on the documents
    ``doc_ids`` (see :func:`derive_scope`), or on the whole graph when None. A step that takes
    no ``$doc_ids`` runs on the whole graph either way."""
    registry = load_registry()
    scope = None if doc_ids is None else sorted(set(doc_ids))
    return [(key, {"doc_ids": scope} if "doc_ids" in registry[key].params else {})
            for key in DERIVE_STEPS]


def derive_scope(runner: QueryRunner, doc_ids: Sequence[str]) -> set[str]:
    """The documents whose derived values a write of ``doc_ids`` can change
    (``legal/list_derive_scope``; the module's docstring says why each is needed)."""
    return set(_read_scope(runner, doc_ids))


def _read_scope(runner: QueryRunner, doc_ids: Sequence[str]) -> dict[str, bool]:
    """:func:`derive_scope` with, for each id, whether it is a loaded document (False: a
    document only named, or a title waiting for one)."""
    if not doc_ids:
        return {}
    return {str(r["doc_id"]): bool(r["loaded"])
            for r in runner.read("legal/list_derive_scope", doc_ids=sorted(set(doc_ids)))
            if r["doc_id"] is not None}


def derive(runner: QueryRunner, doc_ids: Sequence[str] | None = None) -> None:
    """Post-load steps (inserted units, validity, status, phrase versions, defined terms) on
    the documents ``doc_ids`` (the scope of a load: :func:`derive_scope`) or on the whole graph
    (None), and the mark that the load finished, in one transaction."""
    runner.write_transaction([*derive_steps(doc_ids), ("legal/mark_load_finished", {})])


@dataclass(frozen=True)
class LoadRecord:
    """What the graph records of the last legal load (``legal/get_load_state``)."""

    started_at: datetime | None = None
    finished_at: datetime | None = None
    documents: int | None = None
    unfinished: bool = False

    def describe(self) -> str:
        """One phrase: when the last load started and whether it finished."""
        if self.started_at is None and self.finished_at is None:
            return "no load recorded"
        started = _stamp(self.started_at)
        if self.unfinished:
            return (f"started {started} to write {self.documents} documents, never finished"
                    if self.documents is not None else f"started {started}, never finished")
        return f"started {started}, finished {_stamp(self.finished_at)}"


def _stamp(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S UTC") if value is not None else "at an unknown time"


def load_state(runner: QueryRunner) -> LoadRecord:
    """The graph's record of the last legal load."""
    rows = runner.read("legal/get_load_state")
    if not rows:
        return LoadRecord()
    row = rows[0]
    return LoadRecord(started_at=_as_datetime(row.get("started_at")),
                     finished_at=_as_datetime(row.get("finished_at")),
                     documents=row.get("documents"), unfinished=bool(row.get("unfinished")))


def _as_datetime(value: object) -> datetime | None:
    to_native = getattr(value, "to_native", None)
    native = to_native() if callable(to_native) else value
    return native if isinstance(native, datetime) else None


@dataclass(frozen=True)
class RepairReport:
    """What :func:`repair` found and did."""

    before: LoadRecord
    derive_s: float
    graph: dict[str, dict[str, int]]

    def summary(self) -> str:
        """One line for the CLI."""
        cause = ("the last legal load did not finish (" + self.before.describe() + ")"
                 if self.before.unfinished else
                 "the last legal load had finished (" + self.before.describe() + ")")
        units = sum(self.graph.get("units", {}).values())
        return (f"{cause}: derived validity, document status, defined terms, inserted units and "
                f"re-homed title placeholders over the whole graph ({units} units) in "
                f"{self.derive_s:.1f}s; the load is marked finished")


def repair(runner: QueryRunner) -> RepairReport:
    """Run the derive steps now (what a load does after its documents) and mark the load
    finished; for a graph left by a load killed between its documents and its derive steps.
    Safe on any graph: the steps are derived from the whole graph, so running them again
    changes nothing on a finished one."""
    before = load_state(runner)
    started = time.perf_counter()
    derive(runner)
    return RepairReport(before=before, derive_s=time.perf_counter() - started,
                        graph=graph_counts(runner))


def graph_counts(runner: QueryRunner) -> dict[str, dict[str, int]]:
    """Counts of the legal graph by kind (units, edges, placeholders, …)."""
    out: dict[str, dict[str, int]] = {}
    for row in runner.read("legal/count_graph"):
        out.setdefault(row["kind"], {})[str(row["name"])] = int(row["count"])
    return out
