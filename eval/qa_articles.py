"""Web Q&A articles as legal QA evaluation questions, with the provisions their answers cite.

A Q&A article (e.g. ``vn-health/questions/*.md``) is Markdown: the question is the title (the
first ``#`` heading), the reference answer is the body. The answer cites provisions in running
text (``khoản 2 Điều 22 Luật Bảo hiểm y tế 2008``, ``Điều 14 Nghị định 117/2020/NĐ-CP``); they are
found with the legal loader's citation rules (:func:`hopgraph.loaders.legal.find_citations`) and
resolved to unit ids of a loaded corpus by :class:`CorpusIndex`:

- a document named by number is that number; a document named by title (``Luật Khám bệnh, chữa
  bệnh 2023``) is looked up among the corpus' known titles, and a year in the citation must agree
  with the document's number; a title that matches several documents stays unresolved;
- a unit is *in the corpus* when the corpus holds it, or a codification (Pháp điển) article
  ``CODIFIES`` it or its article (the cited wording is then in the codification);
- relative citations (``Điều 40 của Luật này`` inside a quoted provision) and citations naming no
  document are left out: nothing here guesses a target.

Articles answer several questions under section headings; only the sections whose heading is one
of the title's questions give the cited provisions of the evaluation question (the other
sections answer follow-up questions the title does not ask). When no heading matches, the whole
body counts.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from hopgraph.agents.legal import content_tokens
from hopgraph.core.errors import ConfigError
from hopgraph.core.vocabulary import fold, normalise_doc_number
from hopgraph.loaders.legal import ParsedDocument, find_citations, name_key

CODIFICATION_TYPE = "Pháp điển"
CODIFICATION_PREFIX = "Pháp điển: "
MIN_PREFIX_WORDS = 4  # a document title prefix shorter than this never resolves alone
HEADING_MATCH = 0.6  # share of a heading's content words that must be in one title question
_TITLE = re.compile(r"^#\s+(?P<t>.+?)\s*$", re.MULTILINE)
_HEADING = re.compile(r"^(?:#{2,6}\s+(?P<h>.+?)|\*\*(?P<b>[^*\n]+?)\*\*)\s*$")
_MARKUP = re.compile(r"\*+|^#+\s*")
_YEAR = re.compile(r"\s+(?:năm\s+)?(?P<y>(?:19|20)\d{2})(?!\d)")
_AMENDING = r"\s+(?P<a>sửa đổi(?:,?\s+bổ sung)?\s+(?:năm\s+)?(?:19|20)\d{2})(?!\d)"
_NUMBER_YEAR = re.compile(r"/(?P<y>(?:19|20)\d{2})/")


@dataclass(frozen=True)
class CitedProvision:
    """One provision an answer cites.

    Attributes:
        text: the citation as written.
        path: the unit path (``D22.K2``); ``None`` for a document cited without a unit.
        doc_number: the document number when written (normalised), else ``None``.
        doc_name: the document title as written when it has no number.
    """

    text: str
    path: str | None
    doc_number: str | None
    doc_name: str | None


@dataclass
class QAArticle:
    """One Q&A article read as an evaluation question.

    Attributes:
        id: the file stem.
        question: the title question.
        answer: the body without Markdown markup (the reference answer).
        cited: provisions cited in the sections answering the title's question(s).
        cited_anywhere: provisions cited anywhere in the body.
        sections_matched: how many section headings matched the title (0: whole body used).
    """

    id: str
    question: str
    answer: str
    cited: list[CitedProvision] = field(default_factory=list)
    cited_anywhere: list[CitedProvision] = field(default_factory=list)
    sections_matched: int = 0


def parse_qa_article(text: str, article_id: str) -> QAArticle:
    """Read one Q&A article.

    Raises:
        ConfigError: no ``#`` title or an empty body (names the article).
    """
    m = _TITLE.search(text)
    if m is None:
        raise ConfigError(f"Q&A article {article_id}: no '# ' title line")
    question = _clean(m.group("t"))
    body = text[m.end():]
    answer = "\n".join(line for line in (_clean(x) for x in body.splitlines()) if line)
    if not answer:
        raise ConfigError(f"Q&A article {article_id}: the body is empty")
    sections = _sections(body)
    asked = _title_questions(question)
    on_title = [s for h, s in sections if h is not None and _heading_matches(h, asked)]
    relevant = "\n".join(on_title) if on_title else body
    return QAArticle(id=article_id, question=question, answer=answer,
                     cited=extract_provisions(relevant), cited_anywhere=extract_provisions(body),
                     sections_matched=len(on_title))


def read_qa_articles(folder: Path) -> tuple[list[QAArticle], list[str]]:
    """Every ``*.md`` article in ``folder`` (sorted by name) and a problem line per bad file.

    Raises:
        ConfigError: the folder does not exist.
    """
    if not folder.is_dir():
        raise ConfigError(f"Q&A articles folder {folder} does not exist")
    out: list[QAArticle] = []
    problems: list[str] = []
    for path in sorted(folder.glob("*.md")):
        try:
            out.append(parse_qa_article(path.read_text(encoding="utf-8"), path.stem))
        except (ConfigError, OSError, UnicodeDecodeError) as e:
            problems.append(f"{path.name}: {e}")
    return out, problems


def extract_provisions(text: str) -> list[CitedProvision]:
    """Provisions cited with a document (by number or title); relative and bare ones left out."""
    out: dict[tuple[str | None, str | None, str | None], CitedProvision] = {}
    for c in find_citations(text):
        if c.doc.kind not in {"number", "name"} or not c.articles:
            continue
        if any(x == ["này"] for x in (c.points, c.clauses, c.articles)):
            continue
        number = normalise_doc_number(c.doc.number) if c.doc.number else None
        name = None if number else (c.doc.name or "").strip() or None
        if name:
            # "Luật Bảo hiểm y tế sửa đổi 2024" is the amending law, not the law it amends
            amending = re.search(re.escape(name) + _AMENDING, c.text)
            if amending:
                name = f"{name} {amending.group('a')}"
        year = _YEAR.search(name) if name else None
        if name and year:  # "Luật Dược 2016 quy định …": the title ends with its year
            name = name[: year.end()]
        for path in _paths(c.articles, c.clauses, c.points):
            out.setdefault((path, number, name), CitedProvision(c.text, path, number, name))
    return list(out.values())


def _paths(articles: list[str], clauses: list[str] | None, points: list[str] | None
           ) -> list[str]:
    paths: list[str] = []
    for a in articles:
        for k in clauses or [None]:  # type: ignore[list-item]
            for p in points or [None]:  # type: ignore[list-item]
                paths.append(".".join(x for x in (f"D{a}", f"K{k}" if k else None, p) if x))
    return paths


class CorpusIndex:
    """Which unit ids a loaded corpus holds, what its codification covers, which titles it knows.

    Args:
        docs: the parsed documents of the corpus (what the loader writes).
        names: document title -> number (e.g. the codification's provenance names), plus
            titles of documents whose source text has none.
    """

    def __init__(self, docs: Iterable[ParsedDocument], names: Mapping[str, str]) -> None:
        self.units: set[str] = set()
        self.documents: set[str] = set()
        self.codified_by: dict[str, set[str]] = defaultdict(set)  # source unit -> PD articles
        self.codifies: dict[str, set[str]] = defaultdict(set)  # PD article -> source units
        self.names: dict[str, set[str]] = defaultdict(set)
        for name, number in names.items():
            self.names[_name_form(name)].add(normalise_doc_number(number))
        for doc in docs:
            meta = doc.meta
            self.documents.add(meta.doc_id)
            self.units.update(f"{meta.doc_id}:{u.path}" for u in doc.units)
            laws: set[str] = set()
            for r in doc.relations:
                if r.type == "CODIFIES":
                    self.codified_by[r.target].add(r.source)
                    self.codifies[r.source].add(r.target)
                    if "-LQ-" in r.source:  # a codification topic's articles from its law
                        laws.add(r.target.split(":", 1)[0])
            title = " ".join((meta.title or "").split())
            if meta.doc_type == CODIFICATION_TYPE and title.startswith(CODIFICATION_PREFIX):
                # A Pháp điển topic is named after its law ("Pháp điển: Dược" -> "Luật Dược").
                if len(laws) == 1:
                    self.names[_name_form("Luật " + title[len(CODIFICATION_PREFIX):])] |= laws
            elif title and meta.doc_type and "/" in meta.doc_id:
                full = title if fold(title).startswith(fold(meta.doc_type)) else (
                    f"{meta.doc_type} {title}")
                self.names[_name_form(full)].add(meta.doc_id)
        self.codified_docs = {t.split(":", 1)[0] for t in self.codified_by}

    def document_of(self, p: CitedProvision) -> str | None:
        """The document number a provision names, or ``None`` when unknown or ambiguous."""
        if p.doc_number:
            return p.doc_number
        if not p.doc_name:
            return None
        year_m = _YEAR.search(p.doc_name)  # "Luật Dược 2016 quy định …": the title ends there
        base = p.doc_name[: year_m.start()] if year_m else p.doc_name
        key = _name_form(base)
        found = self.names.get(key, set())
        if not found and len(key.split()) >= MIN_PREFIX_WORDS:
            # A short form of a long title ("Luật Hiến, lấy, ghép mô, bộ phận cơ thể người"):
            # accepted only when exactly one known title starts with it.
            starts = [v for k, v in self.names.items() if k.startswith(key + " ")]
            found = starts[0] if len(starts) == 1 else set()
        if year_m:
            # the year must agree with the number's; an old number without a year (21-LCT/HĐNN)
            # cannot contradict it
            found = {n for n in found if (y := _NUMBER_YEAR.search(n)) is None
                     or y.group("y") == year_m.group("y")}
        return next(iter(found)) if len(found) == 1 else None

    def resolve(self, p: CitedProvision) -> list[str]:
        """Unit ids (source-document ids) of the provision that the corpus holds or codifies."""
        doc = self.document_of(p)
        if doc is None or p.path is None:
            return []
        uid = f"{doc}:{p.path}"
        if uid in self.units or uid in self.codified_by:
            return [uid]
        # A codification article carries its source article's whole wording; the source's own
        # sub-units are checkable only when the source document itself is loaded.
        if doc not in self.documents and f"{doc}:{p.path.split('.')[0]}" in self.codified_by:
            return [uid]
        return []

    def in_corpus_document(self, p: CitedProvision) -> bool:
        """The provision's document is loaded or codified (even if the unit is not found)."""
        doc = self.document_of(p)
        return doc is not None and (doc in self.documents or doc in self.codified_docs)

    def source_ids(self, node_id: str) -> set[str]:
        """A retrieved node id in the source-document id space: versions map to their unit,
        codification articles to the units they codify."""
        base = node_id.split("@", 1)[0]
        if base in self.codifies:
            return set(self.codifies[base])
        article, _, rest = base.partition(".")
        if rest and article in self.codifies:
            # a clause or point of a codification article keeps its source article's numbering
            return {f"{src}.{rest}" for src in self.codifies[article]}
        return {base}


def article_of(unit_id: str) -> str:
    """``doc:D5.K2.a`` -> ``doc:D5`` (the article-level id)."""
    doc, _, path = unit_id.partition(":")
    return f"{doc}:{path.split('.')[0]}" if path else unit_id


def _name_form(name: str) -> str:
    return fold(name_key(name)).replace(",", " ").replace("  ", " ").strip()


def _clean(line: str) -> str:
    text = _MARKUP.sub("", line).strip()
    return "" if re.fullmatch(r"-|\.{3}|…", text) else text


def _sections(body: str) -> list[tuple[str | None, str]]:
    """(heading, text) pairs; the text before the first heading has heading ``None``."""
    out: list[tuple[str | None, list[str]]] = [(None, [])]
    for line in body.splitlines():
        m = _HEADING.match(line.strip())
        if m:
            out.append((_clean(m.group("h") or m.group("b")), []))
        else:
            out[-1][1].append(line)
    return [(h, "\n".join(lines)) for h, lines in out]


def _title_questions(title: str) -> list[set[str]]:
    parts = [p for p in re.split(r"(?<=\?)\s+", title) if p.strip()] or [title]
    return [set(content_tokens(p)) for p in parts]


def _heading_matches(heading: str, asked: list[set[str]]) -> bool:
    words = set(content_tokens(heading))
    if not words:
        return False
    return any(len(words & q) / len(words) >= HEADING_MATCH and len(words & q) / max(1, len(q))
               >= HEADING_MATCH for q in asked)
