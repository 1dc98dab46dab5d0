"""The adapter of the ``ChatModel`` port (:mod:`hopgraph.core.ports`) over the ``openai`` client.

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

import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

from hopgraph.core.errors import LLMError
from hopgraph.core.ports import (
    DEFAULT_MAX_TOKENS,
    ChatModel,
    ChatResult,
    Message,
    SchemaReply,
    Usage,
    ask_schema,
    parse_json_reply,
)
from hopgraph.core.settings import LLMSettings

# The port's names stay importable from here (they lived here before hopgraph.core.ports).
__all__ = [
    "DEFAULT_MAX_TOKENS", "ChatModel", "ChatResult", "Message", "OpenAIChatModel", "SchemaReply",
    "Usage", "ask_schema", "chat_model_from", "neutralise_fences", "parse_json_reply",
]

DEFAULT_SCHEMA_NAME = "reply"
_SCHEMA_NAME_BAD = re.compile(r"[^a-zA-Z0-9_-]+")


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
