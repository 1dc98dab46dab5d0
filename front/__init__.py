"""hopgraph: graph-grounded multi-hop question answering on Neo4j.

The front door is :class:`Hopgraph`::

    from hopgraph import Hopgraph

    with Hopgraph.from_env() as hg:            # NEO4J_URI, NEO4J_PASSWORD, HOPGRAPH_* ...
        hg.load.legal(["regulations/"])        # schema first, then the documents
        ctx = hg.legal.retrieve("Mức hưởng bảo hiểm y tế?", as_of="2024-06-01")
        print(hg.legal.ask("Mức hưởng bảo hiểm y tế?").text)
        print(hg.biomed.ask("Which drug targets ABL1?").answer)
        print(hg.sentences.retrieve("Who designed the Analytical Engine?").evidence)

``import hopgraph`` stays light: :class:`Hopgraph` and :class:`Settings` are imported on first
use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hopgraph._front import Hopgraph, embedder_from_settings
    from hopgraph._http import create_app, run_http_server
    from hopgraph._http_guard import GuardSettings
    from hopgraph._mcp import MCP_TRANSPORTS, build_mcp_server, run_mcp_server
    from hopgraph._service import RequestError, Service, check_date, serving_hopgraph
    from hopgraph.agents.biomed import BioAnswer
    from hopgraph.agents.legal import Answer
    from hopgraph.agents.sentences import SentenceAnswer, SentenceRetrieval
    from hopgraph.core.results import Evidence, Validity
    from hopgraph.core.settings import Settings
    from hopgraph.retrieval import LegalContext

__version__ = "0.1.0"
__all__ = [
    "MCP_TRANSPORTS", "Answer", "BioAnswer", "Evidence", "GuardSettings", "Hopgraph",
    "LegalContext", "RequestError", "SentenceAnswer", "SentenceRetrieval", "Service", "Settings",
    "Validity", "__version__", "build_mcp_server", "check_date", "create_app",
    "embedder_from_settings",
    "run_http_server", "run_mcp_server", "serving_hopgraph",
]
# Imported on first use: the typed results of the front door, the shared evidence shape and the
# MCP server.
_RESULTS = {"Evidence": "hopgraph.core.results", "Validity": "hopgraph.core.results",
            "LegalContext": "hopgraph.retrieval", "Answer": "hopgraph.agents.legal",
            "BioAnswer": "hopgraph.agents.biomed", "SentenceRetrieval": "hopgraph.agents.sentences",
            "SentenceAnswer": "hopgraph.agents.sentences",
            # the MCP server over a Hopgraph (``hopgraph mcp``)
            "MCP_TRANSPORTS": "hopgraph._mcp", "build_mcp_server": "hopgraph._mcp",
            "run_mcp_server": "hopgraph._mcp",
            # the HTTP API and web app (``hopgraph serve``), its guard, the shared checks
            "create_app": "hopgraph._http", "run_http_server": "hopgraph._http",
            "GuardSettings": "hopgraph._http_guard", "RequestError": "hopgraph._service",
            "Service": "hopgraph._service", "serving_hopgraph": "hopgraph._service",
            "check_date": "hopgraph._service"}


def __getattr__(name: str) -> Any:
    # Lazy: importing the front door pulls in the agents and loaders, which import this package.
    if name == "Hopgraph":
        from hopgraph._front import Hopgraph

        return Hopgraph
    if name == "embedder_from_settings":  # the one builder of embedders from settings (the CLI's)
        from hopgraph._front import embedder_from_settings

        return embedder_from_settings
    if name == "Settings":
        from hopgraph.core.settings import Settings

        return Settings
    if name in _RESULTS:
        import importlib

        return getattr(importlib.import_module(_RESULTS[name]), name)
    raise AttributeError(f"module 'hopgraph' has no attribute {name!r}")
