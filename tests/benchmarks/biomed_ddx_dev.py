"""A MedDDx-style development set drawn from the shared PrimeKG subset (our own questions).

ReGraM is evaluated on MedDDx: multiple-choice questions over PrimeKG entities whose four options
are entities of one type with similar names (ReGraM C.9: "What are the diseases associated with
the NGLY1 gene ...? (A) ALG1-CDG (B) lipoyl transferase 1 deficiency (C) NGLY1-deficiency ...").
MedDDx itself is not in ``../shared``. This script writes questions of that shape from the subset
so the option scorer can be measured where the graph holds the answer: each question names one or
two entities of the subset and asks for the entity that the subset's edges connect to all of them;
the three distractors are entities of the same type that do not satisfy every constraint.

Two distractor levels, as MedDDx has:

- ``basic``: distractors drawn at random among same-type entities;
- ``expert``: the same-type entities whose names are most similar to the gold option's
  (rapidfuzz token_set_ratio), so names do not give the answer away; for two-constraint
  questions one distractor satisfies one of the two constraints when the graph has one.

The phrasings are ours (several per kind, chosen at random). Figures measured on this set measure
our reading of MedDDx's phenomena, not MedDDx: say so when reporting them. The questions are
derived from the shared data at run time and written outside the repository (never committed).

    python -m tests.benchmarks.biomed_ddx_dev --out /tmp/ddx.jsonl [--per-kind 30] [--seed 7]
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from rapidfuzz import fuzz, process

from hopgraph.graph_models import BioRel, BioType
from hopgraph.loaders.biomed import ReadStats, read_triplet_tsv

REPO = Path(__file__).resolve().parents[2]
TSV = REPO.parent / "shared" / "data" / "primekg" / "primekg_triples_subset.tsv"

# kind -> phrasings; {a} / {b} are the named entities
TEMPLATES: dict[str, tuple[str, ...]] = {
    "gene_disease": (
        "What are the diseases associated with the {a} gene, and what clinical outcomes does this link entail?",
        "Mutations in {a} are implicated in which of the following conditions?",
        "Which disease is genetically associated with {a}?",
        "A patient is found to carry a pathogenic variant in {a}. Which diagnosis is most consistent with this finding?",
    ),
    "two_genes_disease": (
        "Which disease is associated with both {a} and {b}?",
        "A patient has variants in {a} and {b}. What is the most likely diagnosis?",
        "Which condition is linked to the genes {a} and {b}?",
    ),
    "drug_disease": (
        "{a} is indicated for which of the following conditions?",
        "Which disease can be treated with {a}?",
        "For which condition is {a} used?",
    ),
    "disease_drug": (
        "Which drug is used to treat {a}?",
        "Which of the following medications is indicated for {a}?",
        "A patient is diagnosed with {a}. Which drug is an approved treatment?",
    ),
    "drug_gene": (
        "Which protein does {a} target?",
        "{a} acts on which of the following genes?",
        "Which gene product is a target of {a}?",
    ),
    "findings_gene_disease": (
        "A patient presents with {findings}. Genetic testing shows a pathogenic variant in {a}. What is the most likely diagnosis?",
        "Which disease, presenting with {findings}, is associated with {a}?",
        "A child has {findings} and carries a mutation in {a}. Which condition is most likely?",
    ),
    "gene_drug_disease": (
        "A patient with a variant in {a} is treated with {b}. What is the most likely diagnosis?",
        "Which disease is associated with {a} and treated with {b}?",
        "Which condition, linked to {a}, is an indication of {b}?",
    ),
    # negation (issue 29): the answer is a contraindication; at the expert level one distractor
    # is an indication of the named entity (the trap of reading "treated with" alone)
    "disease_contra_drug": (
        "A patient with {a} should not be treated with which of the following?",
        "Which of the following drugs is contraindicated in {a}?",
        "Which medication should be avoided in patients with {a}?",
        "Which drug must not be given to patients with {a}?",
    ),
    "drug_contra_disease": (
        "{a} should not be given to patients with which condition?",
        "In which of the following conditions is {a} contraindicated?",
        "Patients with which disease should not be treated with {a}?",
    ),
    # exception: three options are indications of {a}, the answer is a contraindication
    "disease_drug_except": (
        "All of the following drugs are used to treat {a} except:",
        "Each of the following is indicated for {a} except:",
    ),
}
# kinds added after the first records draw from their own random stream, so a seed gives the
# earlier kinds' questions unchanged
NEGATION_KINDS = ("disease_contra_drug", "drug_contra_disease", "disease_drug_except")
# kind -> (answer type, [(named type, relation)]): the answer x satisfies every (x)-[rel]-(named)
KINDS: dict[str, tuple[BioType, tuple[tuple[BioType, BioRel], ...]]] = {
    "gene_disease": (BioType.DISEASE, ((BioType.GENE_PROTEIN, BioRel.ASSOCIATED_WITH),)),
    "two_genes_disease": (BioType.DISEASE, ((BioType.GENE_PROTEIN, BioRel.ASSOCIATED_WITH),
                                            (BioType.GENE_PROTEIN, BioRel.ASSOCIATED_WITH))),
    "drug_disease": (BioType.DISEASE, ((BioType.DRUG, BioRel.INDICATION),)),
    "disease_drug": (BioType.DRUG, ((BioType.DISEASE, BioRel.INDICATION),)),
    "drug_gene": (BioType.GENE_PROTEIN, ((BioType.DRUG, BioRel.TARGET),)),
    "gene_drug_disease": (BioType.DISEASE, ((BioType.GENE_PROTEIN, BioRel.ASSOCIATED_WITH),
                                            (BioType.DRUG, BioRel.INDICATION))),
    "findings_gene_disease": (BioType.DISEASE, ((BioType.GENE_PROTEIN, BioRel.ASSOCIATED_WITH),)),
    "disease_contra_drug": (BioType.DRUG, ((BioType.DISEASE, BioRel.CONTRAINDICATION),)),
    "drug_contra_disease": (BioType.DISEASE, ((BioType.DRUG, BioRel.CONTRAINDICATION),)),
    "disease_drug_except": (BioType.DRUG, ((BioType.DISEASE, BioRel.CONTRAINDICATION),)),
}
TREATMENT = (BioRel.INDICATION, BioRel.OFF_LABEL_USE)
# Clinical findings mixed into "findings_gene_disease" questions, drawn at random: the subset has
# no phenotype edges, so they are noise the scorer must survive (some name diseases of the subset,
# such as anemia or epilepsy, and link as question entities).
FINDINGS = ("fever", "fatigue", "seizures", "anemia", "jaundice", "hepatomegaly", "proteinuria",
            "hypotonia", "developmental delay", "short stature", "hearing loss", "cataract",
            "recurrent infections", "muscle weakness", "skin rash", "joint pain", "obesity",
            "hypertension", "epilepsy", "intellectual disability")
LETTERS = "ABCD"


class Graph:
    """Typed adjacency of the subset: (entity, relation) -> neighbours, and names by type."""

    def __init__(self, path: Path) -> None:
        self.types: dict[str, BioType] = {}
        self.adj: dict[tuple[str, BioRel], set[str]] = defaultdict(set)
        for e in read_triplet_tsv(path, ReadStats()):
            self.types[e.head.name] = e.head.type
            self.types[e.tail.name] = e.tail.type
            self.adj[(e.head.name, e.rel)].add(e.tail.name)
            self.adj[(e.tail.name, e.rel)].add(e.head.name)
        self.by_type: dict[BioType, list[str]] = defaultdict(list)
        for name, t in sorted(self.types.items()):
            self.by_type[t].append(name)

    def satisfies(self, x: str, named: Sequence[str], rels: Sequence[BioRel]) -> list[bool]:
        return [x in self.adj.get((n, r), set()) for n, r in zip(named, rels, strict=True)]


def _draw(g: Graph, kind: str, rng: random.Random) -> tuple[list[str], str] | None:
    answer_type, spec = KINDS[kind]
    first_type, first_rel = spec[0]
    a = rng.choice(g.by_type[first_type])
    pool = sorted(x for x in g.adj.get((a, first_rel), set()) if g.types.get(x) == answer_type)
    if not pool:
        return None
    if len(spec) == 1:
        return [a], rng.choice(pool)
    second_type, second_rel = spec[1]
    rng.shuffle(pool)
    for gold in pool:
        others = sorted(n for n in g.adj.get((gold, second_rel), set())
                        if g.types.get(n) == second_type and n != a)
        if others:
            return [a, rng.choice(others)], gold
    return None


def _treated(g: Graph, x: str, named: str) -> bool:
    return any(x in g.adj.get((named, r), set()) for r in TREATMENT)


def _distractors(g: Graph, kind: str, named: list[str], gold: str, level: str,
                 rng: random.Random) -> list[str] | None:
    answer_type, spec = KINDS[kind]
    rels = [r for _, r in spec]
    candidates = [x for x in g.by_type[answer_type]
                  if x != gold and x not in named and not all(g.satisfies(x, named, rels))]
    if kind == "disease_drug_except":  # the three others are indications of the named disease
        treated = sorted(x for x in candidates if _treated(g, x, named[0]))
        return rng.sample(treated, 3) if len(treated) >= 3 else None
    if kind in NEGATION_KINDS and level == "expert":
        trap = sorted(x for x in candidates if _treated(g, x, named[0]))
        others = [x for x in candidates if x not in trap]
        if not trap or len(others) < 2:
            return None
        near = process.extract(gold, others, scorer=fuzz.token_set_ratio, limit=8)
        chosen = [name for name, score, _ in near if score < 100][:4]
        rng.shuffle(chosen)
        return [*chosen[:2], rng.choice(trap)] if len(chosen) >= 2 else None
    if len(candidates) < 3:
        return None
    if level == "basic":
        return rng.sample(candidates, 3)
    near = process.extract(gold, candidates, scorer=fuzz.token_set_ratio, limit=12)
    chosen = [name for name, score, _ in near if score < 100][:6]
    rng.shuffle(chosen)
    picked = chosen[:3]
    if len(spec) == 2:  # one distractor meets one of the two constraints, when one exists
        partial = sorted(x for x in candidates if any(g.satisfies(x, named, rels)) and x not in picked)
        if partial:
            picked = [*picked[:2], rng.choice(partial)]
    return picked if len(picked) == 3 else None


def generate(path: Path, *, per_kind: int, seed: int,
             kinds: Sequence[str] | None = None) -> list[dict[str, object]]:
    """``per_kind`` questions of every kind (or of ``kinds``) at both levels, seeded; a kind left
    out changes no other kind's questions."""
    g = Graph(path)
    first = random.Random(seed)
    out: list[dict[str, object]] = []
    for level in ("basic", "expert"):
        for kind in KINDS:
            rng = random.Random(f"{seed}-{level}-{kind}") if kind in NEGATION_KINDS else first
            made = tries = 0
            while made < per_kind and tries < per_kind * 50:
                tries += 1
                drawn = _draw(g, kind, rng)
                if drawn is None:
                    continue
                named, gold = drawn
                distractors = _distractors(g, kind, named, gold, level, rng)
                if distractors is None:
                    continue
                options = [gold, *distractors]
                rng.shuffle(options)
                letters = dict(zip(LETTERS, options, strict=True))
                answer = LETTERS[options.index(gold)]
                findings = ", ".join(rng.sample(FINDINGS, 2)) + " and " + rng.choice(FINDINGS)
                text = rng.choice(TEMPLATES[kind]).format(a=named[0], b=named[-1], findings=findings)
                out.append({"question": text, "options": letters, "answer": answer,
                            "dataset": f"ddx_{level}", "kind": kind})
                made += 1
    return [r for r in out if kinds is None or r["kind"] in kinds]  # drawn all, kept some


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True, help="JSONL file to write (outside the repository)")
    ap.add_argument("--per-kind", type=int, default=30)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--kinds", default=None,
                    help=f"comma-separated kinds (default all: {', '.join(KINDS)})")
    args = ap.parse_args()
    kinds = None if args.kinds is None else [k.strip() for k in args.kinds.split(",") if k.strip()]
    unknown = sorted(set(kinds or ()) - set(KINDS))
    if unknown:
        ap.error(f"--kinds: unknown kind(s) {', '.join(unknown)}; known: {', '.join(KINDS)}")
    if not TSV.is_file():
        raise SystemExit(f"shared PrimeKG subset not present at {TSV}")
    rows = generate(TSV, per_kind=args.per_kind, seed=args.seed, kinds=kinds)
    args.out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    counts: dict[str, int] = defaultdict(int)
    for r in rows:
        counts[str(r["dataset"])] += 1
    print(f"{len(rows)} questions -> {args.out} {dict(counts)}")


if __name__ == "__main__":
    main()
