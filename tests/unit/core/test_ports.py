"""The ports sit in the core package (issue 17): ``hopgraph.core.ports`` is light, and
``hopgraph.agents`` re-exports the very same objects, so older imports keep working."""

from __future__ import annotations

import json
import subprocess
import sys

import hopgraph.agents as agents
import hopgraph.core.ports as ports

PORT_NAMES = ("ChatModel", "ChatResult", "Embedder", "SchemaReply", "Usage", "Vector",
              "ask_schema", "parse_json_reply")


def test_agents_re_exports_the_ports_themselves() -> None:
    for name in PORT_NAMES:
        assert getattr(agents, name) is getattr(ports, name), name
        assert name in ports.__all__ and name in agents.__all__


def test_the_ports_import_no_adapter_and_no_model_library() -> None:
    probe = ("import sys, json\nimport hopgraph.core.ports\n"
             "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
             "{'numpy', 'openai', 'neo4j', 'torch', 'sentence_transformers'} "
             "or m.startswith(('hopgraph.agents', 'hopgraph.models')))))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    assert json.loads(out) == []


def test_fake_models_satisfy_the_protocols() -> None:
    class Emb:
        name, dimension = "fake", 2

        def embed_documents(self, texts: object) -> list[list[float]]:
            return [[1.0, 0.0]]

        def embed_query(self, text: str) -> list[float]:
            return [1.0, 0.0]

    assert isinstance(Emb(), ports.Embedder)
    assert ports.parse_json_reply('Sure: ```json\n{"a": [1, 2,],}\n```') == {"a": [1, 2]}
