"""``hopgraph dataset build``: ViHERMES's multi-hop QA dataset builder over the loaded legal graph."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from tqdm import tqdm

from hopgraph import embedder_from_settings
from hopgraph.cli._context import open_runner, settings_of
from hopgraph.eval.dataset import build_dataset


@click.group()
def dataset() -> None:
    """Build multi-hop QA datasets from the loaded legal graph (ViHERMES pipeline)."""


def _hops(value: str) -> list[int]:
    try:
        hops = sorted({int(v) for v in value.split(",") if v.strip()})
    except ValueError:
        raise click.BadParameter(f"--hops must be numbers separated by commas, got {value!r}"
                                 ) from None
    if not hops or hops[0] < 2 or hops[-1] > 8:
        raise click.BadParameter(f"--hops must lie between 2 and 8, got {value!r}")
    return hops


@dataset.command(name="build")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder for train.jsonl, test.jsonl, rejected.jsonl and stats.json.")
@click.option("--k", "k", type=click.IntRange(min=1), default=None,
              help="Number of clusters (default: chosen by cosine silhouette, recorded).")
@click.option("--per-cluster", type=click.IntRange(min=2), default=6, show_default=True,
              help="Representative contexts kept nearest each centroid.")
@click.option("--hops", "hops_text", default="2,3,4", show_default=True,
              help="Hop levels (contexts per tuple).")
@click.option("--per-hop", type=click.IntRange(min=1), default=10, show_default=True,
              help="Semantic tuples sampled per hop level.")
@click.option("--tau", type=click.FloatRange(0.0, 1.0), default=0.5, show_default=True,
              help="Largest overlap |Ta ∩ Tb| / |Ta| between two tuples.")
@click.option("--graph-per-kind", type=click.IntRange(min=0), default=5, show_default=True,
              help="Graph-native pairs per kind (REFERS_TO, AMENDS); 0 for none.")
@click.option("--test-fraction", type=click.FloatRange(0.0, 1.0), default=0.5,
              show_default=True, help="Share of each hop level that goes to the test split.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--max-contexts", type=click.IntRange(min=2), default=5000, show_default=True,
              help="Most articles read from the graph (in id order).")
@click.option("--per-doc", type=click.IntRange(min=1), default=1_000_000,
              help="Most articles of one document (its first, in id order).")
@click.option("--max-context-chars", type=click.IntRange(min=100), default=1200,
              show_default=True, help="Characters of each context shown to the LLM.")
@click.option("--tuples-only", is_flag=True,
              help="No LLM: write the clusters and tuples only (tuples.jsonl, stats.json).")
@click.pass_context
def build(ctx: click.Context, out_dir: Path, k: int | None, per_cluster: int, hops_text: str,
          per_hop: int, tau: float, graph_per_kind: int, test_fraction: float, seed: int,
          max_contexts: int, per_doc: int, max_context_chars: int, tuples_only: bool) -> None:
    """Cluster the loaded articles, sample multi-hop tuples, generate and validate QA, split.

    Generation uses the LLM at HOPGRAPH_LLM_BASE_URL (e.g. `hopgraph llm serve`); the
    statistics (k and its silhouette, cluster sizes, tuples per hop, rejections and why, the
    splits) are printed and written to stats.json.
    """
    hops = _hops(hops_text)
    settings = settings_of(ctx)
    chat = None
    if not tuples_only:
        from hopgraph.models import chat_model_from

        chat = chat_model_from(settings.llm)
        if chat is None:
            raise click.ClickException("dataset build needs an LLM endpoint "
                                       "(HOPGRAPH_LLM_BASE_URL; `hopgraph llm serve` starts "
                                       "the bundled one), or --tuples-only")
    try:
        with open_runner(settings) as (runner, _conn), tqdm(
                unit="tuple", file=sys.stderr, disable=tuples_only) as bar:
            try:
                report = build_dataset(
                    runner, embedder_from_settings(settings, "legal"), chat, out_dir, k=k,
                    per_cluster=per_cluster, hops=hops, per_hop=per_hop, tau=tau,
                    graph_per_kind=graph_per_kind, test_fraction=test_fraction, seed=seed,
                    max_contexts=max_contexts, per_doc=per_doc, max_chars=max_context_chars,
                    progress=bar.update)
            except ValueError as e:
                raise click.ClickException(str(e)) from e
    finally:
        if chat is not None:
            chat.close()
    from dataclasses import asdict

    click.echo(json.dumps(asdict(report), ensure_ascii=False, indent=1))
