"""hopgraph.agents.ask_schema: one way to ask the LLM for a schema and parse the reply."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from pydantic import BaseModel

from hopgraph.agents import ChatResult, ask_schema
from hopgraph.core.errors import LLMError


class _Score(BaseModel):
    score: int


class _Chat:
    model = "fake"

    def __init__(self, text: str | None) -> None:
        self.text = text
        self.calls: list[dict[str, Any]] = []

    def complete(self, messages: Sequence[Mapping[str, str]], *, max_tokens: int = 512,
                 temperature: float = 0.0, json_mode: bool = False,
                 schema: Mapping[str, Any] | None = None) -> ChatResult:
        self.calls.append({"max_tokens": max_tokens, "json_mode": json_mode, "schema": schema})
        if self.text is None:
            raise LLMError("endpoint down")
        return ChatResult(self.text, 7, 3, 0.01, "fake")


def test_the_schema_is_sent_and_the_reply_validated() -> None:
    chat = _Chat('Sure: ```json\n{"score": 4}\n``` done')
    reply = ask_schema(chat, [{"role": "user", "content": "q"}], _Score, max_tokens=16)
    assert reply.value == _Score(score=4) and reply.problem == ""
    assert chat.calls == [{"max_tokens": 16, "json_mode": True,
                           "schema": _Score.model_json_schema()}]
    assert reply.result.prompt_tokens == 7  # the caller counts the call


@pytest.mark.parametrize("text", ["no json here", '{"score": "high"}'])
def test_an_unusable_reply_is_no_value_with_its_reason(text: str) -> None:
    reply = ask_schema(_Chat(text), [{"role": "user", "content": "q"}], _Score, max_tokens=16)
    assert reply.value is None and reply.problem and reply.result.completion_tokens == 3


def test_a_failed_call_raises() -> None:
    with pytest.raises(LLMError, match="endpoint down"):
        ask_schema(_Chat(None), [{"role": "user", "content": "q"}], _Score, max_tokens=16)
