"""Bridges to other GraphRAG libraries (optional extras; each module imports its library).

- :mod:`hopgraph.integrations.graphrag`: neo4j-graphrag (``pip install 'hopgraph[graphrag]'``):
  hopgraph's retrievers as ``neo4j_graphrag`` retrievers for ``GraphRAG``, and adapters between
  the two libraries' embedders and LLMs.
- :mod:`hopgraph.integrations.langchain`: LangChain (``pip install 'hopgraph[langchain]'``):
  :class:`~hopgraph.integrations.langchain.HopgraphRetriever`, hopgraph's evidence as a LangChain
  retriever.

Nothing is imported here, so ``import hopgraph.integrations`` needs no extra.
"""
