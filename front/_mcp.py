"""An MCP server over a :class:`~hopgraph.Hopgraph`: read-only tools that teach their caller.

Tools: ``legal_retrieve`` (with filters), ``legal_trace``, ``legal_unit`` (a unit's validity
badge and version timeline), ``legal_consolidate`` (paged), ``legal_diff`` (paged),
``legal_coverage``, ``biomed_region``, ``sentences_retrieve`` and ``graph_status``. None writes
to the graph (each carries the ``readOnlyHint`` annotation), none calls an LLM: the client's own
model reasons over the evidence, which comes with ids, citations, validity and provenance; every
evidence tool also returns its items in the shared shape of :class:`hopgraph.core.results.Evidence`
(``evidence``; for ``sentences_retrieve``, whose own ``evidence`` field predates it,
``evidence_items``).

A client can correct its own calls: every parameter has a description and declared bounds (the
CLI's, from :mod:`hopgraph._service`), every output a schema, every refusal reaches the client as
the SDK's ``ToolError`` with its reason in Vietnamese (``doc_id: không có văn bản '12/2017/NĐ-MAU'
trong đồ thị …; có phải ý bạn là 12/2016/NĐ-MAU?``) rather than a bare "Error executing tool"
(the SDK's own prefix, which stays), and the examples in
the tool descriptions are ids the graph holds. Needs the ``mcp`` package
(``pip install 'hopgraph[mcp]'``).
"""

# No ``from __future__ import annotations`` here: the SDK reads each tool's annotations at
# registration, and the parameter types are built inside build_mcp_server (their descriptions
# name ids of the loaded graph), where a string annotation could not be resolved.
import functools
from collections.abc import Callable
from datetime import date
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Annotated, Any, Protocol, TypeVar, cast

from pydantic import BaseModel, ConfigDict, Field

from hopgraph._service import (
    DEFAULT_K,
    DEFAULT_PAGE_LIMIT,
    K_MAX,
    K_MIN,
    MAX_UNIT_IDS,
    PAGE_LIMIT_MAX,
    Service,
    schema_problem,
    warm_up,
)
from hopgraph.core.citations import citation_id
from hopgraph.core.errors import ConfigError, HopgraphError
from hopgraph.core.questions import MAX_QUESTION_CHARS

if TYPE_CHECKING:
    from hopgraph._front import Hopgraph
    from hopgraph._http_guard import GuardSettings

MCP_TRANSPORTS = ("stdio", "streamable-http")
SERVER_NAME = "hopgraph"
_T = TypeVar("_T")
_F = TypeVar("_F", bound=Callable[..., Any])


class _ToolDecorator(Protocol):
    """What ``MCPServer.tool(...)`` returns (the SDK leaves it untyped): it registers the
    function and gives it back unchanged."""

    def __call__(self, fn: _F, /) -> _F: ...


def server_version() -> str:
    """The installed hopgraph package's version (the MCP server reports it)."""
    try:
        return version("hopgraph")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        from hopgraph import __version__

        return __version__


# --- output schemas (declared fields; extra fields allowed) -----------------------------------


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class EvidenceOut(_Open):
    """One piece of evidence in the shared shape (hopgraph.core.results.Evidence)."""

    domain: str
    id: str = Field(description="graph id: legal unit id, triplet id or sentence id")
    text: str
    role: str
    score: float | None = None
    citation: str | None = Field(None, description="human citation, e.g. 'Khoản 2 Điều 3 "
                                 "Nghị định số 12/2016/NĐ-CP'")
    validity: str | None = Field(None, description="legal only: in_force, "
                                 "in_force_date_unknown or not_in_force at the as-of date")
    validity_note: str | None = None
    provenance: str | None = None
    citation_id: str | None = Field(None, description=(
        "legal only: the stable citation id with its date, e.g. "
        "'vn/nd/2016/12/cp/dieu_3/khoan_2@2024-06-01'; legal_resolve reads it back"))


class ResolvedOut(_Open):
    """The wording a citation id names, in force at its date."""

    citation: str = Field(description="the citation id as given")
    citation_id: str | None = Field(description="the citation id with the date it resolved at")
    as_of: str
    evidence: EvidenceOut


class LegalContextOut(_Open):
    """Legal evidence at a date: items (seeds, successors, references, provenance)."""

    question: str
    as_of: str = Field(description="the date validity was judged at (YYYY-MM-DD)")
    items: list[dict[str, Any]] = Field(description="context items with node_id, citation, "
                                        "role, applicable, validity_note, text, path")
    evidence: list[EvidenceOut]
    reason_if_empty: str | None = None


class UnitOut(_Open):
    """A unit at a date: its badge and every wording with its dates."""

    id: str
    citation: str | None
    document: str
    as_of: str
    state: str = Field(description="in_force, amended, not_yet, date_unknown or repealed")
    badge: str = Field(description="the state in Vietnamese (đang áp dụng, đã được sửa đổi, "
                       "chưa có hiệu lực, ngày hiệu lực chưa xác định, bãi bỏ)")
    text: str = Field(description="the wording in force at as_of (empty when repealed or not "
                      "yet in force)")
    timeline: list[dict[str, Any]] = Field(description="every wording, oldest first: text, "
                                           "valid_from, valid_to, made_by, current")
    fictional: bool


class PageOut(_Open):
    """One page of a longer list: ``total`` items, this page from ``offset``."""

    doc_id: str
    name: str = Field(description="the document's Vietnamese name")
    fictional: bool = Field(description="a shipped fictional sample (id ending in -MAU)")
    total: int
    offset: int
    limit: int
    next_offset: int | None = Field(description="offset of the next page; null on the last")


class ConsolidatedOut(PageOut):
    """A page of a document's units as in force at a date (văn bản hợp nhất)."""

    as_of: str
    notes: list[str]
    changed: int = Field(description="units changed by amendments at the date (whole document)")
    units: list[dict[str, Any]] = Field(description="id, label, level, depth, state, text, mark "
                                        "(the instruction and date that changed it)")


class DiffOut(PageOut):
    """A page of the units whose wording differs between two dates."""

    date_from: str
    date_to: str
    changes: list[dict[str, Any]] = Field(description="id, label ('Khoản 2 Điều 3'), kind "
                                          "(added, removed, changed), before, after, change")


class CoverageOut(_Open):
    """What the graph covers."""

    documents: list[dict[str, Any]] = Field(description="each loaded document: id, name, type, "
                                            "title, issue/effective dates, status, units, "
                                            "change_dates, fictional")
    first_date: str | None
    last_date: str | None
    missing: list[dict[str, Any]] = Field(description="documents named by loaded ones but not "
                                          "loaded: doc_id, relations, named_by")
    fictional_samples: int


class RegionOut(_Open):
    """A biomedical region subgraph."""

    question: str
    triplets: list[dict[str, Any]]
    evidence: list[EvidenceOut]
    reason_if_empty: str | None = Field(None, description="why no triplet was found")


class SentencesOut(_Open):
    """Evidence sentences with their paths."""

    question: str
    sufficient: bool
    evidence_items: list[EvidenceOut]
    evidence: list[dict[str, Any]]
    reason_if_empty: str | None = Field(None, description="why no sentence was found")


class StatusOut(_Open):
    """The Neo4j server behind the tools."""

    version: str | None = None
    edition: str | None = None
    nodes: int | None = None


# --- tools ---------------------------------------------------------------------------------------


def _examples(service: Service) -> tuple[str, str]:
    """A loaded document id and a unit id of it (the most amended document), for the tools'
    descriptions; generic forms when the graph is empty or unreachable."""
    try:
        docs = service.catalogue.documents()
    except HopgraphError:
        docs = {}
    if not docs:
        return "<document number, e.g. 12/2016/NĐ-CP>", "<document>:<path, e.g. D3.K2>"
    doc = max(docs.values(), key=lambda d: (len(d.change_dates), d.units, d.id))
    try:
        changed = service.hg.legal.consolidate(doc.id).changed_units()
    except HopgraphError:
        changed = []
    unit = next((u.id for u in changed if u.level in ("Clause", "Point")),
                changed[0].id if changed else f"{doc.id}:D1")
    return doc.id, unit


def _reasons(fn: Callable[..., _T]) -> Callable[..., _T]:
    """Every anticipated failure reaches the client as a ``ToolError`` carrying its reason."""
    from mcp.server.mcpserver.exceptions import ToolError

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> _T:
        try:
            return fn(*args, **kwargs)
        except HopgraphError as e:
            raise ToolError(str(e)) from e

    return wrapper


def _argument_problems(error: Any) -> str:
    """A pydantic ValidationError of a tool's arguments as one line: ``field: problem`` per
    error, the problem in Vietnamese (:func:`hopgraph._service.schema_problem`), without the
    SDK's model name, input echo and documentation links."""
    parts = []
    for e in error.errors():
        field = ".".join(str(x) for x in e.get("loc", ())) or "arguments"
        parts.append(f"{field}: {schema_problem(e)}")
    return "; ".join(parts)


def _concise_argument_errors(base: type) -> type:
    """``base`` (the SDK's ``MCPServer``) whose refusal of a call's arguments reads as one line
    naming each field and its problem (``question: để trống``)
    instead of pydantic's multi-line report with the model's name and a link."""
    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import ValidationError

    class _Server(base):  # type: ignore[misc]
        async def call_tool(self, name: str, arguments: dict[str, Any],
                            context: Any = None) -> Any:
            try:
                return await super().call_tool(name, arguments, context)
            except ToolError as e:
                if isinstance(e.__cause__, ValidationError):
                    raise ToolError(f"Error executing tool {name}: "
                                    f"{_argument_problems(e.__cause__)}") from e.__cause__
                raise

    return _Server


def build_mcp_server(hg: "Hopgraph") -> Any:
    """The MCP server (``mcp.server.mcpserver.MCPServer``) whose tools query ``hg``.

    Args:
        hg: the front door; its runner and embedders serve every call.

    Raises:
        ConfigError: the ``mcp`` package is not installed.
    """
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.types import ToolAnnotations
    except ImportError as e:
        raise ConfigError("hopgraph mcp needs the mcp package: pip install 'hopgraph[mcp]'") from e

    service = Service(hg)
    doc_ex, unit_ex = _examples(service)
    server_class = _concise_argument_errors(MCPServer)
    citation_ex = (citation_id(unit_ex, date.today()) if ":" in unit_ex and "<" not in unit_ex
                   else "vn/nd/2016/12/cp/dieu_3/khoan_2@2024-06-01")
    server: Any = server_class(
        SERVER_NAME, version=server_version(), log_level="WARNING",
        instructions=("Graph-grounded evidence from a Neo4j graph: Vietnamese regulations with "
                      "validity at a date, biomedical triplets (PrimeKG), sentence graphs. "
                      "Every tool is read-only; cite the ids and citations it returns. Start "
                      "with legal_coverage to see which documents and dates the graph holds. "
                      f"Example document: {doc_ex}; example unit: {unit_ex}. Dates are "
                      "YYYY-MM-DD or dd/mm/yyyy; ids ending in -MAU are fictional samples."),
    )
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False,
                                idempotent_hint=True, open_world_hint=False)

    def tool(**options: Any) -> _ToolDecorator:
        return cast(_ToolDecorator, server.tool(annotations=read_only, **options))

    Question = Annotated[str, Field(min_length=1, max_length=MAX_QUESTION_CHARS, description=(
        f"the question, at most {MAX_QUESTION_CHARS} characters, with at least one word"))]
    AsOf = Annotated[str | None, Field(description=(
        "the date validity is judged at: YYYY-MM-DD or dd/mm/yyyy; today when omitted"))]
    DocId = Annotated[str, Field(min_length=1, max_length=200, description=(
        f"a loaded document's number, e.g. '{doc_ex}' (ND/NĐ and case are normalised; "
        "legal_coverage lists them)"))]
    Offset = Annotated[int, Field(ge=0, description="first item of the page (0-based)")]
    Limit = Annotated[int, Field(ge=1, le=PAGE_LIMIT_MAX, description=(
        f"items per page, 1..{PAGE_LIMIT_MAX}"))]
    Names = Annotated[list[str] | None, Field(description="keep only these (case-insensitive)")]

    @tool(description=(
        "Legal evidence for a (Vietnamese) question at a date: seed provisions, the wording in "
        "force after amendments, references and provenance, each with its citation and "
        "validity note. Filters apply to the candidates before fusion."))
    @_reasons
    def legal_retrieve(
        question: Question, as_of: AsOf = None,
        k: Annotated[int, Field(ge=K_MIN, le=K_MAX, description=(
            f"seed provisions to retrieve, {K_MIN}..{K_MAX}"))] = DEFAULT_K,
        doc_types: Annotated[list[str] | None, Field(description=(
            "keep documents of these types, e.g. ['Nghị định', 'Luật']"))] = None,
        issuers: Names = None,
        doc_ids: Annotated[list[str] | None, Field(description=(
            f"keep these documents, e.g. ['{doc_ex}']"))] = None,
    ) -> LegalContextOut:
        return LegalContextOut.model_validate(service.legal_retrieve(
            question, as_of, k, doc_types, issuers, doc_ids))

    @tool(description=(
        "Validity at a date of given provisions: the wording in force, what amended or "
        "repealed them, references and provenance."))
    @_reasons
    def legal_trace(
        unit_ids: Annotated[list[str], Field(min_length=1, max_length=MAX_UNIT_IDS, description=(
            f"1..{MAX_UNIT_IDS} unit ids (<document>:<path>), e.g. ['{unit_ex}']"))],
        as_of: AsOf = None,
    ) -> LegalContextOut:
        return LegalContextOut.model_validate(service.legal_trace(unit_ids, as_of))

    @tool(description=(
        "One provision at a date: its validity badge (in force, amended, not yet in force, "
        "start date unknown, repealed), the wording in force and its version timeline (each "
        "wording, its dates and the instruction that made it)."))
    @_reasons
    def legal_unit(
        unit_id: Annotated[str, Field(min_length=1, max_length=200, description=(
            f"a unit id (<document>:<path>), e.g. '{unit_ex}'"))],
        as_of: AsOf = None,
    ) -> UnitOut:
        return UnitOut.model_validate(service.legal_unit(unit_id, as_of))

    @tool(description=(
        "The wording a citation id names: the citation_id every legal evidence item carries "
        "(vn/<type>/<year>/<number>[/<issuer>]/<unit path>@YYYY-MM-DD, e.g. "
        f"'{citation_ex}'); the date picks the wording in force then."))
    @_reasons
    def legal_resolve(
        citation: Annotated[str, Field(min_length=1, max_length=300, description=(
            f"a citation id, e.g. '{citation_ex}'"))],
        as_of: Annotated[str | None, Field(description=(
            "the date when the citation id has none: YYYY-MM-DD or dd/mm/yyyy; today when "
            "omitted"))] = None,
    ) -> ResolvedOut:
        return ResolvedOut.model_validate(service.legal_resolve(citation, as_of))

    @tool(description=(
        "A document as in force at a date (văn bản hợp nhất), one page of units at a time: "
        "each unit in its wording that day, changed units marked with the instruction and "
        "date that changed them; total and next_offset say how to read on."))
    @_reasons
    def legal_consolidate(doc_id: DocId, as_of: AsOf = None, offset: Offset = 0,
                          limit: Limit = DEFAULT_PAGE_LIMIT) -> ConsolidatedOut:
        return ConsolidatedOut.model_validate(
            service.legal_consolidate(doc_id, as_of, offset, limit))

    @tool(description=(
        "What changed in a document between two dates, unit by unit (added, removed, changed "
        "wording, with the instruction that changed it), paged."))
    @_reasons
    def legal_diff(
        doc_id: DocId,
        date_from: Annotated[str, Field(description="the earlier date, YYYY-MM-DD or dd/mm/yyyy")],
        date_to: Annotated[str, Field(description="the later date, YYYY-MM-DD or dd/mm/yyyy")],
        offset: Offset = 0, limit: Limit = DEFAULT_PAGE_LIMIT,
    ) -> DiffOut:
        return DiffOut.model_validate(
            service.legal_diff(doc_id, date_from, date_to, offset, limit))

    @tool(description=(
        "What the regulations graph covers: every loaded document (type, title, dates, status, "
        "unit count, the dates its wordings change), the overall date range, and documents "
        "that loaded ones name but that are not loaded. Call it first."))
    @_reasons
    def legal_coverage() -> CoverageOut:
        return CoverageOut.model_validate(service.legal_coverage())

    @tool(description=(
        "The biomedical region subgraph of an English question: the triplets (head, relation, "
        "tail) around the entities it names, weighted by the question's domain and chosen by "
        "weighted MMR."))
    @_reasons
    def biomed_region(question: Question) -> RegionOut:
        return RegionOut.model_validate(service.biomed_region(question))

    @tool(description=(
        "Evidence sentences for an open-domain multi-hop question from the sentence graph, "
        "each with the path of rhetorical and bridge relations that reached it."))
    @_reasons
    def sentences_retrieve(question: Question) -> SentencesOut:
        return SentencesOut.model_validate(service.sentences_retrieve(question))

    @tool(description="The Neo4j server behind the tools: version, edition, APOC / GDS, node "
                      "count.")
    @_reasons
    def graph_status() -> StatusOut:
        return StatusOut.model_validate(service.status())

    return server


def run_mcp_server(hg: "Hopgraph", transport: str = "stdio", *, host: str = "127.0.0.1",
                   port: int = 8000, token: str | None = None) -> None:
    """Serve ``hg`` over ``stdio`` or ``streamable-http`` until the client goes away.

    On streamable HTTP the same guard as ``hopgraph serve`` applies
    (:func:`hopgraph._http_guard.guard`): loopback by default; any other host needs ``token``
    (``HOPGRAPH_API_TOKEN``), which every request must carry as a bearer token; Host and Origin
    headers are checked.

    Raises:
        ConfigError: an unknown transport, a non-loopback host without a token, or the ``mcp``
            package is missing.
    """
    if transport not in MCP_TRANSPORTS:
        raise ConfigError(f"MCP transport must be one of {MCP_TRANSPORTS}, got {transport!r}")
    if transport == "stdio":
        build_mcp_server(hg).run("stdio")
        return
    from hopgraph._http_guard import GuardSettings, serve_asgi

    settings = GuardSettings.for_host(host, port, token)
    app = mcp_http_app(hg, settings)
    warm_up(hg)  # connection, embedder and segmenter before concurrent first calls race for them
    serve_asgi(app, settings, what="MCP (streamable HTTP) at /mcp")


def mcp_http_app(hg: "Hopgraph", settings: "GuardSettings") -> Any:
    """The ASGI app of the MCP server on streamable HTTP (path ``/mcp``) behind hopgraph's
    guard (Host, Origin, token; :func:`hopgraph._http_guard.guard`).

    Raises:
        ConfigError: the ``mcp`` package is missing.
    """
    server = build_mcp_server(hg)  # ConfigError without the mcp package
    from mcp.server.transport_security import TransportSecuritySettings

    from hopgraph._http_guard import guard

    # hopgraph's guard checks Host, Origin and the token; the SDK's own check is off.
    # Replies as one JSON body rather than an SSE stream per call (the spec allows either):
    # the tools are read-only and send no progress or log messages within a call, and an SSE
    # reply costs a task group, a writer task and a stream per call in the server and an SSE
    # parser in the client; with 8 concurrent clients on 2 cores the SSE replies had ~1.4x the
    # JSON replies' client CPU per call and half their throughput (serve_concurrency.md).
    app = server.streamable_http_app(
        host=settings.host, json_response=True, transport_security=TransportSecuritySettings(
            enable_dns_rebinding_protection=False))
    return guard(app, settings)
