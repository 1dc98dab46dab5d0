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
- ``legal/get_text_as_of`` (ids, as_of) returns the wording in force at a date per unit.
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
- UnresolvedReference ids are ``<source id>#<12 hex of sha1(method|text)>``; methods:
  vague_law_reference, external_document_without_number, legal_basis_without_number,
  amendment_target_document_unknown.
- Relation methods: amend_instruction, supplement_instruction, repeal_instruction,
  textual_substitution, phrase_removal, annex_replacement, document_replacement, document_repeal,
  expiry_on_effect, absolute_reference, relative_reference, range_reference, external_reference,
  document_reference, legal_basis, detailing_statement, guidance_annotation, codification_source,
  codification_note.
"""

from pathlib import Path

from hopgraph.loaders.legal._citations import Citation, find_citations
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
    LoadReport,
    derive,
    graph_counts,
    load_legal,
    parse_inputs,
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
    "DEFAULT_BATCH_SIZE", "SAMPLES_DIR", "Citation", "DocumentMeta", "LoadReport", "NewUnit",
    "ParsedDocument", "Problem", "Relation", "Unit", "Unresolved", "WritePlan", "build_document",
    "citation", "codification_names", "derive", "expand_paths", "find_citations", "graph_counts",
    "load_legal", "normalise_doc_number", "parse_inputs", "parse_structure", "plan_document",
    "read_file", "slugify", "unit_id", "version_id",
]
