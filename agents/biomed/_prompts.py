"""Prompt templates of ReGraM (paper Appendix A), filled with ``str.format`` at run time, and
the JSON Schemas of the replies the JSON prompts ask for (sent as structured output; the parsing
code stays tolerant of endpoints that ignore them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hopgraph.retrieval import Domain

_TRIPLET: dict[str, Any] = {"type": "array", "items": {"type": "string"}, "minItems": 3,
                            "maxItems": 3}

CLASSIFY = """You are an expert biomedical query classifier. Choose the single most relevant category for the query.
Categories:
- "GENE_PROTEIN": genes, proteins, interactions, expression.
- "DRUG_THERAPY": drugs, therapies, treatments, side effects, indications.
- "DISEASE_SYMPTOM": diseases, symptoms, phenotypes, diagnoses.
- "PATHWAY_METABOLISM": pathways, metabolism, or processes.
- "INTEGRATED": complex questions spanning multiple categories.
Query: {question}
Output JSON only, e.g. {{"category": "DRUG_THERAPY"}}"""
CLASSIFY_REPLY: dict[str, Any] = {
    "title": "category", "type": "object", "required": ["category"],
    "properties": {"category": {"type": "string", "enum": [d.value for d in Domain]}},
}

DECOMPOSE = """You are a medical reasoning engine. Decompose the question into up to three answerable sub-questions (hops).
Example: "What drug that targets the FLT4 gene also suppresses inflammation?" ->
{{"hops": ["Which drugs target FLT4?", "Which of these drugs suppress inflammation?"]}}
Question: {question}
Output JSON only: {{"hops": ["...", "..."]}}"""
DECOMPOSE_REPLY: dict[str, Any] = {
    "title": "hops", "type": "object", "required": ["hops"],
    "properties": {"hops": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                            "maxItems": 3}},
}

HYPOTHESES = """You are a cautious biomedical reasoning expert. Generate triplets that help answer the sub-question.
Sub-question: {question}
Known facts: {facts}
Rules: use only these entities: {entities}. Use only these relations: {relations}. Do not invent entities.
Output JSON only: {{"triplets": [["head", "RELATION", "tail"]]}}"""
HYPOTHESES_REPLY: dict[str, Any] = {
    "title": "triplets", "type": "object", "required": ["triplets"],
    "properties": {"triplets": {"type": "array", "items": _TRIPLET}},
}

VERIFY = """You are a biomedical fact-checker. Is this triplet true and relevant to the question?
Triplet: {triplet}
Question: {question}
Output JSON only: {{"valid": true, "score": 0.9}}"""
VERIFY_REPLY: dict[str, Any] = {
    "title": "verdict", "type": "object", "required": ["valid", "score"],
    "properties": {"valid": {"type": "boolean"},
                   "score": {"type": "number", "minimum": 0, "maximum": 1}},
}

REVISE = """You are a fact-checker. Correct the triplet.
Relation MUST be one of: {relations}. Use only these entities: {entities}.
Triplet: {triplet}
Question: {question}
Output JSON only: {{"revised_triplets": [["head", "RELATION", "tail"]]}}"""
REVISE_REPLY: dict[str, Any] = {
    "title": "revised_triplets", "type": "object", "required": ["revised_triplets"],
    "properties": {"revised_triplets": {"type": "array", "items": _TRIPLET}},
}

HOP_STRICT = """You are an expert medical reasoner. Based only on the verified facts, answer the sub-question concisely.
Sub-question: {question}
Verified facts:
{facts}
Concise answer:"""

HOP_HYBRID = """You are a knowledgeable analyst. Derive an answer step by step from the verified facts.
Sub-question: {question}
Verified facts:
{facts}
Final answer (1 sentence):"""

HOP_GUESS = """You are an expert biomedical researcher. No facts were found in the knowledge graph. Give a plausible answer beginning with "Based on general knowledge".
Sub-question: {question}
Plausible answer:"""

FINAL = """You are a lead researcher writing a final, conclusive answer. Use the evidence map.
Original question: {question}
Evidence map:
{evidence}
{options}Final answer:"""

FINAL_MCQ_SUFFIX = """Options:
{options}
Answer with JSON only: {{"answer": "<option letter>"}}
"""


def final_mcq_reply(letters: Iterable[str]) -> dict[str, Any]:
    """The schema of the multiple-choice reply: one of the question's option ``letters``."""
    return {"title": "answer", "type": "object", "required": ["answer"],
            "properties": {"answer": {"type": "string", "enum": sorted(letters)}}}
