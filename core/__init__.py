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
    from hopgraph._front import Hopgraph
    from hopgraph.settings import Settings

__version__ = "0.1.0"
__all__ = ["Hopgraph", "Settings", "__version__"]


def __getattr__(name: str) -> Any:
    # Lazy: importing the front door pulls in the agents and loaders, which import this package.
    if name == "Hopgraph":
        from hopgraph._front import Hopgraph

        return Hopgraph
    if name == "Settings":
        from hopgraph.settings import Settings

        return Settings
    raise AttributeError(f"module 'hopgraph' has no attribute {name!r}")
