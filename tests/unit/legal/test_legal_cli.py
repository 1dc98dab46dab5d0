"""``hopgraph load legal`` is registered and validates its arguments (no database needed)."""

from __future__ import annotations

from click.testing import CliRunner

from hopgraph.cli import cli


def test_load_legal_is_registered_with_its_options() -> None:
    result = CliRunner().invoke(cli, ["load", "legal", "--help"])
    assert result.exit_code == 0
    assert "--no-embed" in result.output and "--batch-size" in result.output


def test_load_legal_needs_a_path_and_a_positive_batch() -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["load", "legal"]).exit_code == 2
    bad = runner.invoke(cli, ["load", "legal", "--batch-size", "0", "x.txt"])
    assert bad.exit_code == 2 and "batch-size" in bad.output
