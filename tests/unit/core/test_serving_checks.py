"""The serving layer's shared checks (hopgraph._service) and the HTTP guard (hopgraph._http_guard),
without a database: each refusal names the field and the problem; the guard's Host, Origin,
token and size rules."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import anyio
import pytest

from hopgraph import GuardSettings, RequestError
from hopgraph._service import (
    K_MAX,
    badge,
    check_date,
    check_question,
    check_range,
    check_text,
    check_texts,
    schema_problem,
    suggest,
)
from hopgraph.core.errors import ConfigError


@pytest.mark.parametrize(("call", "field", "words"), [
    (lambda: check_question("   "), "question", "để trống"),
    (lambda: check_question("x" * 2001), "question", "dài 2001 ký tự; giới hạn là 2000 ký tự"),
    (lambda: check_question("?!"), "question", "không có từ nào để tìm"),
    (lambda: check_question("bad \udcff byte"), "question",
     "không phải văn bản UTF-8 hợp lệ (byte 0xff ở ký tự thứ 5)"),
    (lambda: check_date("2024-13-01"), "as_of",
     "'2024-13-01' không phải là ngày hợp lệ (dạng YYYY-MM-DD hoặc dd/mm/yyyy)"),
    (lambda: check_date(20240101), "as_of", "phải là chuỗi ngày (nhận được int)"),
    (lambda: check_range(0, "k", 1, K_MAX), "k",
     "phải nằm trong khoảng từ 1 đến 100 (nhận được 0)"),
    (lambda: check_range(True, "k", 1, K_MAX), "k", "phải là số nguyên"),
    (lambda: check_text("a\x00b", "doc_id"), "doc_id", "không phải văn bản UTF-8 hợp lệ"),
    (lambda: check_texts(["ok", 3], "doc_ids"), "doc_ids[1]", "phải là chuỗi văn bản"),
    (lambda: check_texts([], "unit_ids", required=True), "unit_ids", "cần ít nhất một giá trị"),
])
def test_refusals_name_the_field_and_the_problem(call: Any, field: str, words: str) -> None:
    with pytest.raises(RequestError) as e:
        call()
    assert e.value.field == field and words in e.value.problem
    assert str(e.value).startswith(f"{field}: ")


def test_every_check_runs_and_every_refusal_is_said() -> None:
    from hopgraph.core.questions import InputErrors, checked

    assert checked(lambda: check_question("bảo hiểm"), lambda: check_range(3, "k", 1, K_MAX)) \
        == ["bảo hiểm", 3]
    with pytest.raises(RequestError) as one:
        checked(lambda: check_question("bảo hiểm"), lambda: check_range(0, "k", 1, K_MAX))
    assert one.value.field == "k" and not isinstance(one.value, InputErrors)
    with pytest.raises(InputErrors) as both:
        checked(lambda: check_question(" "), lambda: check_date("2024-13-01"),
                lambda: check_range(5, "k", 1, K_MAX))
    assert [e.field for e in both.value.errors] == ["question", "as_of"]
    assert both.value.field == "question, as_of"
    assert str(both.value).startswith("question: để trống; as_of: '2024-13-01' không phải")


def test_schema_refusals_read_like_the_checks() -> None:
    """What pydantic refuses before the checks run (HTTP bodies, MCP tool arguments) is said in
    Vietnamese too; an error type without a wording keeps pydantic's message."""
    from pydantic import BaseModel, Field, ValidationError

    class Args(BaseModel):
        question: str = Field(min_length=1, max_length=10)
        k: int = Field(5, ge=1, le=100)
        ids: list[str] = Field(default_factory=list, max_length=2)

    def problems(data: dict[str, Any]) -> list[str]:
        with pytest.raises(ValidationError) as e:
            Args.model_validate(data)
        return [f"{'.'.join(map(str, err['loc']))}: {schema_problem(err)}"
                for err in e.value.errors()]

    assert problems({"question": "", "k": 0}) == [
        "question: để trống", "k: phải lớn hơn hoặc bằng 1 (nhận được 0)"]
    assert problems({"question": "x" * 11, "k": "năm", "ids": ["a", "b", "c"]}) == [
        "question: dài 11 ký tự; giới hạn là 10 ký tự",
        "k: phải là số nguyên (nhận được 'năm')", "ids: có 3 giá trị; giới hạn là 2"]
    assert problems({}) == ["question: là tham số bắt buộc"]
    assert problems({"question": "x", "k": "9" * 100})[0].endswith("…)")  # the echo is cut
    assert schema_problem({"type": "new_kind", "msg": "Value error, odd"}) == \
        "không hợp lệ (Value error, odd)"


def test_dates_in_both_forms_and_today_by_default() -> None:
    assert check_date("2024-06-01") == check_date("01/06/2024") == date(2024, 6, 1)
    assert check_date(None, today=date(2030, 1, 2)) == date(2030, 1, 2)


def test_suggestions_fold_diacritics_and_case() -> None:
    ids = ["12/2016/NĐ-MAU", "20/2018/NĐ-MAU", "01/2015/QH-MAU"]
    assert suggest("12/2016/nd-mau", ids)[0] == "12/2016/NĐ-MAU"
    assert suggest("totally different", ids) == []


def test_badges() -> None:
    assert badge(True, False) == "đang áp dụng"
    assert badge(True, True) == "ngày hiệu lực chưa xác định"
    assert badge(False, False, "chưa có hiệu lực tại ngày 01/06/2024") == "chưa có hiệu lực"
    assert badge(False, False, "bãi bỏ bởi …") == "bãi bỏ"
    assert badge(False, False, "superseded") == "đã được sửa đổi"
    # a superseded wording whose note also names a pending one is amended, not pending
    assert badge(False, False, "superseded at 2024-06-01: amended by …; pending: amended by "
                 "… (not yet in force)") == "đã được sửa đổi"
    # the notes retrieval writes (Vietnamese, dd/mm/yyyy)
    assert badge(False, False, "không còn áp dụng tại ngày 01/01/2027: được sửa đổi bởi …; "
                 "sắp có thay đổi: … (chưa có hiệu lực)") == "đã được sửa đổi"
    assert badge(False, False, "đã bị bãi bỏ, không áp dụng tại ngày 01/06/2024: bị bãi bỏ "
                 "bởi Điều 1 …") == "bãi bỏ"
    assert badge(False, False, "không áp dụng tại ngày 01/07/2019, văn bản bị bãi bỏ bởi văn "
                 "bản số 8/2019/QH14") == "bãi bỏ"


def test_exposed_host_needs_a_token() -> None:
    with pytest.raises(ConfigError, match="HOPGRAPH_API_TOKEN"):
        GuardSettings.for_host("0.0.0.0", 8080, None)
    with pytest.raises(ConfigError, match="at least 16"):
        GuardSettings.for_host("0.0.0.0", 8080, "short")
    s = GuardSettings.for_host("0.0.0.0", 8080, "t" * 20)
    assert "Bearer" in s.start_line("HTTP API") and "0.0.0.0" in s.start_line("HTTP API")
    assert "no token" in GuardSettings.for_host("127.0.0.1", 8080, None).start_line("x")


def _call(settings: GuardSettings, headers: dict[str, str], path: str = "/api/x",
          body: bytes = b"") -> tuple[int, dict[str, Any]]:
    from hopgraph._http_guard import guard

    async def app(scope: Any, receive: Any, send: Any) -> None:
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    sent: list[dict[str, Any]] = []
    chunks = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict[str, Any]:
        return chunks.pop(0) if chunks else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "path": path,
             "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]}
    anyio.run(guard(app, settings), scope, receive, send)
    status = sent[0]["status"]
    payload = json.loads(sent[1]["body"] or b"{}")
    return status, payload


def test_guard_checks_host_origin_token_and_size() -> None:
    local = GuardSettings.for_host("127.0.0.1", 8080, None, public_paths=frozenset({"/"}))
    assert _call(local, {"host": "127.0.0.1:8080"})[0] == 200
    status, payload = _call(local, {"host": "evil.example:8080"})
    assert status == 421 and payload["error"]["field"] == "Host"
    assert _call(local, {"host": "localhost:8080", "origin": "http://evil.example"})[0] == 403
    assert _call(local, {"host": "localhost:8080", "origin": "http://localhost:8080"})[0] == 200
    status, payload = _call(local, {"host": "localhost:8080", "content-length": "70000"})
    assert status == 413 and payload["error"]["field"] == "body"
    assert _call(local, {"host": "localhost:8080"}, body=b"x" * 70_000)[0] == 413
    exposed = GuardSettings.for_host("0.0.0.0", 8080, "s" * 20, public_paths=frozenset({"/"}))
    status, payload = _call(exposed, {"host": "10.0.0.5:8080"})
    assert status == 401 and payload["error"]["type"] == "unauthorized"
    assert _call(exposed, {"host": "10.0.0.5:8080"}, path="/")[0] == 200  # the static page
    assert _call(exposed, {"host": "10.0.0.5:8080", "authorization": "Bearer " + "s" * 20})[0] \
        == 200
    assert _call(exposed, {"host": "10.0.0.5:8080", "authorization": "Bearer wrong"})[0] == 401


def test_serve_refuses_an_exposed_host_without_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from hopgraph.cli import cli

    monkeypatch.delenv("HOPGRAPH_API_TOKEN", raising=False)
    for args in (["serve", "--host", "0.0.0.0"],
                 ["mcp", "--transport", "streamable-http", "--host", "0.0.0.0"]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 1, result.output
        assert result.output.count("\n") == 1 and "HOPGRAPH_API_TOKEN" in result.output


class _CountingEmbedder:
    """A deterministic embedder that counts what it is asked to compute."""

    name, dimension = "counting", 3

    def __init__(self) -> None:
        self.queries: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[float(len(t)), 0.0, 1.0] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return [float(len(text)), 1.0, 0.0]


def test_query_vector_cache_embeds_a_question_once_and_evicts_the_oldest() -> None:
    from hopgraph._service import QueryVectorCache

    inner = _CountingEmbedder()
    cache = QueryVectorCache(inner, size=2)
    first = cache.embed_query("a")
    first.append(99.0)  # a caller's change does not reach the cached vector
    assert cache.embed_query("a") == [1.0, 1.0, 0.0] and inner.queries == ["a"]
    cache.embed_query("bb")
    cache.embed_query("a")  # "a" is now the most recent: "bb" goes first
    cache.embed_query("ccc")
    cache.embed_query("a")
    cache.embed_query("bb")
    assert inner.queries == ["a", "bb", "ccc", "bb"]
    assert (cache.hits, cache.misses) == (3, 4)
    assert cache.embed_documents(["xy"]) == [[2.0, 0.0, 1.0]]
    assert (cache.name, cache.dimension) == ("counting", 3)


def test_query_vector_cache_is_shared_by_threads() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from hopgraph._service import QueryVectorCache

    inner = _CountingEmbedder()
    cache = QueryVectorCache(inner, size=16)
    questions = [f"q{i % 4}" for i in range(64)]
    with ThreadPoolExecutor(8) as pool:
        vectors = list(pool.map(cache.embed_query, questions))
    assert vectors == [[float(len(q)), 1.0, 0.0] for q in questions]
    assert set(inner.queries) == {"q0", "q1", "q2", "q3"}
    assert cache.hits + cache.misses == 64 and cache.misses == len(inner.queries)
