"""Running registered Cypher queries: the only place hopgraph talks to the driver.

Every query goes through :class:`Neo4jRunner`, addressed by its registry key, with values only as
parameters, ``database_`` always set, reads routed to READ and a server-side timeout. Loaders that
must write several queries atomically use :meth:`Neo4jRunner.write_transaction`; reads that
belong together and cannot be one query share one snapshot and one BEGIN/COMMIT through
:meth:`Neo4jRunner.read_transaction` (legal retrieval, which once needed it, is one query now).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

import neo4j
from neo4j import GraphDatabase
from neo4j.exceptions import (
    AuthError,
    ClientError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
)
from neo4j.exceptions import DatabaseError as ServerFailure
from neo4j.exceptions import DatabaseUnavailable as DatabaseDown

from hopgraph.core.errors import AuthenticationFailed, DatabaseError, DatabaseUnavailable
from hopgraph.core.settings import DEFAULT_CONNECT_TIMEOUT_S, DEFAULT_QUERY_TIMEOUT_S
from hopgraph.cypher import CypherQuery, Mode, QueryRegistry, load_registry

Record = dict[str, Any]
T = TypeVar("T")
# What each entry point runs: a read may not write; a write transaction may read, but never
# change the schema (a schema change cannot share a transaction with data writes).
READ_MODES: tuple[Mode, ...] = ("read",)
WRITE_MODES: tuple[Mode, ...] = ("read", "write")
# Retrying a transaction (write_transaction, read_transaction). The driver's own managed retry
# waits up to 30 s whatever the error, so a load went on for 33 s after its server was killed
# (issue 18). hopgraph runs one Community server, not a cluster: a refused or dropped connection
# (ServiceUnavailable, SessionExpired) means the server is gone or restarting, not that a leader
# moved, so it is retried for CONNECTION_RETRY_S only and the load stops within a few seconds.
# Errors the server calls transient (deadlock, lock timeout, out of memory for the moment) keep
# the driver's 30 s window. The driver's retry is turned off in those sessions (0 s) and this
# loop decides.
CONNECTION_RETRY_S = 3.0
TRANSIENT_RETRY_S = 30.0
RETRY_FIRST_DELAY_S = 0.5
RETRY_MAX_DELAY_S = 4.0


def with_retries(attempt: Callable[[], T], *, connection_s: float | None = None,
                 transient_s: float | None = None) -> T:
    """``attempt()``, again after a retryable driver error until that error's window is over.

    Connection loss is retried for ``connection_s`` (``CONNECTION_RETRY_S``), other retryable
    errors for ``transient_s`` (``TRANSIENT_RETRY_S``), counted from the first failure; a delay
    from ``RETRY_FIRST_DELAY_S`` doubling up to ``RETRY_MAX_DELAY_S`` (±20 %) separates the
    tries. The last error is raised untranslated.
    """
    first_failure: float | None = None
    delay = RETRY_FIRST_DELAY_S
    while True:
        try:
            return attempt()
        except (ServiceUnavailable, SessionExpired, DatabaseDown):
            # DatabaseDown (Neo.TransientError.General.DatabaseUnavailable): the database stopped,
            # e.g. after a "critical error" when the disk filled; it needs a restart, so it gets
            # the short window of a lost server, not the 30 s of a transient error (issue 26)
            window = CONNECTION_RETRY_S if connection_s is None else connection_s
            if not _may_retry(first_failure, window, delay):
                raise
        except (DriverError, Neo4jError) as e:
            window = TRANSIENT_RETRY_S if transient_s is None else transient_s
            if not e.is_retryable() or not _may_retry(first_failure, window, delay):
                raise
        now = time.monotonic()
        first_failure = now if first_failure is None else first_failure
        time.sleep(delay * random.uniform(0.8, 1.2))  # jitter, not security
        delay = min(delay * 2, RETRY_MAX_DELAY_S)


def _may_retry(first_failure: float | None, window: float, delay: float) -> bool:
    """Whether a try after ``delay`` still falls inside ``window`` from the first failure."""
    if window <= 0:
        return False
    started = time.monotonic() if first_failure is None else first_failure
    return time.monotonic() + delay - started <= window


class ReadTransaction(Protocol):
    """Registered read queries inside one open transaction (see ``read_transaction``)."""

    def read(self, key: str, **params: Any) -> list[Record]:
        """Run a registered read query in the open transaction; return its rows as dicts."""
        ...


class QueryRunner(Protocol):
    """What retrieval, loaders and agents need from the database."""

    def read(self, key: str, **params: Any) -> list[Record]:
        """Run a registered read query; return its rows as dicts."""
        ...

    def write(self, key: str, **params: Any) -> list[Record]:
        """Run a registered write query in its own transaction; return its rows."""
        ...

    def write_transaction(self, steps: Sequence[tuple[str, Mapping[str, Any]]]) -> list[list[Record]]:
        """Run several registered write queries in one transaction, all or nothing."""
        ...

    def read_transaction(self, work: Callable[[ReadTransaction], T]) -> T:
        """Run ``work`` in one read transaction: its reads see one snapshot. ``work`` may be
        called again when the server reports a transient error, so it must only read."""
        ...


class Neo4jRunner:
    """A :class:`QueryRunner` over a real Neo4j driver.

    Args:
        driver: an open driver (:func:`connect`).
        database: the database every query runs in.
        timeout_s: server-side limit of each query, in seconds (``HOPGRAPH_QUERY_TIMEOUT``'s
            default when not given).
        registry: the registered queries (default: those shipped in ``cypher/``).
    """

    def __init__(
        self,
        driver: neo4j.Driver,
        *,
        database: str,
        timeout_s: float = DEFAULT_QUERY_TIMEOUT_S,
        registry: QueryRegistry | None = None,
    ) -> None:
        self.driver = driver
        self.database = database
        self.timeout_s = timeout_s
        self.registry = registry or load_registry()

    def read(self, key: str, **params: Any) -> list[Record]:
        """Run a registered read query; return its rows as dicts.

        Raises:
            QueryLoadError: the header says write or schema, or ``params`` do not fit it
                (names and types), before anything reaches the server.
            DatabaseError: the server refused or failed the query.
        """
        text = self.registry.check_params(key, params, READ_MODES).text
        values = dict(params)

        @neo4j.unit_of_work(timeout=self.timeout_s, metadata={"query": key})
        def work(tx: neo4j.ManagedTransaction) -> list[neo4j.Record]:
            return list(tx.run(text, values))

        # one managed read transaction, as write: its retries stop within CONNECTION_RETRY_S when
        # the server is gone (execute_query would wait the driver's 30 s)
        with translate_errors(key), self.driver.session(
            database=self.database, default_access_mode=neo4j.READ_ACCESS,
            max_transaction_retry_time=0.0,
        ) as session:
            records = with_retries(lambda: session.execute_read(work))
        return _rows(self.registry[key], records)

    def write(self, key: str, **params: Any) -> list[Record]:
        """Run a registered read or write query in its own write transaction; return its rows.

        Raises:
            QueryLoadError: the header says schema (schema changes go through ``run_admin``),
                or ``params`` do not fit it.
            DatabaseError: the server refused or failed the query.
        """
        # one managed transaction, as write_transaction: its retries stop within
        # CONNECTION_RETRY_S when the server is gone (execute_query would wait 30 s)
        return self.write_transaction([(key, params)])[0]

    def write_transaction(
        self, steps: Sequence[tuple[str, Mapping[str, Any]]]
    ) -> list[list[Record]]:
        queries = [(self.registry.check_params(key, params, WRITE_MODES).text, dict(params))
                   for key, params in steps]

        @neo4j.unit_of_work(timeout=self.timeout_s, metadata={"query": steps[0][0] if steps else ""})
        def work(tx: neo4j.ManagedTransaction) -> list[list[Record]]:
            return [[r.data() for r in tx.run(text, p)] for text, p in queries]

        with translate_errors(steps[0][0] if steps else "transaction"), self.driver.session(
            database=self.database, max_transaction_retry_time=0.0
        ) as session:
            return with_retries(lambda: session.execute_write(work))

    def read_transaction(self, work: Callable[[ReadTransaction], T]) -> T:
        reader_key = ["read transaction"]  # the query running when an error surfaces

        @neo4j.unit_of_work(timeout=self.timeout_s, metadata={"query": "read_transaction"})
        def run(tx: neo4j.ManagedTransaction) -> T:
            return work(_TxReader(self, tx, reader_key))

        # Driver errors stay untranslated inside the transaction so that the driver can retry
        # transient ones; what finally escapes is translated, naming the query.
        with self.driver.session(
            database=self.database, default_access_mode=neo4j.READ_ACCESS,
            max_transaction_retry_time=0.0,
        ) as session:
            try:
                return with_retries(lambda: session.execute_read(run))
            except (AuthError, DriverError, Neo4jError):
                with translate_errors(reader_key[0]):
                    raise

    def explain(self, key: str) -> None:
        """Compile a registered query with EXPLAIN (parameters need not be supplied)."""
        text = "EXPLAIN " + self.registry[key].text
        with translate_errors(key), self.driver.session(database=self.database) as session:
            session.run(text).consume()

    def run_admin(self, fn: Callable[[neo4j.Session], T]) -> T:
        """Run ``fn`` with a session; for schema and maintenance work only."""
        with translate_errors("admin"), self.driver.session(database=self.database) as session:
            return fn(session)


class _TxReader:
    """The :class:`ReadTransaction` handed to ``Neo4jRunner.read_transaction``'s work."""

    def __init__(self, runner: Neo4jRunner, tx: neo4j.ManagedTransaction, key: list[str]) -> None:
        self._runner = runner
        self._tx = tx
        self._key = key

    def read(self, key: str, **params: Any) -> list[Record]:
        query = self._runner.registry.check_params(key, params, READ_MODES)
        self._key[0] = key
        return _rows(query, self._tx.run(query.text, params))


def _rows(query: CypherQuery, records: Iterable[neo4j.Record]) -> list[Record]:
    # A query whose header says '// rows: plain' returns no graph entities: its values need no
    # conversion, and Record.data()'s recursive walk over a nested result is skipped.
    if query.plain_rows:
        return [dict(r) for r in records]
    return [r.data() for r in records]


@contextmanager
def translate_errors(what: str) -> Iterator[None]:
    """Turn driver exceptions into hopgraph's, naming the query or action."""
    try:
        yield
    except AuthError as e:
        raise AuthenticationFailed(
            "Neo4j rejected the user name or password; check NEO4J_USER / NEO4J_PASSWORD "
            "(the local runtime keeps its password in <hopgraph home>/neo4j-password)"
        ) from e
    except (ServiceUnavailable, SessionExpired) as e:
        # SessionExpired: the server went away under an open session (killed mid-load). The
        # driver's message spans lines: one line, as every CLI error.
        raise DatabaseUnavailable(
            f"no Neo4j server answers ({_one_line(e)}); start one with 'hopgraph db start' or "
            "set NEO4J_URI"
        ) from e
    except (DatabaseDown, ServerFailure) as e:
        # The server answers but its database failed (Neo.DatabaseError.*, or unavailable after
        # a "critical error": a full disk, a damaged transaction log). A load stops here and
        # reports what it committed, as when the server is gone (issue 26).
        raise DatabaseUnavailable(
            f"{what}: the Neo4j database failed ({e.code}: {_one_line(e.message or e)}); check "
            "free disk space and the server log, restart it ('hopgraph db stop' then "
            "'hopgraph db start'; 'hopgraph db restore' brings back a backup)"
        ) from e
    except ClientError as e:
        raise DatabaseError(f"{what}: {e.code}: {e.message}") from e
    except (Neo4jError, DriverError) as e:
        raise DatabaseError(f"{what}: {e}") from e


def _one_line(message: object) -> str:
    return " ".join(str(message).split())


# What a live server on a loaded machine may take for the Bolt handshake and the credentials
# on top of the TCP connection; a port that accepts and never answers is reported after it.
HANDSHAKE_GRACE_S = 3.0


def connect(uri: str, user: str, password: str | None, *,
            timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S) -> neo4j.Driver:
    """Open a driver and check that the server answers and accepts the credentials.

    ``timeout_s`` (``HOPGRAPH_CONNECT_TIMEOUT``) bounds the TCP connection; the check as a
    whole is tried once within :func:`first_contact_s`: an address where nothing answers, or
    where something accepts the connection and never speaks Bolt, is reported then, not after
    the driver's default 30 s / 60 s.

    Raises:
        DatabaseUnavailable: nothing answers at ``uri``.
        AuthenticationFailed: the credentials are wrong.
    """
    auth = (user, password) if password is not None else None
    # The first contact is bounded as a whole, once (first_contact_s): the TCP connection, the
    # Bolt handshake (a port that accepts and never answers held it for the driver's 60 s
    # acquisition timeout) and the routing table, with no retry. The driver kept for queries keeps the driver's
    # acquisition timeout, so a loaded server's slow handshake later is waited for, not an error.
    probe = _driver(uri, auth, timeout_s, acquisition_s=first_contact_s(timeout_s))
    try:
        with translate_errors(f"connect {uri}"):
            probe.verify_connectivity()
    finally:
        probe.close()
    return _driver(uri, auth, timeout_s)


def first_contact_s(timeout_s: float) -> float:
    """The bound on :func:`connect`'s whole first contact (TCP connection, Bolt handshake,
    credentials, routing table; tried once): the connect timeout, plus ``HANDSHAKE_GRACE_S``
    for a live server that answers slowly on a loaded machine. A closed port is refused at once
    whatever the bound."""
    return timeout_s + HANDSHAKE_GRACE_S


def _driver(uri: str, auth: tuple[str, str] | None, timeout_s: float,
            acquisition_s: float | None = None) -> neo4j.Driver:
    try:
        # "Property key does not exist" (UNRECOGNIZED) is expected: optional properties such as
        # the triplet embeddings are absent from graphs loaded without them, and every registered
        # query is compiled against the schema in the tests. Deprecations and the rest still log.
        if acquisition_s is None:
            return GraphDatabase.driver(uri, auth=auth, connection_timeout=timeout_s,
                                        notifications_disabled_classifications=["UNRECOGNIZED"])
        return GraphDatabase.driver(uri, auth=auth, connection_timeout=timeout_s,
                                    connection_acquisition_timeout=acquisition_s,
                                    notifications_disabled_classifications=["UNRECOGNIZED"])
    except ValueError as e:
        raise DatabaseError(f"bad Neo4j URI {uri!r}: {e}") from e
