"""A chat model for unit tests whose reply is a function of the last message's text."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hopgraph.agents import ChatResult


class PromptChat:
    """Satisfies ``ChatModel``: replies with ``reply(last message content)``; records prompts and
    the JSON Schemas sent with them.

    Token counts are the prompt's whitespace words and the reply's, so accounting is exercised.
    """

    model = "prompt-chat"

    def __init__(self, reply: Callable[[str], str]) -> None:
        self.reply = reply
        self.prompts: list[str] = []
        self.schemas: list[Mapping[str, Any] | None] = []

    def complete(self, messages: Sequence[Mapping[str, str]], *, max_tokens: int = 512,
                 temperature: float = 0.0, json_mode: bool = False,
                 schema: Mapping[str, Any] | None = None) -> ChatResult:
        prompt = messages[-1]["content"]
        self.prompts.append(prompt)
        self.schemas.append(schema)
        text = self.reply(prompt)
        return ChatResult(text, prompt_tokens=len(prompt.split()),
                          completion_tokens=len(text.split()), latency_s=0.0, model=self.model)
