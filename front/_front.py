"""The front door: :class:`Hopgraph` assembles the runner, the embedders and the chat model once.

Everything else in hopgraph *receives* these collaborators; this module is the one place (with
the CLI, which builds on it) that constructs them from :class:`~hopgraph.core.settings.Settings`, or
takes injected ones, as graphdatascience's ``GraphDataScience(endpoint | driver | runner)`` does.
Heavy parts (the driver, the embedding models, the LLM client) are built on first use, so a
question that fails validation never opens a connection, and a legal-only session never loads
the English model.

Example::

    from hopgraph import Hopgraph

    with Hopgraph.from_env() as hg:                      # NEO4J_URI / NEO4J_PASSWORD / ...
        ctx = hg.legal.retrieve("Mức hưởng bảo hiểm y tế?", as_of="2024-06-01", k=5)
        answer = hg.legal.ask("Mức hưởng bảo hiểm y tế?", as_of="2024-06-01")
        print(hg.legal.consolidate("12/2016/NĐ-MAU", "2024-06-01").render())
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal

import neo4j

from hopgraph.core.errors import ConfigError
from hopgraph.core.settings import EmbedderSettings, Settings
from hopgraph.db import Neo4jRunner, QueryRunner, connect

if TYPE_CHECKING:
    from neo4j_graphrag.embeddings.base import Embedder as GraphragEmbedder
    from neo4j_graphrag.llm.base import LLMInterface, LLMInterfaceV2

    from hopgraph.agents.biomed import BioAnswer, Regram, RegramConfig
    from hopgraph.agents.legal import Answer, LegalQA, QAOptions
    from hopgraph.agents.sentences import (
        SentenceAnswer,
        SentenceReasoner,
        SentenceRetrieval,
        SentenceRetrievalConfig,
    )
    from hopgraph.core.ports import ChatModel, Embedder
    from hopgraph.core.results import Evidence
    from hopgraph.db import Connection
    from hopgraph.loaders.legal import LoadReport
    from hopgraph.retrieval import (
        ConsolidatedDocument,
        LegalContext,
        LegalRetriever,
        Region,
        RetrievalConfig,
        RetrievalFilters,
    )

EmbedderRole = Literal["legal", "english"]


def embedder_from_settings(settings: Settings, role: EmbedderRole) -> Embedder:
    """The embedder the settings name for ``role``: the only place one is built from settings.

    The passage-vector cache and the ONNX exports both live under the settings' hopgraph home
    (``HOPGRAPH_HOME``), never under a default computed elsewhere.

    Args:
        settings: the settings the entry point built.
        role: ``legal`` (Vietnamese text) or ``english`` (biomedical, sentence graphs).

    Raises:
        EmbeddingError: the model cannot be loaded offline, or the endpoint is misconfigured.
    """
    from hopgraph.models import build_embedder

    emb: EmbedderSettings = settings.embedder
    model = emb.legal_model if role == "legal" else emb.english_model
    return build_embedder(model, emb.cache_dir, onnx_dir=emb.onnx_dir or settings.runtime.home / "onnx",
                          endpoint=emb.endpoint, threads=emb.threads, precision=emb.precision,
                          e5_bulk=emb.e5_bulk, bulk_threads=emb.bulk_threads)


def _port(given: Any, kind: Literal["embedder", "chat"]) -> Any:
    """hopgraph's port for an injected embedder or chat model: neo4j-graphrag's are wrapped.

    The adapters' module is imported only when neo4j-graphrag already is: only then can
    ``given`` be one of its objects, and without the extra nothing needs it.
    """
    if "neo4j_graphrag" not in sys.modules:
        return given
    from hopgraph.integrations.graphrag import as_chat_model, as_embedder

    return as_embedder(given) if kind == "embedder" else as_chat_model(given)


class Hopgraph:
    """One entry object for the three kinds of knowledge: legal, biomedical, sentence graphs.

    Args:
        endpoint: a Bolt URI, an open ``neo4j.Driver``, or any :class:`~hopgraph.db.QueryRunner`;
            None uses ``settings`` (``NEO4J_URI`` or the local runtime hopgraph started).
        settings: everything configurable; when omitted, read from the environment
            (``NEO4J_*``, ``HOPGRAPH_*``, ``OPENAI_*``) as the CLI and :meth:`from_env` do.
        auth: ``(user, password)`` for a URI endpoint; the settings' when omitted.
        database: the database to query; the settings' when omitted.
        legal_embedder: an embedder to use for legal text instead of the configured one; a
            neo4j-graphrag ``Embedder`` is wrapped (``hopgraph.integrations.graphrag``).
        english_embedder: an embedder to use for English text instead of the configured one
            (a neo4j-graphrag one is wrapped likewise).
        chat: a chat model to use instead of the configured endpoint; a neo4j-graphrag
            ``LLMInterface`` / ``LLMInterfaceV2`` is wrapped likewise.
        use_llm: False never builds a chat model (retrieval-only answers).
        tracer_provider: an OpenTelemetry ``TracerProvider``: spans around each embedding,
            Cypher call and LLM call go to it (:mod:`hopgraph._tracing`). Without one, spans
            are made only when a global provider is set or ``HOPGRAPH_OTEL=1``.

    Only what this object opened (the driver, the LLM client) is closed by :meth:`close`;
    injected drivers, runners and chat models stay open.

    Example::

        with Hopgraph.from_env() as hg:
            for item in hg.legal.retrieve("Thế nào là khám chữa bệnh?", k=3).items:
                print(item.citation, item.validity_note)
    """

    def __init__(self, endpoint: str | neo4j.Driver | QueryRunner | None = None, *,
                 settings: Settings | None = None, auth: tuple[str, str] | None = None,
                 database: str | None = None,
                 legal_embedder: Embedder | GraphragEmbedder | None = None,
                 english_embedder: Embedder | GraphragEmbedder | None = None,
                 chat: ChatModel | LLMInterface | LLMInterfaceV2 | None = None,
                 use_llm: bool = True, tracer_provider: Any = None) -> None:
        from hopgraph._tracing import tracer_for

        self.settings = settings if settings is not None else Settings.from_env()
        self._tracer = tracer_for(tracer_provider)
        self._endpoint = endpoint
        self._auth = auth
        self._database = database or self.settings.neo4j.database
        self._runner: QueryRunner | None = None
        self._driver_opened: neo4j.Driver | None = None
        self._connection: Connection | None = None
        self._embedders: dict[str, Embedder] = {}
        if legal_embedder is not None:
            self._embedders["legal"] = self._traced(_port(legal_embedder, "embedder"))
        if english_embedder is not None:
            self._embedders["english"] = self._traced(_port(english_embedder, "embedder"))
        self._chat: ChatModel | None = None if chat is None else self._traced_chat(
            _port(chat, "chat"))
        self._chat_opened: Any = None
        self._chat_built = chat is not None or not use_llm
        self._closed = False
        if endpoint is not None and not isinstance(endpoint, str | neo4j.Driver) \
                and not callable(getattr(endpoint, "read", None)):
            raise ConfigError(f"Hopgraph endpoint must be a URI, a neo4j.Driver or a query runner,"
                              f" got {type(endpoint).__name__}")
        self.legal = LegalAPI(self)
        self.biomed = BiomedAPI(self)
        self.sentences = SentencesAPI(self)
        self.load = LoadAPI(self)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **kwargs: Any) -> Hopgraph:
        """Build from ``NEO4J_*`` / ``HOPGRAPH_*`` variables (``os.environ`` when ``env`` is None).

        Raises:
            ConfigError: a variable does not parse.
        """
        return cls(settings=Settings.from_env(env), **kwargs)

    # -- collaborators ------------------------------------------------------------------------
    @property
    def runner(self) -> QueryRunner:
        """The query runner; connects on first use.

        Raises:
            DatabaseError: the server cannot be reached or refuses the credentials.
        """
        self._check_open()
        if self._runner is None:
            self._runner = self._open_runner()
        return self._runner

    @property
    def connection(self) -> Connection | None:
        """The resolved server (kind, URI) when the settings chose it; None for an injected
        endpoint."""
        _ = self.runner
        return self._connection

    @property
    def driver(self) -> neo4j.Driver:
        """The driver under the runner (for admin work: schema install, server status).

        Raises:
            ConfigError: the injected runner has no driver.
        """
        driver = getattr(self.runner, "driver", None)
        if not isinstance(driver, neo4j.Driver):
            raise ConfigError("the injected query runner has no neo4j driver")
        return driver

    @property
    def database(self) -> str:
        """The database every query runs in."""
        return str(getattr(self.runner, "database", self._database))

    def embedder(self, role: EmbedderRole) -> Embedder:
        """The embedder for ``legal`` or ``english`` text; built on first use."""
        self._check_open()
        if role not in ("legal", "english"):
            raise ConfigError(f"embedder role must be 'legal' or 'english', got {role!r}")
        if role not in self._embedders:
            self._embedders[role] = self._traced(embedder_from_settings(self.settings, role))
        return self._embedders[role]

    def _traced(self, embedder: Embedder) -> Embedder:
        if self._tracer is None:
            return embedder
        from hopgraph._tracing import TracedEmbedder

        return TracedEmbedder(embedder, self._tracer)

    def _traced_chat(self, chat: ChatModel | None) -> ChatModel | None:
        if self._tracer is None or chat is None:
            return chat
        from hopgraph._tracing import TracedChat

        return TracedChat(chat, self._tracer)

    @property
    def chat(self) -> ChatModel | None:
        """The chat model, or None when no endpoint is configured (retrieval-only answers)."""
        self._check_open()
        if not self._chat_built:
            from hopgraph.models import chat_model_from

            self._chat_opened = chat_model_from(self.settings.llm)
            self._chat = self._traced_chat(self._chat_opened)
            self._chat_built = True
        return self._chat

    def install_schema(self) -> list[str]:
        """Create constraints and indexes (idempotent); return the names created."""
        from hopgraph.db import install_schema

        return install_schema(self.driver, self.database, dimension=self.settings.embedder.dimension)

    def status(self) -> dict[str, Any]:
        """Server version, edition, APOC / GDS versions and node count."""
        from hopgraph.db import server_status

        info = server_status(self.driver, self.database)
        conn = self.connection
        if conn is not None:
            info = {"server": conn.kind, "uri": conn.uri, **info}
        return info

    # -- lifetime -----------------------------------------------------------------------------
    def close(self) -> None:
        """Close the driver and the LLM client this object opened (idempotent)."""
        self._closed = True
        if self._chat_opened is not None:
            self._chat_opened.close()
            self._chat_opened = None
        if self._driver_opened is not None:
            self._driver_opened.close()
            self._driver_opened = None

    def __enter__(self) -> Hopgraph:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise ConfigError("this Hopgraph is closed")

    def _open_runner(self) -> QueryRunner:
        runner = self._untraced_runner()
        if self._tracer is None:
            return runner
        from hopgraph._tracing import TracedNeo4jRunner, TracedRunner

        if type(runner) is Neo4jRunner:
            return TracedNeo4jRunner(runner.driver, database=runner.database,
                                     timeout_s=runner.timeout_s, tracer=self._tracer)
        return TracedRunner(runner, self._tracer)

    def _untraced_runner(self) -> QueryRunner:
        timeout = self.settings.neo4j.query_timeout_s
        endpoint = self._endpoint
        if endpoint is None:
            from hopgraph.db import resolve_connection

            self._connection = resolve_connection(self.settings)
            self._driver_opened = self._connection.driver()
            return Neo4jRunner(self._driver_opened, database=self._connection.database,
                               timeout_s=timeout)
        if isinstance(endpoint, str):
            user, password = self._auth or (self.settings.neo4j.user, self.settings.neo4j.password)
            self._driver_opened = connect(endpoint, user, password,
                                          timeout_s=self.settings.neo4j.connect_timeout_s)
            return Neo4jRunner(self._driver_opened, database=self._database, timeout_s=timeout)
        if isinstance(endpoint, neo4j.Driver):
            return Neo4jRunner(endpoint, database=self._database, timeout_s=timeout)
        return endpoint


class LegalAPI:
    """Regulations: retrieval with validity tracing, QA with citations, consolidated wording."""

    def __init__(self, hg: Hopgraph) -> None:
        self._hg = hg

    def retriever(self, config: RetrievalConfig | None = None) -> LegalRetriever:
        """A :class:`~hopgraph.retrieval.LegalRetriever` over this graph."""
        from hopgraph.retrieval import LegalRetriever

        return LegalRetriever(self._hg.runner, self._hg.embedder("legal"), config=config)

    def qa(self, options: QAOptions | None = None) -> LegalQA:
        """A :class:`~hopgraph.agents.legal.LegalQA` with this object's runner, embedder, LLM."""
        from hopgraph.agents.legal import LegalQA

        return LegalQA(self._hg.runner, self._hg.embedder("legal"), self._hg.chat, options=options)

    def retrieve(self, question: str, *, k: int = 5, as_of: date | str | None = None,
                 filters: RetrievalFilters | Mapping[str, Any] | None = None,
                 config: RetrievalConfig | None = None) -> LegalContext:
        """The legally valid context of ``question`` at ``as_of`` (today by default): seeds,
        the wordings in force, references and provenance. See ``LegalRetriever.retrieve``."""
        return self.retriever(config).retrieve(question, k=k, as_of=as_of, filters=filters)

    def document_ids(self) -> list[str]:
        """The ids of the loaded legal documents."""
        return [str(r["id"]) for r in self._hg.runner.read("legal/list_document_ids")]

    def resolve_document(self, doc_id: str) -> str:
        """The loaded document id ``doc_id`` names, read as a user types it (``12/2016/nd-mau``,
        ``ND`` for ``NĐ``, spaces): :func:`hopgraph.core.questions.resolve_document_id`.

        Raises:
            InputError: no such document, with the closest loaded ids (``có phải ý bạn là …?``).
        """
        from hopgraph.core.questions import resolve_document_id

        return resolve_document_id(doc_id, self.document_ids())

    def trace(self, unit_ids: Sequence[str] | str, *,
              as_of: date | str | None = None) -> LegalContext:
        """Validity, references and provenance of given units (no search). One id may be
        given as a string; each id is read as typed (document part normalised, ``có phải ý
        bạn là …?`` for a document that is not loaded).

        Raises:
            InputError: an id is malformed or names a document that is not loaded.
        """
        from hopgraph.core.questions import resolve_unit_id

        ids = [unit_ids] if isinstance(unit_ids, str) else list(unit_ids)
        loaded = self.document_ids()
        resolved = [resolve_unit_id(u, loaded, f"unit_ids[{i}]") for i, u in enumerate(ids)]
        return self.retriever().trace(resolved, as_of=as_of)

    def resolve(self, citation: str, *, today: date | None = None) -> Evidence:
        """The wording a citation id names (``vn/nd/2016/12/cp/dieu_3/khoan_2@2024-06-01``, the
        ``citation_id`` every legal evidence item carries; scheme in
        :mod:`hopgraph.core.citations`): the wording of that unit in force at its date (today
        without one), as evidence whose ``citation_id`` is the citation again (with the date).
        A unit with no wording in force at the date comes back as it stands, not in force, its
        note saying why.

        Raises:
            InputError: not a citation id, its document is not loaded (``có phải ý bạn là …?``), or
                its unit is not in the graph.
        """
        from hopgraph.core.citations import parse_citation_id
        from hopgraph.core.questions import InputError

        ref = parse_citation_id(citation)
        doc = resolve_document_id_of(self, ref.document)
        if not ref.path:
            raise InputError("citation", f"{citation!r} chỉ ra văn bản {doc} nhưng không chỉ ra "
                             "điều khoản nào trong đó (thêm, ví dụ, /dieu_1)")
        unit = ref.unit_id(doc)
        day = ref.day or today or date.today()
        ctx = self.retriever().trace([unit], as_of=day)
        mine = [it for it in ctx.items if it.node_id.split("@", 1)[0] == unit
                and it.role in ("seed", "successor")]
        if not mine:
            raise InputError("citation", f"không có điều khoản {unit} trong đồ thị (văn bản của "
                             "nó đã được nạp; hãy kiểm tra vị trí điều khoản)")
        chosen = next((it for it in mine if it.applicable), mine[0])
        return chosen.to_evidence(day)

    def ask(self, question: str, *, as_of: date | str | None = None, use_llm: bool = True,
            options: QAOptions | None = None) -> Answer:
        """Answer ``question`` with citations; retrieval-only without an LLM."""
        return self.qa(options).ask(question, as_of=as_of, use_llm=use_llm)

    def consolidate(self, doc_id: str, as_of: date | str | None = None) -> ConsolidatedDocument:
        """Document ``doc_id`` as in force at ``as_of`` (today by default); the id is read as
        typed (:meth:`resolve_document`).

        Raises:
            InputError: no such document, with the closest loaded ids (``có phải ý bạn là …?``).
        """
        from hopgraph.retrieval import consolidate

        return consolidate(self._hg.runner, self.resolve_document(doc_id),
                           as_of if as_of is not None else date.today())


def resolve_document_id_of(api: LegalAPI, typed: str) -> str:
    """The loaded document id ``typed`` names (``citation`` the field of a refusal)."""
    from hopgraph.core.questions import resolve_document_id

    return resolve_document_id(typed, api.document_ids(), "citation")


def _question(question: object) -> str:
    """One check of a question for every surface (the CLI's, the HTTP API's, MCP's): the
    biomedical and sentence calls of the Python API refuse what those refuse."""
    from hopgraph.core.questions import validate_question

    return validate_question(question)


class BiomedAPI:
    """Biomedical triplets: region-first reasoning (ReGraM)."""

    def __init__(self, hg: Hopgraph) -> None:
        self._hg = hg
        self._linker: Any = None

    def reasoner(self, config: RegramConfig | None = None, *, use_nlp: bool = True,
                 verifier: Literal["graph", "llm"] = "graph") -> Regram:
        """A :class:`~hopgraph.agents.biomed.Regram` over this graph (the entity linker, with
        scispaCy's abbreviation detector when installed, is built once per object)."""
        from hopgraph.agents.biomed import (
            EntityLinker,
            GraphVerifier,
            LLMVerifier,
            Regram,
            build_nlp,
        )

        hg = self._hg
        if self._linker is None:
            self._linker = EntityLinker(hg.runner, nlp=build_nlp() if use_nlp else None)
        llm = hg.chat
        checker = LLMVerifier(llm) if verifier == "llm" and llm is not None \
            else GraphVerifier(hg.runner)
        return Regram(hg.runner, hg.embedder("english"), self._linker, llm=llm,
                      verifier=checker, config=config)

    def ask(self, question: str, options: Mapping[str, str] | None = None, *,
            config: RegramConfig | None = None) -> BioAnswer:
        """Answer ``question`` (short answer, or MCQ when ``options`` maps letters to text).

        Raises:
            RetrievalError: the question is refused as the CLI refuses it
                (:func:`hopgraph.core.questions.validate_question`: not UTF-8 text, empty,
                too long, no word).
        """
        question = _question(question)  # before the linker and its NLP model are built
        return self.reasoner(config).ask(question, options)

    def region(self, question: str, *, config: RegramConfig | None = None) -> Region:
        """The question's region subgraph G_q: linked entities, domain-weighted candidates,
        weighted MMR (no answer is generated). The question is checked as :meth:`ask` checks it."""
        from hopgraph.agents.biomed import classify
        from hopgraph.retrieval import relation_weights

        question = _question(question)
        regram = self.reasoner(config)
        linked = regram.linker.link(question)
        typed = classify(question, None, linked)
        weights = relation_weights(typed.domain if regram.config.use_domain_prior else None)
        return regram.build_region(question, weights, linked)[1]


class SentencesAPI:
    """Sentence graphs for open-domain multi-hop QA."""

    def __init__(self, hg: Hopgraph) -> None:
        self._hg = hg

    def reasoner(self, config: SentenceRetrievalConfig | None = None) -> SentenceReasoner:
        """A :class:`~hopgraph.agents.sentences.SentenceReasoner` over this graph."""
        from hopgraph.agents.sentences import SentenceReasoner

        hg = self._hg
        return SentenceReasoner(hg.runner, hg.embedder("english"), hg.chat, config)

    def retrieve(self, question: str, *,
                 config: SentenceRetrievalConfig | None = None) -> SentenceRetrieval:
        """Anchors, refinement and path expansion: the evidence sentences of ``question``.

        Raises:
            RetrievalError: the question is refused as the CLI refuses it
                (:func:`hopgraph.core.questions.validate_question`).
        """
        question = _question(question)
        return self.reasoner(config).retrieve(question)

    def ask(self, question: str, *, config: SentenceRetrievalConfig | None = None) -> SentenceAnswer:
        """Evidence and, with an LLM, a generated answer (the question checked as
        :meth:`retrieve` checks it)."""
        question = _question(question)
        return self.reasoner(config).answer(question)


class LoadAPI:
    """Loaders: every load installs the schema first (idempotent)."""

    def __init__(self, hg: Hopgraph) -> None:
        self._hg = hg

    def legal(self, paths: Sequence[Path | str] | Path | str, *, embed: bool = True,
              replace_duplicates: bool = False, progress: bool = False) -> LoadReport:
        """Load legal documents (files or directories); see ``hopgraph.loaders.legal.load_legal``.

        Returns:
            The load report: documents loaded, skipped inputs with the reason.
        """
        from hopgraph.loaders.legal import load_legal

        hg = self._hg
        hg.install_schema()
        items = [paths] if isinstance(paths, str | Path) else list(paths)
        return load_legal(hg.runner, hg.embedder("legal") if embed else None, items,
                          batch_size=hg.settings.batch_size,
                          replace_duplicates=replace_duplicates, progress=progress)

    def primekg(self, path: Path | str, *, embed_triplets: bool = False) -> Any:
        """Load a PrimeKG ``kg.csv`` or a triplet TSV; see ``hopgraph.loaders.biomed.load_primekg``.

        Args:
            path: the file.
            embed_triplets: also store the English embedder's vector of every edge's triplet.
        """
        from hopgraph.loaders.biomed import load_primekg

        hg = self._hg
        hg.install_schema()
        return load_primekg(hg.runner, Path(path), batch_size=hg.settings.batch_size,
                            triplet_embedder=hg.embedder("english") if embed_triplets else None)

    def sentences(self, path: Path | str) -> Any:
        """Build the sentence graph of a corpus file (HotpotQA JSON or JSONL of {id, title,
        text}); bad records are skipped and listed in the report's ``skipped``. With an LLM
        configured it types the rhetorical relations. See ``hopgraph.loaders.sentences``."""
        from hopgraph.loaders.sentences import SpacyTagger, load_passages, read_corpus

        hg = self._hg
        hg.install_schema()
        skipped: list[str] = []
        report = load_passages(hg.runner, list(read_corpus(Path(path), skipped)),
                               embedder=hg.embedder("english"), tagger=SpacyTagger.load(),
                               llm=hg.chat)
        report.skipped[:0] = skipped
        return report
