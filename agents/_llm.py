"""The ``ChatModel`` port and its adapter over the ``openai`` client.

Any OpenAI-compatible endpoint works (OpenAI, vLLM, Ollama, llama.cpp / xllamacpp servers);
``hopgraph llm serve`` starts a local one. Only rate limits, timeouts and connection errors are
retried, with bounded backoff; a bad request is never retried. Every call reports its tokens and
latency so that agents can account for them.

Structured output: a caller that knows the reply's shape passes its JSON Schema and the request
carries OpenAI's ``response_format={"type": "json_schema", ...}`` (llama.cpp's server compiles it
into a grammar, so even a 135M model answers with the right keys and types). An endpoint that
refuses the schema gets the same request once more in plain JSON mode; when that one succeeds the
adapter keeps to JSON mode from then on and records why in ``structured_fallback``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ValidationError

from hopgraph.errors import LLMError
from hopgraph.settings import LLMSettings

Message = dict[str, str]
DEFAULT_MAX_TOKENS = 512
DEFAULT_SCHEMA_NAME = "reply"
_SCHEMA_NAME_BAD = re.compile(r"[^a-zA-Z0-9_-]+")
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
ModelT = TypeVar("ModelT", bound=BaseModel)


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


class OpenAIChatModel:
    """:class:`ChatModel` over ``openai.OpenAI`` against any compatible base URL."""

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 2,
    ) -> None:
        from openai import OpenAI

        # The client's own retries would also retry 5xx blindly; we retry ourselves, selectively.
        self._client = OpenAI(
            base_url=base_url, api_key=api_key or "not-needed", timeout=timeout_s, max_retries=0
        )
        self._model = model
        self._max_retries = max_retries
        self.usage = Usage()
        """Totals over every call this adapter made (retries count as failures)."""
        self.structured_fallback: str | None = None
        """Why the endpoint's refusal of a JSON Schema made this adapter send plain JSON mode
        instead (``None`` while schemas are sent)."""

    @property
    def model(self) -> str:
        return self._model

    def close(self) -> None:
        """Close the HTTP connections."""
        self._client.close()

    def __enter__(self) -> OpenAIChatModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def complete(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        temperature: float = 0.0,
        json_mode: bool = False,
        schema: Mapping[str, Any] | None = None,
    ) -> ChatResult:
        import openai

        first_start = time.perf_counter()
        request: dict[str, Any] = {
            "model": self._model, "messages": list(messages), "max_tokens": max_tokens,
            "temperature": temperature,
        }
        refusal: openai.BadRequestError | None = None
        if schema is not None and self.structured_fallback is None:
            try:
                return self._create(
                    {**request, "response_format": _schema_format(schema)}, first_start)
            except openai.BadRequestError as e:
                # Endpoints word this differently (llama.cpp names the schema construct it cannot
                # compile, others the field): the JSON-mode request below tells whether the
                # schema was the problem, without reading the message.
                refusal = e
        if schema is not None or json_mode:
            request["response_format"] = {"type": "json_object"}
        try:
            result = self._create(request, first_start)
        except openai.BadRequestError as e:
            raise LLMError(f"LLM endpoint refused the request: {e}") from e
        if refusal is not None:
            self.structured_fallback = f"JSON Schema refused, JSON mode accepted: {refusal}"
        return result

    def _create(self, request: dict[str, Any], first_start: float) -> ChatResult:
        """One completion with bounded retries of transient errors.

        Raises:
            openai.BadRequestError: the endpoint refused the request (for the caller to judge).
            LLMError: any other failure.
        """
        import openai

        attempt = 0
        while True:
            started = time.perf_counter()
            try:
                response = self._client.chat.completions.create(**request)
            except (openai.RateLimitError, openai.APITimeoutError, openai.APIConnectionError) as e:
                attempt += 1
                self.usage.add_failure(time.perf_counter() - started)
                if attempt > self._max_retries:
                    raise LLMError(f"LLM endpoint failed after {attempt} tries: {e}") from e
                time.sleep(min(8.0, 0.5 * 2**attempt))
                continue
            except openai.BadRequestError:
                self.usage.add_failure(time.perf_counter() - started)
                raise
            except openai.APIError as e:
                self.usage.add_failure(time.perf_counter() - started)
                raise LLMError(f"LLM endpoint refused the request: {e}") from e
            except (ValueError, TypeError, AttributeError, KeyError) as e:
                # a body cut short or not the OpenAI shape (json.JSONDecodeError is a ValueError):
                # the caller falls back to its retrieval-only answer
                self.usage.add_failure(time.perf_counter() - started)
                raise LLMError(f"LLM endpoint sent an unreadable reply: "
                               f"{type(e).__name__}: {str(e)[:120]}") from e
            choices = getattr(response, "choices", None)
            choice = choices[0] if isinstance(choices, list) and choices else None
            message = getattr(choice, "message", None)
            content = getattr(message, "content", None)
            text = content if isinstance(content, str) else ""
            usage = response.usage
            # Latency covers retries, back-off and a refused schema: it is what the caller waited.
            result = ChatResult(
                text=text,
                prompt_tokens=usage.prompt_tokens if usage else 0,
                completion_tokens=usage.completion_tokens if usage else 0,
                latency_s=time.perf_counter() - first_start,
                model=self._model,
            )
            self.usage.add(result)
            return result


def _schema_format(schema: Mapping[str, Any]) -> dict[str, Any]:
    """OpenAI's structured-output ``response_format`` for ``schema`` (named after its title)."""
    title = schema.get("title")
    name = _SCHEMA_NAME_BAD.sub("_", title)[:64] if isinstance(title, str) else ""
    return {"type": "json_schema",
            "json_schema": {"name": name or DEFAULT_SCHEMA_NAME, "schema": dict(schema)}}


def chat_model_from(llm: LLMSettings) -> OpenAIChatModel | None:
    """The configured chat model, or None when no endpoint is set (retrieval-only answers,
    heuristic sentence graphs, deterministic biomedical fallbacks). Close it when done."""
    if not llm.base_url:
        return None
    return OpenAIChatModel(base_url=llm.base_url, model=llm.model, api_key=llm.api_key,
                           timeout_s=llm.timeout_s, max_retries=llm.max_retries)


_FENCE = re.compile(r"<(\s*/?\s*)(evidence|question|context|document)\b", re.IGNORECASE)


def neutralise_fences(text: str) -> str:
    """``text`` with any tag that could open or close a prompt fence (``</evidence>``,
    ``<question>``, …) made inert (``<`` becomes ``‹``), so quoted document text can never
    step outside the fence it is placed in."""
    return _FENCE.sub(lambda m: "‹" + m.group(1) + m.group(2), text)


def parse_json_reply(text: str) -> Any:
    """Parse the first JSON object or array in an LLM reply, tolerating prose and code fences.

    Small models wrap JSON in prose or fences, leave trailing commas, or stop mid-object; the
    first balanced ``{…}`` / ``[…]`` block that parses (after removing trailing commas) wins.

    Raises:
        LLMError: no parseable JSON in the reply.
    """
    candidates = [text.strip(), *(m.group(1).strip() for m in _FENCE.finditer(text))]
    for candidate in candidates:
        for attempt in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
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
