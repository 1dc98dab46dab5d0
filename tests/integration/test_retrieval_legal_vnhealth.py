"""Validity on real texts: the Law on Health Insurance 25/2008/QH12 and its amending law
46/2014/QH13 (vn-health/raw/law_dict.json), loaded with the legal loader. A question about a
provision 46/2014 changed must return the amended wording as applicable from 01/01/2015 and the
2008 wording before it."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import load_legal
from hopgraph.loaders.legal._loader import collect_names
from hopgraph.retrieval import LegalContext, LegalRetriever
from tests.integration.conftest import TEST_DATABASE, Server, clear_database
from tests.retrieval_fixtures import HashEmbedder

pytestmark = [pytest.mark.integration, pytest.mark.data]

BASE = "25/2008/QH12:D14.K5"  # maximum salary for contributions: "lương tối thiểu" -> "lương cơ sở"
QUESTION = "Mức tiền lương tối đa để tính mức đóng bảo hiểm y tế là bao nhiêu?"


@pytest.fixture(scope="module")
def health_law(schema_installed: Server, shared_data: Path,
               tmp_path_factory: pytest.TempPathFactory) -> LegalRetriever:
    raw = json.loads((shared_data / "vn-health" / "raw" / "law_dict.json").read_text("utf-8"))
    subset = tmp_path_factory.mktemp("vnhealth") / "law_dict.json"
    subset.write_text(json.dumps({k: raw[k] for k in ("25/2008/QH12", "46/2014/QH13")},
                                 ensure_ascii=False), encoding="utf-8")
    # The amending law names its target by title; the codification's provenance lines map
    # titles to numbers (as the loader does when given the codification files).
    names = collect_names(sorted((shared_data / "vn-health" / "phapdien").rglob("*.md")))
    clear_database(schema_installed.driver)
    runner = Neo4jRunner(schema_installed.driver, database=TEST_DATABASE, timeout_s=120.0)
    load_legal(runner, HashEmbedder(), [subset], names=names)
    return LegalRetriever(runner, HashEmbedder())


def _wording(ctx: LegalContext) -> list[tuple[str, str]]:
    return [(i.node_id, i.text) for i in ctx.items
            if i.applicable and i.node_id.split("@")[0] == BASE]


def test_amended_wording_applies_from_2015(health_law: LegalRetriever) -> None:
    after = health_law.retrieve(QUESTION, k=5, as_of=date(2015, 1, 1))
    assert [n for n, _ in _wording(after)] == [f"{BASE}@46/2014/QH13"], after.items
    assert "lương cơ sở" in _wording(after)[0][1]
    successor = next(i for i in after.items if i.node_id == f"{BASE}@46/2014/QH13")
    assert "46/2014/QH13" in successor.validity_note or successor.role == "seed"


def test_2008_wording_applies_before_2015(health_law: LegalRetriever) -> None:
    before = health_law.retrieve(QUESTION, k=5, as_of=date(2014, 12, 31))
    assert [n for n, _ in _wording(before)] == [BASE], before.items
    assert "lương tối thiểu" in _wording(before)[0][1]
    seed = next(i for i in before.items if i.node_id == BASE)
    assert "sắp có thay đổi: được sửa đổi bởi" in seed.validity_note


def test_definitions_follow_the_amending_law(health_law: LegalRetriever) -> None:
    # 46/2014 rewords khoản 1 of Điều 2 (Giải thích từ ngữ) of 25/2008 and adds khoản 7 and 8.
    records, _, _ = health_law.runner.driver.execute_query(  # type: ignore[attr-defined]
        "MATCH (u)-[:DEFINES]->(t:DefinedTerm) WHERE t.doc_id = '25/2008/QH12' "
        "RETURN u.id AS unit, t.key AS key ORDER BY unit", database_="neo4j")
    defines = {(r["unit"], r["key"]) for r in records}
    assert ("25/2008/QH12:D2.K1", "bảo hiểm y tế") in defines
    assert ("25/2008/QH12:D2.K1@46/2014/QH13", "bảo hiểm y tế") in defines
    # the inserted khoản 8 defines a 15-word term; khoản 7 ("Hộ gia đình … (sau đây gọi chung là
    # hộ gia đình) bao gồm …") defines nothing
    assert ("25/2008/QH12:D2.K8",
            "gói dịch vụ y tế cơ bản do quỹ bảo hiểm y tế chi trả") in defines
    assert not any(unit.startswith("25/2008/QH12:D2.K7") for unit, _ in defines)
    ctx = health_law.retrieve("Bảo hiểm y tế là gì?", k=5, as_of=date(2015, 1, 1))
    assert ctx.seeds[0].split("@")[0] == "25/2008/QH12:D2.K1"
    applicable = [i for i in ctx.items if i.applicable and i.node_id.split("@")[0] == "25/2008/QH12:D2.K1"]
    assert [i.node_id for i in applicable] == ["25/2008/QH12:D2.K1@46/2014/QH13"]
    assert "không vì mục đích lợi nhuận do Nhà nước tổ chức thực hiện" in applicable[0].text
