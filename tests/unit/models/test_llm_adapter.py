"""The ChatModel adapter: tolerant JSON parsing, selective retries, token accounting, structured
output with its JSON-mode fallback."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import httpx2 as httpx
import openai
import pytest

from hopgraph.core.errors import LLMError
from hopgraph.core.ports import Usage, parse_json_reply
from hopgraph.models import OpenAIChatModel
from hopgraph.models._llm_server import BUNDLED_MODEL_FILE, LocalLLMServer


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
        self.requests: list[dict[str, Any]] = []

    def create(self, **kwargs: Any) -> Any:
        self.calls += 1
        self.requests.append(kwargs)
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


_SCHEMA = {"title": "judge verdict", "type": "object", "required": ["score"],
           "properties": {"score": {"type": "integer", "minimum": 1, "maximum": 5}}}
_ASK = [{"role": "user", "content": "grade"}]


def test_a_schema_goes_out_as_openai_structured_output_and_json_mode_as_json_object() -> None:
    model, completions = _model([_response('{"score": 3}', 5, 4), _response("{}", 5, 1),
                                 _response("hi", 5, 1)])
    assert model.complete(_ASK, schema=_SCHEMA).text == '{"score": 3}'
    model.complete(_ASK, json_mode=True)
    model.complete(_ASK)
    formats = [r.get("response_format") for r in completions.requests]
    assert formats == [
        {"type": "json_schema", "json_schema": {"name": "judge_verdict", "schema": _SCHEMA}},
        {"type": "json_object"},
        None,
    ]
    assert model.structured_fallback is None


def _completion(text: str) -> dict[str, Any]:
    return {"id": "c1", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}}


def _stub_endpoint(*, refuse: set[str]) -> tuple[OpenAIChatModel, list[str | None]]:
    """The adapter over the real openai client, whose HTTP goes to an in-process stub that
    answers 400 (as llama.cpp's server words it) to the response_format types in ``refuse``."""
    seen: list[str | None] = []

    def handle(request: httpx.Request) -> httpx.Response:
        kind = (json.loads(request.content).get("response_format") or {}).get("type")
        seen.append(kind)
        if kind in refuse:
            return httpx.Response(400, json={"error": {
                "code": 400, "type": "invalid_request_error",
                "message": f'response_format type must be one of "text" or "json_object", '
                           f"but got: {kind}"}})
        return httpx.Response(200, json=_completion('{"score": 4}'))

    model = OpenAIChatModel(base_url="http://stub.invalid/v1", model="m")
    model._client.close()
    model._client = openai.OpenAI(
        base_url="http://stub.invalid/v1", api_key="k", max_retries=0,
        http_client=httpx.Client(transport=httpx.MockTransport(handle)),
    )
    return model, seen


def test_a_refused_schema_falls_back_to_json_mode_once_and_is_remembered() -> None:
    model, seen = _stub_endpoint(refuse={"json_schema"})
    with model:
        first = model.complete(_ASK, schema=_SCHEMA)
        second = model.complete(_ASK, schema=_SCHEMA)
    assert first.text == second.text == '{"score": 4}'
    assert seen == ["json_schema", "json_object", "json_object"]
    assert model.structured_fallback is not None and "json_schema" in model.structured_fallback
    assert (model.usage.calls, model.usage.failures) == (3, 1)


def test_a_request_refused_in_json_mode_too_is_an_error_and_not_blamed_on_the_schema() -> None:
    model, seen = _stub_endpoint(refuse={"json_schema", "json_object"})
    with model:
        with pytest.raises(LLMError, match="refused"):
            model.complete(_ASK, schema=_SCHEMA)
        assert model.structured_fallback is None
        with pytest.raises(LLMError, match="refused"):
            model.complete(_ASK, schema=_SCHEMA)
    assert seen == ["json_schema", "json_object"] * 2


def test_usage_as_dict_sums_tokens() -> None:
    usage = Usage()
    usage.add_failure(0.5)
    assert usage.as_dict()["failures"] == 1
    assert usage.total_tokens == 0


def test_local_server_rejects_a_missing_model_file(tmp_path: Any) -> None:
    with pytest.raises(LLMError, match="not found"):
        LocalLLMServer(tmp_path / BUNDLED_MODEL_FILE)
