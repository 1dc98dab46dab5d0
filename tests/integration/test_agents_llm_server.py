"""``hopgraph llm serve``'s server answers the openai client with a real model."""

from __future__ import annotations

import pytest

from hopgraph.agents import OpenAIChatModel

pytestmark = [pytest.mark.integration, pytest.mark.llm]


def test_local_server_completes_and_reports_tokens(llm_endpoint: tuple[str, str]) -> None:
    base_url, model_name = llm_endpoint
    with OpenAIChatModel(base_url=base_url, model=model_name, timeout_s=60.0) as model:
        result = model.complete(
            [{"role": "user", "content": "Reply with the JSON object {\"ok\": true}."}],
            max_tokens=32, json_mode=True,
        )
    assert result.text.strip()
    assert result.prompt_tokens > 0 and result.completion_tokens > 0
    assert model.usage.calls == 1 and model.usage.total_tokens == (
        result.prompt_tokens + result.completion_tokens
    )
