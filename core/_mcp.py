"""An MCP server over a :class:`~hopgraph.Hopgraph`: read-only tools any MCP client can call.

Tools: ``legal_retrieve``, ``legal_trace``, ``legal_consolidate``, ``biomed_region``,
``sentences_retrieve`` and ``graph_status``. None writes to the graph (each carries the
``readOnlyHint`` annotation), none calls an LLM: the client's own model reasons over the
evidence, which comes with ids, citations, validity and provenance; every evidence tool also
returns its items in the shared shape of :class:`hopgraph.results.Evidence` (``evidence``; for
``sentences_retrieve``, whose own ``evidence`` field predates it, ``evidence_items``). Needs the ``mcp`` package
(``pip install 'hopgraph[mcp]'``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hopgraph.errors import ConfigError
from hopgraph.questions import validate_question

if TYPE_CHECKING:
    from hopgraph._front import Hopgraph
    from hopgraph.results import Evidence

MCP_TRANSPORTS = ("stdio", "streamable-http")
SERVER_NAME = "hopgraph"


def build_mcp_server(hg: Hopgraph) -> Any:
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

    server: Any = MCPServer(
        SERVER_NAME,
        instructions=("Graph-grounded evidence from a Neo4j graph: Vietnamese regulations with "
                      "validity at a date, biomedical triplets (PrimeKG), sentence graphs. "
                      "Every tool is read-only; cite the ids and citations it returns."),
    )
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False,
                                idempotent_hint=True, open_world_hint=False)

    @server.tool(annotations=read_only)
    def legal_retrieve(question: str, as_of: str | None = None, k: int = 5) -> dict[str, Any]:
        """Legal evidence for a (Vietnamese) question at a date (YYYY-MM-DD, default today):
        seed provisions, the wording in force after amendments, references and provenance,
        each with its citation and validity note."""
        if not 1 <= k <= 50:
            raise ValueError(f"k must be between 1 and 50, got {k}")
        context = hg.legal.retrieve(validate_question(question), as_of=as_of, k=k)
        return {**context.to_dict(), "evidence": _evidence(context.to_evidence())}

    @server.tool(annotations=read_only)
    def legal_trace(unit_ids: list[str], as_of: str | None = None) -> dict[str, Any]:
        """Validity at a date of given provisions (ids like '15/2023/QH15:D5.K2.a'): the
        wording in force, what amended or repealed them, references and provenance."""
        if not unit_ids or len(unit_ids) > 50:
            raise ValueError("give between 1 and 50 unit ids")
        context = hg.legal.trace(unit_ids, as_of=as_of)
        return {**context.to_dict(), "evidence": _evidence(context.to_evidence())}

    @server.tool(annotations=read_only)
    def legal_consolidate(doc_id: str, as_of: str | None = None) -> dict[str, Any]:
        """A document (by number, e.g. '12/2016/NĐ-CP') as in force at a date: every unit in its
        wording that day, changed units marked with the instruction and date that changed them."""
        if not doc_id.strip():
            raise ValueError("doc_id is empty")
        return hg.legal.consolidate(doc_id.strip(), as_of).to_dict()

    @server.tool(annotations=read_only)
    def biomed_region(question: str) -> dict[str, Any]:
        """The biomedical region subgraph of an English question: the triplets (head, relation,
        tail) around the entities it names, weighted by the question's domain and chosen by
        weighted MMR."""
        from hopgraph.agents.biomed import region_evidence

        region = hg.biomed.region(validate_question(question))
        return {"question": region.question, "candidates": region.candidates,
                "evidence": _evidence(region_evidence(region)),
                "triplets": [{"head": t.head, "relation": t.relation, "tail": t.tail,
                              "head_id": t.head_id, "tail_id": t.tail_id, "weight": t.weight,
                              "score": round(t.mmr, 4), "text": t.text()}
                             for t in region.triplets]}

    @server.tool(annotations=read_only)
    def sentences_retrieve(question: str) -> dict[str, Any]:
        """Evidence sentences for an open-domain multi-hop question from the sentence graph,
        each with the path of rhetorical and bridge relations that reached it."""
        r = hg.sentences.retrieve(validate_question(question))
        return {"question": question, "sufficient": r.sufficient,
                "evidence_items": _evidence(r.to_evidence()),
                "evidence": [{"id": e.id, "text": e.text, "score": round(e.score, 4),
                              "path": list(e.path), "relations": list(e.relations)}
                             for e in r.evidence]}

    @server.tool(annotations=read_only)
    def graph_status() -> dict[str, Any]:
        """The Neo4j server behind the tools: version, edition, APOC / GDS, node count."""
        return hg.status()

    return server


def _evidence(items: Sequence[Evidence]) -> list[dict[str, Any]]:
    """Evidence in the shared shape (:class:`hopgraph.results.Evidence`), beside each tool's own
    fields, so a client reads every domain the same way."""
    return [e.to_dict() for e in items]


def run_mcp_server(hg: Hopgraph, transport: str = "stdio", *, host: str = "127.0.0.1",
                   port: int = 8000) -> None:
    """Serve ``hg`` over ``stdio`` or ``streamable-http`` until the client goes away.

    Raises:
        ConfigError: an unknown transport, or the ``mcp`` package is missing.
    """
    if transport not in MCP_TRANSPORTS:
        raise ConfigError(f"MCP transport must be one of {MCP_TRANSPORTS}, got {transport!r}")
    server = build_mcp_server(hg)
    if transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host=host, port=port)
