"""The ChatModel adapter: tolerant JSON parsing, selective retries, token accounting."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import httpx2 as httpx
import openai
import pytest

from hopgraph.agents import OpenAIChatModel, Usage, parse_json_reply
from hopgraph.agents._llm_server import BUNDLED_MODEL_FILE, LocalLLMServer
from hopgraph.errors import LLMError


@pytest.mark.parametrize(("reply", "expected"), [
    ('{"a": 1}', {"a": 1}),
    ('Sure! Here it is:\n```json\n{"a": [1, 2],}\n```\nThanks', {"a": [1, 2]}),
    ('prefix {"a": "x}y"} suffix {"b": 2}', {"a": "x}y"}),
    ('["k", "l",]', ["k", "l"]),
    ('{"broken": } then {"ok": true}', {"ok": True}),
])
def test_parse_json_reply_tolerates_prose_fences_and_trailing_commas(
    reply: str, expected: Any
) -> None:
    assert parse_json_reply(reply) == expected


@pytest.mark.parametrize("reply", ["", "I cannot help with that.", '{"a": 1', "{{{"])
def test_parse_json_reply_raises_llm_error_when_nothing_parses(reply: str) -> None:
    with pytest.raises(LLMError):
        parse_json_reply(reply)


class _Completions:
    def __init__(self, outcomes: list[Any]) -> None:
        self.outcomes = outcomes
        self.calls = 0

    def create(self, **kwargs: Any) -> Any:
        self.calls += 1
        outcome = self.outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome


def _response(text: str, prompt: int, completion: int) -> Any:
    message = SimpleNamespace(content=text)
    return SimpleNamespace(
        choices=[SimpleNamespace(message=message)],
        usage=SimpleNamespace(prompt_tokens=prompt, completion_tokens=completion),
    )


def _model(outcomes: list[Any], max_retries: int = 2) -> tuple[OpenAIChatModel, _Completions]:
    model = OpenAIChatModel(base_url="http://127.0.0.1:9/v1", model="m", max_retries=max_retries)
    completions = _Completions(outcomes)
    model._client = SimpleNamespace(chat=SimpleNamespace(completions=completions))  # type: ignore[assignment]
    return model, completions


_REQUEST = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")


def test_rate_limit_is_retried_and_usage_totals_count_every_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("time.sleep", lambda s: None)
    limited = openai.RateLimitError("slow down", response=httpx.Response(429, request=_REQUEST),
                                    body=None)
    model, completions = _model([limited, _response("hi", 10, 3), _response("yo", 5, 2)])
    first = model.complete([{"role": "user", "content": "x"}])
    second = model.complete([{"role": "user", "content": "y"}])
    assert (first.text, first.prompt_tokens, first.completion_tokens) == ("hi", 10, 3)
    assert second.text == "yo"
    assert completions.calls == 3
    assert model.usage.calls == 3 and model.usage.failures == 1
    assert model.usage.total_tokens == 20


def test_bad_request_is_not_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("time.sleep", lambda s: None)
    bad = openai.BadRequestError("bad", response=httpx.Response(400, request=_REQUEST), body=None)
    model, completions = _model([bad, _response("never", 1, 1)])
    with pytest.raises(LLMError, match="refused"):
        model.complete([{"role": "user", "content": "x"}])
    assert completions.calls == 1


def test_connection_errors_give_up_after_the_retry_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("time.sleep", lambda s: None)
    down = [openai.APIConnectionError(request=_REQUEST) for _ in range(5)]
    model, completions = _model(down, max_retries=2)
    with pytest.raises(LLMError, match="after 3 tries"):
        model.complete([{"role": "user", "content": "x"}])
    assert completions.calls == 3


def test_usage_as_dict_sums_tokens() -> None:
    usage = Usage()
    usage.add_failure(0.5)
    assert usage.as_dict()["failures"] == 1
    assert usage.total_tokens == 0


def test_local_server_rejects_a_missing_model_file(tmp_path: Any) -> None:
    with pytest.raises(LLMError, match="not found"):
        LocalLLMServer(tmp_path / BUNDLED_MODEL_FILE)
