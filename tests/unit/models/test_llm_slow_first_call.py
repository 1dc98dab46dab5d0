"""A first completion slower than the client's timeout (a cold model on a loaded machine) is
retried and counted as one failed call; the reply's tokens are the only tokens counted. This is
the case tests/integration/test_models_llm_server.py tolerates (it once asserted calls == 1)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler

import pytest

from hopgraph.models import OpenAIChatModel
from tests.integration.local_http import send_json, serve

REPLY = json.dumps({
    "id": "x", "object": "chat.completion", "created": 0, "model": "m",
    "choices": [{"index": 0, "finish_reason": "stop",
                 "message": {"role": "assistant", "content": "{\"ok\": true}"}}],
    "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17},
}).encode()


def test_a_slow_first_call_is_retried_and_counted_as_one_failure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("hopgraph.models._llm.time.sleep", lambda s: None)  # no back-off wait
    release = threading.Event()
    requests: list[int] = []

    class SlowFirst(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            requests.append(1)
            if len(requests) == 1:
                release.wait(5.0)  # longer than the client's timeout
            send_json(self, REPLY)

        def log_message(self, *args: object) -> None:
            pass

    with serve(SlowFirst) as base_url:
        try:
            with OpenAIChatModel(base_url=base_url, model="m", timeout_s=0.5,
                                 max_retries=2) as model:
                result = model.complete([{"role": "user", "content": "ok?"}], json_mode=True)
        finally:
            release.set()
    assert result.text == "{\"ok\": true}"
    assert len(requests) == 2
    assert (model.usage.calls, model.usage.failures) == (2, 1)
    assert model.usage.calls - model.usage.failures == 1
    assert model.usage.total_tokens == 17
