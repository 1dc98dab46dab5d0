"""LangChain interoperability: hopgraph's evidence as a LangChain retriever (extra ``langchain``).

:class:`HopgraphRetriever` is a ``langchain_core.retrievers.BaseRetriever`` built on a
:class:`~hopgraph.Hopgraph`: ``invoke(question)`` returns one ``Document`` per
:class:`~hopgraph.core.results.Evidence` item, in the shared shape the neo4j-graphrag retrievers
(:mod:`hopgraph.integrations.graphrag`), the MCP tools and the HTTP API give: ``page_content`` is
the evidence block (``[id] citation (validity note)`` and the text: a chain's LLM can cite the id
and sees whether a wording holds), ``metadata`` the evidence's other fields (``id``, ``role``,
``score``, ``citation``, ``citation_id``, ``validity``, ``validity_note``, ``provenance``).

- ``domain="legal"`` (default): ``hg.legal.retrieve`` with validity traced at ``as_of``;
  ``applicable_only`` keeps only the wordings in force then;
- ``domain="biomed"``: ``hg.biomed.region`` (region triplets; no LLM call);
- ``domain="sentences"``: ``hg.sentences.retrieve`` (anchors and path expansion).

Example::

    from hopgraph import Hopgraph
    from hopgraph.integrations.langchain import HopgraphRetriever

    with Hopgraph.from_env(use_llm=False) as hg:
        retriever = HopgraphRetriever(hg=hg, as_of="2024-06-01", k=3)
        for doc in retriever.invoke("Mức hưởng bảo hiểm y tế khi khám trái tuyến?"):
            print(doc.metadata["citation_id"], doc.metadata["validity"])

A bad question or date raises hopgraph's :class:`~hopgraph.core.errors.RetrievalError` (one
line naming the problem), as the front door does.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any, Literal

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict

from hopgraph.core.results import Evidence

__all__ = ["HopgraphRetriever", "to_document"]


def to_document(evidence: Evidence) -> Document:
    """One evidence item as a LangChain ``Document``: the evidence block as ``page_content``,
    every other field (the empty ones left out) as ``metadata``."""
    return Document(page_content=evidence.render(), metadata=evidence.metadata())


class HopgraphRetriever(BaseRetriever):
    """hopgraph's evidence for a question, as LangChain documents (see the module).

    Attributes:
        hg: the front door (a :class:`~hopgraph.Hopgraph`) whose graph and embedders serve it.
        domain: ``legal``, ``biomed`` or ``sentences``.
        k: legal seeds searched, biomedical triplets kept, or most evidence sentences.
        as_of: legal only: the date validity is judged at (today when None).
        applicable_only: legal only: keep only the wordings in force at the date.
        filters: legal only: ``doc_types``, ``issuers``, ``doc_ids`` (applied before fusion).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    hg: Any
    domain: Literal["legal", "biomed", "sentences"] = "legal"
    k: int = 5
    as_of: date | str | None = None
    applicable_only: bool = False
    filters: dict[str, list[str]] | None = None

    def evidence(self, query: str) -> list[Evidence]:
        """The evidence items of ``query``, best first (what :meth:`invoke` converts)."""
        if self.domain == "legal":
            ctx = self.hg.legal.retrieve(query, k=self.k, as_of=self.as_of, filters=self.filters)
            return [item.to_evidence(ctx.as_of) for item in ctx.items
                    if item.applicable or not self.applicable_only]
        if self.domain == "biomed":
            from hopgraph.agents.biomed import RegramConfig, region_evidence

            region = self.hg.biomed.region(query, config=replace(RegramConfig(), k=self.k))
            return list(region_evidence(region))
        from hopgraph.agents.sentences import SentenceRetrievalConfig

        config = replace(SentenceRetrievalConfig(), max_evidence=self.k)
        return list(self.hg.sentences.retrieve(query, config=config).to_evidence())

    def _get_relevant_documents(self, query: str, *,
                                run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return [to_document(ev) for ev in self.evidence(query)]
