"""Vietnamese legal documents into the structure-driven regulatory knowledge graph (SRKG).

Contract additions (on top of ``graph_models/_legal.py``; nothing existing was renamed):

- Relationship ``CODIFIES`` (``StructureRel.CODIFIES``): ``(codification article)-[:CODIFIES]->
  (source unit)`` for every Pháp điển article whose provenance line names its source article;
  properties as the legal relations (method, evidence, effective_date, origin='codification').
- Codification (Pháp điển) topic files become one Document each with id ``PD-<file stem>``
  (e.g. ``PD-bao-hiem-y-te``); their article ids keep the code with dots turned into dashes:
  ``PD-bao-hiem-y-te:D2-2-LQ-1`` (``number`` keeps ``2.2.LQ.1``).
- Relation ``origin`` is ``'text'`` (rules over the document's own text), ``'codification'``
  (Pháp điển provenance notes) or ``'annotation'`` (bracketed notes such as
  ``[Điều này được hướng dẫn bởi …]`` in annotated full texts).
- Document-level relations: ``(Document)-[:BASED_ON]->(Document)`` (Căn cứ …),
  ``(Document)-[:GUIDES]->(Document | unit)`` (quy định chi tiết / hướng dẫn …),
  ``(Document)-[:REPLACES|REPEALS]->(Document)`` (thay thế / bãi bỏ a whole document).
  Annex replacement is unit level: ``(instruction unit)-[:REPLACES]->(annex)``.
  A Document may also have ``HAS_UNRESOLVED`` (a legal basis named without a number).
- Textual substitutions (``Thay thế cụm từ "A" bằng cụm từ "B" tại …``, ``Bỏ cụm từ …``) are
  ``AMENDS`` edges with method ``textual_substitution``/``phrase_removal`` and no UnitVersion.
- Unit ``text`` is the unit's complete wording as enacted (its marker line and all its
  sub-units); an amendment of a point therefore leaves the clause's ``text`` in its original
  wording: the as-of wording of a unit is its own latest version in force, and its sub-units'.
- A UnitVersion (``<target>@<amending doc>``) carries LegalNode:LegalUnit:UnitVersion only (no
  level label), ``level`` of its target, ``amended_by`` and ``valid_from``; when the new wording
  has sub-units, each gets its own version (``<target child>@<amending doc>``) contained by the
  parent version and VERSION_OF the target child.
- Inserted units (``supplemented_by`` = amending doc id, ``inserted_after`` = anchor id) are real
  units of the target document; a post-load step attaches them to the anchor's parent.
- ``valid_to``/``status`` of units and versions, and ``expiry_date``/``status`` of documents, are
  derived after every load by ``legal/derive_*`` queries from the events in the graph.
  Unit status: in_force | amended | repealed | replaced | supplemented (dates decide "as of");
  UnitVersion status: in_force | amended | repealed | replaced. Document status: in_force |
  amended | replaced | expiring; ``status_disagrees`` flags a contradiction with
  ``status_external`` (kept as evidence); ``expiry_stated`` is an end date the text states.
- When new wording of an article has a clause the original lacks, that clause's version is
  VERSION_OF the would-be id; once the amended document is loaded, the derive step
  (``legal/derive_version_only_units``) turns that Placeholder into a real unit of the amended
  document (level label, ``supplemented_by`` = amending doc, ``valid_from`` = first version,
  contained by its parent, no text of its own: its wording is the version's).
- Unknown start dates: a UnitVersion or inserted unit whose amending text states no start date
  has ``valid_from`` null, ``valid_from_unknown = true`` and ``not_before`` = the amending
  document's issue date. It is never in force before ``not_before`` (never at all when
  ``not_before`` is null) and is served from then on flagged as uncertain; the derive steps end
  the wording it follows at ``not_before`` with ``valid_to_unknown = true`` (possibly superseded).
  Versions are ordered by ``coalesce(valid_from, not_before)``. A change edge whose
  ``effective_date`` (and its document's) is null counts from its document's issue date, flagged.
  Original units with a null ``valid_from`` (their document's effect date unknown) stay in force
  from the start.
- ``legal/get_text_as_of`` (ids, as_of) returns the wording in force at a date per unit, with
  ``date_unknown``, ``not_before`` and ``possibly_superseded``.
- ``legal/consolidate_document`` (doc_id, as_of) returns every unit of a document with the
  version in force at the date, repeals and the change edges; ``hopgraph.retrieval.consolidate``
  and ``hopgraph consolidate DOC --as-of DATE | --diff FROM TO`` build the consolidated wording.
- Defined terms: after every load ``legal/derive_defined_terms`` rebuilds
  ``(unit)-[:DEFINES {definition}]->(:DefinedTerm {id, key, term, doc_id})`` from the numbered
  items ``N. <term> là <definition>`` (or ``được hiểu là``) of each definitions article (heading
  "Giải thích từ ngữ" / "Giải thích thuật ngữ"): in the article's text (the unit is the item's
  clause, or the article when its items are not split into clauses), in clauses inserted later
  and in new wordings of its clauses (the unit is that clause or UnitVersion, so an amended
  definition has an edge from each wording and validity tracing picks the one in force). ``key``
  is the term in lower case with single spaces, at most 20 words; ``id`` is
  ``<doc_id>|<key>``: a term is defined for the document of its definitions article.
- REFERS_TO from a unit to itself or to one of its ancestors (``Điều này`` inside that article,
  ``Luật này``) is not written. ``(unit)-[:REFERS_TO]->(Document)`` is written for a document cited
  by number without a unit. References inside new wording are read against the amended document
  and start at the UnitVersion (or the inserted unit).
- Amended documents are found as a lawyer finds them (issue 16): by number, else by the title
  the instruction or its heading names (``Điều 1. Sửa đổi, bổ sung một số điều của Luật Sở hữu
  trí tuệ``), with or without its year, against the titles of the run's documents and of the
  Documents the graph holds (``legal/list_document_names``) and the names the amending text
  states beside a number in its preamble; a stated number no known document has yields to a
  known title. A title two documents share resolves by the year given, else to the latest
  issued on or before the amending document. A title no loaded document carries gives a
  **title placeholder** document id ``~<slug of the title>`` (``~luat-so-huu-tri-tue``, with
  ``-<year>`` when the text gives one): edges, versions and inserted units are written against
  it, the load report names it, and the first derive step (``legal/rehome_title_placeholders``)
  moves all of it onto the one loaded Document whose ``name_slugs`` carry that key (ids,
  ``doc_id``, ``inserted_after`` and citations rewritten, placeholders merged into the real
  units), so the graph is the same whatever the load order. Documents store ``name_slugs`` and
  ``citation_label`` for this; a codification also stores ``cited_names``
  (``"<name key>|<placeholder key>|<number>"`` for each name its provenance lines give beside a
  number), which later loads resolve names with (``legal/list_cited_names``) and re-homing
  reads, so a law read without its title (article-keyed JSON) is still found by title; version rows written against a title placeholder carry
  ``pending_label`` until re-homed.
- Effective dates of versions and inserted units come from the amending document's effect
  article, per provision where it says so (``Riêng khoản 3 Điều 1 … có hiệu lực từ …``, lists
  of clauses). ``valid_from_unknown`` is true when no date was found (``valid_from`` null);
  ``not_before`` is the amending document's issue date: such a version is never in force before
  it (see ``graph_models/_legal.py`` for how validity queries read these).
- Relation methods added with issue 16: ``repeal_statement`` / ``replacement_statement``
  (``Nghị định này thay thế và bãi bỏ … tại khoản 1 Điều 1 … Nghị định số X``),
  ``renumbering`` (``Điều 5 được đánh số thành Điều 5a``), ``phrase_addition`` (``Bổ sung cụm từ “…” vào sau cụm từ “…” tại …``), ``text_addition``
  (``Bổ sung vào cuối khoản 2 Điều 7 nội dung như sau``). Section targets are paths
  ``C4.M4`` (``tên Mục 4 Chương IV``).
- Parsing recovers rather than refuses: before the structure parser, ``_layout`` removes a
  portal copy's repeated name prefix, joins an instruction broken over two lines and moves a
  quote opened on the instruction's own line to its own line; a repeated, stray or
  out-of-sequence article marker is text with a warning (file:line), an unclosed quote ends at
  the next instruction, article or effect clause of the amending text.
- Document identity (issue 18): a document is its id. Each document's transaction starts with
  ``legal/clear_document``, which takes out what an earlier load of it wrote, so a re-load
  replaces it whole: its units (own ``doc_id``, no ``amended_by``/``supplemented_by``), the
  versions and inserted units it wrote into other documents (``amended_by``/``supplemented_by``
  = its id), containment into those nodes, their VERSION_OF / HAS_UNRESOLVED / DEFINES edges,
  and every relation edge whose ``written_by`` (sorted list of the ids of the documents whose
  load wrote it; every relation edge carries it) names it. A node of it that another
  document's edge still touches becomes a ``Placeholder`` again (``{id, kind, doc_id}``, as if
  that document had been loaded first); Placeholders and UnresolvedReferences left without
  edges are deleted; units that lost a VERSION_OF / REPEALS / REPLACES get the loader's
  ``status = 'in_force'``, ``valid_to = null`` back before the derive steps. Containment the
  ``legal/link_inserted_units`` step derives carries ``derived = true`` and is re-derived.
  Two inputs of one run with one document id are both refused, naming each other, unless
  ``replace_duplicates`` (``--replace-duplicates``): then the later replaces the earlier.
- UnresolvedReference ids are ``<source id>#<12 hex of sha1(method|text)>``; methods:
  vague_law_reference, external_document_without_number, legal_basis_without_number,
  amendment_target_document_unknown.
- Relation methods: amend_instruction, supplement_instruction, repeal_instruction,
  textual_substitution, phrase_removal, annex_replacement, document_replacement, document_repeal,
  expiry_on_effect, repeal_statement, replacement_statement, phrase_addition, text_addition,
  renumbering, sub_unit_instruction (an instruction aimed at a part numbered with decimals,
  ``Sửa đổi, bổ sung Điểm 2.1 Khoản 2 Điều 2``, kept as text of its clause: the clause is
  marked amended without a new wording; a repeal of such a part is a ``partial_repeal``),
  absolute_reference, relative_reference, range_reference, external_reference,
  document_reference, legal_basis, detailing_statement, guidance_annotation, codification_source,
  codification_note.
"""

from pathlib import Path

from hopgraph.loaders.legal._citations import Citation, find_citations, name_key
from hopgraph.loaders.legal._document import build_document
from hopgraph.loaders.legal._formats import codification_names, expand_paths, read_file
from hopgraph.loaders.legal._ids import (
    citation,
    normalise_doc_number,
    slugify,
    unit_id,
    version_id,
)
from hopgraph.loaders.legal._loader import (
    DEFAULT_BATCH_SIZE,
    DEFAULT_MAX_FILE_MB,
    DEFAULT_MAX_UNIT_CHARS,
    DERIVE_STEPS,
    INCREMENTAL_MAX_SHARE,
    LoadRecord,
    LoadReport,
    RepairReport,
    bounded_chunks,
    derive,
    derive_scope,
    derive_steps,
    graph_counts,
    load_legal,
    load_state,
    parse_inputs,
    repair,
)
from hopgraph.loaders.legal._model import (
    DocumentMeta,
    NewUnit,
    ParsedDocument,
    Problem,
    Relation,
    Unit,
    Unresolved,
)
from hopgraph.loaders.legal._parser import parse_structure
from hopgraph.loaders.legal._rows import WritePlan, plan_document

SAMPLES_DIR = Path(__file__).resolve().parent / "samples"

__all__ = [
    "DEFAULT_BATCH_SIZE", "DEFAULT_MAX_FILE_MB", "DEFAULT_MAX_UNIT_CHARS", "DERIVE_STEPS",
    "INCREMENTAL_MAX_SHARE", "SAMPLES_DIR", "Citation", "DocumentMeta", "LoadRecord",
    "LoadReport", "NewUnit", "ParsedDocument", "Problem", "Relation", "RepairReport", "Unit",
    "Unresolved", "WritePlan", "bounded_chunks", "build_document", "citation",
    "codification_names", "derive", "derive_scope", "derive_steps",
    "expand_paths", "find_citations", "graph_counts", "load_legal", "load_state", "name_key",
    "normalise_doc_number", "parse_inputs", "parse_structure", "plan_document", "read_file",
    "repair", "slugify", "unit_id", "version_id",
]
