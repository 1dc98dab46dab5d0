"""The HTTP API of ``hopgraph serve`` (FastAPI): read-only endpoints over a
:class:`~hopgraph.Hopgraph`, and the web app at ``/``.

Endpoints (OpenAPI at ``/openapi.json``, browsable at ``/docs``)::

    GET  /api/status                     server version, node count
    GET  /api/legal/coverage             loaded documents, dates, documents named but not loaded
    POST /api/legal/retrieve             {question, as_of, k, doc_types, issuers, doc_ids}
    POST /api/legal/ask                  {question, as_of}: answer with numbered citations
    POST /api/legal/ask/stream           the same as server-sent events (evidence, then answer)
    POST /api/legal/trace                {unit_ids, as_of}
    GET  /api/legal/unit                 ?unit_id&as_of: badge and version timeline
    GET  /api/legal/consolidate          ?doc_id&as_of&offset&limit: one page, with the total
    GET  /api/legal/diff                 ?doc_id&date_from&date_to&offset&limit
    POST /api/biomed/region              {question}
    POST /api/sentences/retrieve         {question}

Every refusal is JSON ``{"error": {"type", "field", "problem"}}`` with a 4xx status (never a
traceback): 422 for a bad field (the checks of :mod:`hopgraph._service`, shared with MCP, with
the CLI's bounds), 401/403/421/413 from the guard (:mod:`hopgraph._http_guard`), 503 when Neo4j
cannot be reached, 502 when the LLM fails. Endpoints are plain functions, which FastAPI runs in
its thread pool, so concurrent clients do not wait for each other on the event loop.
"""

# No ``from __future__ import annotations``: FastAPI reads the endpoints' annotations at
# registration.
import json
import logging
from collections.abc import AsyncIterator
from importlib.resources import files
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse
from pydantic import BaseModel, Field

from hopgraph._service import (
    DEFAULT_K,
    DEFAULT_PAGE_LIMIT,
    K_MAX,
    K_MIN,
    MAX_UNIT_IDS,
    PAGE_LIMIT_MAX,
    RequestError,
    Service,
    schema_problem,
)
from hopgraph.core.errors import DatabaseError, HopgraphError, LLMError
from hopgraph.core.questions import MAX_QUESTION_CHARS, InputErrors

if TYPE_CHECKING:
    from hopgraph._front import Hopgraph

log = logging.getLogger("hopgraph.http")
WEB_APP = "index.html"
PUBLIC_PATHS = frozenset({"/", "/favicon.ico"})


QuestionField = Field(description=f"the question, at most {MAX_QUESTION_CHARS} characters "
                                  "with at least one word", examples=[
                          "Tỷ lệ thanh toán khi khám bệnh trái tuyến là bao nhiêu?"])
AsOfField = Field(None, description="validity date, YYYY-MM-DD or dd/mm/yyyy; today when "
                                    "omitted", examples=["2024-06-01"])


class RetrieveRequest(BaseModel):
    """Legal retrieval: a question at a date, filters applied before fusion."""

    question: str = QuestionField
    as_of: str | None = AsOfField
    k: int = Field(DEFAULT_K, ge=K_MIN, le=K_MAX, description="seed provisions")
    doc_types: list[str] = Field(default_factory=list, max_length=20)
    issuers: list[str] = Field(default_factory=list, max_length=20)
    doc_ids: list[str] = Field(default_factory=list, max_length=20)


class AskRequest(BaseModel):
    """A legal question at a date."""

    question: str = QuestionField
    as_of: str | None = AsOfField


class TraceRequest(BaseModel):
    """Units whose validity to trace at a date."""

    unit_ids: list[str] = Field(min_length=1, max_length=MAX_UNIT_IDS)
    as_of: str | None = AsOfField


class QuestionRequest(BaseModel):
    """A biomedical or open-domain question."""

    question: str = QuestionField


def web_app_html() -> str:
    """The web app (one static HTML file shipped in ``hopgraph.web``)."""
    return files("hopgraph.web").joinpath(WEB_APP).read_text(encoding="utf-8")


def create_app(hg: "Hopgraph", *, use_llm: bool = True) -> Any:
    """The FastAPI application serving ``hg`` (read-only) and the web app.

    Args:
        hg: the front door; its runner, embedders and chat model serve every request.
        use_llm: False answers ``ask`` from the evidence alone even when an LLM is configured.
    """
    from hopgraph._mcp import server_version

    service = Service(hg)
    app = FastAPI(title="hopgraph", version=server_version(),
                  description="Read-only, graph-grounded answers over Neo4j: Vietnamese "
                              "regulations with validity at a date, biomedical triplets, "
                              "sentence graphs.")
    app.state.service = service

    # -- errors ------------------------------------------------------------------------------
    def error(status: int, kind: str, field: str | None, problem: str,
              errors: list[dict[str, str]] | None = None) -> JSONResponse:
        body: dict[str, Any] = {"type": kind, "field": field, "problem": problem}
        if errors is not None:  # several fields refused at once: each one listed
            body["errors"] = errors
        return JSONResponse({"error": body}, status_code=status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query")
               and not isinstance(p, int)]
        return error(422, "invalid_request", ".".join(loc) or "body", schema_problem(first))

    @app.exception_handler(RequestError)
    async def refused(_: Request, exc: RequestError) -> JSONResponse:
        return error(422, "invalid_request", exc.field, exc.problem,
                     [{"field": e.field, "problem": e.problem} for e in exc.errors]
                     if isinstance(exc, InputErrors) else None)

    @app.exception_handler(HopgraphError)
    async def failed(_: Request, exc: HopgraphError) -> JSONResponse:
        if isinstance(exc, DatabaseError):
            return error(503, "database_unavailable", None, str(exc))
        if isinstance(exc, LLMError):
            return error(502, "llm_failed", None, str(exc))
        return error(422, "invalid_request", None, str(exc))

    @app.exception_handler(Exception)
    async def crashed(_: Request, exc: Exception) -> JSONResponse:
        log.exception("request failed")
        return error(500, "internal_error", None,
                     f"{type(exc).__name__}; the server log has the details")

    # -- pages -------------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def index() -> HTMLResponse:
        return HTMLResponse(web_app_html())

    @app.get("/api/status", tags=["graph"])
    def status() -> dict[str, Any]:
        """The Neo4j server: version, edition, plugins, node count; the API version."""
        return {**service.status(), "api_version": server_version(),
                "llm": use_llm and hg.chat is not None}

    # -- legal -------------------------------------------------------------------------------
    @app.get("/api/legal/coverage", tags=["legal"])
    def coverage() -> dict[str, Any]:
        """Loaded documents (with their dates and whether they are fictional samples), the date
        range, and documents named by loaded ones but not loaded."""
        return service.legal_coverage()

    @app.post("/api/legal/retrieve", tags=["legal"])
    def retrieve(req: RetrieveRequest) -> dict[str, Any]:
        """Legal evidence at a date: seeds, wordings in force, references, provenance."""
        return service.legal_retrieve(req.question, req.as_of, req.k, req.doc_types,
                                      req.issuers, req.doc_ids)

    @app.post("/api/legal/ask", tags=["legal"])
    def ask(req: AskRequest) -> dict[str, Any]:
        """An answer with numbered citations and their validity badges (retrieval-only
        without an LLM)."""
        return service.legal_ask(req.question, req.as_of, use_llm=use_llm)

    @app.post("/api/legal/ask/stream", tags=["legal"])
    async def ask_stream(req: AskRequest) -> StreamingResponse:
        """The answer as server-sent events: ``evidence`` (the retrieved provisions, at once),
        then ``answer`` (the full answer, as ``/api/legal/ask``), then ``done``; a failure is
        an ``error`` event with the same body as a 4xx."""
        from hopgraph._service import check_date, check_question

        question, day = check_question(req.question), check_date(req.as_of)

        async def events() -> AsyncIterator[str]:
            try:
                ctx = await run_in_threadpool(service.legal_retrieve, question, day, DEFAULT_K)
                yield _sse("evidence", {"as_of": ctx["as_of"], "evidence": ctx["evidence"]})
                answer = await run_in_threadpool(service.legal_ask, question, day, use_llm)
                yield _sse("answer", answer)
                yield _sse("done", {})
            except RequestError as e:
                yield _sse("error", {"type": "invalid_request", "field": e.field,
                                     "problem": e.problem})
            except HopgraphError as e:
                yield _sse("error", {"type": type(e).__name__, "field": None,
                                     "problem": str(e)})

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    @app.post("/api/legal/trace", tags=["legal"])
    def trace(req: TraceRequest) -> dict[str, Any]:
        """Validity at a date of given units (ids ``<document>:<path>``)."""
        return service.legal_trace(req.unit_ids, req.as_of)

    @app.get("/api/legal/unit", tags=["legal"])
    def unit(unit_id: Annotated[str, Query(max_length=200)],
             as_of: Annotated[str | None, Query(max_length=40)] = None) -> dict[str, Any]:
        """One unit at a date: its validity badge and every wording with its dates and the
        instruction that made it."""
        return service.legal_unit(unit_id, as_of)

    @app.get("/api/legal/resolve", tags=["legal"])
    def resolve(citation: Annotated[str, Query(max_length=300)],
                as_of: Annotated[str | None, Query(max_length=40)] = None) -> dict[str, Any]:
        """The wording a citation id names (``vn/nd/2016/12/cp/dieu_3/khoan_2@2024-06-01``, the
        ``citation_id`` of every legal evidence item): the wording in force at its date."""
        return service.legal_resolve(citation, as_of)

    @app.get("/api/legal/consolidate", tags=["legal"])
    def consolidate(doc_id: Annotated[str, Query(max_length=200)],
                    as_of: Annotated[str | None, Query(max_length=40)] = None,
                    offset: Annotated[int, Query(ge=0)] = 0,
                    limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT_MAX)] = DEFAULT_PAGE_LIMIT,
                    ) -> dict[str, Any]:
        """One page of the document as in force at a date (văn bản hợp nhất), with the
        total."""
        return service.legal_consolidate(doc_id, as_of, offset, limit)

    @app.get("/api/legal/diff", tags=["legal"])
    def diff(doc_id: Annotated[str, Query(max_length=200)],
             date_from: Annotated[str, Query(max_length=40)],
             date_to: Annotated[str, Query(max_length=40)],
             offset: Annotated[int, Query(ge=0)] = 0,
             limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT_MAX)] = DEFAULT_PAGE_LIMIT,
             ) -> dict[str, Any]:
        """What changed in a document between two dates, unit by unit (paged)."""
        return service.legal_diff(doc_id, date_from, date_to, offset, limit)

    # -- other domains -----------------------------------------------------------------------
    @app.post("/api/biomed/region", tags=["biomed"])
    def region(req: QuestionRequest) -> dict[str, Any]:
        """The biomedical region subgraph of an English question."""
        return service.biomed_region(req.question)

    @app.post("/api/sentences/retrieve", tags=["sentences"])
    def sentences(req: QuestionRequest) -> dict[str, Any]:
        """Evidence sentences of an open-domain multi-hop question."""
        return service.sentences_retrieve(req.question)

    return app


def _sse(event: str, data: Any) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def run_http_server(hg: "Hopgraph", *, host: str = "127.0.0.1", port: int = 8080,
                    token: str | None = None, use_llm: bool = True) -> None:
    """Serve the HTTP API and the web app until interrupted (see :mod:`hopgraph._http_guard`
    for who may call it).

    Raises:
        ConfigError: a non-loopback host without a token.
    """
    from hopgraph._http_guard import GuardSettings, guard, serve_asgi

    settings = GuardSettings.for_host(host, port, token, public_paths=PUBLIC_PATHS)
    app = create_app(hg, use_llm=use_llm)
    app.state.service.warm_up()
    serve_asgi(guard(app, settings), settings, what="HTTP API and web app")


__all__ = ["create_app", "run_http_server", "web_app_html"]
