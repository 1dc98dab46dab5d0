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
}
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
}
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


def _distractors(g: Graph, kind: str, named: list[str], gold: str, level: str,
                 rng: random.Random) -> list[str] | None:
    answer_type, spec = KINDS[kind]
    rels = [r for _, r in spec]
    candidates = [x for x in g.by_type[answer_type]
                  if x != gold and x not in named and not all(g.satisfies(x, named, rels))]
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


def generate(path: Path, *, per_kind: int, seed: int) -> list[dict[str, object]]:
    """``per_kind`` questions of every kind at both levels, seeded."""
    g = Graph(path)
    rng = random.Random(seed)
    out: list[dict[str, object]] = []
    for level in ("basic", "expert"):
        for kind in KINDS:
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
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True, help="JSONL file to write (outside the repository)")
    ap.add_argument("--per-kind", type=int, default=30)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    if not TSV.is_file():
        raise SystemExit(f"shared PrimeKG subset not present at {TSV}")
    rows = generate(TSV, per_kind=args.per_kind, seed=args.seed)
    args.out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    counts: dict[str, int] = defaultdict(int)
    for r in rows:
        counts[str(r["dataset"])] += 1
    print(f"{len(rows)} questions -> {args.out} {dict(counts)}")


if __name__ == "__main__":
    main()
