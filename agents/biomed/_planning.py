"""Query typing (five ReGraM domains) and decomposition into at most three sub-questions.

Both steps use the LLM when one is given and fall back to deterministic rules otherwise, or when
the LLM's reply does not parse; the result says which produced it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from hopgraph.agents.biomed import _prompts
from hopgraph.agents.biomed._linking import LinkedEntity
from hopgraph.core.errors import LLMError
from hopgraph.core.ports import ChatModel, parse_json_reply
from hopgraph.retrieval import Domain

MAX_HOPS = 3
_CLASSIFY_TOKENS = 256
_REASON_TOKENS = 512
_SENTENCE = re.compile(r"(?<=[.?!])\s+(?=[A-Z0-9])")
_LEXICON: dict[Domain, tuple[str, ...]] = {
    Domain.GENE_PROTEIN: ("gene", "protein", "mutation", "expression", "receptor", "kinase",
                          "allele", "chromosome", "encod", "transcription", "inherit", "dna", "rna"),
    Domain.DRUG_THERAPY: ("drug", "treat", "therapy", "medication", "dose", "side effect",
                          "adverse", "indicat", "prescri", "contraindicat", "pharmac", "management",
                          "inhibitor", "agonist", "antagonist"),
    Domain.DISEASE_SYMPTOM: ("symptom", "diagnos", "presents", "disease", "syndrome", "pain",
                             "fever", "sign", "likely cause", "complain", "finding", "disorder"),
    Domain.PATHWAY_METABOLISM: ("pathway", "metabol", "synthesis", "process", "cycle",
                                "biochemical", "enzyme", "catabol", "anabol", "oxidation"),
}
_TYPE_DOMAIN = {
    "GeneProtein": Domain.GENE_PROTEIN, "Drug": Domain.DRUG_THERAPY,
    "Disease": Domain.DISEASE_SYMPTOM, "Phenotype": Domain.DISEASE_SYMPTOM,
    "Pathway": Domain.PATHWAY_METABOLISM, "BiologicalProcess": Domain.PATHWAY_METABOLISM,
    "MolecularFunction": Domain.PATHWAY_METABOLISM,
}


@dataclass(frozen=True)
class Typed:
    """The predicted domain and what produced it (``llm`` or ``rules``)."""

    domain: Domain
    source: str


@dataclass(frozen=True)
class Plan:
    """The sub-questions (hops) and what produced them."""

    hops: tuple[str, ...]
    source: str


def classify_rules(question: str, linked: Sequence[LinkedEntity] = ()) -> Domain:
    """Keyword and linked-entity-type vote; INTEGRATED when the top two tie."""
    text = question.lower()
    votes: Counter[Domain] = Counter()
    for domain, words in _LEXICON.items():
        votes[domain] += sum(text.count(w) for w in words)
    for e in linked:
        if e.node_type in _TYPE_DOMAIN:
            votes[_TYPE_DOMAIN[e.node_type]] += 1
    ranked = votes.most_common()
    if not ranked or ranked[0][1] == 0:
        return Domain.INTEGRATED
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return Domain.INTEGRATED
    return ranked[0][0]


def classify(question: str, llm: ChatModel | None,
             linked: Sequence[LinkedEntity] = ()) -> Typed:
    """Predict the query domain with the LLM (Prompt 1), else by rules."""
    if llm is not None:
        try:
            reply = llm.complete([{"role": "user", "content": _prompts.CLASSIFY.format(question=question)}],
                                 max_tokens=_CLASSIFY_TOKENS, json_mode=True,
                                 schema=_prompts.CLASSIFY_REPLY)
            data = parse_json_reply(reply.text)
            value = str(data.get("category", "")).upper().replace("/", "_") if isinstance(data, dict) else ""
            return Typed(Domain(value), "llm")
        except (LLMError, ValueError):
            pass
    return Typed(classify_rules(question, linked), "rules")


def decompose_rules(question: str) -> tuple[str, ...]:
    """Sentence-based split: context sentences form up to two hops, the final ask the last one."""
    sentences = [s.strip() for s in _SENTENCE.split(question.strip()) if s.strip()]
    if len(sentences) <= 1:
        return (question.strip(),)
    context, ask = sentences[:-1], sentences[-1]
    if len(context) == 1:
        return (context[0], ask)
    half = (len(context) + 1) // 2
    return (" ".join(context[:half]), " ".join(context[half:]), ask)


def decompose(question: str, llm: ChatModel | None) -> Plan:
    """Split the question into at most three hops with the LLM (Prompt 2), else by rules."""
    if llm is not None:
        try:
            reply = llm.complete([{"role": "user", "content": _prompts.DECOMPOSE.format(question=question)}],
                                 max_tokens=_REASON_TOKENS, json_mode=True,
                                 schema=_prompts.DECOMPOSE_REPLY)
            data = parse_json_reply(reply.text)
            hops = data.get("hops") if isinstance(data, dict) else data
            if isinstance(hops, list):
                clean = tuple(str(h).strip() for h in hops if isinstance(h, str | int) and str(h).strip())
                if clean:
                    return Plan(clean[:MAX_HOPS], "llm")
        except LLMError:
            pass
    return Plan(decompose_rules(question)[:MAX_HOPS], "rules")
