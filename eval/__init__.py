"""Evaluation harnesses: they run the agents over question sets and score what comes back.

What is here:

- legal QA (:mod:`hopgraph.eval._legal_qa`, exported here): token F1, citation precision and
  recall, abstention, the LLM judge and the paper's Table 3 ablations over a JSON question file
  (``tests/benchmarks/legal_qa.py``, ``legal_qa_vnhealth.py``); the Q&A articles of
  ``vn-health`` read as questions (:mod:`hopgraph.eval.qa_articles`);
- temporal legal QA (``hopgraph eval temporal``): the gold and dated questions read from a pair
  folder (:mod:`hopgraph.eval.temporal_gold`) and the run that scores the served wording at each
  date against a flat baseline (:mod:`hopgraph.eval.temporal`);
- ViHERMES's dataset builder (``hopgraph dataset build``, :mod:`hopgraph.eval.dataset`);
- ReGraM on multiple-choice biomedical questions with the paper's ablations
  (:mod:`hopgraph.eval.biomed`);
- sentence-graph retrieval on HotpotQA-style questions (:mod:`hopgraph.eval.sentences`).

The harnesses with names of their own (``evaluate``, ``ABLATIONS``) are public modules, imported
as ``from hopgraph.eval.biomed import evaluate``. This area stands above the agents (it calls them
through their packages' exports) and below the front door.
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
