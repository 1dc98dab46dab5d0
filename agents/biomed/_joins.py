"""Turning a decomposed question into constraints on one shared answer variable.

Every entity a hop links becomes a constraint ``(x)-[r]-(anchor)``; the relation types allowed
for ``r`` come from the cue words next to the anchor's mention in the hop ("targets ABL1" ->
TARGET, "used for CML" -> INDICATION / OFF_LABEL_USE), any type when there is no cue. The answer's
node type comes from the question's "which drug / what gene ..." phrase. A negation just before
the cue ("should not be treated with X", "is not indicated for X") or an exception in the hop
("all of the following treat X except") asks for the opposite relation: treatment cues become
CONTRAINDICATION and a contraindication cue becomes INDICATION / OFF_LABEL_USE. The constraints are then
joined in Cypher (:func:`hopgraph.retrieval.join_hops`), so the answer is the set of
entities that satisfy every hop, each with its chain of triplets.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from hopgraph.agents.biomed._linking import EntityLinker, LinkedEntity
from hopgraph.graph_models import BioRel, BioType
from hopgraph.retrieval import HopConstraint

# Checked in order; the cue nearest the mention wins, so "contraindicated" is listed before
# "indicated" only to keep the longer match when both end at the same place.
_CUES: tuple[tuple[re.Pattern[str], tuple[BioRel, ...]], ...] = tuple(
    (re.compile(p, re.IGNORECASE), rels) for p, rels in (
        (r"\bcontra-?indicated\b|\bcontraindication|\bavoid(?:ed)?\b",
         (BioRel.CONTRAINDICATION,)),
        (r"\boff[- ]label\b", (BioRel.OFF_LABEL_USE,)),
        (r"\b(?:used|given|prescribed|approved|administered)\s+(?:for|in|to\s+treat)\b"
         r"|\bgiven\s+to\b|\btreat(?:s|ed|ing|ment)?\b|\bindicated\b|\bindication\b|\btherapy\s+(?:for|of)\b|\bmanag(?:e|es|ed|ing)\b",
         (BioRel.INDICATION, BioRel.OFF_LABEL_USE)),
        (r"\btarget(?:s|ed|ing)?\b|\binhibit(?:s|ed|ing|or\s+of)?\b|\bbind(?:s|ing)?\b|\bblock(?:s|ed|ing)?\b"
         r"|\bact(?:s)?\s+on\b|\bagonist\b|\bantagonist\b",
         (BioRel.TARGET, BioRel.DRUG_PROTEIN)),
        (r"\bmetaboli[sz](?:e|es|ed|ing)\b|\bmetabolism\b|\benzyme\b", (BioRel.ENZYME,)),
        (r"\btransport(?:s|ed|er)?\b", (BioRel.TRANSPORTER,)),
        (r"\bcarri(?:ed|er|es)\b", (BioRel.CARRIER,)),
        (r"\bside[- ]effects?\b|\badverse\b|\bcause[sd]?\s+(?:the\s+)?side\b", (BioRel.DRUG_EFFECT,)),
        (r"\bsymptoms?\b|\bpresents?\s+with\b|\bphenotypes?\b",
         (BioRel.DISEASE_PHENOTYPE_POSITIVE,)),
        (r"\bassociated\b|\blinked\b|\bmutat(?:ed|ion|ions)\b|\bimplicated\b|\bvariants?\b"
         r"|\bgenes?\s+(?:for|of|in)\b",
         (BioRel.ASSOCIATED_WITH, BioRel.DISEASE_PROTEIN)),
        (r"\binteract(?:s|ion|ions)?\b", (BioRel.PROTEIN_PROTEIN, BioRel.DRUG_DRUG)),
    ))

_TREATMENT = (BioRel.INDICATION.value, BioRel.OFF_LABEL_USE.value)
_CONTRA = (BioRel.CONTRAINDICATION.value,)
# "not", "never", "cannot", "no longer", "shouldn't": read only in the few words before the cue,
# inside its clause ("Which drug, not an antibiotic, is used for ..." keeps the treatment cue)
_NEGATION = re.compile(r"\b(?:not|never|cannot|no\s+longer)\b|n't\b", re.IGNORECASE)
NEGATION_WINDOW = 4  # words between a negation and the cue it turns
_EXCEPTION = re.compile(r"\bexcept\b|\bexception\b", re.IGNORECASE)
_CLAUSE_BREAK = re.compile(r"[,;:()]")

_ANSWER = re.compile(r"\b(?:which|what)\s+(?:of\s+the\s+following\s+)?(?:\w+\s+)?"
                     r"(drugs?|medications?|medicines?|agents?|inhibitors?|compounds?|genes?|proteins?"
                     r"|enzymes?|receptors?|kinases?|diseases?|disorders?|conditions?|cancers?"
                     r"|syndromes?|symptoms?|phenotypes?|side\s+effects?|pathways?)\b", re.IGNORECASE)
_ANSWER_TYPES: tuple[tuple[str, tuple[BioType, ...]], ...] = (
    ("drug medication medicine agent inhibitor compound", (BioType.DRUG,)),
    ("gene protein enzyme receptor kinase", (BioType.GENE_PROTEIN,)),
    ("disease disorder condition cancer syndrome", (BioType.DISEASE,)),
    ("symptom phenotype side", (BioType.PHENOTYPE,)),
    ("pathway", (BioType.PATHWAY,)),
)


@dataclass(frozen=True)
class JoinPlan:
    """The constraints of a question's hops on one shared variable and that variable's types."""

    constraints: tuple[HopConstraint, ...]
    answer_types: tuple[str, ...]

    def describe(self) -> list[str]:
        types = "|".join(self.answer_types) or "any type"
        return [f"?x: {types}", *(c.describe() for c in self.constraints)]


def answer_types(text: str) -> tuple[str, ...]:
    """Node types of the asked-for entity ("Which drug ..." -> Drug), empty when not stated."""
    m = _ANSWER.search(text)
    if m is None:
        return ()
    word = m.group(1).lower().split()[0].rstrip("s")
    for words, types in _ANSWER_TYPES:
        if any(word.startswith(w) for w in words.split()):
            return tuple(t.value for t in types)
    return ()


def relation_cue(text: str, mention: str, others: Sequence[str] = (), *,
                 negation: bool = True) -> tuple[str, tuple[str, ...]]:
    """The cue nearest before ``mention`` in ``text`` (after the previous other mention), else the
    nearest after it (passive: "ABL1 is targeted by"), and the relation types it allows.

    With ``negation`` (the default), a negation in the few words before the cue ("should not be
    treated with", "is not indicated") or "except" anywhere in ``text`` turns the relation to its
    opposite (:func:`opposite_relations`); the cue returned then starts with the negation word."""
    cue, rels, _ = _relation_cue(text, mention, others, negation)
    return cue, rels


def _relation_cue(text: str, mention: str, others: Sequence[str],
                  negation: bool) -> tuple[str, tuple[str, ...], bool]:
    lower = text.casefold()
    at = lower.find(mention.casefold())
    if at < 0:
        return "", (), False
    end = at + len(mention)
    starts = [lower.find(o.casefold()) for o in others]
    before_from = max([s + len(o) for s, o in zip(starts, others, strict=True) if 0 <= s < at] + [0])
    after_to = min([s for s in starts if s >= end] + [len(text)])
    best: tuple[int, int, str, tuple[str, ...]] | None = None  # (end, start, cue, relations)
    for pattern, rels in _CUES:
        for m in pattern.finditer(text, before_from, at):
            if best is None or m.end() > best[0]:
                best = (m.end(), m.start(), m.group(0), tuple(r.value for r in rels))
    window_from = before_from
    if best is None:
        window_from = end
        for pattern, rels in _CUES:
            hit = pattern.search(text, end, after_to)
            if hit is not None and (best is None or hit.start() < best[1]):
                best = (hit.end(), hit.start(), hit.group(0), tuple(r.value for r in rels))
    if best is None:
        return "", (), False
    _, start, cue, asked = best
    if negation:
        word = _negation_before(text, window_from, start)
        if word is None and _EXCEPTION.search(text):
            word = "except"
        if word is not None and opposite_relations(asked) != asked:
            return f"{word} {cue}", opposite_relations(asked), True
    return cue, asked, False


def opposite_relations(rels: Sequence[str]) -> tuple[str, ...]:
    """What a negated cue asks for: treatment (INDICATION / OFF_LABEL_USE) <-> CONTRAINDICATION;
    other relations have no opposite in PrimeKG and stay as they are."""
    found = tuple(rels)
    if found and set(found) <= set(_TREATMENT):
        return _CONTRA
    if found == _CONTRA:
        return _TREATMENT
    return found


def _negation_before(text: str, lo: int, cue_start: int) -> str | None:
    """The negation word among the ``NEGATION_WINDOW`` words before the cue, in its clause."""
    span = text[lo:cue_start]
    breaks = list(_CLAUSE_BREAK.finditer(span))
    if breaks:
        span = span[breaks[-1].end():]
    words = span.split()[-NEGATION_WINDOW:]
    hit = _NEGATION.search(" ".join(words))
    return hit.group(0).lower() if hit is not None else None


def plan_join(hops: Sequence[str], linker: EntityLinker,
              linked: Sequence[Sequence[LinkedEntity]] | None = None, *,
              negation: bool = True) -> JoinPlan:
    """Constraints from each hop's linked entities and cue words, rarest anchor first.

    Args:
        hops: the sub-questions (one when the question was not decomposed).
        linker: links each hop's entities (unless ``linked`` gives them, hop by hop).
        linked: optional entities already linked per hop.
        negation: read negations and "except" as asking for the opposite relation
            (:func:`relation_cue`); False reads the cue word alone (the rule before issue 29).
    """
    seen: dict[str, HopConstraint] = {}
    degree: dict[str, int] = {}
    types: tuple[str, ...] = ()
    for i, hop in enumerate(hops):
        entities = list(linked[i]) if linked is not None else linker.link(hop)
        types = types or answer_types(hop)
        mentions = [e.mention for e in entities]
        for e in entities:
            if e.id in seen or (e.node_type in types and _is_answer_word(hop, e.mention)):
                continue
            cue, rels, turned = _relation_cue(hop, e.mention,
                                              [m for m in mentions if m != e.mention], negation)
            seen[e.id] = HopConstraint(i + 1, e.id, e.name, rels, cue, turned)
            degree[e.id] = e.degree
    ordered = sorted(seen.values(), key=lambda c: (degree[c.anchor_id], c.hop, c.anchor_id))
    return JoinPlan(tuple(ordered), types)


def _is_answer_word(hop: str, mention: str) -> bool:
    """The mention is the asked-for word itself ("which drug" linking an entity named "drug")."""
    m = _ANSWER.search(hop)
    return m is not None and mention.casefold() in m.group(0).casefold()
