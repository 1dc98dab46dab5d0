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


def _plain_law(number: str, issued: str, start: str) -> str:
    day, month, year = issued.split("/")
    return (f"QUỐC HỘI\nLuật số: {number}\nHà Nội, ngày {day} tháng {month} năm {year}\nLUẬT\n"
            "NUÔI ONG\nĐiều 1. Phạm vi điều chỉnh\nLuật này quy định về nuôi ong lấy mật.\n"
            "Điều 2. Điều kiện nuôi ong\nNgười nuôi ong phải đăng ký trại ong.\n"
            f"Điều 3. Hiệu lực thi hành\nLuật này có hiệu lực thi hành từ ngày {start}.\n")


def test_a_title_with_another_year_is_not_the_named_law(runner: Neo4jRunner,
                                                        tmp_path: Path) -> None:
    """"Luật Nuôi ong 2023" names the law of 2023, not its namesake of 2014 (both titles are
    "Luật Nuôi ong"; before, both got the mention bonus and the older one came first by id)."""
    paths = []
    for name, number, issued, start in (
            ("old.txt", "1/2014/QH13", "01/06/2014", "01 tháng 01 năm 2015"),
            ("new.txt", "2/2023/QH15", "01/06/2023", "01 tháng 01 năm 2024")):
        path = tmp_path / name
        path.write_text(_plain_law(number, issued, start), encoding="utf-8")
        paths.append(path)
    report = load_legal(runner, SameVector(), paths,  # type: ignore[arg-type]
                        segmenter=lambda text: text)
    assert not report.skipped, report.skipped
    retriever = LegalRetriever(runner, SameVector(), config=RetrievalConfig())  # type: ignore[arg-type]
    # both laws are loaded and, as far as the index knows, either could be meant
    for year, number in (("2023", "2/2023/QH15"), ("2014", "1/2014/QH13")):
        ctx = retriever.retrieve(f"Theo Luật Nuôi ong {year}, người nuôi ong phải đăng ký trại ong "
                                 "không?", k=2, as_of=date(2030, 1, 1))
        assert ctx.seeds[0].startswith(number + ":"), (year, ctx.seeds)
    # no year: the title names both (the mention does not choose)
    ctx = retriever.retrieve("Theo Luật Nuôi ong, người nuôi ong phải đăng ký trại ong không?",
                             k=4, as_of=date(2030, 1, 1))
    assert {s.split(":")[0] for s in ctx.seeds} == {"1/2014/QH13", "2/2023/QH15"}
