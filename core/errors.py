"""The exception hierarchy of hopgraph: one root, one subclass per kind of failure.

Expected failures (bad input, a server that is not running, a missing tool) are raised as these
classes with a message that says what is wrong and what to do; the CLI prints that one line.
"""

from __future__ import annotations


class HopgraphError(Exception):
    """Root of every error hopgraph raises on purpose."""


class ConfigError(HopgraphError):
    """A setting is missing or malformed."""


class QueryLoadError(HopgraphError):
    """A .cypher file is malformed (missing header, undeclared or unused parameters), or a query
    is called against its header (wrong mode, missing parameter, value of the wrong type)."""


class DatabaseError(HopgraphError):
    """The database cannot be reached or refused a request."""


class DatabaseUnavailable(DatabaseError):
    """No server answers at the configured URI."""


class AuthenticationFailed(DatabaseError):
    """The server answered but rejected the credentials."""


class RuntimeSetupError(HopgraphError):
    """The local Neo4j runtime cannot be assembled, configured, started or stopped."""


class IngestError(HopgraphError):
    """An input could not be parsed or written; names the input and the problem."""


class RetrievalError(HopgraphError):
    """A retrieval request is invalid (empty question, bad filter, bad date)."""


class EmbeddingError(HopgraphError):
    """The embedder could not be loaded or failed on an input."""


class LLMError(HopgraphError):
    """The LLM endpoint failed, timed out or returned unusable output."""
