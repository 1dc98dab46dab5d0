"""Amendments of an article's name and opening words, one instruction quoting the wordings of
several targets, an instruction that announces the ones below it, a first point glued to its
clause's opening words and the word "Điều" alone on a line (issue 27), on short texts written for these tests (not real laws)."""

from __future__ import annotations

from pathlib import Path

from hopgraph.loaders.legal import ParsedDocument
from tests.unit.legal._texts import parse_texts

BASE = """LUẬT
Luật số: 12/2012/QH13
Hà Nội, ngày 01 tháng 6 năm 2012
LUẬT NGHỀ CÁ MẪU
Điều 1. Phạm vi
Luật này quy định về nghề cá.
Điều 2. Giấy phép khai thác
1. Tàu cá phải có giấy phép.
2. Giấy phép có thời hạn 05 năm.
Điều 3. Sổ nhật ký
Sổ nhật ký khai thác gồm các nội dung sau đây:
1. Tên tàu.
2. Sản lượng.
Điều 4. Hiệu lực
Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2013.
"""


def _amending(body: str) -> str:
    return ("LUẬT\nLuật số: 40/2016/QH14\nHà Nội, ngày 10 tháng 3 năm 2016\n"
            "LUẬT SỬA ĐỔI, BỔ SUNG MỘT SỐ ĐIỀU CỦA LUẬT NGHỀ CÁ MẪU\n"
            "Điều 1. Sửa đổi, bổ sung một số điều của Luật nghề cá mẫu số 12/2012/QH13\n"
            f"{body}\nĐiều 2. Hiệu lực thi hành\n"
            "Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2016.\n")


def _parse(tmp_path: Path, body: str) -> ParsedDocument:
    amending = parse_texts(tmp_path, base=BASE, amending=_amending(body))["40/2016/QH14"]
    assert not [w for w in amending.warnings if "second new wording" in str(w)]
    return amending


def _new(doc: ParsedDocument) -> dict[str, tuple[str, str | None, str]]:
    return {n.path: (n.kind, n.scope, n.text) for n in doc.new_units}


def test_name_and_opening_words_named_by_the_instruction_above(tmp_path: Path) -> None:
    # "tên Điều" and "đoạn mở đầu" without a number, in points under the clause that names the
    # article: one version of the article with its new name and opening words
    doc = _parse(tmp_path, """1. Sửa đổi, bổ sung tên Điều, đoạn mở đầu của Điều 3 và bổ sung khoản 3 vào sau khoản 2 Điều 3 như sau:
a) Sửa đổi, bổ sung tên Điều như sau:
“Điều 3. Sổ nhật ký và báo cáo khai thác”;
b) Sửa đổi, bổ sung đoạn mở đầu như sau:
“Sổ nhật ký và báo cáo khai thác gồm các nội dung chủ yếu sau đây:”;
c) Bổ sung khoản 3 vào sau khoản 2 như sau:
“3. Vị trí khai thác.”.""")
    new = _new(doc)
    assert new["D3"] == ("version", "head", "Điều 3. Sổ nhật ký và báo cáo khai thác\n"
                         "Sổ nhật ký và báo cáo khai thác gồm các nội dung chủ yếu sau đây:")
    assert new["D3.K3"][:2] == ("inserted", None)
    targets = {(r.source.split(":")[1], r.type, r.target.split(":")[1]) for r in doc.relations
               if r.target.startswith("12/2012/QH13:")}
    assert {("D1.K1.a", "AMENDS", "D3"), ("D1.K1.b", "AMENDS", "D3"),
            ("D1.K1.c", "SUPPLEMENTS", "D3.K3")} <= targets


def test_a_name_beside_a_clause_keeps_the_clause_out_of_the_name(tmp_path: Path) -> None:
    # the quoted article holds its new name and one clause: the name alone is the article's
    # new wording (its other clauses stay), the clause is the clause's
    doc = _parse(tmp_path, """1. Sửa đổi, bổ sung tên Điều 2 và khoản 2 Điều 2 như sau:
“Điều 2. Giấy phép và hạn ngạch khai thác
2. Giấy phép có thời hạn 10 năm.”""")
    new = _new(doc)
    assert new["D2"] == ("version", "title", "Điều 2. Giấy phép và hạn ngạch khai thác")
    assert new["D2.K2"] == ("version", None, "2. Giấy phép có thời hạn 10 năm.")


def test_an_unnumbered_name_takes_the_article_of_the_next_target(tmp_path: Path) -> None:
    doc = _parse(tmp_path, """1. Sửa đổi tên Điều, khoản 1 Điều 2 như sau:
“Điều 2. Giấy phép khai thác thủy sản”
“1. Tàu cá phải có giấy phép khai thác thủy sản.”""")
    new = _new(doc)
    assert new["D2"] == ("version", "title", "Điều 2. Giấy phép khai thác thủy sản")
    assert new["D2.K1"] == ("version", None, "1. Tàu cá phải có giấy phép khai thác thủy sản.")


def test_several_wordings_quoted_on_one_line_go_to_their_targets(tmp_path: Path) -> None:
    doc = _parse(tmp_path, """1. Bổ sung khoản 1a vào sau khoản 1 Điều 2; sửa đổi khoản 2 Điều 2 như sau: “1a. Tàu cá nhỏ được miễn giấy phép:
a) Tàu dưới 6 mét;
b) Tàu không lắp máy.” “2. Giấy phép có thời hạn 10 năm.”""")
    new = _new(doc)
    assert new["D2.K1a"][:2] == ("inserted", None)
    assert new["D2.K1a.b"][2] == "b) Tàu không lắp máy."
    assert new["D2.K2"] == ("version", None, "2. Giấy phép có thời hạn 10 năm.")
    # the instruction, the first wording and the second on one line
    doc = _parse(tmp_path, "1. Khoản 1 và khoản 2 Điều 2 được sửa đổi, bổ sung như sau: “1. Tàu "
                           "cá phải có giấy phép khai thác.” “2. Giấy phép có thời hạn 10 năm.”")
    new = _new(doc)
    assert new["D2.K1"] == ("version", None, "1. Tàu cá phải có giấy phép khai thác.")
    assert new["D2.K2"] == ("version", None, "2. Giấy phép có thời hạn 10 năm.")


def test_an_announcing_instruction_leaves_the_change_to_the_ones_below(tmp_path: Path) -> None:
    # "1. Sửa đổi khoản 1, khoản 2 Điều 3 như sau:" then "a) … khoản 1 …: Bãi bỏ …" (no
    # wording of clause 1 anywhere): no edge says clause 1 got a new wording not extracted
    doc = _parse(tmp_path, """1. Sửa đổi, bổ sung khoản 1, khoản 2 Điều 2 như sau:
a) Sửa đổi, bổ sung khoản 1 như sau:
Bãi bỏ cụm từ “cá” tại khoản này.
b) Sửa đổi, bổ sung khoản 2 như sau:
“2. Giấy phép có thời hạn 10 năm.”""")
    edges = {(r.source.split(":")[1], r.type, r.target.split(":")[1], r.method)
             for r in doc.relations if r.target.startswith("12/2012/QH13:")}
    assert ("D1.K1", "AMENDS", "D2.K1", "amend_instruction") not in edges
    assert any(e[:3] == ("D1.K1.a", "AMENDS", "D2.K1") for e in edges)
    assert ("D1.K1.b", "AMENDS", "D2.K2", "amend_instruction") in edges


def test_a_first_point_glued_to_the_opening_words(tmp_path: Path) -> None:
    text = BASE.replace("Sổ nhật ký khai thác gồm các nội dung sau đây:\n1. Tên tàu.",
                        "1. Sổ nhật ký gồm: a) Tên tàu;\nb) Tên thuyền trưởng.")
    glued = parse_texts(tmp_path, glued=text)["12/2012/QH13"]
    units = {u.path: u.own_text for u in glued.units}
    assert units["D3.K1"] == "1. Sổ nhật ký gồm:"
    assert units["D3.K1.a"] == "a) Tên tàu;" and units["D3.K1.b"] == "b) Tên thuyền trưởng."


def test_the_article_word_alone_on_a_line(tmp_path: Path) -> None:
    # "Điều" on a line, "3. Sổ nhật ký" on the next: an article, not clause 3 of Điều 2; in a
    # quoted wording too ("tên điều và khoản 1 Điều 2 như sau: “Điều⏎2. …⏎1. …”")
    doc = _parse(tmp_path, """1. Sửa đổi, bổ sung tên điều và khoản 1 Điều 2 như sau:
“Điều
2. Giấy phép khai thác thủy sản
1. Tàu cá phải có giấy phép khai thác thủy sản.”""")
    new = _new(doc)
    assert new["D2"] == ("version", "title", "Điều 2. Giấy phép khai thác thủy sản")
    assert new["D2.K1"] == ("version", None, "1. Tàu cá phải có giấy phép khai thác thủy sản.")
    alone = parse_texts(tmp_path / "word", word=BASE.replace("Điều 3. Sổ nhật ký",
                                                               "Điều\n3. Sổ nhật ký"))
    assert not alone["12/2012/QH13"].warnings
    units = {u.path: u for u in alone["12/2012/QH13"].units}
    assert units["D3"].heading == "Sổ nhật ký" and "D3.K2" in units and "D2.K3" not in units
