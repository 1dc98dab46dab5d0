"""Input formats: plain text, ALQAC JSON, crawl records, article-keyed JSON, Pháp điển Markdown.

Each reader yields, per document, either a :class:`ParsedDocument` or a :class:`Problem` that
names the file (and record) and line; one bad document never stops the others. A JSONL file is
one record per line: a bad line is named by its number and the other lines load. Formats that
need text extraction are read by ``_office`` (Word .docx, PDF) and ``_html`` (saved portal pages);
the others (.doc, .odt, …) are refused by name, with the accepted ones listed.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterator, Mapping
from datetime import date
from pathlib import Path
from typing import Any

from hopgraph.core.errors import IngestError
from hopgraph.core.vocabulary import CHANGE_VERBS, normalise_doc_number
from hopgraph.loaders.legal._dates import parse_date
from hopgraph.loaders.legal._document import build_document
from hopgraph.loaders.legal._html import read_html
from hopgraph.loaders.legal._ids import (
    DOC_NUMBER,
    OLD_DOC_NUMBER,
    number_key,
    roman_to_int,
    slugify,
)
from hopgraph.loaders.legal._model import DocumentMeta, ParsedDocument, Problem, Relation
from hopgraph.loaders.legal._office import read_docx, read_pdf
from hopgraph.loaders.legal._relations import extract_relations

Lines = list[tuple[int, str]]
SKIP_NAMES = {"questions.json", "readme.md", "license", "license.md"}
# Formats read by extracting their text first (_office, _html), then parsed as plain text.
EXTRACTORS = {".docx": read_docx, ".pdf": read_pdf, ".html": read_html, ".htm": read_html}
EXTENSIONS = {".txt", ".json", ".jsonl", ".md", *EXTRACTORS}
ACCEPTED = ("plain text (.txt), JSON (.json), JSON Lines (.jsonl), Pháp điển Markdown (.md), "
            "Word (.docx), PDF with a text layer (.pdf), saved portal pages (.html)")
# Formats people hand in that need text extraction first, by suffix and by leading bytes.
UNSUPPORTED_SUFFIXES = {".doc": "Word (.doc)", ".odt": "OpenDocument text", ".rtf": "RTF",
                        ".xls": "Excel", ".xlsx": "Excel", ".zip": "ZIP archive"}
_MAGIC = ((b"%PDF-", "PDF"), (b"\xd0\xcf\x11\xe0", "Word/OLE (.doc)"),
          (b"PK\x03\x04", "a ZIP container (.docx, .odt, .xlsx, .zip)"), (b"{\\rtf", "RTF"))
_NUMBER_ONLY = re.compile(rf"^\s*({DOC_NUMBER}|{OLD_DOC_NUMBER})\s*$")
_TYPE_WORDS = re.compile(r"^(Bộ luật|Luật|Hiến pháp|Nghị định|Thông tư|Quyết định|Nghị quyết|"
                         r"Pháp lệnh)", re.IGNORECASE)


def expand_paths(paths: list[Path]) -> tuple[list[Path], list[Problem]]:
    """Files to read, in a stable order; directories are walked (README/questions skipped)."""
    files: list[Path] = []
    problems: list[Problem] = []
    for path in paths:
        if path.is_dir():
            for f in sorted(p for p in path.rglob("*") if p.is_file()):
                if f.suffix.lower() in EXTENSIONS and f.name.lower() not in SKIP_NAMES:
                    files.append(f)
                elif f.suffix.lower() in UNSUPPORTED_SUFFIXES:
                    problems.append(unsupported(f, UNSUPPORTED_SUFFIXES[f.suffix.lower()]))
        elif path.is_file():
            if path.suffix.lower() in UNSUPPORTED_SUFFIXES:
                problems.append(unsupported(path, UNSUPPORTED_SUFFIXES[path.suffix.lower()]))
            else:
                files.append(path)
        elif path.is_symlink():
            problems.append(Problem(str(path), None, "a symbolic link to nothing "
                                                     "(its target does not exist)"))
        elif path.exists():
            problems.append(Problem(str(path), None, "not a regular file (a named pipe, socket "
                                                     "or device): only files and folders are read"))
        else:
            problems.append(Problem(str(path), None, "no such file or directory"))
    return files, problems


def unsupported(path: Path, kind: str) -> Problem:
    """The problem of a file in a format that needs text extraction first."""
    return Problem(str(path), None, f"{kind} is not a supported format (it needs text "
                                    f"extraction first); accepted: {ACCEPTED}")


def read_text(path: Path) -> str:
    """The file as NFC text: UTF-8 (with or without BOM) or UTF-16 with a BOM.

    Vietnamese sources mix precomposed and decomposed diacritics; questions are normalised to
    NFC, so the stored text, headings and titles are too (full-text matches and the re-rank's
    heading and title comparisons in ``legal/retrieve_context`` depend on it).

    Raises:
        IngestError: the bytes are not valid text in those encodings (names the line).
    """
    try:
        data = path.read_bytes()
    except OSError as e:
        raise IngestError(f"{path}: cannot be read: {e.strerror or e}") from e
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            raise IngestError(str(unsupported(path, kind)))
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return unicodedata.normalize("NFC", data.decode("utf-16"))
        except UnicodeDecodeError as e:
            raise IngestError(f"{path}: broken UTF-16 text: {e.reason}") from e
    try:
        return unicodedata.normalize("NFC", data.decode("utf-8-sig"))
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise IngestError(
            f"{path}:{line}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start}); "
            "convert the file to UTF-8"
        ) from e


def _lines(text: str, first: int = 1) -> Lines:
    return [(i, line) for i, line in enumerate(text.splitlines(), start=first)]


def _safe(where: str, fn: Any, *args: Any, **kwargs: Any) -> ParsedDocument | Problem:
    try:
        doc = fn(*args, **kwargs)
        assert isinstance(doc, ParsedDocument)
        return doc
    except RecursionError:
        return Problem(where, None, "nested too deeply to be read (recursion limit)")
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as e:
        # a record of an unexpected shape inside a known format: that record's problem
        return Problem(where, None, f"could not be parsed: {type(e).__name__}: {e}")
    except IngestError as e:
        message = str(e)
        if message.startswith(where):
            message = message[len(where):].lstrip(":")
            m = re.match(r"(\d+):\s*(.*)$", message, re.S)
            if m:
                return Problem(where, int(m.group(1)), m.group(2))
        return Problem(where, None, message.strip())


def read_file(path: Path, names: Mapping[str, str] | None = None, *, relations: bool = True
              ) -> Iterator[ParsedDocument | Problem]:
    """Every document in one input file, parsed, or the problem that stopped it.

    ``relations=False`` reads structure and header only (the loader's first pass: it reads the
    relations once every document of the run is known, with their titles in ``names``).
    """
    file = str(path)
    extractor = EXTRACTORS.get(path.suffix.lower())
    if extractor is not None:
        yield _safe(file, _read_extracted, path, extractor, names, relations)
        return
    try:
        text = read_text(path)
    except IngestError as e:
        rest = str(e).removeprefix(file).lstrip(":")
        m = re.match(r"(\d+):\s*(.*)$", rest, re.S)
        yield Problem(file, int(m.group(1)), m.group(2)) if m else Problem(file, None, rest.strip())
        return
    if not text.strip():
        yield Problem(file, None, "empty file")
        return
    suffix = path.suffix.lower()
    if suffix in (".json", ".jsonl"):
        yield from _read_json(path, text, names, relations)
    elif suffix == ".md" and ("THÔNG TIN VĂN BẢN" in text[:4000] or text.startswith("---")):
        yield _safe(file, read_phapdien, path, text, names, relations=relations)
    else:
        yield _safe(file, build_document, _lines(text), file=file, source_format="text",
                    fallback_id=path.stem, names=names, relations=relations)


def _read_extracted(path: Path, extractor: Any, names: Mapping[str, str] | None,
                    relations: bool) -> ParsedDocument:
    """A .docx, .pdf or .html file: its text lines and stated metadata, then the text parser."""
    lines, meta = extractor(path)
    return build_document(_lines("\n".join(lines)), file=str(path),
                          source_format=meta.source_format, meta_overrides=meta,
                          fallback_id=path.stem, names=names, relations=relations)


def _read_jsonl(path: Path, text: str, names: Mapping[str, str] | None, relations: bool
                ) -> Iterator[ParsedDocument | Problem]:
    """One record per line; a line that is not JSON or not a record fails alone, by number."""
    file = str(path)
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            yield Problem(file, n, f"malformed or truncated JSON: {e.msg} (column {e.colno})")
            continue
        except RecursionError:
            yield Problem(file, n, "JSON nested too deeply to be read")
            continue
        if isinstance(rec, dict) and "articles" in rec:
            yield _safe(f"{file}#{rec.get('id', n)}", _alqac_law, file, rec, names, relations)
        elif isinstance(rec, dict) and ("Content" in rec or "content" in rec):
            yield _crawl_record(file, rec, n, names, relations)
        else:
            yield Problem(file, n, "unknown record: expected an ALQAC {id, articles} or a crawl "
                                   "{Id, Content} object per line")


def _crawl_record(file: str, rec: dict[str, Any], i: int, names: Mapping[str, str] | None,
                  relations: bool) -> ParsedDocument | Problem:
    rid = str(rec.get("Id", rec.get("id", i)))
    content = rec.get("Content", rec.get("content"))
    if not isinstance(content, str) or not content.strip():
        return Problem(f"{file}#{rid}", None, "record has no Content text")
    number = rid if _NUMBER_ONLY.match(rid) else None
    return _safe(f"{file}#{rid}", build_document, _lines(content), file=f"{file}#{rid}",
                 source_format="crawl", number=number, fallback_id=rid, names=names,
                 relations=relations)


def _read_json(path: Path, text: str, names: Mapping[str, str] | None, relations: bool
               ) -> Iterator[ParsedDocument | Problem]:
    file = str(path)
    if path.suffix.lower() == ".jsonl":
        yield from _read_jsonl(path, text, names, relations)
        return
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as e:
        yield Problem(file, e.lineno, f"malformed or truncated JSON: {e.msg} (column {e.colno})")
        return
    except RecursionError:
        yield Problem(file, None, "JSON nested too deeply to be read")
        return
    if isinstance(data, dict) and ("Content" in data or "content" in data):
        data = [data]
    if isinstance(data, list) and data and all(isinstance(x, dict) for x in data):
        if all("articles" in x for x in data):
            for i, law in enumerate(data):
                yield _safe(f"{file}#{law.get('id', i)}", _alqac_law, file, law, names,
                            relations)
            return
        if all(("Content" in x or "content" in x) for x in data):
            for i, rec in enumerate(data):
                yield _crawl_record(file, rec, i, names, relations)
            return
    if isinstance(data, dict) and data and all(isinstance(v, dict) for v in data.values()):
        for number, articles in data.items():
            yield _safe(f"{file}#{number}", _article_keyed, file, number, articles, names,
                        relations)
        return
    yield Problem(file, 1, "unknown JSON shape: expected ALQAC [{id, articles}], crawl "
                           "[{Id, Content}] or {document number: {article: text}}")


def _alqac_law(file: str, law: dict[str, Any], names: Mapping[str, str] | None,
               relations: bool = True) -> ParsedDocument:
    lid = str(law.get("id", "")).strip()
    where = f"{file}#{lid}"
    lines: Lines = []
    n = 1
    articles = law.get("articles")
    if not isinstance(articles, list):
        raise IngestError(f"{where}:1: 'articles' is not a list")
    for art in articles:
        if not isinstance(art, dict) or "text" not in art:
            raise IngestError(f"{where}:{n}: article record without text")
        aid = str(art.get("id", "")).strip()
        body = str(art["text"]).split("\n")
        first = body[0].strip()
        lines.append((n, f"Điều {aid}. {first}".rstrip()))
        n += 1
        for line in body[1:]:
            lines.append((n, line))
            n += 1
    number = lid if _NUMBER_ONLY.match(lid) else None
    # A number-only id ("91/2015/QH13", the ALQAC 2022 corpus) says nothing of the law's name,
    # which is how questions name it ("theo Bộ luật Lao động …"): take the name from the text.
    title: str | None = (alqac_title(number, [str(a["text"]) for a in articles], names)
                         if number else lid)
    doc_type = None
    if title:
        m = _TYPE_WORDS.match(title)
        doc_type = m.group(1).capitalize() if m else None
    meta = DocumentMeta(doc_id="", number=number, title=title, doc_type=doc_type,
                        source_file=where, source_format="alqac")
    return build_document(lines, file=where, source_format="alqac", meta_overrides=meta,
                          fallback_id=lid, names=names, relations=relations)


_W = r"[\wÀ-ỹ]"  # a letter of a Vietnamese word
_SELF_TYPE = re.compile(rf"(?<!{_W})(Bộ luật|Luật|Pháp lệnh|Nghị định|Nghị quyết|Thông tư|"
                        rf"Quyết định) này(?!{_W})", re.IGNORECASE)
# What ends a law's name: its number or date, or a verb or preposition after it.
_NAME_STOP = (r"số|ngày|năm|này|đã|được|hoặc|có|quy|của|theo|tại|về|hết|thì|là|trừ|phải|với|"
              r"do|trong|khác|nhằm|sửa|bổ|mà|để|đối|cho|liên|nhưng|gồm")
_NAME = rf"((?:(?!(?:{_NAME_STOP})(?!{_W})){_W}+(?:,?[ \t]+|(?=[^\wÀ-ỹ]|$))){{1,8}})"
SELF_NAME_MIN = 3  # a code ("Bộ luật") naming itself this often in its text names itself


def alqac_title(number: str, texts: list[str], names: Mapping[str, str] | None = None
                ) -> str | None:
    """The name of a law known only by its number, from what its own text says of itself.

    In order: the name other inputs give the number (``names``); the law it replaces, of its own
    type ("Bộ luật này …" / "Luật này …"), named in its final provisions ("Bộ luật Lao động số
    10/2012/QH13 hết hiệu lực …": a replacing law keeps the name); its first article opening with
    its name ("Bộ luật Lao động quy định …"); a code ("Bộ luật") naming itself at least
    ``SELF_NAME_MIN`` times without a number. None when the text says none of these (a law
    that only says "Luật này" keeps no title rather than a guessed one).
    """
    if names and names.get(number):
        return names[number]
    text = "\n".join(texts)
    kinds: dict[str, int] = {}
    for m in _SELF_TYPE.finditer(text):
        kinds[m.group(1).lower()] = kinds.get(m.group(1).lower(), 0) + 1
    if not kinds:
        return None
    kind = max(kinds, key=lambda k: kinds[k])
    head = kind.capitalize()
    # "Luật" inside "Bộ luật" is no mention of a Luật.
    named = re.compile(rf"(?<!{_W})(?<!bộ )(?<!Bộ ){re.escape(kind)}[ \t]+{_NAME}",
                       re.IGNORECASE)
    for line in text.splitlines():
        if re.search(r"hết\s+hiệu\s+lực", line):
            for m in named.finditer(line):
                tail = line[m.end():]
                if re.match(r"\s*(?:số\s|ngày\s|năm\s)", tail) and len(m.group(1).split()) <= 8:
                    return f"{head} {m.group(1).strip(' ,')}"
    first = texts[0].split("\n", 1)[-1].strip() if texts else ""
    opening = re.match(rf"{re.escape(kind)}[ \t]+{_NAME}(?=quy định\b)", first, re.IGNORECASE)
    if opening:
        return f"{head} {opening.group(1).strip(' ,')}"
    if kind == "bộ luật":
        counts: dict[str, int] = {}
        for m in named.finditer(text):
            if not re.match(r"\s*(?:số\s|ngày\s)", text[m.end():]):
                # counted up to a comma or "và": "Bộ luật X, …" and "Bộ luật X và …" name X
                name = " ".join(re.split(r",| và ", m.group(1))[0].split())
                counts[name.lower()] = counts.get(name.lower(), 0) + 1
        if counts:
            best = max(counts, key=lambda k: counts[k])
            if counts[best] >= SELF_NAME_MIN:
                return f"{head} {best}"
    return None


def _article_keyed(file: str, number: str, articles: dict[str, Any],
                   names: Mapping[str, str] | None, relations: bool = True) -> ParsedDocument:
    where = f"{file}#{number}"
    lines: Lines = []
    n = 1
    for key in sorted(articles, key=number_key):
        value = articles[key]
        if not isinstance(value, str):
            raise IngestError(f"{where}:{n}: article {key} is not text")
        text = value if re.match(r"^\s*Điều\s", value) else f"Điều {key}. {value}"
        for line in text.split("\n"):
            lines.append((n, line))
            n += 1
    meta = DocumentMeta(doc_id="", number=number, source_file=where, source_format="article-json")
    return build_document(lines, file=where, source_format="article-json", meta_overrides=meta,
                          names=names, relations=relations)


# -- Pháp điển (official codification) ---------------------------------------------------------
_FRONT = re.compile(r"^---\n(.*?)\n---\n", re.S)
_TABLE_ROW = re.compile(r"^\|\s*\**([^|*]+?)\**\s*\|\s*(.*?)\s*\|\s*$")
_CODE_ARTICLE = re.compile(r"^Điều\s+(\d+(?:\.\d+)*\.[A-ZĐ]+(?:\.\d+)+[a-zđ]?)\.?\s")
_PROVENANCE = re.compile(
    rf"^\((?P<src>(?:(?:Điểm|Khoản)\s+[\w.]+\s+)*(?:Điều|Phụ lục|Mục|Chương)\s+[\w.]+)\s+"
    rf"(?P<dtype>Luật|Bộ luật|Nghị định|Thông tư liên tịch|Thông tư|Quyết định|Nghị quyết|Pháp lệnh)"
    rf"\s+(?:số\s+)?(?P<num>{DOC_NUMBER}|{OLD_DOC_NUMBER})(?P<rest>.*)\)\s*$"
)
_EVENT = re.compile(
    rf"(?P<verbs>(?:(?:có\s+nội\s+dung\s+)?(?:được|bị)\s+(?:{CHANGE_VERBS})"
    rf"(?:,\s*bổ\s+sung)?\s*,?\s*)+)\s*bởi\s+(?P<by>(?:(?:Điểm|Khoản)\s+[\w.]+\s+)*"
    rf"(?:Điều|Phụ lục|Mục|Chương)\s+[\w.]+)\s+(?P<dtype>Luật|Bộ luật|Nghị định|Thông tư liên tịch|"
    rf"Thông tư|Quyết định|Nghị quyết|Pháp lệnh)\s+(?:số\s+)?(?P<num>{DOC_NUMBER}|{OLD_DOC_NUMBER})"
    rf"(?:[^;()]*?có\s+hiệu\s+lực(?:\s+thi\s+hành)?\s+kể\s+từ\s+ngày\s+(?P<date>\d{{1,2}}/\d{{1,2}}/\d{{4}}))?"
)
_SENTENCE_END = (".", ":", ";", "!", "?", "”", '"', ")", "/.")
_RELATED = re.compile(r"^\(Điều này có nội dung liên quan")
_MD_NOISE = re.compile(r"\*\*|__|(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)")


def unit_path(text: str) -> str | None:
    """``Điểm a Khoản 2 Điều 5`` -> ``D5.K2.a``; ``Chương II`` -> ``C2``."""
    parts: dict[str, str] = {}
    for m in re.finditer(r"(Điểm|Khoản|Điều|Phụ lục|Mục|Chương)\s+([\w.]+)", text):
        parts[m.group(1)] = m.group(2).rstrip(".")
    if "Điều" in parts:
        path = "D" + parts["Điều"]
        if "Khoản" in parts:
            path += ".K" + parts["Khoản"]
            if "Điểm" in parts:
                path += "." + parts["Điểm"]
        return path
    if "Chương" in parts:
        return "C" + str(roman_to_int(parts["Chương"]) or parts["Chương"])
    if "Phụ lục" in parts:
        return "PL" + str(roman_to_int(parts["Phụ lục"]) or parts["Phụ lục"])
    return None


def _meta_table(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in text.splitlines()[:80]:
        m = _TABLE_ROW.match(line.strip())
        if m:
            out[m.group(1).strip().lower()] = m.group(2).strip()
    return out


def _front_matter(text: str) -> dict[str, str]:
    m = _FRONT.match(text)
    out: dict[str, str] = {}
    if m:
        for line in m.group(1).splitlines():
            kv = re.match(r"^(\w+):\s*(.*)$", line)
            if kv:
                # ``so_hieu`` and ``sohieu``, ``ngay_ban_hanh`` and ``ngaybanhanh``: one key
                out[kv.group(1).lower().replace("_", "")] = kv.group(2).strip().strip('"')
    return out


def _clean_md(line: str) -> str:
    line = re.sub(r"^#{1,6}\s*", "", line.strip())
    line = _MD_NOISE.sub("", line)
    line = re.sub(r"^>\s*", "", line)
    return line.strip()


def _known(value: str | None) -> str | None:
    if not value or value.strip() in ("-", "Đang cập nhật", "—"):
        return None
    return value.strip()


def read_phapdien(path: Path, text: str, names: Mapping[str, str] | None = None, *,
                  relations: bool = True) -> ParsedDocument:
    """A Pháp điển topic file (articles with codes and provenance lines) or a single document.

    Raises:
        IngestError: the file has no body section.
    """
    file = str(path)
    front = _front_matter(text)
    table = _meta_table(text)
    raw_lines = text.splitlines()
    start = next((i for i, line in enumerate(raw_lines) if line.strip() == "## VĂN BẢN"), None)
    if start is None:
        start = next((i for i, line in enumerate(raw_lines) if line.startswith("# ")), 0)
    body: Lines = []
    joinable = False  # Markdown: a hard-wrapped line continues its paragraph
    for i in range(start + 1, len(raw_lines)):
        line = raw_lines[i]
        if line.startswith("## Danh sách điều khoản") or line.startswith("## Danh sách đề mục"):
            break
        cleaned = _clean_md(line)
        if cleaned in ("---",) or not cleaned:
            joinable = False
            continue
        heading = line.lstrip().startswith(("#", "|"))
        if joinable and not heading and body and not body[-1][1].endswith(_SENTENCE_END):
            body[-1] = (body[-1][0], f"{body[-1][1]} {cleaned}".replace(" ,", ","))
        else:
            body.append((i + 1, cleaned))
        joinable = not heading
    coded = any(_CODE_ARTICLE.match(t) for _, t in body)
    number = _known(front.get("sohieu")) or _known(table.get("số hiệu"))
    if not coded and "## Danh sách" in text and not any(
            re.match(r"Điều\s+\d", t) for _, t in body):
        # a topic index page: its article list is truncated; keep the document only
        topic = next((ln[2:].strip() for ln in raw_lines if ln.startswith("# ")), path.stem)
        meta = DocumentMeta(doc_id=f"PD-{slugify(path.stem)}", title=f"Pháp điển: {topic}",
                            doc_type="Pháp điển", status_external=_known(table.get("trạng thái")),
                            source_file=file, source_format="phapdien-index")
        return ParsedDocument(meta=meta, units=[], warnings=[Problem(
            file, None, "topic index page (truncated article list): document metadata only")])
    if coded:
        doc = _read_codification(path, body, front, table, names, relations)
        # the names its provenance lines give, kept in the graph for later loads
        doc.cited_names = codification_names(text)
        return doc
    title = _known(front.get("trichyeu")) or _known(table.get("trích yếu"))
    meta = DocumentMeta(doc_id="", number=number, title=title,
                        doc_type=_known(table.get("loại văn bản")) or _known(front.get("loaivanban")),
                        issuer=_known(front.get("coquanbanhanh")) or _known(table.get("cơ quan ban hành")),
                        status_external=_known(table.get("trạng thái")) or _known(front.get("trangthai")),
                        source_file=file, source_format="phapdien-document")
    issued = _known(front.get("ngaybanhanh"))
    meta.issue_date = parse_date(issued) if issued else None
    effective = (_known(front.get("hieuluc")) or _known(front.get("ngayhieuluc"))
                 or _known(front.get("ngaycohieuluc")))
    meta.effective_date = parse_date(effective) if effective else None
    until = _known(front.get("hieulucden"))
    meta.expiry_stated = parse_date(until) if until else None
    if not number:
        m = re.search(rf"({DOC_NUMBER})", " ".join(t for _, t in body[:5]) + " " + path.stem)
        meta.number = m.group(1) if m else None
    try:
        return build_document(body, file=file, source_format="phapdien-document",
                              meta_overrides=meta, fallback_id=path.stem, names=names,
                              relations=relations)
    except IngestError as e:
        if "no article" not in str(e):
            raise
        # A summary page without articles: keep the document's metadata, no units.
        if meta.number is None:
            raise
        meta.doc_id = normalise_doc_number(meta.number)
        doc = ParsedDocument(meta=meta, units=[], warnings=[
            Problem(file, None, "no articles (summary page): loaded as document metadata only")])
        return doc


def _read_codification(path: Path, body: Lines, front: dict[str, str], table: dict[str, str],
                       names: Mapping[str, str] | None, relations: bool) -> ParsedDocument:
    file = str(path)
    lines: Lines = []
    provenance: dict[int, str] = {}
    last_article_line: int | None = None
    for n, t in body:
        if _CODE_ARTICLE.match(t):
            last_article_line = n
            lines.append((n, t))
            continue
        if t.startswith("(") and last_article_line is not None and _PROVENANCE.match(t) and \
                last_article_line not in provenance:
            provenance[last_article_line] = t
            continue
        if _RELATED.match(t):
            continue
        lines.append((n, t))
    title = next((t for _, t in body if t and not t.startswith("Chương")), path.stem)
    meta = DocumentMeta(doc_id=f"PD-{slugify(path.stem)}", title=f"Pháp điển: {title}",
                        doc_type="Pháp điển", status_external=_known(table.get("trạng thái")),
                        source_file=file, source_format="phapdien")
    doc = build_document(lines, file=file, source_format="phapdien", meta_overrides=meta,
                         codification=True, names=names, relations=relations)
    # a codification has no date of its own: each article's date is its source's (below)
    doc.meta.effective_date = None
    # Codified wording cites its source document ("Luật này"), not the codification: drop
    # references that resolved inside the codification document.
    doc.relations = [r for r in doc.relations if not (
        r.type == "REFERS_TO" and r.target.startswith(doc.meta.doc_id + ":"))]
    for unit in doc.units:
        if unit.level != "Article" or unit.line not in provenance:
            continue
        note = provenance[unit.line]
        m = _PROVENANCE.match(note)
        if m is None:
            continue
        src_doc = normalise_doc_number(m.group("num"))
        src_path = unit_path(m.group("src"))
        eff = re.search(r"có\s+hiệu\s+lực(?:\s+thi\s+hành)?\s+kể\s+từ\s+ngày\s+(\d{1,2}/\d{1,2}/\d{4})",
                        m.group("rest"))
        valid_from: date | None = parse_date(eff.group(1)) if eff else None
        if valid_from is not None:
            doc.unit_dates[unit.path] = valid_from
        if src_path is None:
            continue
        source_id = f"{src_doc}:{src_path}"
        doc.relations.append(Relation(f"{doc.meta.doc_id}:{unit.path}", source_id, "CODIFIES",
                                      "codification_source", note[:500], valid_from,
                                      origin="codification"))
        for ev in _EVENT.finditer(m.group("rest")):
            verbs = ev.group("verbs").lower()
            by_path = unit_path(ev.group("by"))
            if by_path is None:
                continue
            by = f"{normalise_doc_number(ev.group('num'))}:{by_path}"
            when = parse_date(ev.group("date")) if ev.group("date") else None
            kinds = []
            if "sửa đổi" in verbs or "thay thế" in verbs:
                kinds.append("AMENDS")
            if "bổ sung" in verbs:
                kinds.append("SUPPLEMENTS")
            if "bãi bỏ" in verbs:
                kinds.append("REPEALS")
            for kind in kinds:
                doc.relations.append(Relation(by, source_id, kind, "codification_note",
                                              ev.group(0)[:500], when, origin="codification"))
    return doc


def codification_names(text: str) -> dict[str, str]:
    """Document names the provenance lines give (``Luật Bảo hiểm y tế`` -> ``25/2008/QH12``)."""
    from hopgraph.loaders.legal._citations import name_key

    found: dict[str, set[str]] = {}
    for line in text.splitlines():
        m = _PROVENANCE.match(line.strip())
        if m is None:
            continue
        rest = re.split(r"\s+ngày\s+|,", m.group("rest").strip(), maxsplit=1)[0].strip()
        if not rest or rest[0].islower():
            continue
        name = f"{m.group('dtype')} {rest}"
        found.setdefault(name_key(name), set()).add(normalise_doc_number(m.group("num")))
    return {k: next(iter(v)) for k, v in found.items() if len(v) == 1}


__all__ = ["codification_names", "expand_paths", "extract_relations", "read_file", "read_text"]
