"""Benchmark-side reader of the ALQAC corpora into contract-conforming legal unit rows.

The issue-3 legal loader reads Vietnamese legal documents; ALQAC ships pre-split articles
(``[{"id": law, "articles": [{"id": number, "text": ...}]}]``), so this module turns them into
``Document``/``Article``/``Clause`` rows directly (written by ``cypher/legal/upsert_bench_units``).
Retrieval unit = article; each article also gets passage chunks (<= 200 words, prefixed with the
article title) stored as ``Clause`` units, so dense search can score an article by its best chunk.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any

from hopgraph.loaders.legal._formats import _NUMBER_ONLY as NUMBER_ONLY
from hopgraph.loaders.legal._formats import alqac_title
from hopgraph.retrieval._eval import EvalQuestion

CHUNK_WORDS = 200


def doc_id_of(law: str) -> str:
    """Deterministic document id for an ALQAC law name (spaces kept; ':' is not used in names)."""
    return law.strip()


def article_id(law: str, number: str) -> str:
    return f"{doc_id_of(law)}:D{number.strip()}"


def chunk_article(title: str, body: str, max_words: int = CHUNK_WORDS) -> list[str]:
    """Greedy packing of the article's paragraphs into chunks of at most ``max_words`` words."""
    paras = [p.strip() for p in re.split(r"\n\s*\n|\n", body) if p.strip()]
    chunks: list[str] = []
    cur: list[str] = []
    n = 0
    for p in paras:
        words = p.split()
        while len(words) > max_words:  # an over-long paragraph is cut
            if cur:
                chunks.append(" ".join(cur))
                cur, n = [], 0
            chunks.append(" ".join(words[:max_words]))
            words = words[max_words:]
        if n + len(words) > max_words and cur:
            chunks.append(" ".join(cur))
            cur, n = [], 0
        cur.extend(words)
        n += len(words)
    if cur:
        chunks.append(" ".join(cur))
    return [f"{title}. {c}" if title else c for c in chunks] or [title]


def _doc_type(title: str | None) -> str | None:
    if not title:
        return None
    return "Bộ luật" if title.lower().startswith("bộ luật") else title.split(" ")[0]


def read_corpus(path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return (documents, units) rows; units hold articles then their chunks (embedding later)."""
    # NFC, as the legal loader stores text (109 articles of law_2023_v1.1.json are not): the
    # re-rank compares the text's syllables with the question's, folded to NFC.
    data = json.loads(unicodedata.normalize("NFC", path.read_text(encoding="utf-8")))
    docs: list[dict[str, Any]] = []
    units: list[dict[str, Any]] = []
    for law in data:
        did = doc_id_of(law["id"])
        # A number-only id (the 2022 corpus: "91/2015/QH13") is named as the loader names it,
        # from the law's own text; questions name laws by name, not by number.
        number_only = NUMBER_ONLY.match(law["id"]) is not None
        title = (alqac_title(law["id"], [a["text"] for a in law["articles"]]) if number_only
                 else law["id"])
        docs.append({"id": did, "number": did, "doc_type": _doc_type(title),
                     "title": title, "issuer": "Quốc hội"})
        for ordinal, art in enumerate(law["articles"]):
            text = art["text"].strip()
            title, _, body = text.partition("\n")
            aid = article_id(law["id"], art["id"])
            units.append({"id": aid, "doc_id": did, "parent_id": did, "level": "Article",
                          "number": art["id"], "path": f"D{art['id']}", "heading": title.strip(),
                          "text": text, "ordinal": ordinal,
                          "citation": f"Điều {art['id']} {law['id']}", "kind": "article"})
            for ci, chunk in enumerate(chunk_article(title.strip(), body.strip())):
                units.append({"id": f"{aid}.C{ci + 1}", "doc_id": did, "parent_id": aid,
                              "level": "Clause", "number": f"C{ci + 1}",
                              "path": f"D{art['id']}.C{ci + 1}", "heading": None, "text": chunk,
                              "ordinal": ci, "citation": f"đoạn {ci + 1} Điều {art['id']} {law['id']}",
                              "kind": "chunk"})
    return docs, units


def read_questions_2023(path: Path) -> list[EvalQuestion]:
    """train_2023: a multiple-choice item keeps its options (``choices``), asked with the stem."""
    rows = json.loads(path.read_text(encoding="utf-8"))
    return [EvalQuestion(id=r["question_id"], question=r["text"],
                         gold=[article_id(a["law_id"], a["article_id"])
                               for a in r["relevant_articles"]],
                         choices=dict(r.get("choices") or {}))
            for r in rows]


def read_questions_any(path: Path) -> list[EvalQuestion]:
    """A question file of either shape (``text`` + ``relevant_articles``, ALQAC 2022/2023, or
    ``statement`` + ``legal_passages``, the 10/2023 release)."""
    rows = json.loads(path.read_text(encoding="utf-8"))
    if rows and "legal_passages" in rows[0]:
        return read_questions_102023(path)
    return read_questions_2023(path)


def read_questions_102023(path: Path) -> list[EvalQuestion]:
    rows = json.loads(path.read_text(encoding="utf-8"))
    return [EvalQuestion(id=r["example_id"], question=r["statement"],
                         gold=[article_id(a["law_id"], a["article_id"])
                               for a in r["legal_passages"]])
            for r in rows]
