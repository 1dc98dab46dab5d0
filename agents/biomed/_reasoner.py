"""ReGraM: region-first reasoning over the biomedical graph (paper §3, Algorithm 1).

For each sub-question the reasoner links entities, builds the region G_q in Cypher (domain
weights as a parameter map) and with weighted MMR, picks the mode from the number of region
facts (KG-STRICT ≥ 10, HYBRID 1–9, LLM-GUESS 0), reasons only over the region (HYBRID hypotheses
are held to in-region entities and relations and pass the Reviewer), records the evidence map and
synthesises the final answer. Without an LLM every step falls back to deterministic rules and
the answer is labelled retrieval-only.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import Any

import numpy as np

from hopgraph.agents.biomed import _prompts
from hopgraph.agents.biomed._joins import JoinPlan, plan_join
from hopgraph.agents.biomed._linking import EntityLinker, LinkedEntity
from hopgraph.agents.biomed._options import (
    OFF_CUE_FACTOR,
    OPPOSITE_FACTOR,
    TIE_REL_TOL,
    asks_for_exception,
    choose_option,
    option_score,
    option_strength,
)
from hopgraph.agents.biomed._planning import Plan, Typed, classify, decompose
from hopgraph.agents.biomed._reviewer import (
    GraphVerifier,
    Hypothesis,
    Reviewer,
    Verdict,
    Verifier,
    closed_world_problem,
    parse_triplets,
)
from hopgraph.core.errors import LLMError
from hopgraph.core.ports import ChatModel, Embedder, parse_json_reply
from hopgraph.core.results import Evidence
from hopgraph.db import QueryRunner
from hopgraph.retrieval import (
    DEFAULT_HOP_DECAY,
    DEFAULT_K,
    DEFAULT_LAMBDA,
    DEFAULT_MAX_EDGES,
    DEFAULT_PER_ENTITY_LIMIT,
    JoinedEntity,
    OptionPath,
    Region,
    collect_candidates,
    join_hops,
    relation_weights,
    score_option_paths,
    select_region,
)

STRICT_MIN_FACTS = 10
_HOP_TOKENS = 512
_FINAL_TOKENS = 1024


class Mode(StrEnum):
    """Evidence-aware reasoning modes (§3.3)."""

    KG_STRICT = "KG-STRICT"
    HYBRID = "HYBRID"
    LLM_GUESS = "LLM-GUESS"


def mode_for(n_facts: int, strict_min: int = STRICT_MIN_FACTS) -> Mode:
    """KG-STRICT with ≥ ``strict_min`` facts, HYBRID with 1 or more, LLM-GUESS with none."""
    if n_facts >= strict_min:
        return Mode.KG_STRICT
    return Mode.HYBRID if n_facts > 0 else Mode.LLM_GUESS


@dataclass(frozen=True)
class RegramConfig:
    """Knobs of the pipeline, including the ablations of the paper (Tables 4, 6, 9)."""

    k: int = DEFAULT_K
    lam: float = DEFAULT_LAMBDA
    per_entity_limit: int = DEFAULT_PER_ENTITY_LIMIT
    strict_min: int = STRICT_MIN_FACTS
    use_domain_prior: bool = True
    use_multihop: bool = True
    use_mmr: bool = True
    use_reviewer: bool = True
    unweighted_vector_baseline: bool = False  # top-k by similarity alone, no weights, no MMR
    use_joins: bool = True  # join the hops on their shared variable in Cypher
    option_max_edges: int = DEFAULT_MAX_EDGES  # longest option-to-question path (2 or 3 edges)
    option_hop_decay: float = DEFAULT_HOP_DECAY  # path factor per edge after the first
    # compare options on direct facts first, indirect paths only on a tie (False: one summed score)
    option_direct_first: bool = True
    # issue 29: a negation or "except" before a treatment cue asks for contraindications (and the
    # other way round); a fact of the opposite relation counts against an option; a negated
    # treatment word is not an exception. False: the rules before (cue word alone, opposite
    # facts at half weight, every "not" abstains).
    negation_cues: bool = True
    # an option reached only by paths of 2-3 edges (no direct fact) is chosen only when its score
    # is at least this multiple of the runner-up's (None: never, abstain; 1.0: any strict winner,
    # the rule before issue 29). See biomed_eval_negation.md for the measurement behind it.
    indirect_margin: float | None = None


@dataclass
class HopResult:
    """One sub-question: its region, mode, answer and the Reviewer's verdicts."""

    question: str
    mode: Mode
    linked: list[LinkedEntity]
    region: Region
    answer: str
    answer_source: str
    accepted_hypotheses: list[Hypothesis] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)
    seconds: float = 0.0


@dataclass(frozen=True)
class OptionEvidence:
    """What an MCQ option rests on: its score and the weighted paths behind it.

    ``score`` sums, over the question entities the option's entities reach, the best path's score
    weighted by the link's confidence: one-edge facts in ``direct``, longer paths discounted by the
    option entity's degree (:func:`hopgraph.agents.biomed._options.option_strength`; options compare
    on ``direct`` first). With ``option_direct_first`` off, every path is hub-discounted into one
    sum (:func:`hopgraph.agents.biomed._options.option_score`). ``similarity`` is the best cosine
    between the option text and a region fact (used only by the unweighted vector baseline).
    """

    score: float
    paths: tuple[OptionPath, ...] = ()
    similarity: float = 0.0
    direct: float | None = None  # the direct tier of ``score`` (None: scored as one sum)
    asked: float = 0.0  # the direct facts of the relation a cue asks for


@dataclass
class BioAnswer:
    """The result of :meth:`Regram.ask`."""

    question: str
    options: dict[str, str]
    domain: Typed
    plan: Plan
    hops: list[HopResult]
    answer: str
    answer_source: str
    choice: str | None
    choice_source: str | None
    label: str
    llm_model: str | None
    seconds: float
    join: JoinPlan | None = None
    joined: list[JoinedEntity] = field(default_factory=list)
    option_evidence: dict[str, OptionEvidence] = field(default_factory=dict)

    @property
    def region_ids(self) -> set[str]:
        return set().union(*(h.region.node_ids for h in self.hops)) if self.hops else set()

    def evidence_map(self) -> list[dict[str, Any]]:
        """Per hop: the sub-question, its mode, answer and the facts it rests on."""
        out: list[dict[str, Any]] = [
            {"hop": i + 1, "question": h.question, "mode": h.mode.value, "answer": h.answer,
             "facts": [t.text() for t in h.region.triplets],
             "hypotheses": [x.text() for x in h.accepted_hypotheses]}
            for i, h in enumerate(self.hops)]
        if self.joined:
            out.append({"join": [j.text() for j in self.joined]})
        if self.choice is not None and self.choice in self.option_evidence:
            out.append({"choice": self.choice,
                        "paths": [p.text() for p in self.option_evidence[self.choice].paths]})
        return out

    def to_evidence(self) -> list[Evidence]:
        """What the answer rests on, in the shared evidence shape
        (:class:`hopgraph.core.results.Evidence`): every hop's region triplets (role ``triplet``, the
        hop as provenance, each triplet once), the hypotheses the Reviewer accepted
        (``hypothesis``), the entities joined across hops (``joined``) and the paths behind the
        chosen option (``option_path``)."""
        out: list[Evidence] = []
        seen: set[str] = set()
        for i, hop in enumerate(self.hops, start=1):
            for ev in region_evidence(hop.region, hop=i):
                if ev.id not in seen:
                    seen.add(ev.id)
                    out.append(ev)
            verdicts = {v.hypothesis: v for v in hop.verdicts if v.accepted}
            for h in hop.accepted_hypotheses:
                verdict = verdicts.get(h)
                out.append(Evidence(
                    domain="biomed", id=f"hypothesis:{h.head}-[{h.relation}]->{h.tail}",
                    text=h.text(), role="hypothesis",
                    score=None if verdict is None else verdict.score,
                    provenance=f"hop {i}: reviewed hypothesis ({hop.question})"))
        for j in self.joined:
            out.append(Evidence(domain="biomed", id=j.id, text=j.text(), role="joined",
                                score=j.score, citation=j.name,
                                provenance="join of the hops on their shared entity"))
        if self.choice is not None and self.choice in self.option_evidence:
            for p in self.option_evidence[self.choice].paths:
                out.append(Evidence(
                    domain="biomed", id=f"option {p.letter}:{p.option_id}->{p.stem_id}",
                    text=p.text(), role="option_path", score=p.score,
                    provenance=f"path from option {p.letter} to a question entity"))
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (CLI ``--json``)."""
        return {
            "question": self.question, "options": self.options,
            "domain": self.domain.domain.value, "domain_source": self.domain.source,
            "hops_source": self.plan.source, "answer": self.answer,
            "answer_source": self.answer_source, "choice": self.choice,
            "choice_source": self.choice_source, "label": self.label, "llm": self.llm_model,
            "seconds": round(self.seconds, 3),
            "hops": [{
                "question": h.question, "mode": h.mode.value, "answer": h.answer,
                "answer_source": h.answer_source,
                "linked": [asdict(e) for e in h.linked],
                "candidates": h.region.candidates,
                "seeds": [{**asdict(s), "truncated": s.truncated} for s in h.region.seeds],
                "region": [{"head": t.head, "relation": t.relation, "tail": t.tail,
                            "head_id": t.head_id, "tail_id": t.tail_id, "weight": t.weight,
                            "similarity": round(t.similarity, 4), "mmr": round(t.mmr, 4),
                            "text": t.text()} for t in h.region.triplets],
                "verdicts": [{"triplet": v.hypothesis.text(), "score": v.score,
                              "accepted": v.accepted, "reason": v.reason,
                              "verifier": v.verifier, "round": v.round} for v in h.verdicts],
                "seconds": round(h.seconds, 3),
            } for h in self.hops],
            "join": None if self.join is None else {
                "plan": self.join.describe(), "answer_types": list(self.join.answer_types),
                "entities": [{"id": j.id, "name": j.name, "node_type": j.node_type,
                              "score": round(j.score, 4), "chain": [t.text() for t in j.chain]}
                             for j in self.joined]},
            "option_evidence": {k: {"score": round(v.score, 4), "similarity": round(v.similarity, 4),
                                    "direct": None if v.direct is None else round(v.direct, 4),
                                    "paths": [p.text() for p in v.paths]}
                                for k, v in self.option_evidence.items()},
            "evidence_map": self.evidence_map(),
        }


def region_evidence(region: Region, *, hop: int | None = None) -> list[Evidence]:
    """A region's triplets in the shared evidence shape (:class:`hopgraph.core.results.Evidence`),
    in region order: id ``head_id-[RELATION]->tail_id``, the verbalised triplet as text, the
    MMR score (the similarity when MMR was off), the sub-question (and hop) as provenance."""
    where = f"hop {hop} region: " if hop is not None else "region: "
    return [Evidence(domain="biomed", id=f"{t.head_id}-[{t.relation}]->{t.tail_id}",
                     text=t.text(), role="triplet", score=t.mmr or t.similarity,
                     citation=f"({t.head}, {t.relation}, {t.tail})",
                     provenance=where + region.question)
            for t in region.triplets]


def _facts(region: Region, extra: Sequence[Hypothesis] = ()) -> str:
    lines = [f"- {t.text()}" for t in region.triplets]
    lines += [f"- {h.head} {h.relation.lower().replace('_', ' ')} {h.tail} (reviewed hypothesis)"
              for h in extra]
    return "\n".join(lines) or "(none)"


class Regram:
    """The region-first reasoner.

    Args:
        runner: query runner over a graph loaded with :func:`hopgraph.loaders.biomed.load_primekg`.
        embedder: all-MiniLM-L6-v2 (or another) for the MMR similarities; triplet vectors the
            loader stored for it (``--embed-triplets``) are used instead of embedding them.
        linker: the entity linker.
        llm: optional chat model; None runs every step by its deterministic fallback.
        verifier: the Reviewer's verifier; :class:`GraphVerifier` when omitted.
        config: pipeline knobs and ablations.
    """

    def __init__(self, runner: QueryRunner, embedder: Embedder, linker: EntityLinker, *,
                 llm: ChatModel | None = None, verifier: Verifier | None = None,
                 config: RegramConfig | None = None) -> None:
        self._runner = runner
        self._embedder = embedder
        self._linker = linker
        self._llm = llm
        self._verifier = verifier or GraphVerifier(runner)
        self.config = config or RegramConfig()

    @property
    def llm_model(self) -> str | None:
        """The chat model's name, or None when running without an LLM."""
        return self._llm.model if self._llm is not None else None

    @property
    def linker(self) -> EntityLinker:
        """The entity linker this reasoner uses."""
        return self._linker

    def with_config(self, config: RegramConfig) -> Regram:
        """The same components under other knobs (for ablations in one run)."""
        return Regram(self._runner, self._embedder, self._linker, llm=self._llm,
                      verifier=self._verifier, config=config)

    # -- region -----------------------------------------------------------------------------
    def build_region(self, question: str, weights: Mapping[str, float],
                     linked: Sequence[LinkedEntity] | None = None) -> tuple[list[LinkedEntity], Region]:
        """Link, collect weighted candidates in Cypher and select G_q with weighted MMR."""
        cfg = self.config
        if cfg.unweighted_vector_baseline:
            weights = relation_weights(None)
        # The question's vector depends on neither linking nor the region query: it is made in
        # a worker thread (ONNX Runtime and torch release the GIL) while the entities are linked
        # (spaCy, full-text lookups: tens of ms) and the candidates are fetched. With entities
        # given, beside the region query beat before it by 13-20% in all four runs of
        # biomed_region_latency.md (with ONNX Runtime's threads sleeping between calls).
        with ThreadPoolExecutor(max_workers=1) as pool:
            query_vec = pool.submit(self._embedder.embed_query, question)
            linked = list(self._linker.link(question) if linked is None else linked)
            # With the embedder, the query also returns the triplet vectors the loader stored
            # for it, and MMR embeds only the candidates without one (same selection).
            cands = collect_candidates(self._runner, [e.id for e in linked], weights,
                                       per_entity_limit=cfg.per_entity_limit,
                                       embedder=self._embedder)
            qv = query_vec.result()
        region = select_region(question, cands, self._embedder, k=cfg.k, lam=cfg.lam,
                               use_mmr=cfg.use_mmr and not cfg.unweighted_vector_baseline,
                               use_weights=not cfg.unweighted_vector_baseline, query_vec=qv)
        return linked, region

    # -- pipeline ---------------------------------------------------------------------------
    def ask(self, question: str, options: Mapping[str, str] | None = None) -> BioAnswer:
        """Answer ``question`` (short answer, or MCQ when ``options`` maps letters to text)."""
        started = time.perf_counter()
        cfg = self.config
        opts = dict(options or {})
        whole = self._linker.link(question)
        typed = classify(question, self._llm, whole)
        weights = relation_weights(typed.domain if cfg.use_domain_prior else None)
        plan = decompose(question, self._llm) if cfg.use_multihop else Plan((question,), "single-hop")
        hops: list[HopResult] = []
        context: list[tuple[str, str]] = []
        for i, hop_q in enumerate(plan.hops):
            hop_started = time.perf_counter()
            text = hop_q
            if opts and i == len(plan.hops) - 1:
                text = hop_q + " Options: " + "; ".join(opts.values())
            linked, region = self.build_region(text, weights)
            hop = self._reason(hop_q, linked, region, context)
            hop.seconds = time.perf_counter() - hop_started
            hops.append(hop)
            context.append((hop_q, hop.answer))
        join: JoinPlan | None = None
        joined: list[JoinedEntity] = []
        stem_ids: list[str] = []
        if not cfg.unweighted_vector_baseline and (cfg.use_joins or opts):
            # the hops' own entities (options aside), linked once: the join's anchors and the
            # question entities options are scored against
            hop_links = [self._linker.link(h) for h in plan.hops]
            stem_ids = list(dict.fromkeys(e.id for links in hop_links for e in links))
            # its cues tell options what is asked
            join = plan_join(plan.hops, self._linker, hop_links, negation=cfg.negation_cues)
            if cfg.use_joins:
                joined = join_hops(self._runner, join.constraints, weights,
                                   answer_types=join.answer_types)
        evidence = self._option_evidence(opts, hops, weights, stem_ids, join) if opts else {}
        answer, source, choice, choice_source = self._synthesise(question, opts, hops, joined,
                                                                 evidence, join)
        label = self._label(hops, choice, opts, answer, join, joined, evidence)
        return BioAnswer(question, opts, typed, plan, hops, answer, source, choice, choice_source,
                         label, self._llm.model if self._llm is not None else None,
                         time.perf_counter() - started, join, joined, evidence)

    def _complete(self, prompt: str, max_tokens: int,
                  schema: dict[str, Any] | None = None) -> str | None:
        if self._llm is None:
            return None
        try:
            return self._llm.complete([{"role": "user", "content": prompt}],
                                      max_tokens=max_tokens, json_mode=schema is not None,
                                      schema=schema).text.strip()
        except LLMError:
            return None

    def _reason(self, question: str, linked: list[LinkedEntity], region: Region,
                context: Sequence[tuple[str, str]]) -> HopResult:
        mode = mode_for(len(region.triplets), self.config.strict_min)
        q = question
        if context:
            q += "\nEarlier hops: " + " | ".join(f"{a} -> {b}" for a, b in context)
        accepted: list[Hypothesis] = []
        verdicts: list[Verdict] = []
        if mode is Mode.HYBRID and self._llm is not None:
            reply = self._complete(_prompts.HYPOTHESES.format(
                question=q, facts=_facts(region),
                entities=", ".join(sorted({t.head for t in region.triplets} | {t.tail for t in region.triplets})),
                relations=", ".join(sorted(region.relations))), _HOP_TOKENS,
                schema=_prompts.HYPOTHESES_REPLY)
            hyps: list[Hypothesis] = []
            if reply:
                try:
                    hyps = parse_triplets(parse_json_reply(reply), "triplets")
                except LLMError:
                    hyps = []
            if self.config.use_reviewer:
                accepted, verdicts = Reviewer(self._verifier, self._llm).review(hyps, q, region)
            else:  # ablation: closed-world filter only, no verification
                accepted = [h for h in hyps if closed_world_problem(h, region) is None]
        template = {Mode.KG_STRICT: _prompts.HOP_STRICT, Mode.HYBRID: _prompts.HOP_HYBRID,
                    Mode.LLM_GUESS: _prompts.HOP_GUESS}[mode]
        reply = self._complete(template.format(question=q, facts=_facts(region, accepted)), _HOP_TOKENS)
        if reply:
            return HopResult(question, mode, linked, region, reply, "llm", accepted, verdicts)
        if region.triplets:
            top = "; ".join(t.text() for t in region.triplets[:3])
            return HopResult(question, mode, linked, region, f"KG facts: {top}", "kg-only",
                             accepted, verdicts)
        return HopResult(question, mode, linked, region,
                         "No KG evidence in the region and no LLM configured.", "none",
                         accepted, verdicts)

    def _option_evidence(self, opts: Mapping[str, str], hops: Sequence[HopResult],
                         weights: Mapping[str, float], stem_ids: Sequence[str],
                         join: JoinPlan | None = None) -> dict[str, OptionEvidence]:
        """Per option: the weighted paths joining its entities to the question's entities.

        The question's entities (``stem_ids``) are those linked from the hops themselves (not
        from the options), and an option's entities exclude them, so an option scores only by
        what connects it to the question, never by being in the graph. The unweighted vector
        baseline instead scores by the best similarity between the option text and a region fact
        (its historical scorer).
        """
        if self.config.unweighted_vector_baseline:
            return {letter: OptionEvidence(0.0, (), sim)
                    for letter, sim in self._option_similarities(opts, hops).items()}
        links = {letter: [e for e in self._linker.link_option(text) if e.id not in stem_ids]
                 for letter, text in opts.items()}
        paths = score_option_paths(self._runner, {k: [e.id for e in v] for k, v in links.items()},
                                   stem_ids, weights, hop_decay=self.config.option_hop_decay,
                                   max_edges=self.config.option_max_edges)
        if not self.config.option_direct_first:
            return {letter: OptionEvidence(option_score(found, links[letter], opts[letter]),
                                           tuple(found))
                    for letter, found in paths.items()}
        cues = {c.anchor_id: c.relations for c in join.constraints} if join is not None else {}
        out: dict[str, OptionEvidence] = {}
        opposite = OPPOSITE_FACTOR if self.config.negation_cues else OFF_CUE_FACTOR
        for letter, found in paths.items():
            strength = option_strength(found, links[letter], opts[letter], cues,
                                       opposite_factor=opposite)
            out[letter] = OptionEvidence(strength.total, tuple(found), direct=strength.direct,
                                         asked=strength.asked)
        # compared on (direct, score): see Regram._choose
        return out

    def _option_similarities(self, opts: Mapping[str, str], hops: Sequence[HopResult]) -> dict[str, float]:
        """Per option: best cosine between its text and a region fact (vectors MMR already used)."""
        triplets = [t for h in hops for t in h.region.triplets]
        known = {key: v for h in hops for key, v in h.region.vectors.items()}
        missing = [t for t in triplets if t.key not in known]
        if missing:
            fresh = self._embedder.embed_documents([t.text() for t in missing])
            known.update({t.key: np.asarray(v, dtype=np.float32) for t, v in zip(missing, fresh, strict=True)})
        if not triplets:
            return dict.fromkeys(opts, 0.0)
        vecs = np.stack([np.asarray(known[t.key], dtype=np.float32) for t in triplets])
        return {letter: float(np.max(vecs @ np.asarray(self._embedder.embed_query(text), dtype=np.float32)))
                if text.strip() else 0.0 for letter, text in opts.items()}

    @staticmethod
    def _choose(evidence: Mapping[str, OptionEvidence],
                indirect_margin: float | None = 1.0) -> tuple[str | None, str]:
        """The letter with the most evidence, or None (abstain) when no option has any or the best
        ones tie (:func:`choose_option`): letters carry no information, so none is preferred.

        Scored on direct facts first, a winner without a direct fact (reached by longer paths
        only) is kept only when its score is at least ``indirect_margin`` times the runner-up's
        (None: never)."""
        letter, reason = choose_option(
            {k: ((e.direct, e.score) if e.direct is not None
                 else e.score if e.score > 0 else e.similarity) for k, e in evidence.items()})
        if letter is None:
            return None, reason
        chosen = evidence[letter]
        if chosen.direct is not None and chosen.direct <= 0 and chosen.score > 0:
            runner_up = max((e.score for k, e in evidence.items() if k != letter), default=0.0)
            margin = chosen.score / runner_up if runner_up > 0 else math.inf
            if indirect_margin is None or margin < indirect_margin:
                return None, "abstain: indirect evidence only"
        return letter, ("kg-paths" if chosen.score > 0 else "similarity")

    @staticmethod
    def _answers_turned_cue(chosen: OptionEvidence, join: JoinPlan | None) -> bool:
        """An exception question ("all of the following treat X except") whose cue was turned to
        the opposite relation is answered by an option holding a fact of that relation (a
        contraindication of X): the graph states it, rather than lacking the other options."""
        return (join is not None and any(c.negated for c in join.constraints)
                and chosen.asked > 0)

    def _synthesise(self, question: str, opts: Mapping[str, str], hops: Sequence[HopResult],
                    joined: Sequence[JoinedEntity], evidence_by_option: Mapping[str, OptionEvidence],
                    join: JoinPlan | None = None) -> tuple[str, str, str | None, str | None]:
        evidence = "\n".join(f"Hop {i + 1} [{h.mode.value}] {h.question} -> {h.answer}"
                             for i, h in enumerate(hops))
        if joined:
            evidence += "\nEntities satisfying every hop (KG chains):\n" + "\n".join(
                f"- {j.text()}" for j in joined[:5])
        for letter, e in evidence_by_option.items():
            if e.paths:
                evidence += f"\nOption {letter} KG paths: " + " | ".join(p.text() for p in e.paths[:3])
        choice: str | None = None
        choice_source: str | None = None
        if opts:
            cfg = self.config
            choice, choice_source = self._choose(evidence_by_option, cfg.indirect_margin)
            if (choice is not None and not cfg.unweighted_vector_baseline
                    and asks_for_exception(question, negated_relations=cfg.negation_cues)
                    and not (cfg.negation_cues and self._answers_turned_cue(
                        evidence_by_option[choice], join))):
                choice, choice_source = None, "abstain: asks for an exception"
        options_block = ""
        if opts:
            options_block = _prompts.FINAL_MCQ_SUFFIX.format(
                options="\n".join(f"{k}: {v}" for k, v in opts.items()))
        reply = self._complete(_prompts.FINAL.format(question=question, evidence=evidence,
                                                     options=options_block), _FINAL_TOKENS,
                               schema=_prompts.final_mcq_reply(opts) if opts else None)
        if reply is not None and opts:
            try:
                data = parse_json_reply(reply)
                letter = str(data.get("answer", "")).strip().upper()[:1] if isinstance(data, dict) else ""
            except LLMError:
                letter = ""
            if letter in opts:
                return f"{letter}: {opts[letter]}", "llm", letter, "llm"
            if choice is None:
                return f"No answer: {choice_source}.", "none (LLM reply unusable)", None, choice_source
            return (f"{choice}: {opts[choice]}", "kg-only (LLM reply unusable)", choice,
                    choice_source)
        if reply is not None:
            return reply, "llm", None, None
        if opts:
            if choice is None:
                return f"No answer: {choice_source}.", "none", None, choice_source
            return f"{choice}: {opts[choice]}", "kg-only", choice, choice_source
        if joined:
            return ("Retrieval-only answer (no LLM). Entities satisfying every hop: "
                    + " | ".join(j.text() for j in joined[:5]), "kg-join", None, None)
        facts = [t.text() for h in hops for t in h.region.triplets[:3]]
        if facts:
            return ("Retrieval-only answer (no LLM). No entity satisfies every hop; region facts: "
                    + "; ".join(facts), "kg-only", None, None)
        return "No linkable entity or KG evidence for this question, and no LLM configured.", "none", None, None

    def _label(self, hops: Sequence[HopResult], choice: str | None, opts: Mapping[str, str],
               answer: str, join: JoinPlan | None, joined: Sequence[JoinedEntity],
               evidence: Mapping[str, OptionEvidence]) -> str:
        """Hallucination label: grounded / tie-broken / indirect / unsupported / llm-guess /
        no-answer.

        ``grounded`` needs a chain of graph triplets behind the answer: for an MCQ, a fact (one
        edge) joining the chosen option to a question entity that no other option matches (when
        another option has the same direct facts, the choice rests on what broke the tie, the
        entities' degrees and longer paths, and is ``tie-broken``); otherwise an entity that satisfies
        every hop's constraint, named by the answer when an LLM wrote it. An option reached only
        by paths of two or three edges is ``indirect``: it is connected to the question, which is
        weaker than a fact about it (on 253 MIRAGE / AfrimedQA diagnosis questions such answers
        were right about as often as chance). With ``option_direct_first`` off, any path grounds.
        """
        if opts:
            if choice is None:
                return "no-answer"
            chosen = evidence.get(choice, OptionEvidence(0.0))
            if chosen.paths:
                if chosen.direct is None:
                    return "grounded"
                if chosen.direct <= 0:
                    return "indirect"
                if any(math.isclose(e.direct or 0.0, chosen.direct, rel_tol=TIE_REL_TOL)
                       for k, e in evidence.items() if k != choice):
                    return "tie-broken"
                return "grounded"
            return "llm-guess" if all(h.mode is Mode.LLM_GUESS for h in hops) else "unsupported"
        if all(h.mode is Mode.LLM_GUESS for h in hops) and not joined:
            return "llm-guess" if self._llm is not None else "no-answer"
        if joined:
            folded = answer.casefold()
            if self._llm is None or any(j.name.casefold() in folded for j in joined):
                return "grounded"
            return "unsupported"
        return "unsupported"


def with_defaults(config: RegramConfig | None = None, **changes: Any) -> RegramConfig:
    """A config with ``changes`` applied (ablation helper)."""
    return replace(config or RegramConfig(), **changes)
