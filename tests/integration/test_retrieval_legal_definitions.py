"""Defined terms on a real Neo4j: the derive step that reads definitions articles ("Giải thích
từ ngữ") into DefinedTerm nodes and DEFINES edges, and the re-rank that lifts the defining unit
for a definitional question."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import load_legal
from hopgraph.retrieval import LegalContext, LegalRetriever, RetrievalConfig
from tests.integration.test_retrieval_legal_rerank import SameVector
from tests.retrieval_fixtures import HashEmbedder, write_graph

pytestmark = pytest.mark.integration

SAMPLES = Path(__file__).resolve().parents[2] / "loaders" / "legal" / "samples"
LAW = "50/2014/QH13"
DEFINITIONS = (
    "Điều 3. Giải thích từ ngữ\n"
    "Trong Luật này, các từ ngữ dưới đây được hiểu như sau:\n"
    "1. Hôn nhân là quan hệ giữa vợ và chồng sau khi đã kết hôn.\n"
    "2. Kết hôn là việc nam và nữ xác lập quan hệ vợ chồng theo quy định của Luật này.\n"
    "3. “Tảo hôn” là việc lấy vợ, lấy chồng khi một bên hoặc cả hai bên chưa đủ tuổi kết hôn.\n"
    "4. Thời kỳ hôn nhân được hiểu là khoảng thời gian tồn tại quan hệ vợ chồng.\n"
    "Các quy định khác không phải là định nghĩa."
)


def _article(number: str, heading: str, text: str) -> dict[str, Any]:
    return {"id": f"{LAW}:D{number}", "doc_id": LAW, "level": "Article", "number": number,
            "path": f"D{number}", "heading": heading, "text": text, "citation": None,
            "embedding": SameVector().embed_query(text)}


@pytest.fixture
def retriever(runner: Neo4jRunner) -> LegalRetriever:
    docs = [{"id": LAW, "number": LAW, "doc_type": "Luật", "title": "Luật Hôn nhân và gia đình",
             "issuer": "Quốc hội", "issue_date": date(2014, 6, 19),
             "effective_date": date(2015, 1, 1), "status": None}]
    units = [  # a pre-split corpus: the definitions are lines of the article's own text
        _article("3", "Giải thích từ ngữ", DEFINITIONS),
        # a passage of it stored as a Clause (as benchmark corpora chunk articles): its number
        # is no item's, so the article keeps the definitions
        {**_article("3", "Giải thích từ ngữ", " ".join(DEFINITIONS.splitlines()[:4])),
         "id": f"{LAW}:D3.C1", "level": "Clause", "number": "C1", "path": "D3.C1",
         "parent": f"{LAW}:D3"},
        _article("8", "Điều kiện kết hôn",
                 "Điều 8. Điều kiện kết hôn\n1. Nam, nữ kết hôn với nhau phải tuân theo các điều "
                 "kiện sau đây: nam từ đủ 20 tuổi trở lên, nữ từ đủ 18 tuổi trở lên; việc kết hôn "
                 "do nam và nữ tự nguyện quyết định. Hôn nhân, kết hôn, vợ chồng."),
        _article("5", "Bảo vệ chế độ hôn nhân và gia đình",
                 "Điều 5. Bảo vệ chế độ hôn nhân và gia đình\n1. Cấm tảo hôn, cưỡng ép kết hôn. "
                 "Hôn nhân, kết hôn, vợ chồng, quan hệ giữa vợ và chồng."),
    ]
    write_graph(runner.driver, docs, units, [])
    runner.write("legal/derive_defined_terms", doc_ids=None)
    return LegalRetriever(runner, SameVector())  # type: ignore[arg-type]


def _seed_scores(ctx: LegalContext) -> dict[str, dict[str, float]]:
    return {i.node_id: i.scores for i in ctx.items if i.role == "seed"}


def test_derive_reads_every_numbered_item(retriever: LegalRetriever) -> None:
    records, _, _ = retriever.runner.driver.execute_query(  # type: ignore[attr-defined]
        "MATCH (u)-[r:DEFINES]->(t:DefinedTerm) RETURN u.id AS unit, t.id AS id, t.key AS key, "
        "t.term AS term, r.definition AS definition ORDER BY key", database_="neo4j")
    rows = [r.data() for r in records]
    assert [r["key"] for r in rows] == ["hôn nhân", "kết hôn", "thời kỳ hôn nhân", "tảo hôn"]
    assert {r["unit"] for r in rows} == {f"{LAW}:D3"}
    by_key = {r["key"]: r for r in rows}
    assert by_key["tảo hôn"]["term"] == "Tảo hôn"  # quotation marks around the term dropped
    assert by_key["tảo hôn"]["id"] == f"{LAW}|tảo hôn"
    assert by_key["thời kỳ hôn nhân"]["definition"] == "khoảng thời gian tồn tại quan hệ vợ chồng."
    assert by_key["hôn nhân"]["definition"].startswith("quan hệ giữa vợ và chồng")


def test_derive_is_idempotent_and_drops_stale_terms(retriever: LegalRetriever) -> None:
    runner = retriever.runner
    again = runner.write("legal/derive_defined_terms", doc_ids=None)[0]
    assert again == {"terms": 4, "removed": 0}
    runner.driver.execute_query(  # type: ignore[attr-defined]
        "MATCH (a:Article {id: $id}) SET a.text = replace(a.text, '4. Thời kỳ hôn nhân', '4. Thời kỳ')",
        id=f"{LAW}:D3", database_="neo4j")
    changed = runner.write("legal/derive_defined_terms", doc_ids=None)[0]
    assert changed == {"terms": 4, "removed": 1}


def test_definitional_question_lifts_the_defining_article(retriever: LegalRetriever) -> None:
    # Dense scores tie (one vector for every text); lexically the other articles repeat the
    # question's words more often than the definitions article does.
    q = "Kết hôn là việc nam và nữ xác lập quan hệ vợ chồng, đúng hay sai?"
    ctx = retriever.retrieve(q, k=3, as_of="2024-01-01")
    assert ctx.seeds[0] == f"{LAW}:D3"
    scores = _seed_scores(ctx)[f"{LAW}:D3"]
    # of the 12 bigrams of "việc nam và nữ xác lập quan hệ vợ chồng, đúng hay sai" all but the
    # last three ("chồng đúng", "đúng hay", "hay sai") are in the definition
    assert scores["definition"] == pytest.approx(9 / 12)
    assert scores["rerank"] == pytest.approx(
        scores["fused"] + 0.3 * scores["heading"] + 0.7 * (0.5 + 0.5 * 9 / 12))
    assert "definition" not in _seed_scores(ctx)[f"{LAW}:D8"]
    flat = retriever.retrieve(q, k=3, as_of="2024-01-01", config=RetrievalConfig(rerank=False))
    assert flat.seeds[0] != f"{LAW}:D3"
    assert all("definition" not in s for s in _seed_scores(flat).values())


def test_asking_for_a_definition_names_the_term_only(retriever: LegalRetriever) -> None:
    ctx = retriever.retrieve("Thế nào là tảo hôn?", k=3, as_of="2024-01-01")
    assert ctx.seeds[0] == f"{LAW}:D3"
    assert _seed_scores(ctx)[f"{LAW}:D3"]["definition"] == 0.0  # nothing stated to compare
    # a term no article defines changes nothing
    other = retriever.retrieve("Thế nào là cưỡng ép kết hôn?", k=3, as_of="2024-01-01")
    assert all("definition" not in s for s in _seed_scores(other).values())


def test_loader_links_the_defining_clauses(runner: Neo4jRunner) -> None:
    report = load_legal(runner, HashEmbedder(), [SAMPLES / "01-2015-QH-MAU-luat-bao-hiem-suc-khoe.txt"])
    assert not report.skipped
    records, _, _ = runner.driver.execute_query(
        "MATCH (u:Clause)-[:DEFINES]->(t:DefinedTerm) RETURN u.id AS unit, t.key AS key ORDER BY unit",
        database_="neo4j")
    got = [(r["unit"], r["key"]) for r in records]
    assert got == [("01/2015/QH-MAU:D2.K1", "bảo hiểm sức khỏe"),
                   ("01/2015/QH-MAU:D2.K2", "thẻ bảo hiểm sức khỏe"),
                   ("01/2015/QH-MAU:D2.K3", "cơ sở khám bệnh ban đầu")]
    ctx = LegalRetriever(runner, HashEmbedder()).retrieve(
        "Thẻ bảo hiểm sức khỏe là gì?", k=3, as_of="2024-01-01")
    assert ctx.seeds[0] == "01/2015/QH-MAU:D2.K2"
    assert _seed_scores(ctx)["01/2015/QH-MAU:D2.K2"]["definition"] == 0.0
