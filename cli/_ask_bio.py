"""``hopgraph ask-bio`` and ``hopgraph eval bio``: ReGraM from the command line.

The entry points build everything the reasoner receives: the runner, the English embedder, the
optional LLM (``HOPGRAPH_LLM_BASE_URL``; none means retrieval-only answers) and, when scispaCy is
installed, a spaCy pipeline with its abbreviation detector for linking.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from tqdm import tqdm

from hopgraph.agents.biomed import (
    BioAnswer,
    EntityLinker,
    GraphVerifier,
    LLMVerifier,
    Regram,
    RegramConfig,
    Verifier,
    build_nlp,
)
from hopgraph.cli._context import open_runner, settings_of
from hopgraph.core.settings import Settings
from hopgraph.eval.biomed import ABLATIONS, MemoEmbedder, MemoLinker, evaluate, load_mcq
from hopgraph.models import build_embedder, chat_model_from


@contextmanager
def open_regram(settings: Settings, config: RegramConfig, *, use_nlp: bool = True,
                verifier_kind: str = "graph", memo: bool = False) -> Iterator[Regram]:
    """Build a :class:`Regram` from settings (entry points only)."""
    with open_runner(settings) as (runner, _):
        embedder = build_embedder(settings.embedder.english_model, settings.embedder.cache_dir,
                               onnx_dir=settings.runtime.home / "onnx")
        llm = chat_model_from(settings.llm)
        linker = EntityLinker(runner, nlp=build_nlp() if use_nlp else None)
        verifier: Verifier = LLMVerifier(llm) if verifier_kind == "llm" and llm is not None else GraphVerifier(runner)
        if memo:
            yield Regram(runner, MemoEmbedder(embedder), MemoLinker(linker), llm=llm,
                         verifier=verifier, config=config)
        else:
            yield Regram(runner, embedder, linker, llm=llm, verifier=verifier, config=config)


def _print_answer(ans: BioAnswer) -> None:
    click.echo(f"domain: {ans.domain.domain.value} ({ans.domain.source}); hops by {ans.plan.source}")
    for i, h in enumerate(ans.hops, 1):
        truncated = [s.entity_id for s in h.region.seeds if s.truncated]
        click.echo(f"hop {i} [{h.mode.value}] {h.question}")
        click.echo(f"  linked: {', '.join(f'{e.name} ({e.node_type})' for e in h.linked) or 'none'}"
                   f"; region {len(h.region.triplets)} of {h.region.candidates} candidates"
                   + (f"; capped hubs: {truncated}" if truncated else ""))
        for t in h.region.triplets[:5]:
            click.echo(f"    w={t.weight:.1f} mmr={t.mmr:.3f} {t.text()}")
        for v in h.verdicts:
            click.echo(f"  reviewer r{v.round}: {v.hypothesis.text()} -> "
                       f"{'accepted' if v.accepted else 'rejected'} ({v.reason})")
        click.echo(f"  answer ({h.answer_source}): {h.answer}")
    if ans.join is not None and ans.join.constraints:
        click.echo("join: " + "; ".join(ans.join.describe()))
        for j in ans.joined[:5]:
            click.echo(f"  {j.text()}")
        if not ans.joined:
            click.echo("  no entity satisfies every hop")
    for letter, ev in ans.option_evidence.items():
        facts = "" if ev.direct is None else f"direct facts {ev.direct:.2f}, "
        click.echo(f"option {letter}: {facts}evidence {ev.score:.3f}"
                   + (f" ({ev.paths[0].text()})" if ev.paths else ""))
    click.echo(f"answer ({ans.answer_source}; label {ans.label}): {ans.answer}")


@click.command(name="ask-bio")
@click.argument("question")
@click.option("--option", "options", multiple=True, metavar="LETTER=TEXT",
              help="An MCQ option, repeatable (e.g. --option A=Warfarin).")
@click.option("--k", type=click.IntRange(1, 100), default=15, show_default=True, help="Region size K.")
@click.option("--lambda", "lam", type=click.FloatRange(0, 1), default=0.7, show_default=True)
@click.option("--per-entity-limit", type=click.IntRange(1, 10_000), default=60, show_default=True,
              help="Candidate edges per linked entity (hub cap).")
@click.option("--no-domain-prior", is_flag=True)
@click.option("--no-multihop", is_flag=True)
@click.option("--no-mmr", is_flag=True)
@click.option("--no-reviewer", is_flag=True)
@click.option("--verifier", type=click.Choice(["graph", "llm"]), default="graph", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the full result as JSON.")
@click.pass_context
def ask_bio(ctx: click.Context, question: str, options: tuple[str, ...], k: int, lam: float,
            per_entity_limit: int, no_domain_prior: bool, no_multihop: bool, no_mmr: bool,
            no_reviewer: bool, verifier: str, as_json: bool) -> None:
    """Answer a biomedical QUESTION by region-first reasoning over the loaded PrimeKG graph."""
    if not question.strip():
        raise click.BadParameter("câu hỏi để trống", param_hint="QUESTION")
    opts: dict[str, str] = {}
    for o in options:
        letter, sep, text = o.partition("=")
        if not sep or not letter.strip() or not text.strip():
            raise click.BadParameter(f"{o!r} không có dạng LETTER=TEXT (ví dụ A=Imatinib)",
                                     param_hint="--option")
        opts[letter.strip().upper()] = text.strip()
    config = RegramConfig(k=k, lam=lam, per_entity_limit=per_entity_limit,
                          use_domain_prior=not no_domain_prior, use_multihop=not no_multihop,
                          use_mmr=not no_mmr, use_reviewer=not no_reviewer)
    with open_regram(settings_of(ctx), config, verifier_kind=verifier) as regram:
        ans = regram.ask(question, opts or None)
    if as_json:
        click.echo(json.dumps(ans.to_dict(), indent=2))
    else:
        _print_answer(ans)


@click.command(name="bio")
@click.option("--data", "data_dir", type=click.Path(exists=True, path_type=Path),
              default=Path("../shared/data/medqa"), show_default=True,
              help="A MIRAGE / AfrimedQA directory, or one MCQ file of {question, options: "
                   "{A: ...}, answer} items (JSON list or object, or JSON lines; options may be "
                   "a list, the answer a letter or the text of one option).")
@click.option("--per-dataset", type=click.IntRange(1, 100_000), default=None,
              help="Questions sampled per set (directory: 34 per set; file: all).")
@click.option("--seed", type=int, default=13, show_default=True)
@click.option("--match", default=None, metavar="REGEX",
              help="Only questions whose text matches this regular expression (case-insensitive), "
                   "selected before sampling, e.g. 'diagnos'.")
@click.option("--config", "config_names", multiple=True, type=click.Choice(sorted(ABLATIONS)),
              help="Configurations to run (default: all ablations and the baseline).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the full JSON report here.")
@click.pass_context
def bio(ctx: click.Context, data_dir: Path, per_dataset: int | None, seed: int,
        match: str | None, config_names: tuple[str, ...], out: Path | None) -> None:
    """Evaluate ReGraM, its ablations and the unweighted vector baseline on medical MCQs."""
    if match is not None:
        try:
            re.compile(match)
        except re.error as e:
            raise click.BadParameter(f"not a regular expression ({e})", param_hint="--match") from e
    questions = load_mcq(data_dir, per_dataset=per_dataset, seed=seed, match=match)
    if not questions:
        raise click.UsageError(f"no question of {data_dir} matches --match {match!r}")
    configs = {n: ABLATIONS[n] for n in (config_names or ABLATIONS)}
    with open_regram(settings_of(ctx), RegramConfig(), memo=True) as regram, tqdm(
            total=len(questions), unit=" q", desc="eval bio") as bar:
        report = evaluate(regram, questions, configs=configs, progress=bar.update)
        llm_model = regram.llm_model
    report["sampling"] = {"per_dataset": per_dataset, "seed": seed, "match": match,
                          "questions": len(questions),
                          "llm": llm_model}
    if out is not None:
        out.write_text(json.dumps(report, indent=2))
    click.echo(json.dumps({"configs": report["configs"], "comparisons": report["comparisons"]},
                          indent=2))
