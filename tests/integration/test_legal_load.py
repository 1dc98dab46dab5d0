"""The legal loader against a real Neo4j: samples end to end, placeholders, load order,
idempotent re-load, a failing document, bad inputs, embeddings."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from hopgraph.core.errors import DatabaseError
from hopgraph.db import Neo4jRunner
from hopgraph.loaders.legal import SAMPLES_DIR, load_legal
from hopgraph.models import CachedEmbedder

from .conftest import clear_database

pytestmark = pytest.mark.integration


def _segment(text: str) -> str:
    return text  # pyvi is exercised in the unit tier; keeps this tier fast


def _dump(runner: Neo4jRunner) -> tuple[list[Any], list[Any]]:
    row = runner.read("legal/dump_graph")[0]
    return row["nodes"], row["edges"]


def _load(runner: Neo4jRunner, paths: Sequence[Path], embedder: Any = None) -> Any:
    return load_legal(runner, embedder, list(paths), batch_size=7, segmenter=_segment)


def _one(runner: Neo4jRunner, node_id: str) -> dict[str, Any]:
    nodes, _ = _dump(runner)
    found = [n for n in nodes if n["id"] == node_id]
    assert found, f"{node_id} not in graph"
    return found[0]


def _edges(runner: Neo4jRunner, kind: str) -> list[tuple[str, str]]:
    _, edges = _dump(runner)
    return [(e["source"], e["target"]) for e in edges if e["type"] == kind]


def test_samples_load_end_to_end(runner: Neo4jRunner) -> None:
    report = _load(runner, [SAMPLES_DIR])
    assert not report.skipped, report.summary()
    assert len(report.documents) == 11
    # a depth-4 amendment chain: each version ends when the next starts
    versions = sorted(
        (_one(runner, f"12/2016/NĐ-MAU:D3.K2@{d}") for d in
         ("20/2018/NĐ-MAU", "30/2020/NĐ-MAU", "40/2023/NĐ-MAU", "55/2030/NĐ-MAU")),
        key=lambda n: n["props"]["valid_from"])
    froms = [v["props"]["valid_from"].iso_format() for v in versions]
    tos = [v["props"].get("valid_to") for v in versions]
    assert froms == ["2018-02-15", "2020-07-01", "2023-01-01", "2031-07-01"]
    assert [t.iso_format() if t else None for t in tos] == [
        "2020-07-01", "2023-01-01", "2031-07-01", None]
    original = _one(runner, "12/2016/NĐ-MAU:D3.K2")
    assert original["props"]["status"] == "amended"
    assert original["props"]["valid_to"].iso_format() == "2018-02-15"
    assert "60%" in versions[0]["props"]["text"]
    # supplement creates a real unit of the target document, attached to the anchor's parent
    inserted = _one(runner, "01/2015/QH-MAU:D12a")
    assert "Article" in inserted["labels"] and "Placeholder" not in inserted["labels"]
    assert ("01/2015/QH-MAU:C4", "01/2015/QH-MAU:D12a") in _edges(runner, "CONTAINS")
    assert ("05/2019/QH-MAU:D1.K2", "01/2015/QH-MAU:D12a") in _edges(runner, "SUPPLEMENTS")
    # per-provision effective date: điểm e is valid from 01/07/2020, not 01/01/2020
    assert _one(runner, "01/2015/QH-MAU:D4.K2.e")["props"]["valid_from"].iso_format() == "2020-07-01"
    # repeal and document replacement
    assert _one(runner, "01/2015/QH-MAU:D9")["props"]["status"] == "repealed"
    assert _one(runner, "99/2010/NĐ-MAU:D2.K1")["props"]["valid_to"].iso_format() == "2016-03-01"
    assert ("12/2016/NĐ-MAU", "99/2010/NĐ-MAU") in _edges(runner, "REPLACES")
    # multi-action sentence: amend K1, supplement K3, repeal K2 of Điều 7
    assert ("20/2018/NĐ-MAU:D1.K5", "12/2016/NĐ-MAU:D7.K2") in _edges(runner, "REPEALS")
    assert ("20/2018/NĐ-MAU:D1.K5", "12/2016/NĐ-MAU:D7.K1") in _edges(runner, "AMENDS")
    # references across documents, loaded before their target: no placeholder left
    assert ("01/2015/QH-MAU:D12.K2", "03/2014/QH-MAU:D4.K2") in _edges(runner, "REFERS_TO")
    assert "Placeholder" not in _one(runner, "03/2014/QH-MAU:D4.K2")["labels"]
    # quoted new wording is not part of the amending document's structure
    nodes, _ = _dump(runner)
    assert not [n for n in nodes if n["id"].startswith("20/2018/NĐ-MAU:D1.K1.")]
    assert report.graph["unresolved"]["UnresolvedReference"] >= 3
    # a clause that exists only in new wording becomes a unit of the amended law from then on
    k3 = _one(runner, "01/2015/QH-MAU:D5.K3")
    assert "Clause" in k3["labels"] and "Placeholder" not in k3["labels"]
    assert k3["props"]["valid_from"].iso_format() == "2020-01-01"
    assert ("01/2015/QH-MAU:D5", "01/2015/QH-MAU:D5.K3") in _edges(runner, "CONTAINS")
    assert "placeholders" not in report.graph


def test_load_order_does_not_change_the_graph(runner: Neo4jRunner) -> None:
    files = sorted(p for p in SAMPLES_DIR.iterdir()
                   if p.suffix in (".txt", ".json") and p.name != "questions.json")
    for f in files:
        _load(runner, [f])
    forward = _dump(runner)
    clear_database(runner.driver)
    for f in reversed(files):
        _load(runner, [f])
    backward = _dump(runner)
    assert forward[0] == backward[0]
    assert forward[1] == backward[1]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_any_partition_and_order_gives_the_graph_of_one_load(
        runner: Neo4jRunner, seed: int) -> None:
    """Issue 18: loading part of a corpus, then the rest (or all of it again), in any order and
    any grouping of files per run, ends in the graph one load of the whole corpus gives: names
    and placeholders are resolved against the graph, not only the current run."""
    files = sorted(p for p in SAMPLES_DIR.iterdir()
                   if p.suffix in (".txt", ".json") and p.name != "questions.json")
    _load(runner, files)
    whole = _dump(runner)
    clear_database(runner.driver)
    rng = random.Random(seed)
    order = rng.sample(files, len(files))
    runs: list[list[Path]] = []
    while order:
        size = rng.randint(1, 4)
        runs.append(order[:size])
        order = order[size:]
    if seed == 3:  # part of the corpus first, then the whole of it in one run
        runs = [runs[0], files]
    for run in runs:
        _load(runner, run)
    parts = _dump(runner)
    grouping = [[p.name for p in r] for r in runs]
    for kind, got, want in (("nodes", parts[0], whole[0]), ("edges", parts[1], whole[1])):
        extra = [x for x in got if x not in want]
        missing = [x for x in want if x not in got]
        assert not extra and not missing, (
            f"{kind} differ for runs {grouping}: only after the parts {extra[:3]}, "
            f"only after one load {missing[:3]}")


def test_placeholder_becomes_the_real_node_in_place(runner: Neo4jRunner) -> None:
    law = SAMPLES_DIR / "01-2015-QH-MAU-luat-bao-hiem-suc-khoe.txt"
    drug = SAMPLES_DIR / "03-2014-QH-MAU-luat-duoc.txt"
    _load(runner, [law])
    placeholder = _one(runner, "03/2014/QH-MAU:D4.K2")
    assert "Placeholder" in placeholder["labels"] and placeholder["props"]["kind"] == "unit"
    _load(runner, [drug])
    real = _one(runner, "03/2014/QH-MAU:D4.K2")
    assert "Placeholder" not in real["labels"] and "Clause" in real["labels"]
    assert "kind" not in real["props"]
    assert ("01/2015/QH-MAU:D12.K2", "03/2014/QH-MAU:D4.K2") in _edges(runner, "REFERS_TO")
    doc = _one(runner, "03/2014/QH-MAU")
    assert "Document" in doc["labels"] and "doc_id" not in doc["props"]


def test_reloading_the_same_files_changes_nothing(runner: Neo4jRunner) -> None:
    _load(runner, [SAMPLES_DIR])
    first = _dump(runner)
    _load(runner, [SAMPLES_DIR])
    assert _dump(runner) == first


class _FailingRunner:
    """Delegates to a real runner but breaks the transaction of one document."""

    def __init__(self, inner: Neo4jRunner, doc_id: str) -> None:
        self.inner, self.doc_id = inner, doc_id

    def read(self, key: str, **params: Any) -> list[dict[str, Any]]:
        return self.inner.read(key, **params)

    def write(self, key: str, **params: Any) -> list[dict[str, Any]]:
        return self.inner.write(key, **params)

    def write_transaction(self, steps: Sequence[tuple[str, Mapping[str, Any]]]
                          ) -> list[list[dict[str, Any]]]:
        first = next((p["rows"][0]["id"] for k, p in steps if k.endswith("upsert_documents")),
                     None)
        if first == self.doc_id:
            # a last step the server rejects (MERGE on a null id): everything before rolls back
            broken = [*steps, ("legal/upsert_units", {"rows": [
                {"id": None, "level": "Article", "version": False, "props": {}}]})]
            return self.inner.write_transaction(broken)
        return self.inner.write_transaction(steps)


def test_a_failing_document_changes_nothing(runner: Neo4jRunner) -> None:
    failing = _FailingRunner(runner, "20/2018/NĐ-MAU")
    report = load_legal(failing, None, [SAMPLES_DIR], segmenter=_segment)
    assert "20/2018/NĐ-MAU" not in report.documents
    assert any("20/2018/NĐ-MAU" in p.message for p in report.skipped)
    assert len(report.documents) == 10
    nodes, edges = _dump(runner)
    assert not [n for n in nodes if n["id"].startswith("20/2018/NĐ-MAU")
                or n["id"].endswith("@20/2018/NĐ-MAU")]
    assert not [e for e in edges if e["source"].startswith("20/2018/NĐ-MAU")]
    # khoản 1a exists only through the later amendment's wording now (40/2023), not 20/2018
    k1a = next(n for n in nodes if n["id"] == "12/2016/NĐ-MAU:D4.K1a")
    assert k1a["props"]["supplemented_by"] == "40/2023/NĐ-MAU"
    assert k1a["props"]["valid_from"].iso_format() == "2023-01-01"
    with pytest.raises(DatabaseError):
        failing.write_transaction([("legal/upsert_documents", {"rows": [
            {"id": "20/2018/NĐ-MAU", "props": {}}]})])


def test_bad_inputs_are_reported_and_the_rest_loads(runner: Neo4jRunner, tmp_path: Path) -> None:
    good = (SAMPLES_DIR / "99-2010-ND-MAU-nghi-dinh-cu.txt").read_text(encoding="utf-8")
    (tmp_path / "a-good.txt").write_text(good, encoding="utf-8")
    (tmp_path / "b-truncated.json").write_text('[{"id": "x", "articles": [{"id": "1", "te',
                                                encoding="utf-8")
    (tmp_path / "c-latin1.txt").write_bytes("Điều 1. Phạm vi\nthứ".encode()[:12]
                                             + b"\n\xe9t\xe9\n")
    (tmp_path / "d-duplicate.txt").write_text(
        "Số: 7/2020/NĐ-CP\nĐiều 1. A\nNội dung.\nĐiều 2. B\nNội dung.\nĐiều 2. C\nNội dung.\n",
        encoding="utf-8")
    (tmp_path / "e-gap-unknown.txt").write_text(
        "Số: 8/2020/NĐ-CP\nĐiều 1. A\nNội dung.\nĐiều 5. B\nNội dung.\nĐiều V. C\n",
        encoding="utf-8")
    (tmp_path / "f-no-number.txt").write_text("Điều 1. A\nNội dung.\n", encoding="utf-8")
    report = _load(runner, [tmp_path])
    skipped = {Path(p.file).name: p for p in report.skipped}
    assert "b-truncated.json" in skipped and skipped["b-truncated.json"].line == 1
    assert "truncated" in skipped["b-truncated.json"].message
    assert "c-latin1.txt" in skipped and "UTF-8" in skipped["c-latin1.txt"].message
    assert skipped["c-latin1.txt"].line == 2
    # a repeated article marker concerns one line: a warning, the document loads without it
    assert "d-duplicate.txt" not in skipped
    warned = [str(w) for w in report.warnings]
    assert any("d-duplicate.txt:6" in w and "Điều 2 repeats" in w for w in warned)
    assert any("e-gap-unknown.txt:4" in w and "gap" in w for w in warned)
    assert any("e-gap-unknown.txt:6" in w and "unknown marker" in w for w in warned)
    assert any("f-no-number.txt" in w and "no document number" in w for w in warned)
    assert "99/2010/NĐ-MAU" in report.documents and "8/2020/NĐ-CP" in report.documents
    nodes, _ = _dump(runner)
    seven = sorted(n["id"] for n in nodes if n["id"].startswith("7/2020/NĐ-CP:"))
    assert seven == ["7/2020/NĐ-CP:D1", "7/2020/NĐ-CP:D2"]
    assert "Điều 2. C" in _one(runner, "7/2020/NĐ-CP:D2")["props"]["text"]


class _FakeEmbedder:
    name = "fake-384"
    dimension = 384

    def __init__(self) -> None:
        self.calls = 0

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += len(texts)
        out = []
        for t in texts:
            h = hashlib.sha256(t.encode()).digest()
            vec = [((h[i % 32] + i) % 17) / 17.0 + 0.01 for i in range(384)]
            out.append(vec)
        return out

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def test_embeddings_are_written_and_cached(runner: Neo4jRunner, tmp_path: Path) -> None:
    inner = _FakeEmbedder()
    embedder = CachedEmbedder(inner, tmp_path / "cache")
    files = [SAMPLES_DIR / "99-2010-ND-MAU-nghi-dinh-cu.txt"]
    _load(runner, files, embedder)
    first_calls = inner.calls
    assert first_calls > 0
    rows = runner.driver.execute_query(
        "MATCH (u:Clause {id: '99/2010/NĐ-MAU:D2.K1'}) RETURN size(u.embedding) AS n",
        database_="neo4j").records
    assert rows[0]["n"] == 384
    _load(runner, files, embedder)
    assert inner.calls == first_calls  # second load served from the cache


def test_wording_as_of_a_date_follows_the_chain(runner: Neo4jRunner) -> None:
    import datetime as dt

    _load(runner, [SAMPLES_DIR])
    ids = ["12/2016/NĐ-MAU:D3.K2", "01/2015/QH-MAU:D9", "12/2016/NĐ-MAU:D4.K1a"]

    def at(day: str) -> dict[str, Any]:
        rows = runner.read("legal/get_text_as_of", ids=ids, as_of=dt.date.fromisoformat(day))
        return {r["id"]: r for r in rows}

    assert "40%" in at("2017-01-01")["12/2016/NĐ-MAU:D3.K2"]["text"]
    assert at("2019-01-01")["12/2016/NĐ-MAU:D3.K2"]["version_id"].endswith("@20/2018/NĐ-MAU")
    # the 55/2030 amendment is not in force before 01/07/2031: 40/2023 still wins
    assert at("2030-12-31")["12/2016/NĐ-MAU:D3.K2"]["version_id"].endswith("@40/2023/NĐ-MAU")
    assert at("2031-07-01")["12/2016/NĐ-MAU:D3.K2"]["version_id"].endswith("@55/2030/NĐ-MAU")
    assert at("2019-01-01")["01/2015/QH-MAU:D9"]["text"] is not None
    assert at("2020-01-01")["01/2015/QH-MAU:D9"]["text"] is None  # repealed
    assert at("2017-01-01")["12/2016/NĐ-MAU:D4.K1a"]["text"] is None  # not inserted yet
    assert "trạm y tế" in at("2024-01-01")["12/2016/NĐ-MAU:D4.K1a"]["text"]


_TITLE_AMENDED = """LUẬT
Luật số: 10/2010/QH12
Hà Nội, ngày 01 tháng 6 năm 2010
LUẬT THỦY LỢI MẪU
Điều 1. Phạm vi
Luật này quy định về thủy lợi.
Điều 2. Quy hoạch
1. Quy hoạch thủy lợi.
2. Thời kỳ quy hoạch là 10 năm.
Điều 3. Hiệu lực
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2011.
"""
_TITLE_AMENDING = """LUẬT
Luật số: 30/2015/QH13
Hà Nội, ngày 10 tháng 3 năm 2015
LUẬT SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT THỦY LỢI MẪU
Điều 1. Sửa đổi, bổ sung một số điều của Luật Thủy lợi mẫu
1. Sửa đổi, bổ sung khoản 2 Điều 2 như sau:
“2. Thời kỳ quy hoạch là 15 năm.”.
2. Bổ sung Điều 2a vào sau Điều 2 như sau:
“Điều 2a. Điều phối
Bộ điều phối quy hoạch.”.
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2015.
"""


def test_a_law_named_by_title_only_is_rehomed_whatever_the_load_order(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    amended, amending = tmp_path / "a.txt", tmp_path / "b.txt"
    amended.write_text(_TITLE_AMENDED, encoding="utf-8")
    amending.write_text(_TITLE_AMENDING, encoding="utf-8")
    report = _load(runner, [amending])
    assert any("named by title only" in str(w) for w in report.warnings), report.summary()
    assert ("30/2015/QH13:D1.K1", "~luat-thuy-loi-mau:D2.K2") in _edges(runner, "AMENDS")
    _load(runner, [amended])
    amending_first = _dump(runner)
    assert ("30/2015/QH13:D1.K1", "10/2010/QH12:D2.K2") in _edges(runner, "AMENDS")
    assert not [n for n in amending_first[0] if n["id"].startswith("~")]
    version = _one(runner, "10/2010/QH12:D2.K2@30/2015/QH13")
    assert "Placeholder" not in _one(runner, "10/2010/QH12:D2.K2")["labels"]
    assert version["props"]["citation"] == "Khoản 2 Điều 2 Luật số 10/2010/QH12"
    clear_database(runner.driver)
    _load(runner, [amended, amending])
    together = _dump(runner)
    assert amending_first[0] == together[0]
    assert amending_first[1] == together[1]


_OMNIBUS = """LUẬT
Luật số: 40/2016/QH13
Hà Nội, ngày 10 tháng 3 năm 2016
LUẬT SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT THỦY LỢI MẪU VÀ LUẬT ĐÊ ĐIỀU MẪU
Điều 1. Sửa đổi, bổ sung một số điều của Luật Đê điều mẫu số 20/2012/QH13
1. Sửa đổi Điều 1 như sau: “Điều 1. Phạm vi
Luật này quy định về đê điều theo khoản 1 Điều 2 Luật Thủy lợi mẫu số 10/2010/QH12.”
Điều 2. Sửa đổi, bổ sung một số điều của Luật Thủy lợi mẫu
1. Bãi bỏ Điều 1.
Điều 3. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2016.
"""
_DYKE = """LUẬT
Luật số: 20/2012/QH13
Hà Nội, ngày 02 tháng 7 năm 2012
LUẬT ĐÊ ĐIỀU MẪU
Điều 1. Phạm vi
Luật này quy định về đê điều.
Điều 2. Hiệu lực
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2013.
"""


def test_omnibus_repeal_hits_the_law_of_its_heading_and_quoted_citations_are_data(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    for name, text in (("a", _TITLE_AMENDED), ("d", _DYKE), ("o", _OMNIBUS)):
        (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")
    _load(runner, [tmp_path])
    repeals = _edges(runner, "REPEALS")
    # the repeal sits under the heading about Luật Thủy lợi mẫu: Điều 1 of that law, not of the
    # dyke law named in the article before it
    assert ("40/2016/QH13:D2.K1", "10/2010/QH12:D1") in repeals
    assert not [e for e in repeals if e[1].startswith("20/2012/QH13")]
    assert _one(runner, "20/2012/QH13:D1")["props"]["status"] == "amended"
    assert _one(runner, "10/2010/QH12:D1")["props"]["status"] == "repealed"
    # "khoản 1 Điều 2 Luật Thủy lợi mẫu" inside the new wording is data, never an amendment target
    changed = {t for kind in ("AMENDS", "SUPPLEMENTS", "REPEALS", "REPLACES")
               for _, t in _edges(runner, kind)}
    assert "10/2010/QH12:D2.K1" not in changed and "10/2010/QH12:D2" not in changed


_CODIFICATION = """---
title: Thủy lợi mẫu
---

## THÔNG TIN VĂN BẢN

| Thuộc tính | Nội dung |
|---|---|
| **Số hiệu** | Đang cập nhật |

## VĂN BẢN
# Thủy lợi mẫu

Điều 1.1.LQ.1. Phạm vi

Luật này quy định về thủy lợi.

(Điều 1 Luật số 10/2010/QH12 Thủy lợi mẫu ngày 01/06/2010 của Quốc hội, có hiệu lực thi hành kể từ ngày 01/01/2011 )
"""


def test_a_law_known_only_through_a_codification_is_found_in_any_load_order(
        runner: Neo4jRunner, tmp_path: Path) -> None:
    # the amended law read without its title (article-keyed JSON), the amending law naming it
    # by title only, and a codification whose provenance line gives title and number
    import json

    amended = tmp_path / "a.json"
    amended.write_text(json.dumps({"10/2010/QH12": {
        "1": "Điều 1. Phạm vi\nLuật này quy định về thủy lợi.",
        "2": "Điều 2. Quy hoạch\n1. Quy hoạch thủy lợi.\n2. Thời kỳ quy hoạch là 10 năm."}},
        ensure_ascii=False), encoding="utf-8")
    amending = tmp_path / "b.txt"
    amending.write_text(_TITLE_AMENDING, encoding="utf-8")
    codification = tmp_path / "thuy-loi-mau.md"
    codification.write_text(_CODIFICATION, encoding="utf-8")
    _load(runner, [amending])
    _load(runner, [amended])
    assert ("30/2015/QH13:D1.K1", "~luat-thuy-loi-mau:D2.K2") in _edges(runner, "AMENDS")
    _load(runner, [codification])
    one_by_one = _dump(runner)
    assert ("30/2015/QH13:D1.K1", "10/2010/QH12:D2.K2") in _edges(runner, "AMENDS")
    assert not [n for n in one_by_one[0] if n["id"].startswith("~")]
    clear_database(runner.driver)
    _load(runner, [codification])
    _load(runner, [amending, amended])
    codification_first = _dump(runner)
    clear_database(runner.driver)
    _load(runner, [amending, amended, codification])
    together = _dump(runner)
    for other in (one_by_one, codification_first):
        assert other[0] == together[0]
        assert other[1] == together[1]
