"""``hopgraph.Hopgraph`` against a real Neo4j: every domain through the one front door."""

from __future__ import annotations

from pathlib import Path

import pytest

from hopgraph import Hopgraph
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.biomed import SAMPLE_TRIPLETS
from hopgraph.loaders.legal import SAMPLES_DIR
from hopgraph.loaders.sentences._inputs import sample_corpus_path

from .conftest import TEST_DATABASE, Server

pytestmark = pytest.mark.integration
QUESTION = "Mức hưởng bảo hiểm y tế khi khám trái tuyến?"


def test_legal_through_the_front_door(runner: Neo4jRunner, schema_installed: Server,
                                      tmp_path: Path) -> None:
    env = {"HOPGRAPH_HOME": str(tmp_path), "NEO4J_URI": schema_installed.uri, "NEO4J_USER": schema_installed.user,
           "NEO4J_PASSWORD": schema_installed.password, "NEO4J_DATABASE": TEST_DATABASE}
    with Hopgraph.from_env(env, use_llm=False) as hg:
        report = hg.load.legal(SAMPLES_DIR)
        assert "12/2016/NĐ-MAU" in report.documents and not report.skipped
        ctx = hg.legal.retrieve(QUESTION, as_of="2024-06-01", k=3)
        assert ctx.items and ctx.items[0].role == "seed"
        assert any("12/2016/NĐ-MAU" in it.citation for it in ctx.items)
        evidence = ctx.to_evidence()  # the shared shape: one per item, same order
        assert [e.id for e in evidence] == [it.node_id for it in ctx.items]
        assert all(e.text and e.domain == "legal" and e.validity is not None for e in evidence)
        traced = hg.legal.trace([ctx.items[0].node_id], as_of="2024-06-01")
        assert ctx.items[0].node_id in {it.node_id for it in traced.items}
        answer = hg.legal.ask(QUESTION, as_of="2024-06-01")
        assert answer.status == "retrieval_only" and answer.citations
        doc = hg.legal.consolidate("12/2016/NĐ-MAU", "2024-06-01")
        assert doc.changed_units() and "12/2016/NĐ-MAU" in doc.render()
        status = hg.status()
        assert status["server"] == "external" and status["nodes"] > 0
        driver = hg.driver
    with pytest.raises(Exception, match="closed"):  # the driver it opened is closed
        driver.verify_connectivity()


def test_injected_driver_stays_open(runner: Neo4jRunner, schema_installed: Server) -> None:
    with Hopgraph(schema_installed.driver, database=TEST_DATABASE, use_llm=False) as hg:
        hg.load.primekg(SAMPLE_TRIPLETS)
        region = hg.biomed.region("Which drug targets ABL1?")
        assert region.triplets and any("ABL1" in (t.head, t.tail) for t in region.triplets)
        answer = hg.biomed.ask("Which drug that targets ABL1 is used for chronic myeloid "
                               "leukemia?")
        assert answer.joined and {"Imatinib", "Dasatinib"} & {j.name for j in answer.joined}
        evidence = answer.to_evidence()
        assert evidence and all(e.id and e.text and e.domain == "biomed" for e in evidence)
        assert {j.id for j in answer.joined} <= {e.id for e in evidence if e.role == "joined"}
        assert any(e.role == "triplet" and "ABL1" in e.text for e in evidence)
    schema_installed.driver.verify_connectivity()  # not closed by the Hopgraph


def test_sentences_by_uri(runner: Neo4jRunner, schema_installed: Server) -> None:
    with Hopgraph(schema_installed.uri, auth=(schema_installed.user, schema_installed.password),
                  database=TEST_DATABASE, use_llm=False) as hg:
        report = hg.load.sentences(sample_corpus_path())
        assert report.sentences > 0
        result = hg.sentences.retrieve("In which area did the designer of the Analytical "
                                       "Engine die?")
        assert "sample-charles-babbage#s3" in {e.id for e in result.evidence}
        evidence = result.to_evidence()
        assert "sample-charles-babbage#s3" in {e.id for e in evidence}
        assert all(e.text and e.provenance for e in evidence)
