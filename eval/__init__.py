"""Evaluation harnesses: they run the agents over question sets and score what comes back.

Here today: legal QA (:mod:`hopgraph.eval._legal_qa`): token F1, citation precision/recall,
abstention, the LLM judge and the paper's Table 3 ablations over a JSON question file
(``tests/benchmarks/legal_qa.py``, ``legal_qa_vnhealth.py``). The other harnesses still sit
beside their agents (``hopgraph.agents.legal``: temporal QA and the dataset builder;
``hopgraph.agents.biomed`` and ``hopgraph.agents.sentences``: their ``evaluate``) and move here
when no one is changing them. This area stands above the agents and below the front door.
"""

from hopgraph.eval._legal_qa import (
    ABLATIONS,
    ABSTAINING,
    JudgeCheck,
    QAQuestion,
    RowResult,
    check_judge,
    citation_scores,
    evaluate,
    judge,
    load_questions,
    render_markdown,
    run_ablations,
    token_f1,
)

__all__ = [
    "ABLATIONS", "ABSTAINING", "JudgeCheck", "QAQuestion", "RowResult", "check_judge",
    "citation_scores", "evaluate", "judge", "load_questions", "render_markdown", "run_ablations",
    "token_f1",
]
