"""Prompt templates of ReGraM (paper Appendix A), filled with ``str.format`` at run time."""

from __future__ import annotations

CLASSIFY = """You are an expert biomedical query classifier. Choose the single most relevant category for the query.
Categories:
- "GENE_PROTEIN": genes, proteins, interactions, expression.
- "DRUG_THERAPY": drugs, therapies, treatments, side effects, indications.
- "DISEASE_SYMPTOM": diseases, symptoms, phenotypes, diagnoses.
- "PATHWAY_METABOLISM": pathways, metabolism, or processes.
- "INTEGRATED": complex questions spanning multiple categories.
Query: {question}
Output JSON only, e.g. {{"category": "DRUG_THERAPY"}}"""

DECOMPOSE = """You are a medical reasoning engine. Decompose the question into up to three answerable sub-questions (hops).
Example: "What drug that targets the FLT4 gene also suppresses inflammation?" ->
{{"hops": ["Which drugs target FLT4?", "Which of these drugs suppress inflammation?"]}}
Question: {question}
Output JSON only: {{"hops": ["...", "..."]}}"""

HYPOTHESES = """You are a cautious biomedical reasoning expert. Generate triplets that help answer the sub-question.
Sub-question: {question}
Known facts: {facts}
Rules: use only these entities: {entities}. Use only these relations: {relations}. Do not invent entities.
Output JSON only: {{"triplets": [["head", "RELATION", "tail"]]}}"""

VERIFY = """You are a biomedical fact-checker. Is this triplet true and relevant to the question?
Triplet: {triplet}
Question: {question}
Output JSON only: {{"valid": true, "score": 0.9}}"""

REVISE = """You are a fact-checker. Correct the triplet.
Relation MUST be one of: {relations}. Use only these entities: {entities}.
Triplet: {triplet}
Question: {question}
Output JSON only: {{"revised_triplets": [["head", "RELATION", "tail"]]}}"""

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
