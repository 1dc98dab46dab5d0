"""The re-rank inside legal/retrieve_context on a real Neo4j: heading phrases, document titles
without their year, document and article numbers, and flat hybrid without it."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.retrieval import LegalContext, LegalRetriever, RetrievalConfig
from tests.retrieval_fixtures import write_graph

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


def _doc(doc_id: str, title: str) -> dict[str, Any]:
    return {"id": doc_id, "number": doc_id, "doc_type": "Luật", "title": title,
            "issuer": "Quốc hội", "issue_date": date(2010, 1, 1),
            "effective_date": date(2010, 7, 1), "status": None}


def _article(doc_id: str, number: str, heading: str, text: str) -> dict[str, Any]:
    return {"id": f"{doc_id}:D{number}", "doc_id": doc_id, "level": "Article", "number": number,
            "path": f"D{number}", "heading": heading, "text": text, "citation": None,
            "embedding": SameVector().embed_query(text)}


@pytest.fixture
def retriever(runner: Neo4jRunner) -> LegalRetriever:
    docs = [_doc("68/2020/QH14", "Luật Cư trú 2020"), _doc("58/2010/QH12", "Luật Viên chức 2010"),
            _doc("43/2019/QH14", "Luật Giáo dục 2019")]
    body = "cư trú đăng ký tạm trú thường trú"
    units = [
        _article("68/2020/QH14", "19", "Nơi cư trú của người không có nơi thường trú, nơi tạm trú",
                 body + " nơi cư trú cư trú"),
        _article("68/2020/QH14", "33", "Trách nhiệm của cơ quan đăng ký cư trú", body),
        _article("68/2020/QH14", "20", "Đăng ký thường trú", body),
        _article("68/2020/QH14", "25", "Tách", body),
        _article("58/2010/QH12", "11", "Quyền của viên chức", "viên chức có quyền"),
        _article("43/2019/QH14", "11", "Quyền của nhà giáo", "viên chức có quyền"),
    ]
    write_graph(runner.driver, docs, units, [])
    return LegalRetriever(runner, SameVector())  # type: ignore[arg-type]


def _scores(ctx: LegalContext) -> dict[str, dict[str, float]]:
    return {i.node_id: i.scores for i in ctx.items if i.role == "seed"}


def test_heading_phrases_lift_the_article_the_question_names(retriever: LegalRetriever) -> None:
    q = "Điều nào sau đây không thuộc trách nhiệm của cơ quan đăng ký cư trú?"
    ctx = retriever.retrieve(q, k=4, as_of="2024-01-01")
    assert ctx.round_trips == 1 and ctx.seeds[0] == "68/2020/QH14:D33"
    scores = _scores(ctx)
    assert scores["68/2020/QH14:D33"]["heading"] == 1.0
    assert scores["68/2020/QH14:D33"]["rerank"] > scores["68/2020/QH14:D33"]["fused"]
    # most of "Đăng ký thường trú"'s syllables are in the question, one of its three phrases
    assert scores["68/2020/QH14:D20"]["heading"] == pytest.approx(1 / 3)
    assert scores["68/2020/QH14:D19"]["heading"] < 0.3
    # without the re-rank (flat hybrid) the heading plays no part
    flat = retriever.retrieve(q, k=4, as_of="2024-01-01", config=RetrievalConfig(rerank=False))
    assert "heading" not in _scores(flat)[flat.seeds[0]]
    assert flat.seeds[0] != "68/2020/QH14:D33"


def test_one_syllable_heading_counts_the_syllable(retriever: LegalRetriever) -> None:
    scores = _scores(retriever.retrieve("tách hộ cư trú", k=4, as_of="2024-01-01"))
    assert scores["68/2020/QH14:D25"]["heading"] == 1.0


def test_document_title_matches_without_its_year(retriever: LegalRetriever) -> None:
    ctx = retriever.retrieve("Theo Luật Viên chức, viên chức có quyền gì?", k=2,
                             as_of="2024-01-01")
    assert ctx.seeds[0] == "58/2010/QH12:D11"
    flat = retriever.retrieve("Theo Luật Viên chức, viên chức có quyền gì?", k=2,
                              as_of="2024-01-01", config=RetrievalConfig(rerank=False))
    assert flat.seeds[0] == "43/2019/QH14:D11"  # the same text: a tie, broken by id


def test_document_and_article_numbers_in_the_question(retriever: LegalRetriever) -> None:
    ctx = retriever.retrieve("Điều 11 Luật số 43/2019/QH14 quy định quyền gì của viên chức?",
                             k=2, as_of="2024-01-01")
    assert ctx.seeds[0] == "43/2019/QH14:D11"
    scores = _scores(ctx)["43/2019/QH14:D11"]
    # document (0.15), article (0.3) and exact unit (1.0: the question names Điều 11 itself)
    # bonuses, plus the heading share (units: no body bonus unless asked)
    assert scores["rerank"] == pytest.approx(
        scores["fused"] + 0.15 + 0.3 + 1.0 + 0.3 * scores["heading"])
    assert "body" not in scores


def test_the_questions_phrases_in_a_body_lift_it(runner: Neo4jRunner) -> None:
    # Both texts hold the words "ký hợp đồng vụ việc với cơ quan tổ chức khác"; only D14 holds
    # them in the question's order.
    doc = "58/2010/QH12"
    write_graph(runner.driver, [_doc(doc, "Luật Viên chức 2010")], [
        _article(doc, "14", "Quyền của viên chức về hoạt động kinh doanh",
                 "Được ký hợp đồng vụ, việc với cơ quan, tổ chức khác."),
        _article(doc, "9", "Hợp đồng làm việc",
                 "Cơ quan ký với tổ chức khác hợp đồng làm việc; vụ được tính riêng."),
    ], [])
    retriever = LegalRetriever(  # type: ignore[arg-type]
        runner, SameVector(), config=RetrievalConfig(granularity="article"))
    q = "Viên chức được ký hợp đồng vụ, việc với cơ quan, tổ chức khác"
    ctx = retriever.retrieve(q, k=2, as_of="2024-01-01")
    scores = _scores(ctx)
    assert ctx.seeds[0] == f"{doc}:D14"
    # 13 bigrams in the question: all but "viên chức" and "chức được" are in D14's text
    assert scores[f"{doc}:D14"]["body"] == pytest.approx(11 / 13)
    assert scores[f"{doc}:D9"]["body"] < 0.5
    d14 = scores[f"{doc}:D14"]
    assert d14["rerank"] == pytest.approx(d14["fused"] + 0.3 * d14["heading"] + 1.5 * d14["body"])
    flat = retriever.retrieve(q, k=2, as_of="2024-01-01",
                              config=RetrievalConfig(granularity="article", rerank=False))
    assert "body" not in _scores(flat)[flat.seeds[0]]
    # at unit granularity, when asked for: a clause scores by its article's text (else the
    # article, whose text holds the clause's, would outrank it on the body alone)
    write_graph(runner.driver, [], [
        {"id": f"{doc}:D14.K2", "doc_id": doc, "level": "Clause", "number": "2", "path": "D14.K2",
         "parent": f"{doc}:D14", "text": "Được ký hợp đồng vụ, việc.", "citation": None,
         "embedding": SameVector().embed_query("")},
        # a chapter's text is all its articles' together: it gets no body score
        {"id": f"{doc}:C1", "doc_id": doc, "level": "Chapter", "number": "I", "path": "C1",
         "heading": "Quy định chung", "text": "Được ký hợp đồng vụ, việc với cơ quan, tổ chức khác.",
         "citation": None, "embedding": SameVector().embed_query("")}], [])
    units = _scores(retriever.retrieve(q, k=4, as_of="2024-01-01",
                                       config=RetrievalConfig(body_weight=1.5)))
    assert units[f"{doc}:D14.K2"]["body"] == units[f"{doc}:D14"]["body"] == pytest.approx(11 / 13)
    assert "body" not in units[f"{doc}:C1"]
    # the unit-granularity default leaves the body out of the score
    off = _scores(retriever.retrieve(q, k=3, as_of="2024-01-01", config=RetrievalConfig()))
    assert off[f"{doc}:D14"].get("body") is None


def test_a_unit_named_with_its_document_is_a_candidate_though_no_index_finds_it(
        retriever: LegalRetriever, runner: Neo4jRunner) -> None:
    # khoản 2 of Điều 25 shares no word with the question and has a vector of its own: neither
    # the full-text nor the vector branch (one candidate each) brings it in; naming it does.
    doc = "68/2020/QH14"
    write_graph(runner.driver, [], [
        {"id": f"{doc}:D25.K2", "doc_id": doc, "level": "Clause", "number": "2", "path": "D25.K2",
         "parent": f"{doc}:D25", "text": "Hộ gia đình được tách khi có nhà riêng.",
         "citation": None, "embedding": [0.0] * 383 + [1.0]}], [])
    q = "Tại ngày 01/01/2024, khoản 2 Điều 25 Luật số 68/2020/QH14 quy định như thế nào về cư trú?"
    cfg = RetrievalConfig(candidates=1)
    ctx = retriever.retrieve(q, k=2, as_of="2024-01-01", config=cfg)
    assert ctx.seeds[0] == f"{doc}:D25.K2"
    scores = _scores(ctx)[f"{doc}:D25.K2"]
    assert scores.get("sparse") is None and scores.get("dense") is None
    # document, article and exact unit bonuses over a fused score of 0
    assert scores["rerank"] == pytest.approx(0.15 + 0.3 + 1.0 + 0.3 * scores["heading"])
    # the flat baseline (no re-rank) takes no such candidate
    flat = retriever.retrieve(q, k=2, as_of="2024-01-01",
                              config=RetrievalConfig(candidates=1, rerank=False))
    assert f"{doc}:D25.K2" not in flat.seeds
    # before its document was issued the unit is no candidate, named or not
    early = retriever.retrieve(q, k=2, as_of="2009-06-01", config=cfg)
    assert f"{doc}:D25.K2" not in early.seeds


def test_a_quoted_passage_brings_the_unit_that_holds_it_most_specific_first(
        retriever: LegalRetriever, runner: Neo4jRunner) -> None:
    # Điều 40 and its clause 3 both hold the quoted passage (across a line break in the article,
    # and in another case and spacing than the question writes it); clause 1 and Điều 41 share
    # most of its words but not the passage. With two candidates per search branch only the
    # quote brings both in, the clause ahead of its article.
    doc = "68/2020/QH14"
    k1 = "1. Công dân có quyền đăng ký thường trú tại chỗ ở hợp pháp."
    k3 = ("3. Trường hợp đăng ký thường trú tại chỗ ở hợp pháp do thuê, mượn thì phải được chủ sở "
          "hữu đồng ý\nbằng văn bản.")
    write_graph(runner.driver, [], [
        {"id": f"{doc}:D40", "doc_id": doc, "level": "Article", "number": "40", "path": "D40",
         "heading": "Điều kiện đăng ký", "text": f"Điều 40. Điều kiện đăng ký\n{k1}\n{k3}",
         "citation": None},
        {"id": f"{doc}:D40.K1", "doc_id": doc, "level": "Clause", "number": "1", "path": "D40.K1",
         "parent": f"{doc}:D40", "text": k1, "citation": None},
        {"id": f"{doc}:D40.K3", "doc_id": doc, "level": "Clause", "number": "3", "path": "D40.K3",
         "parent": f"{doc}:D40", "text": k3, "citation": None},
        {"id": f"{doc}:D41", "doc_id": doc, "level": "Article", "number": "41", "path": "D41",
         "heading": "Thuê nhà", "text": "Điều 41. Thuê nhà\nChủ sở hữu đồng ý cho thuê, mượn "
         "chỗ ở hợp pháp bằng văn bản.", "citation": None}], [])
    q = ("Theo Luật số 68/2020/QH14, nội dung “thuê, mượn thì phải được chủ sở hữu đồng ý bằng  "
         "văn bản” được quy định như thế nào?")
    ctx = retriever.retrieve(q, k=3, as_of="2024-01-01", config=RetrievalConfig(candidates=2))
    assert ctx.seeds[:2] == [f"{doc}:D40.K3", f"{doc}:D40"]
    # the share of its text the passage fills orders the two that hold it
    assert 0.4 < _scores(ctx)[f"{doc}:D40.K3"]["quote"] < 1.0
    assert f"{doc}:D40.K1" not in ctx.seeds and f"{doc}:D41" not in ctx.seeds[:2]
    # the flat baseline has no such signal; the same words unquoted are no passage
    flat = retriever.retrieve(q, k=3, as_of="2024-01-01",
                              config=RetrievalConfig(candidates=2, rerank=False))
    assert "quote" not in _scores(flat).get(flat.seeds[0], {})
    unquoted = retriever.retrieve(q.replace("“", "").replace("”", ""), k=3, as_of="2024-01-01",
                                  config=RetrievalConfig(candidates=2))
    assert all(s.get("quote") is None for s in _scores(unquoted).values())
    # before the document was issued nothing it holds is a candidate, quoted or not
    early = retriever.retrieve(q, k=3, as_of="2009-06-01", config=RetrievalConfig(candidates=2))
    assert not any(s.startswith(doc) for s in early.seeds)


def test_at_an_early_date_a_pool_of_later_law_is_read_deeper(runner: Neo4jRunner) -> None:
    # Three articles of a 2020 law match the question best; the 2005 law's article matches
    # less. At a date in 2010 the first pools (two hits per branch: the 2020 articles) leave
    # nothing; the wider search finds the law in force then.
    late = {**_doc("10/2020/QH14", "Luật Hải quan 2020"), "issue_date": date(2020, 1, 1),
            "effective_date": date(2020, 7, 1)}
    early = {**_doc("29/2005/QH11", "Luật Hải quan 2005"), "issue_date": date(2005, 1, 1)}
    words = "nhiệm vụ của hải quan kiểm tra giám sát hàng hóa"
    write_graph(runner.driver, [late, early], [
        *(_article("10/2020/QH14", str(n), "Nhiệm vụ", f"{words} {words} {n}") for n in (1, 2, 3)),
        {**_article("29/2005/QH11", "11", "Nhiệm vụ của Hải quan", f"Hải quan có {words}."),
         "embedding": [0.0] * 383 + [1.0]}], [])  # the vector branch ranks it last too
    retriever = LegalRetriever(runner, SameVector())  # type: ignore[arg-type]
    ctx = retriever.retrieve("Nhiệm vụ kiểm tra giám sát hàng hóa của hải quan?", k=2,
                             as_of="2010-01-01", config=RetrievalConfig(candidates=2))
    assert ctx.seeds == ["29/2005/QH11:D11"] and ctx.round_trips == 2
    later = retriever.retrieve("Nhiệm vụ kiểm tra giám sát hàng hóa của hải quan?", k=2,
                               as_of="2021-01-01", config=RetrievalConfig(candidates=2))
    assert later.round_trips == 1 and all(s.startswith("10/2020/QH14") for s in later.seeds)
