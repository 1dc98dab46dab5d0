"""The ``ChatModel`` port and its adapter over the ``openai`` client.

Any OpenAI-compatible endpoint works (OpenAI, vLLM, Ollama, llama.cpp / xllamacpp servers);
``hopgraph llm serve`` starts a local one. Only rate limits, timeouts and connection errors are
retried, with bounded backoff; a bad request is never retried. Every call reports its tokens and
latency so that agents can account for them.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from hopgraph.errors import LLMError

Message = dict[str, str]
DEFAULT_MAX_TOKENS = 512
_JSON_BLOCK = re.compile(r"\{.*\}|\[.*\]", re.DOTALL)


@dataclass(frozen=True)
class ChatResult:
    """What one completion returned, with its cost."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    model: str


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
    ) -> ChatResult:
        """Return the assistant's reply.

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

    @property
    def model(self) -> str:
        return self._model

    def complete(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        temperature: float = 0.0,
        json_mode: bool = False,
    ) -> ChatResult:
        import openai

        extra: dict[str, Any] = {}
        if json_mode:
            extra["response_format"] = {"type": "json_object"}
        attempt = 0
        while True:
            started = time.perf_counter()
            try:
                response = self._client.chat.completions.create(
                    model=self._model,
                    messages=list(messages),  # type: ignore[arg-type]
                    max_tokens=max_tokens,
                    temperature=temperature,
                    **extra,
                )
            except (openai.RateLimitError, openai.APITimeoutError, openai.APIConnectionError) as e:
                attempt += 1
                if attempt > self._max_retries:
                    raise LLMError(f"LLM endpoint failed after {attempt} tries: {e}") from e
                time.sleep(min(8.0, 0.5 * 2**attempt))
                continue
            except openai.APIError as e:
                raise LLMError(f"LLM endpoint refused the request: {e}") from e
            latency = time.perf_counter() - started
            choice = response.choices[0] if response.choices else None
            text = (choice.message.content or "") if choice is not None else ""
            usage = response.usage
            return ChatResult(
                text=text,
                prompt_tokens=usage.prompt_tokens if usage else 0,
                completion_tokens=usage.completion_tokens if usage else 0,
                latency_s=latency,
                model=self._model,
            )


def parse_json_reply(text: str) -> Any:
    """Parse the first JSON object or array in an LLM reply, tolerating prose and code fences.

    Raises:
        LLMError: no parseable JSON in the reply.
    """
    cleaned = text.strip().removeprefix("```json").removeprefix("```").removesuffix("```")
    try:
        return json.loads(cleaned)
    except json.JSONDecodeError:
        pass
    match = _JSON_BLOCK.search(cleaned)
    if match:
        try:
            return json.loads(match.group(0))
        except json.JSONDecodeError:
            pass
    raise LLMError(f"LLM reply is not JSON: {text[:120]!r}")
