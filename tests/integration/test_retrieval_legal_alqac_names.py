"""A number-only ALQAC law named in a question by its name (issue 26): the loader names it from
its own text, so the retrieval's document- and article-mention signals match the question. Real
loader, real Neo4j; records of our own."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import load_legal
from hopgraph.retrieval import LegalRetriever, RetrievalConfig

pytestmark = pytest.mark.integration


class SameVector:
    """Every text gets the same vector: dense ties, so only the lexical side and the re-rank
    order the candidates."""

    name = "same"
    dimension = 384

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_query(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return [1.0 / 384 ** 0.5] * 384


def _law(lid: str, name: str) -> dict[str, object]:
    # two laws with the same articles word for word: only the mention of the law tells them apart
    return {"id": lid, "articles": [
        {"id": "1", "text": "Phạm vi điều chỉnh\n\nLuật này quy định về nuôi ong lấy mật."},
        {"id": "2", "text": "Điều kiện nuôi ong\n\nNgười nuôi ong phải đăng ký trại ong."},
        {"id": "3", "text": f"Hiệu lực thi hành\n\n{name} số 1/2001/QH10 hết hiệu lực kể từ ngày "
                            "Luật này có hiệu lực."}]}


def test_a_question_naming_a_number_only_law_finds_its_article(runner: Neo4jRunner,
                                                                 tmp_path: Path) -> None:
    path = tmp_path / "laws.json"
    path.write_text(json.dumps([_law("12/2031/QH16", "Luật Nuôi tằm"),
                                _law("5/2031/QH16", "Luật Nuôi ong và mật ong")],
                               ensure_ascii=False), encoding="utf-8")
    report = load_legal(runner, SameVector(), [path],  # type: ignore[arg-type]
                        segmenter=lambda text: text)
    assert not report.skipped and len(report.documents) == 2, report.skipped
    titles = {r["id"]: r["title"] for r in runner.driver.execute_query(
        "MATCH (d:Document) RETURN d.id AS id, d.title AS title", database_=runner.database
    ).records}
    assert titles == {"12/2031/QH16": "Luật Nuôi tằm", "5/2031/QH16": "Luật Nuôi ong và mật ong"}
    retriever = LegalRetriever(runner, SameVector(), config=RetrievalConfig())  # type: ignore[arg-type]
    question = "Theo Điều 2 Luật Nuôi ong và mật ong, người nuôi ong phải đăng ký trại ong không?"
    ctx = retriever.retrieve(question, k=3, as_of=date(2032, 1, 1))
    assert ctx.seeds[0] == "5/2031/QH16:D2", ctx.seeds
    # without the mention signals the twin article of the other law ties and comes first by id
    flat = retriever.retrieve(question, k=3, as_of=date(2032, 1, 1),
                              config=RetrievalConfig(rerank=False))
    assert flat.seeds[0] == "12/2031/QH16:D2", flat.seeds
