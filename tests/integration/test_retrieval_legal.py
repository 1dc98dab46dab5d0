"""Legal retrieval on a real Neo4j: validity chains, repeal, cycles, references, filters, bad input."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from hopgraph.core.errors import RetrievalError
from hopgraph.db import Neo4jRunner
from hopgraph.retrieval import LegalContext, LegalRetriever, RetrievalConfig
from tests.retrieval_fixtures import HashEmbedder, amendment_chain, write_graph

pytestmark = pytest.mark.integration

QUESTION = "mức chi trả chi phí khám bệnh bảo hiểm"
TARGET = "1/2010/QH12:D5.K2"


def _retriever(runner: Neo4jRunner, **cfg: object) -> LegalRetriever:
    return LegalRetriever(runner, HashEmbedder(), config=RetrievalConfig(**cfg))  # type: ignore[arg-type]


def _applicable_for_target(ctx: LegalContext) -> list[str]:
    return [i.node_id for i in ctx.items
            if i.applicable and i.node_id.split("@")[0] == TARGET]


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_amendment_chain_returns_wording_in_force(runner: Neo4jRunner, depth: int) -> None:
    docs, units, edges, dates = amendment_chain(depth)
    write_graph(runner.driver, docs, units, edges)
    retriever = _retriever(runner)
    checks = [(dates[0] - timedelta(days=1), TARGET)]  # not yet effective: the original applies
    for i, eff in enumerate(dates, start=1):
        doc = f"{i}/{2012 + i - 1}/QH13"
        checks.append((eff, f"{TARGET}@{doc}"))
        checks.append((eff + timedelta(days=200), f"{TARGET}@{doc}"))
    for as_of, expected in checks:
        ctx = retriever.retrieve(QUESTION, k=3, as_of=as_of)
        assert ctx.round_trips == 1
        assert _applicable_for_target(ctx) == [expected], (as_of, ctx.items)
        superseded = [i for i in ctx.items if i.node_id.split("@")[0] == TARGET
                      and i.node_id != expected]
        assert all(not i.applicable for i in superseded)


def test_pending_amendment_is_reported_not_applied(runner: Neo4jRunner) -> None:
    docs, units, edges, dates = amendment_chain(1)
    write_graph(runner.driver, docs, units, edges)
    ctx = _retriever(runner).retrieve(QUESTION, k=3, as_of=dates[0] - timedelta(days=1))
    seed = next(i for i in ctx.items if i.node_id == TARGET)
    assert seed.applicable and "sắp có thay đổi: được sửa đổi bởi" in seed.validity_note
    assert "(chưa có hiệu lực)" in seed.validity_note


def test_successor_carries_the_chain(runner: Neo4jRunner) -> None:
    docs, units, edges, dates = amendment_chain(2)
    write_graph(runner.driver, docs, units, edges)
    # Only the original is findable by this wording, so the successor must come from tracing.
    ctx = _retriever(runner).retrieve("tám mươi phần trăm", k=1, as_of=date(2020, 1, 1))
    assert ctx.seeds == [TARGET]
    succ = next(i for i in ctx.items if i.role == "successor")
    assert succ.node_id == f"{TARGET}@2/2013/QH13" and succ.applicable
    assert [s.relation for s in succ.path] == ["AMENDS", "VERSION_OF"]
    assert succ.path[0].source_id == "2/2013/QH13:D1.K1"
    assert succ.path[0].effective_date == dates[1]
    assert ("được sửa đổi bởi khoản 1 Điều 1 Luật 2/2013/QH13, có hiệu lực từ 01/07/2013"
            in succ.validity_note)
    assert succ.provenance.doc_id == "1/2010/QH12"
    assert succ.provenance.position == "Điều 5 › khoản 2"


def test_repealed_unit_is_never_applicable(runner: Neo4jRunner) -> None:
    docs, units, edges, _ = amendment_chain(1)
    docs.append({"id": "9/2016/QH13", "number": "9/2016/QH13", "doc_type": "Luật",
                 "title": "Luật bãi bỏ", "issuer": "Quốc hội", "issue_date": date(2016, 1, 1),
                 "effective_date": date(2016, 7, 1), "status": "con_hieu_luc"})
    units.append({"id": "9/2016/QH13:D1", "doc_id": "9/2016/QH13", "level": "Article",
                  "number": "1", "path": "D1", "text": "Bãi bỏ khoản 2 Điều 5",
                  "citation": "Điều 1 Luật 9/2016/QH13"})
    edges.append({"rel": "REPEALS", "src": "9/2016/QH13:D1", "dst": TARGET,
                  "effective_date": date(2016, 7, 1), "evidence": "Bãi bỏ khoản 2 Điều 5"})
    write_graph(runner.driver, docs, units, edges)
    retriever = _retriever(runner)
    before = retriever.retrieve(QUESTION, k=3, as_of=date(2016, 6, 30))
    assert _applicable_for_target(before) == [f"{TARGET}@1/2012/QH13"]
    after = retriever.retrieve(QUESTION, k=3, as_of=date(2016, 7, 1))
    assert _applicable_for_target(after) == []
    notes = [i.validity_note for i in after.items if i.node_id.split("@")[0] == TARGET]
    assert notes and all("bị bãi bỏ bởi Điều 1 Luật 9/2016/QH13" in n for n in notes)


def test_cycles_and_long_chains_are_bounded_and_reported(runner: Neo4jRunner) -> None:
    docs, units, edges, _ = amendment_chain(1)
    # A cycle: the amending instruction and the target amend each other.
    edges.append({"rel": "AMENDS", "src": TARGET, "dst": "1/2012/QH13:D1.K1",
                  "effective_date": date(2013, 1, 1), "evidence": "cycle"})
    write_graph(runner.driver, docs, units, edges)
    ctx = _retriever(runner, max_chain_depth=3).retrieve(QUESTION, k=3, as_of=date(2020, 1, 1))
    assert any("vòng lặp" in w for w in ctx.warnings)
    assert _applicable_for_target(ctx) == [f"{TARGET}@1/2012/QH13"]


def test_chain_longer_than_bound_is_cut(runner: Neo4jRunner) -> None:
    docs, units, edges, _ = amendment_chain(1)
    # REPLACES chain of 4 units behind the amending instruction.
    prev = "1/2012/QH13:D1.K1"
    for i in range(4):
        uid = f"1/2012/QH13:D9.K{i}"
        units.append({"id": uid, "doc_id": "1/2012/QH13", "level": "Clause", "number": str(i),
                      "path": f"D9.K{i}", "text": f"thay thế lần {i}"})
        edges.append({"rel": "REPLACES", "src": uid, "dst": prev,
                      "effective_date": date(2012, 7, 1), "evidence": "thay thế"})
        prev = uid
    write_graph(runner.driver, docs, units, edges)
    ctx = _retriever(runner, max_chain_depth=2).retrieve(QUESTION, k=3, as_of=date(2020, 1, 1))
    assert any("dài hơn 2 bước" in w for w in ctx.warnings)


def test_references_are_one_hop(runner: Neo4jRunner) -> None:
    docs, units, edges, _ = amendment_chain(1)
    units += [
        {"id": "1/2010/QH12:D7", "doc_id": "1/2010/QH12", "level": "Article", "number": "7",
         "path": "D7", "text": "Điều 7. Thủ tục thanh toán"},
        {"id": "1/2010/QH12:D8", "doc_id": "1/2010/QH12", "level": "Article", "number": "8",
         "path": "D8", "text": "Điều 8. Hồ sơ"},
    ]
    edges += [
        {"rel": "REFERS_TO", "src": TARGET, "dst": "1/2010/QH12:D7", "evidence": "Điều 7"},
        {"rel": "REFERS_TO", "src": "1/2010/QH12:D7", "dst": "1/2010/QH12:D8", "evidence": "Điều 8"},
    ]
    write_graph(runner.driver, docs, units, edges)
    ctx = _retriever(runner).retrieve("tám mươi phần trăm", k=1, as_of=date(2011, 6, 1))
    refs = [i for i in ctx.items if i.role == "reference"]
    assert [r.node_id for r in refs] == ["1/2010/QH12:D7"]
    assert refs[0].path[0].relation == "REFERS_TO" and refs[0].path[0].source_id == TARGET


def test_filters_apply_before_fusion(runner: Neo4jRunner) -> None:
    docs, units, edges, _ = amendment_chain(2)
    write_graph(runner.driver, docs, units, edges)
    retriever = _retriever(runner)
    ctx = retriever.retrieve(QUESTION, k=10, as_of=date(2020, 1, 1),
                             filters={"doc_ids": ["2/2013/QH13"]})
    assert ctx.seeds and all(s.startswith("2/2013/QH13:") for s in ctx.seeds)
    none = retriever.retrieve(QUESTION, k=10, filters={"issuers": ["Không tồn tại"]})
    assert none.items == [] and none.reason_if_empty is not None


def test_bad_input_gives_clear_errors(runner: Neo4jRunner) -> None:
    retriever = _retriever(runner)
    empty_db = retriever.retrieve("mức hưởng bảo hiểm y tế", k=3)
    assert empty_db.items == [] and "chưa có văn bản pháp luật nào được nạp" in (
        empty_db.reason_if_empty or "")
    for bad, kwargs in [("", {}), ("   ", {}), ("x" * 3000, {}),
                        ("câu hỏi", {"as_of": "2020-13-01"}),
                        ("câu hỏi", {"as_of": "01/01/2020"}),
                        ("câu hỏi", {"filters": {"colour": ["red"]}}),
                        ("câu hỏi", {"k": 0})]:
        with pytest.raises(RetrievalError):
            retriever.retrieve(bad, **kwargs)  # type: ignore[arg-type]
    docs, units, edges, _ = amendment_chain(1)
    write_graph(runner.driver, docs, units, edges)
    for q in ['a:b (c) "d AND [x', "điều 5 && || ! ^ ~ * ? \\ /", "OR NOT AND"]:
        ctx = retriever.retrieve(q, k=3)
        assert ctx.round_trips == 1
    only_punct = retriever.retrieve("!!! ??? ***", k=3)
    assert only_punct.items == [] and only_punct.reason_if_empty
    # issue 25: a date before every loaded document says so (it asked "is the graph loaded?")
    early = retriever.retrieve(QUESTION, k=3, as_of=date(1900, 1, 1))
    assert early.items == []
    assert "không có văn bản nào đã nạp có hiệu lực tại ngày 01/01/1900" in (
        early.reason_if_empty or ""), early.reason_if_empty


def test_textual_amendment_annotates_without_replacing(runner: Neo4jRunner) -> None:
    docs, units, edges, _ = amendment_chain(0)
    docs.append({"id": "7/2015/QH13", "number": "7/2015/QH13", "doc_type": "Luật",
                 "title": "Luật thay thế cụm từ", "issuer": "Quốc hội",
                 "issue_date": date(2015, 1, 1), "effective_date": date(2015, 7, 1),
                 "status": "con_hieu_luc"})
    units.append({"id": "7/2015/QH13:D1", "doc_id": "7/2015/QH13", "level": "Article",
                  "number": "1", "path": "D1", "text": "Thay thế cụm từ",
                  "citation": "Điều 1 Luật 7/2015/QH13"})
    edges.append({"rel": "AMENDS", "src": "7/2015/QH13:D1", "dst": TARGET,
                  "effective_date": date(2015, 7, 1),
                  "evidence": 'Thay thế cụm từ "tám mươi" bằng cụm từ "chín mươi"',
                  # the loader stores a phrase edit's pairs on the edge; a change without them
                  # and without a version is one whose new wording was not extracted
                  "edits": ["tám mươi", "chín mươi"]})
    write_graph(runner.driver, docs, units, edges)
    ctx = _retriever(runner).retrieve("tám mươi phần trăm", k=1, as_of=date(2020, 1, 1))
    seed = ctx.items[0]
    assert seed.node_id == TARGET and seed.applicable
    assert "được sửa đổi một số từ ngữ" in seed.validity_note and "chín mươi" in seed.validity_note


def test_article_seed_shows_amended_parts_beside_it(runner: Neo4jRunner) -> None:
    docs, units, edges, _ = amendment_chain(2)
    write_graph(runner.driver, docs, units, edges)
    ctx = _retriever(runner).retrieve("Mức hưởng bảo hiểm", k=1, as_of=date(2020, 1, 1),
                                      filters={"doc_ids": ["1/2010/QH12"]})
    assert ctx.seeds == ["1/2010/QH12:D5"]
    beside = [i for i in ctx.items if i.role == "successor"]
    assert [i.node_id for i in beside] == [f"{TARGET}@2/2013/QH13"]
    assert [s.relation for s in beside[0].path] == ["CONTAINS", "VERSION_OF"]
    early = _retriever(runner).retrieve("Mức hưởng bảo hiểm", k=1, as_of=date(2012, 1, 1),
                                        filters={"doc_ids": ["1/2010/QH12"]})
    assert [i for i in early.items if i.role == "successor"] == []


def test_document_repeal_makes_units_inapplicable(runner: Neo4jRunner) -> None:
    docs, units, edges, _ = amendment_chain(0)
    docs.append({"id": "8/2019/QH14", "number": "8/2019/QH14", "doc_type": "Luật",
                 "title": "Luật bãi bỏ", "issuer": "Quốc hội", "issue_date": date(2019, 1, 1),
                 "effective_date": date(2019, 7, 1), "status": "con_hieu_luc"})
    write_graph(runner.driver, docs, units, edges)
    with runner.driver.session(database="neo4j") as s:
        s.run("MATCH (a:Document {id: '8/2019/QH14'}), (b:Document {id: '1/2010/QH12'}) "
              "MERGE (a)-[r:REPEALS]->(b) SET r.effective_date = date('2019-07-01')").consume()
    retriever = _retriever(runner)
    assert retriever.retrieve("tám mươi phần trăm", k=1, as_of=date(2019, 6, 30)).items[0].applicable
    after = retriever.retrieve("tám mươi phần trăm", k=1, as_of=date(2019, 7, 1)).items[0]
    assert not after.applicable
    assert "văn bản bị bãi bỏ bởi Luật số 8/2019/QH14" in after.validity_note
