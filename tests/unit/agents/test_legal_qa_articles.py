"""Q&A articles as evaluation questions: title, body, cited provisions, corpus resolution."""

from __future__ import annotations

from pathlib import Path

import pytest

from hopgraph.core.errors import ConfigError
from hopgraph.eval.qa_articles import (
    CitedProvision,
    CorpusIndex,
    article_of,
    extract_provisions,
    parse_qa_article,
    read_qa_articles,
)
from hopgraph.loaders.legal import SAMPLES_DIR, parse_inputs

ARTICLE = """# Khám trái tuyến được thanh toán bao nhiêu? Hồ sơ gồm gì?

## Mua bán căn hộ chung cư

**Khám trái tuyến được thanh toán bao nhiêu?**

Căn cứ khoản 2 Điều 3 Nghị định 12/2016/NĐ-MAU quy định như sau:

2. Người bệnh được thanh toán theo tỷ lệ, trừ trường hợp quy định tại Điều 40 của Luật này.

*Khám trái tuyến (Hình từ Internet)*

**Hồ sơ gồm gì?**

Theo Điều 5 Luật Bảo hiểm sức khỏe 2015, hồ sơ gồm thẻ và giấy tờ tùy thân.

**Mức đóng hằng tháng là bao nhiêu?**

Theo điểm a khoản 1 Điều 9 Nghị định 99/2010/NĐ-MAU, mức đóng bằng 4,5%.
"""


def test_title_is_the_question_and_body_the_answer_without_markup() -> None:
    a = parse_qa_article(ARTICLE, "a1")
    assert a.question == "Khám trái tuyến được thanh toán bao nhiêu? Hồ sơ gồm gì?"
    assert "**" not in a.answer and "#" not in a.answer
    assert a.answer.startswith("Mua bán căn hộ chung cư")
    assert "mức đóng bằng 4,5%" in a.answer


def test_only_sections_answering_the_title_give_its_provisions() -> None:
    a = parse_qa_article(ARTICLE, "a1")
    assert a.sections_matched == 2  # the two title questions, not the follow-up on "mức đóng"
    assert {(p.doc_number, p.doc_name, p.path) for p in a.cited} == {
        ("12/2016/NĐ-MAU", None, "D3.K2"),
        (None, "Luật Bảo hiểm sức khỏe 2015", "D5"),
    }
    # the follow-up section still counts among the provisions cited anywhere
    assert ("99/2010/NĐ-MAU", "D9.K1.a") in {(p.doc_number, p.path) for p in a.cited_anywhere}


def test_relative_and_documentless_citations_are_left_out() -> None:
    found = extract_provisions("theo Điều 40 của Luật này và khoản 3 Điều 7; xem khoản 1, khoản 2 "
                               "Điều 12 Nghị định 146/2018/NĐ-CP")
    assert [(p.doc_number, p.path) for p in found] == [
        ("146/2018/NĐ-CP", "D12.K1"), ("146/2018/NĐ-CP", "D12.K2")]


def test_bad_article_is_reported_and_the_rest_is_read(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no '# ' title"):
        parse_qa_article("no title here", "x")
    (tmp_path / "good.md").write_text(ARTICLE, encoding="utf-8")
    (tmp_path / "bad.md").write_text("# Chỉ có tiêu đề?\n", encoding="utf-8")
    articles, problems = read_qa_articles(tmp_path)
    assert [a.id for a in articles] == ["good"]
    assert len(problems) == 1 and problems[0].startswith("bad.md: ") and "empty" in problems[0]
    with pytest.raises(ConfigError, match="does not exist"):
        read_qa_articles(tmp_path / "missing")


@pytest.fixture(scope="module")
def index() -> CorpusIndex:
    docs, _problems, _files = parse_inputs([SAMPLES_DIR])
    return CorpusIndex(docs, {"Luật Bảo hiểm sức khỏe": "01/2015/QH-MAU"})


def test_provisions_resolve_to_corpus_units_by_number_or_title_and_year(index: CorpusIndex) -> None:
    a = parse_qa_article(ARTICLE, "a1")
    resolved = sorted(u for p in a.cited for u in index.resolve(p))
    assert resolved == ["01/2015/QH-MAU:D5", "12/2016/NĐ-MAU:D3.K2"]
    # a year that contradicts the number's year does not resolve; nor an unknown unit
    assert index.document_of(CitedProvision("", "D5", None, "Luật Bảo hiểm sức khỏe 2019")) is None
    assert index.resolve(CitedProvision("", "D99", "12/2016/NĐ-MAU", None)) == []
    assert index.in_corpus_document(CitedProvision("", "D99", "12/2016/NĐ-MAU", None))
    assert not index.in_corpus_document(CitedProvision("", "D1", "1/2099/NĐ-CP", None))


def test_retrieved_ids_map_to_source_units_and_articles(index: CorpusIndex) -> None:
    assert index.source_ids("12/2016/NĐ-MAU:D3.K2@40/2023/NĐ-MAU") == {"12/2016/NĐ-MAU:D3.K2"}
    assert article_of("12/2016/NĐ-MAU:D3.K2.a") == "12/2016/NĐ-MAU:D3"
    assert article_of("12/2016/NĐ-MAU") == "12/2016/NĐ-MAU"


def test_codification_units_map_to_the_units_they_codify(index: CorpusIndex) -> None:
    index.codifies["PD-duoc:D45-4-LQ-2"] = {"105/2016/QH13:D2"}
    assert index.source_ids("PD-duoc:D45-4-LQ-2") == {"105/2016/QH13:D2"}
    assert index.source_ids("PD-duoc:D45-4-LQ-2.K28") == {"105/2016/QH13:D2.K28"}
    assert index.source_ids("PD-duoc:D9-9-LQ-9.K1") == {"PD-duoc:D9-9-LQ-9.K1"}  # not codifying
