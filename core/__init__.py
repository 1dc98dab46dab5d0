"""hopgraph: graph-grounded multi-hop question answering on Neo4j."""

__version__ = "0.1.0"
