"""Re-ranking and query cleaning of legal retrieval (no database): heading phrases, document
mentions without the year, the content-word full-text query and who gets it."""

from __future__ import annotations

from datetime import date

from hopgraph.retrieval import LegalRetriever, RetrievalConfig
from hopgraph.retrieval._legal import Candidate, heading_overlap, question_grams
from hopgraph.retrieval._legal_eval import legal_systems
from hopgraph.retrieval._legal_query import fold, prepare_question
from tests.retrieval_fixtures import HashEmbedder
from tests.unit.retrieval.test_legal_retriever import SEARCH_ROW, FakeRunner


def _cand(uid: str, score: float, heading: str, title: str = "Luật Cư trú 2020") -> Candidate:
    return Candidate(uid, uid.split(":")[0], {"fused": score}, score, heading, title, None)


def test_heading_overlap_counts_phrases_not_shared_words() -> None:
    q = question_grams(fold("Điều nào sau đây không thuộc trách nhiệm của cơ quan đăng ký cư trú?"))
    assert heading_overlap("Trách nhiệm của cơ quan đăng ký cư trú", q) == 1.0
    # most of its syllables occur in the question, but only one of its phrases
    assert heading_overlap("Đăng ký thường trú", q) == 1 / 3
    assert heading_overlap("Nơi cư trú của người không có nơi thường trú", q) < 0.3
    assert heading_overlap("Tách", question_grams(fold("tách hộ"))) == 1.0
    assert heading_overlap("Hộ tách", question_grams(fold("tách hộ"))) == 0.0


def test_rerank_lifts_the_article_whose_heading_the_question_repeats() -> None:
    retriever = LegalRetriever(FakeRunner({}), HashEmbedder())
    prepared = prepare_question("Điều nào sau đây không thuộc trách nhiệm của cơ quan đăng ký cư trú?")
    ranked = retriever.rerank(prepared, [
        _cand("X:D19", 0.95, "Nơi cư trú của người không có nơi thường trú, nơi tạm trú"),
        _cand("X:D33", 0.85, "Trách nhiệm của cơ quan đăng ký cư trú"),
    ])
    assert [c.id for c in ranked] == ["X:D33", "X:D19"]
    assert ranked[0].scores["heading"] == 1.0 and ranked[0].score > 0.85


def test_document_title_matches_without_its_year() -> None:
    retriever = LegalRetriever(FakeRunner({}), HashEmbedder())
    prepared = prepare_question("Theo Luật Viên chức, viên chức có quyền gì?")
    ranked = retriever.rerank(prepared, [
        _cand("A:D1", 0.9, "Phạm vi", title="Luật Giáo dục 2019"),
        _cand("B:D1", 0.8, "Phạm vi", title="Luật Viên chức 2010"),
    ])
    assert ranked[0].id == "B:D1"


def test_content_query_drops_question_boilerplate() -> None:
    p = prepare_question("Thời hạn tạm trú tối đa là 02 năm, đúng hay sai?")
    assert "đúng" in p.lucene.split() and "sai" in p.lucene.split()
    content = p.lucene_content.split()
    assert "đúng" not in content and "sai" not in content and "là" not in content
    assert "tạm_trú" in content and "02" in content
    # nothing but boilerplate: no content query, the full query is used instead
    assert prepare_question("Đúng hay sai?").lucene_content == ""


def test_hopgraph_searches_content_words_and_flat_baselines_the_whole_question() -> None:
    runner = FakeRunner({"legal/search_units_hybrid": [SEARCH_ROW]})
    retriever = LegalRetriever(runner, HashEmbedder(), config=RetrievalConfig(propagate=False))
    systems = legal_systems(retriever, k=3, as_of=date(2023, 1, 1))
    question = "Thời hạn tạm trú tối đa là 02 năm, đúng hay sai?"
    systems["hopgraph"](question)
    systems["flat-hybrid"](question)
    searches = [p["query"] for k, p in runner.calls if k == "legal/search_units_hybrid"]
    assert "sai" not in searches[0].split() and "sai" in searches[1].split()
