"""LegalRetriever with a recording fake runner: one round trip, parameters, assembly, query
cleaning (no database; the re-rank itself runs in Cypher: test_retrieval_legal_rerank.py)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any, TypeVar

import pytest

from hopgraph.core.errors import RetrievalError
from hopgraph.retrieval import (
    LegalRetriever,
    RetrievalConfig,
    evaluate,
    legal_systems,
    load_questions,
)
from hopgraph.retrieval._legal import body_grams, phrase_grams, rerank_params
from hopgraph.retrieval._legal_query import definition_subject, fold, prepare_question
from hopgraph.retrieval._legal_types import DEFAULT_BODY_WEIGHT
from tests.retrieval_fixtures import HashEmbedder
from tests.unit.fakes import RecordingRunner

T = TypeVar("T")


def _runner(answers: Mapping[str, list[dict[str, Any]]]) -> RecordingRunner:
    """Records (key, params), checks them against the registry and answers from canned rows."""
    return RecordingRunner(answers, check_params=True, refuse={"write", "write_transaction"})


def _unit(uid: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"id": uid, "doc_id": uid.split(":")[0], "level": "Clause", "number": "2",
            "path": uid.split(":")[1].split("@")[0], "text": text, "valid_from": None,
            "valid_to": None, "citation": None, "is_version": "@" in uid,
            "anchor_id": uid.split("@")[0], "position": [], "doc": {
                "id": uid.split(":")[0], "number": uid.split(":")[0], "doc_type": "Luật",
                "title": "Luật A", "issuer": "Quốc hội", "issue_date": None,
                "effective_date": None, "expiry_date": None, "status": None}, **extra}


CANDIDATE = {"id": "A:D5.K2", "doc_id": "A", "dense": 0.9, "sparse": 3.0, "dense_norm": 1.0,
             "sparse_norm": 1.0, "fused": 1.0, "heading": 0.0, "rerank": 1.0}
STEP = {"relation": "AMENDS", "source_id": "B:D1.K1", "target_id": "A:D5.K2",
        "source_citation": "khoản 1 Điều 1 Luật B", "effective_date": date(2015, 1, 1),
        "method": "rule", "evidence": "Sửa đổi khoản 2 Điều 5"}
EXPAND_ROW = {"seeds": [{
    "seed_rank": 0, "seed_id": "A:D5.K2", "base_id": "A:D5.K2", "applicable_id": "A:D5.K2@B",
    "decisive": {"kind": "AMENDS", "steps": [STEP]},
    "events": [{"kind": "AMENDS", "in_force": True, "cycle": False, "cut": False,
                "steps": [STEP]}],
    "cycles": 0, "doc_replaced": [], "references": [], "unit_ids": []}],
    "units": [_unit("A:D5.K2", "cũ"), _unit("A:D5.K2@B", "mới", valid_from=date(2015, 1, 1))]}


def _answers() -> dict[str, list[dict[str, Any]]]:
    return {"legal/retrieve_context": [{"candidates": [CANDIDATE], **EXPAND_ROW}]}


def test_one_round_trip_and_successor_assembly() -> None:
    runner = _runner(_answers())
    retriever = LegalRetriever(runner, HashEmbedder(), today=lambda: date(2020, 1, 1))
    ctx = retriever.retrieve("mức hưởng", k=3, filters={"issuers": ["QUỐC HỘI"]})
    assert [k for k, _ in runner.calls] == ["legal/retrieve_context"]
    search = runner.calls[0][1]
    assert search["dense_pool"] == search["candidates"]  # unit granularity: no extra vector hits
    assert search["has_filter"] is True and search["issuers"] == ["quốc hội"]
    assert search["as_of"] == date(2020, 1, 1) and search["use_sparse"] is True
    assert search["k"] == 3 and search["max_depth"] >= 1
    assert ctx.round_trips == 1
    assert [(i.role, i.node_id, i.applicable) for i in ctx.items] == [
        ("seed", "A:D5.K2", False), ("successor", "A:D5.K2@B", True)]
    assert ctx.items[0].scores["rerank"] == 1.0
    assert "được sửa đổi bởi khoản 1 Điều 1 Luật B, có hiệu lực từ 01/01/2015" in ctx.items[1].validity_note
    assert ctx.items[1].validity_note.startswith("đang có hiệu lực tại ngày 01/01/2020")
    assert ctx.items[1].citation.endswith("(nội dung sửa đổi theo văn bản số B)")
    assert ctx.to_dict()["items"][1]["path"][0]["effective_date"] == "2015-01-01"


def test_rerank_parameters_carry_the_question_side() -> None:
    runner = _runner(_answers())
    LegalRetriever(runner, HashEmbedder()).retrieve(
        "Khoản 2 Điều 5 Luật số 25/2008/QH12 quy định mức hưởng thế nào?", k=3)
    params = runner.calls[0][1]
    assert params["doc_numbers"] == ["25/2008/qh12"] and params["articles"] == ["5"]
    assert "mức hưởng" in params["q_grams"] and "hưởng" in params["q_grams"]
    assert (params["w_doc"], params["w_article"], params["w_heading"]) == (0.15, 0.3, 0.3)
    flat = LegalRetriever(runner, HashEmbedder(),
                          config=RetrievalConfig(rerank=False, propagate=False))
    flat.retrieve("mức hưởng", k=3)
    params = runner.calls[-1][1]
    assert (params["w_doc"], params["w_article"], params["w_heading"]) == (0.0, 0.0, 0.0)
    assert params["max_depth"] == 0 and params["max_refs"] == 0
    LegalRetriever(runner, HashEmbedder(), config=RetrievalConfig(heading_weight=0.45)).retrieve(
        "mức hưởng", k=3)
    assert runner.calls[-1][1]["w_heading"] == 0.45


def test_a_question_names_units_as_their_paths_and_only_the_rerank_sends_them() -> None:
    from hopgraph.retrieval._legal_query import named_units

    assert named_units("Khoản 2 Điều 5 Nghị định 12/2016/NĐ-CP quy định gì?") == ("D5.K2",)
    assert named_units("điểm đ khoản 1a Điều 98a và Điều 7 Luật 78/2006/QH11") == (
        "D98a.K1a.đ", "D7")
    assert named_units("Điều khoản chung của hợp đồng") == ()
    prepared = prepare_question("Tại ngày 01/07/2021, khoản 3 Điều 4 Nghị định 12/2016/NĐ-CP "
                                "quy định như thế nào?")
    params = rerank_params(prepared, RetrievalConfig())
    assert params["unit_paths"] == ["D4.K3"] and params["w_unit"] > 0
    assert params["doc_numbers"] == ["12/2016/nđ-cp"]
    flat = rerank_params(prepared, RetrievalConfig(rerank=False))
    assert flat["unit_paths"] == [""] and flat["w_unit"] == 0.0


def test_a_question_quotes_passages_and_only_the_rerank_sends_them() -> None:
    from hopgraph.retrieval._legal_query import quote_query, quoted_passages

    q = ("Theo Luật Doanh nghiệp 2020 áp dụng ngày 30/06/2025, nội dung “Theo quyết định của  "
         "Đại hội đồng cổ đông, công ty hoàn trả một” được quy định như thế nào?")
    assert quoted_passages(q) == (
        "theo quyết định của đại hội đồng cổ đông, công ty hoàn trả một",)
    # guillemets and straight quotes too; too short a quote (under three words) is no passage;
    # the same passage twice is one
    assert quoted_passages('Cụm «các khoản nợ và nghĩa vụ» và "Y tế" và “các khoản nợ và '
                           'nghĩa vụ.”') == ("các khoản nợ và nghĩa vụ",)
    assert quoted_passages("Điều 5 quy định gì?") == ()
    # the full-text index is case-sensitive: every quoted word in both forms, no stopword
    query = quote_query(("hoàn trả cho cổ đông",))
    assert "hoàn_trả" in query.split() and "Hoàn_trả" in query.split()
    assert "cho" not in query.split() and quote_query(()) == ""
    prepared = prepare_question(q)
    params = rerank_params(prepared, RetrievalConfig())
    assert params["quotes"] == list(prepared.quotes) and params["w_quote"] > 0
    assert params["quote_query"] == prepared.lucene_quote != ""
    flat = rerank_params(prepared, RetrievalConfig(rerank=False))
    assert flat["quotes"] == [""] and flat["quote_query"] == "" and flat["w_quote"] == 0.0


def test_body_grams_leave_out_pairs_of_stopwords() -> None:
    grams = body_grams("viên chức có được ký hợp đồng vụ, việc không?")
    assert "hợp đồng" in grams and "đồng vụ" in grams and "vụ việc" in grams
    assert "có được" not in grams  # two function words: no phrase
    assert "chức có" in grams  # one content syllable is enough
    assert grams == sorted(grams) and body_grams("có được không") == []


@pytest.mark.parametrize(("config", "weight"), [
    (RetrievalConfig(granularity="article"), DEFAULT_BODY_WEIGHT),
    (RetrievalConfig(), 0.0),  # units: an article and its clauses would share one bonus
    (RetrievalConfig(body_weight=0.8), 0.8),  # set: as given, at any granularity
    (RetrievalConfig(granularity="article", body_weight=0.0), 0.0),
    (RetrievalConfig(granularity="article", rerank=False), 0.0),  # flat hybrid
])
def test_body_weight_in_effect(config: RetrievalConfig, weight: float) -> None:
    runner = _runner(_answers())
    LegalRetriever(runner, HashEmbedder(), config=config).retrieve("ký hợp đồng vụ việc", k=3)
    params = runner.calls[-1][1]
    assert params["w_body"] == weight and "hợp đồng" in params["q_body"]


@pytest.mark.parametrize("config", [
    RetrievalConfig(body_weight=-1.0), RetrievalConfig(heading_weight=-0.1),
    RetrievalConfig(body_weight=float("nan")),
])
def test_a_negative_weight_is_refused_before_the_database(config: RetrievalConfig) -> None:
    runner = _runner(_answers())
    with pytest.raises(RetrievalError, match="weight must be a number >= 0"):
        LegalRetriever(runner, HashEmbedder(), config=config).retrieve("mức hưởng", k=3)
    assert runner.calls == []


def test_a_question_of_stopwords_sends_no_body_bigram() -> None:
    runner = _runner(_answers())
    LegalRetriever(runner, HashEmbedder()).retrieve("có được không", k=3)
    assert runner.calls[-1][1]["q_body"] == [""]  # never an empty list (one plan per shape)


@pytest.mark.parametrize(("question", "subject", "predicate"), [
    ("Thế nào là hôn nhân?", "hôn nhân", ""),
    ("Khái niệm về “tảo hôn”", "tảo hôn", ""),
    ("Trọng tài viên là người được các bên lựa chọn, đúng hay sai?", "trọng tài viên",
     "người được các bên lựa chọn, đúng hay sai"),
    ("Việc sinh con bằng kỹ thuật hỗ trợ sinh sản là hành vi nhân tạo.",
     "sinh con bằng kỹ thuật hỗ trợ sinh sản", "hành vi nhân tạo"),
    ("Thời kỳ hôn nhân được hiểu là gì?", "thời kỳ hôn nhân", "gì"),
    ("Ai có quyền yêu cầu ly hôn?", "", ""),
    ("Theo Luật Bảo hiểm y tế số 25/2008/QH12, bảo hiểm y tế là gì?", "bảo hiểm y tế", "gì"),
    ("Theo quy định hiện hành, thế nào là tảo hôn?", "tảo hôn", ""),
    # a subject longer than any stored term (20 words) is not a term
    ("Người dưới mười tám tuổi mà chưa có sự đồng ý của cha mẹ hoặc người giám hộ hợp pháp "
     "của mình là vi phạm gì?", "", ""),
])
def test_definitional_questions_name_their_term(question: str, subject: str,
                                                predicate: str) -> None:
    assert definition_subject(fold(question)) == (subject, predicate)
    prepared = prepare_question(question)
    assert (prepared.subject, prepared.predicate) == (subject, predicate)


def test_definition_parameters() -> None:
    runner = _runner(_answers())
    LegalRetriever(runner, HashEmbedder()).retrieve("Kết hôn là việc nam và nữ xác lập", k=3)
    params = runner.calls[0][1]
    assert params["q_subject"] == "kết hôn"
    assert params["p_grams"] == sorted(["việc nam", "nam và", "và nữ", "nữ xác", "xác lập"])
    assert (params["w_definition"], params["definition_floor"]) == (0.7, 0.5)
    LegalRetriever(runner, HashEmbedder()).retrieve("mức hưởng bảo hiểm", k=3)
    assert runner.calls[-1][1]["w_definition"] == 0.0  # not definitional: no lookup
    assert phrase_grams("gì") == ["gì"] and phrase_grams("") == []


def test_article_granularity_reads_more_vector_hits() -> None:
    runner = _runner(_answers())
    cfg = RetrievalConfig(granularity="article", candidates=30)
    LegalRetriever(runner, HashEmbedder(), config=cfg).retrieve("mức hưởng", k=3)
    search = dict(runner.calls)["legal/retrieve_context"]
    assert (search["candidates"], search["dense_pool"]) == (30, 60)


def test_k_above_the_candidate_count_reads_k_candidates() -> None:
    """k seeds cannot come from fewer candidates: a k above the configured count raises the
    count for that call (the default count is below the largest k)."""
    runner = _runner(_answers())
    retriever = LegalRetriever(runner, HashEmbedder())
    retriever.retrieve("mức hưởng", k=3)
    assert runner.calls[-1][1]["candidates"] == RetrievalConfig().candidates == 20
    retriever.retrieve("mức hưởng", k=35)
    assert (runner.calls[-1][1]["candidates"], runner.calls[-1][1]["dense_pool"]) == (35, 35)
    assert retriever.config.candidates == 20  # the retriever's own config is unchanged


def test_bounds_cut_items_and_report_truncation() -> None:
    runner = _runner(_answers())
    retriever = LegalRetriever(runner, HashEmbedder(), config=RetrievalConfig(max_items=1))
    ctx = retriever.retrieve("mức hưởng", k=3)
    assert len(ctx.items) == 1 and ctx.truncated


def test_no_candidates_gives_reason_after_a_wider_search_and_one_more_round_trip() -> None:
    """The search, only when it finds nothing the same search over pools WIDEN times deeper
    (at an early date every unit the indexes ranked first can be later law), then one count
    that says why (Vietnamese)."""
    from hopgraph.retrieval._legal import WIDEN

    runner = _runner({})
    ctx = LegalRetriever(runner, HashEmbedder()).retrieve("mức hưởng", k=3)
    assert ctx.items == [] and ctx.round_trips == 3
    first, wide = (p for key, p in runner.calls if key == "legal/retrieve_context")
    assert wide["sparse_pool"] == first["sparse_pool"] * WIDEN
    assert wide["dense_pool"] == first["dense_pool"] * WIDEN
    assert wide["quote_pool"] == first["quote_pool"] * WIDEN
    assert "chưa có văn bản pháp luật nào được nạp" in (ctx.reason_if_empty or "")


def test_content_query_drops_question_boilerplate() -> None:
    p = prepare_question("Thời hạn tạm trú tối đa là 02 năm, đúng hay sai?")
    assert "đúng" in p.lucene.split() and "sai" in p.lucene.split()
    content = p.lucene_content.split()
    assert "đúng" not in content and "sai" not in content and "là" not in content
    assert "tạm_trú" in content and "02" in content
    # nothing but boilerplate: no content query, the full query is used instead
    assert prepare_question("Đúng hay sai?").lucene_content == ""


def test_hopgraph_searches_content_words_and_flat_baselines_the_whole_question() -> None:
    runner = _runner(_answers())
    retriever = LegalRetriever(runner, HashEmbedder(), config=RetrievalConfig(propagate=False))
    systems = legal_systems(retriever, k=3, as_of=date(2023, 1, 1))
    question = "Thời hạn tạm trú tối đa là 02 năm, đúng hay sai?"
    systems["hopgraph"](question, None)
    systems["flat-hybrid"](question, None)
    searches = [p["query"] for k, p in runner.calls if k == "legal/retrieve_context"]
    assert "sai" not in searches[0].split() and "sai" in searches[1].split()


def test_every_legal_system_retrieves_at_the_questions_own_date(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    path.write_text(json.dumps([
        {"id": "dated", "question": "mức hưởng", "gold": ["A:D5.K2"], "as_of": "2016-03-01"},
        {"id": "undated", "question": "mức hưởng", "gold": ["A:D5.K2"]},
    ]), encoding="utf-8")
    runner = _runner(_answers())
    retriever = LegalRetriever(runner, HashEmbedder(), today=lambda: date(2030, 1, 1))
    systems = legal_systems(retriever, k=3, as_of=date(2023, 1, 1))
    report = evaluate(systems, load_questions(path), ks=[1])
    days = [p["as_of"] for k, p in runner.calls if k == "legal/retrieve_context"]
    # questions outer, systems inner: the dated question first, once per system
    assert days == [date(2016, 3, 1)] * 4 + [date(2023, 1, 1)] * 4
    assert all(s.metrics["Hit@1"] == 1.0 for s in report.systems)
    # without a command date, an undated question is retrieved at the retriever's today
    runner.calls.clear()
    legal_systems(retriever, k=3)["bm25-only"]("mức hưởng", None)
    assert runner.calls[0][1]["as_of"] == date(2030, 1, 1)


@pytest.mark.parametrize("kwargs", [{"k": 0}, {"k": 101}, {"as_of": "2020-02-30"},
                                    {"filters": {"doc_type": "Luật"}}, {"filters": ["x"]}])
def test_bad_arguments_raise_retrieval_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(RetrievalError):
        LegalRetriever(_runner({}), HashEmbedder()).retrieve("mức hưởng", **kwargs)


def test_an_article_found_after_its_clause_shows_its_text_in_its_headings_place() -> None:
    # Seeds: clause 3 of Điều 7 first, then Điều 7 itself. The clause brings its article in as
    # provenance (the heading alone); the article's own item, with its wording, takes that place.
    article = _unit("A:D7", "Điều 7. Hồ sơ\n1. Một.\n3. Ba.", level="Article", number="7",
                    heading="Hồ sơ")
    clause = _unit("A:D7.K3", "3. Ba.", number="3", position=[
        {"level": "Article", "id": "A:D7", "number": "7", "label": "Điều 7", "heading": "Hồ sơ"}])
    seeds = [{"seed_rank": i, "seed_id": u["id"], "base_id": u["id"], "applicable_id": u["id"],
              "decisive": None, "events": [], "cycles": 0, "doc_replaced": [], "references": [],
              "unit_ids": []} for i, u in enumerate((clause, article))]
    cands = [{**CANDIDATE, "id": u["id"], "rerank": 1.0 - i / 10}
             for i, u in enumerate((clause, article))]
    runner = _runner({"legal/retrieve_context": [
        {"candidates": cands, "seeds": seeds, "units": [clause, article]}]})
    ctx = LegalRetriever(runner, HashEmbedder(), today=lambda: date(2020, 1, 1)).retrieve(
        "hồ sơ", k=2)
    assert [(i.role, i.node_id, i.rank) for i in ctx.items] == [
        ("seed", "A:D7.K3", 1), ("seed", "A:D7", 2)]
    assert ctx.items[1].text == article["text"] and ctx.items[1].applicable


def test_a_point_inside_a_clause_with_a_new_wording_is_not_applied_twice() -> None:
    # Điều 7's clause 1 got a new wording (its points with it: each old point has a version
    # too). The article at the date is its text with the new clause, complete and applicable,
    # and the clause's points are not listed again beside the clause.
    article = _unit("A:D7", "Điều 7. Hồ sơ\n1. Hồ sơ gồm:\na) Tờ khai;\n2. Nộp một bộ.",
                    level="Article", number="7", heading="Hồ sơ", parts_changed_from=date(2018, 6, 5))
    k1 = _unit("A:D7.K1", "1. Hồ sơ gồm:\na) Tờ khai;", number="1")
    k1a = _unit("A:D7.K1.a", "a) Tờ khai;", level="Point", number="a")
    new_k1 = _unit("A:D7.K1@B", "1. Hồ sơ gồm:\na) Tờ khai điện tử;\nb) Giấy phép;", number="1",
                   valid_from=date(2018, 6, 5))
    new_k1a = _unit("A:D7.K1.a@B", "a) Tờ khai điện tử;", level="Point", number="a",
                    valid_from=date(2018, 6, 5))
    seed = {"seed_rank": 0, "seed_id": "A:D7", "base_id": "A:D7", "applicable_id": "A:D7",
            "decisive": None, "events": [], "cycles": 0, "doc_replaced": [], "references": [],
            "unit_ids": [], "parts": [
                {"part_id": "A:D7.K1", "shown_id": "A:D7.K1@B", "anchor_id": None,
                 "kind": "VERSION_OF"},
                {"part_id": "A:D7.K1.a", "shown_id": "A:D7.K1.a@B", "anchor_id": None,
                 "kind": "VERSION_OF"}]}
    runner = _runner({"legal/retrieve_context": [
        {"candidates": [{**CANDIDATE, "id": "A:D7"}], "seeds": [seed],
         "units": [article, k1, k1a, new_k1, new_k1a]}]})
    ctx = LegalRetriever(runner, HashEmbedder(), today=lambda: date(2020, 1, 1)).retrieve(
        "hồ sơ", k=1)
    first = ctx.items[0]
    assert first.node_id == "A:D7" and first.applicable and first.consolidated
    assert "b) Giấy phép;" in first.text and "a) Tờ khai;" not in first.text
    assert "2. Nộp một bộ." in first.text
    assert [i.node_id for i in ctx.items if i.role == "successor"] == ["A:D7.K1@B"]
    # the part's new wording is said once, with its amending document, not its whole citation
    assert "A:D7.K1 theo nội dung được sửa đổi bởi văn bản số B, có hiệu lực từ 05/06/2018" \
        in first.validity_note
    assert first.validity_note.count("A:D7.K1") == 1  # its point a is inside it: not read again


def test_a_new_article_wording_holds_the_clause_wordings_written_with_it() -> None:
    # Decree B rewrote the whole of Điều 7: the new article wording (A:D7@B) and, inside it, new
    # wordings of its clauses (A:D7.K1@B), one document, one day. Found as a seed, the new article
    # is the wording in force, whole: its clauses are not changes to consolidate into it.
    new_article = _unit("A:D7@B", "Điều 7. Hồ sơ mới\n1. Nộp bản điện tử.\n2. Nộp một bộ.",
                        level="Article", number="7", heading="Hồ sơ mới",
                        valid_from=date(2018, 6, 5))
    k1 = _unit("A:D7.K1", "1. Nộp bản giấy.", number="1")
    new_k1 = _unit("A:D7.K1@B", "1. Nộp bản điện tử.", number="1", valid_from=date(2018, 6, 5))
    later_k2 = _unit("A:D7.K2@C", "2. Nộp hai bộ.", number="2", valid_from=date(2019, 1, 1))
    k2 = _unit("A:D7.K2", "2. Nộp một bộ.", number="2")

    def seed(as_of_parts: list[dict[str, Any]]) -> dict[str, Any]:
        return {"seed_rank": 0, "seed_id": "A:D7@B", "base_id": "A:D7", "applicable_id": "A:D7@B",
                "decisive": None, "events": [], "cycles": 0, "doc_replaced": [],
                "references": [], "unit_ids": [], "parts": as_of_parts}

    own = {"part_id": "A:D7.K1", "shown_id": "A:D7.K1@B", "anchor_id": None, "kind": "VERSION_OF"}
    runner = _runner({"legal/retrieve_context": [
        {"candidates": [{**CANDIDATE, "id": "A:D7@B"}], "seeds": [seed([own])],
         "units": [new_article, k1, new_k1]}]})
    ctx = LegalRetriever(runner, HashEmbedder(), today=lambda: date(2018, 7, 1)).retrieve(
        "hồ sơ", k=1)
    first = ctx.items[0]
    assert first.node_id == "A:D7@B" and first.applicable and first.text == new_article["text"]
    assert [i.node_id for i in ctx.items] == ["A:D7@B"]
    # a clause changed later by another document is still a change of the new wording
    later = {"part_id": "A:D7.K2", "shown_id": "A:D7.K2@C", "anchor_id": None,
             "kind": "VERSION_OF"}
    runner = _runner({"legal/retrieve_context": [
        {"candidates": [{**CANDIDATE, "id": "A:D7@B"}], "seeds": [seed([own, later])],
         "units": [new_article, k1, new_k1, k2, later_k2]}]})
    ctx = LegalRetriever(runner, HashEmbedder(), today=lambda: date(2019, 7, 1)).retrieve(
        "hồ sơ", k=1)
    assert "A:D7.K2@C" in [i.node_id for i in ctx.items]
    assert "A:D7.K1@B" not in [i.node_id for i in ctx.items]


def test_the_clauses_of_a_new_article_wording_are_not_listed_again_beside_it() -> None:
    # Found: the article as enacted (A:D7); in force: decree B's new wording of the whole
    # article (A:D7@B), written with new wordings of its clauses (A:D7.K1@B). The new article is
    # presented as the successor; its clause, which it holds word for word, is not listed again.
    article = _unit("A:D7", "Điều 7. Hồ sơ\n1. Nộp bản giấy.", level="Article", number="7",
                    heading="Hồ sơ")
    new_article = _unit("A:D7@B", "Điều 7. Hồ sơ mới\n1. Nộp bản điện tử.", level="Article",
                        number="7", heading="Hồ sơ mới", valid_from=date(2018, 6, 5))
    k1 = _unit("A:D7.K1", "1. Nộp bản giấy.", number="1")
    new_k1 = _unit("A:D7.K1@B", "1. Nộp bản điện tử.", number="1", valid_from=date(2018, 6, 5))
    step = {**STEP, "target_id": "A:D7", "effective_date": date(2018, 6, 5)}
    seed = {"seed_rank": 0, "seed_id": "A:D7", "base_id": "A:D7", "applicable_id": "A:D7@B",
            "decisive": {"kind": "AMENDS", "steps": [step]},
            "events": [{"kind": "AMENDS", "in_force": True, "cycle": False, "cut": False,
                        "steps": [step]}],
            "cycles": 0, "doc_replaced": [], "references": [], "unit_ids": [], "parts": [
                {"part_id": "A:D7.K1", "shown_id": "A:D7.K1@B", "anchor_id": None,
                 "kind": "VERSION_OF"}]}
    runner = _runner({"legal/retrieve_context": [
        {"candidates": [{**CANDIDATE, "id": "A:D7"}], "seeds": [seed],
         "units": [article, new_article, k1, new_k1]}]})
    ctx = LegalRetriever(runner, HashEmbedder(), today=lambda: date(2019, 1, 1)).retrieve(
        "hồ sơ", k=1)
    assert [(i.node_id, i.applicable) for i in ctx.items] == [
        ("A:D7", False), ("A:D7@B", True)]


@pytest.mark.parametrize(("kinds", "verb"), [
    (["SUPPLEMENTS"], "bổ sung"), (["AMENDS", "SUPPLEMENTS"], "sửa đổi, bổ sung"),
    (["AMENDS"], "sửa đổi"), (["REPLACES"], "sửa đổi"), (None, "sửa đổi")])
def test_a_version_is_cited_with_how_its_wording_came(kinds: list[str] | None, verb: str) -> None:
    """An inserted wording is "nội dung bổ sung theo …", not "sửa đổi" (the change kinds that
    legal/_trace_seeds reads from the amending document's edges to the unit)."""
    from hopgraph.retrieval._legal_context import provenance_of

    unit = {**_unit("A:D5.K4a@B", "mới", valid_from=date(2015, 1, 1)), "version_kinds": kinds}
    assert provenance_of(unit).citation.endswith(f"(nội dung {verb} theo văn bản số B)")


def test_a_traced_id_the_graph_lacks_is_said_in_vietnamese() -> None:
    runner = _runner({"legal/expand_context": [{"seeds": [], "units": []}]})
    ctx = LegalRetriever(runner, HashEmbedder(), today=lambda: date(2020, 1, 1)).trace(
        ["A:D3.K9"])
    assert ctx.items == [] and ctx.reason_if_empty is not None
    assert ctx.warnings == ["không tìm thấy A:D3.K9 trong đồ thị (văn bản không có vị trí này, "
                            "hoặc chưa được nạp)"]
