"""``hopgraph llm serve``'s server answers the openai client with a real model.

The first completion can be slow on a loaded machine (the model warms up while other work holds
the cores): the adapter then times out and retries, and counts the attempt as a failed call.
The test allows that (a long timeout, retries) and checks the accounting exactly either way:
one successful call, every other call a counted failure, the tokens those of the one reply.
"""

from __future__ import annotations

import pytest

from hopgraph.models import OpenAIChatModel

pytestmark = [pytest.mark.integration, pytest.mark.llm]

MAX_RETRIES = 3


def test_local_server_completes_and_reports_tokens(llm_endpoint: tuple[str, str]) -> None:
    base_url, model_name = llm_endpoint
    with OpenAIChatModel(base_url=base_url, model=model_name, timeout_s=180.0,
                         max_retries=MAX_RETRIES) as model:
        result = model.complete(
            [{"role": "user", "content": "Reply with the JSON object {\"ok\": true}."}],
            max_tokens=32, json_mode=True,
        )
    assert result.text.strip()
    assert result.prompt_tokens > 0 and result.completion_tokens > 0
    usage = model.usage
    assert usage.calls - usage.failures == 1  # one reply; a slow first try is a counted failure
    assert usage.failures <= MAX_RETRIES
    assert usage.total_tokens == result.prompt_tokens + result.completion_tokens
