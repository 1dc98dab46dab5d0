"""The CLI imports a command when it runs (issue 18): ``hopgraph --help`` lists every command
without importing the command modules, and the table it lists them from says what the commands
themselves say."""

from __future__ import annotations

import json
import subprocess
import sys

import click

from hopgraph.cli import cli
from hopgraph.cli._lazy import LazyGroup

# what --help must not import: the driver (with pandas), the models, the agents
NOT_FOR_HELP = ("neo4j", "pandas", "numpy", "torch", "sentence_transformers", "transformers",
                "onnxruntime", "pyvi", "spacy", "rapidfuzz", "neomodel", "hopgraph.agents",
                "hopgraph.models", "hopgraph.retrieval", "hopgraph.loaders")


def _groups(group: LazyGroup, prefix: str = "") -> list[tuple[str, LazyGroup]]:
    out = [(prefix, group)]
    for name, sub in group.commands.items():
        if isinstance(sub, LazyGroup):
            out.extend(_groups(sub, f"{prefix}{name} "))
    return out


def test_every_lazy_entry_is_the_command_it_names_with_its_own_help() -> None:
    entries = 0
    for prefix, group in _groups(cli):  # type: ignore[arg-type]
        ctx = click.Context(group)
        for name, (target, short_help) in sorted(group.lazy.items()):
            command = group.get_command(ctx, name)
            assert isinstance(command, click.Command), f"{prefix}{name}: {target}"
            assert command.name == name, f"{prefix}{name} is registered as {command.name}"
            assert command.get_short_help_str(10_000) == short_help, f"{prefix}{name}"
            entries += 1
    assert entries >= 14


def test_question_commands_keep_the_shared_check() -> None:
    from hopgraph.cli._context import QUESTION

    ctx = click.Context(cli)
    for name in ("retrieve", "ask", "ask-bio", "ask-sentences"):
        command = cli.get_command(ctx, name)
        assert command is not None
        assert [p.type for p in command.params if p.name == "question"] == [QUESTION]


def test_help_imports_no_command_module() -> None:
    probe = ("import sys, json\nfrom click.testing import CliRunner\nfrom hopgraph.cli import cli\n"
             "r = CliRunner().invoke(cli, ['--help'])\nassert r.exit_code == 0, r.output\n"
             "assert 'ask-sentences' in r.output and 'retrieve' in r.output\n"
             f"print(json.dumps(sorted(m for m in sys.modules if m.startswith({NOT_FOR_HELP!r}))))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    assert json.loads(out) == []
