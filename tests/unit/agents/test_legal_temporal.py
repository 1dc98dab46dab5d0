"""The temporal benchmark's gold reader, question generation and scoring (no database)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from hopgraph.eval.temporal import bootstrap_ci, judge, score, summarise
from hopgraph.eval.temporal_gold import (
    GoldError,
    generate_questions,
    new_wording,
    parse_address,
    read_pairs,
    read_units,
    sample_questions,
)

PAIRS = Path(__file__).parents[2] / "integration" / "temporal_pairs"

PORTAL = """Luật Thử 2020
Luật Thử 2020. Điều 4. Giải thích từ ngữ
1. “Cây giống” là cây con.
2. Vườn ươm là nơi gieo hạt.
Luật Thử 2020. Điều 5. Quyền
Chủ vườn có quyền sau đây:
a) Bán cây;
b) Đổi cây.
"""

AMENDING = """Luật Sửa 2021
Điều 1. Sửa đổi, bổ sung Luật Thử 2020
1. Sửa đổi, bổ sung khoản 2 Điều 4 như sau:
“2. Vườn ươm là nơi gieo hạt và chăm cây con.
3. Dòng này thuộc lời văn được trích, không phải khoản của luật sửa.”
2. Bãi bỏ điểm b khoản 1 Điều 5.
Điều 2. Hiệu lực thi hành
Luật này có hiệu lực thi hành từ ngày 01 tháng 7 năm 2021.
"""


def test_reader_strips_the_portal_prefix_and_keeps_quotes_inside_their_unit() -> None:
    base = read_units(PORTAL)
    assert base.units[("4", "2", None)] == "2. Vườn ươm là nơi gieo hạt."
    assert base.headings["5"] == "Quyền"
    # a quotation inside a clause does not open a quoted block
    assert ("4", "1", None) in base.units and ("4", "2", None) in base.units
    am = read_units(AMENDING)
    first = am.units[("1", "1", None)]
    assert "3. Dòng này" in first and ("1", "3", None) not in am.units
    assert ("1", "2", None) in am.units and ("2", None, None) in am.units
    assert am.effective == date(2021, 7, 1)


def test_new_wording_is_the_quote_with_the_units_label_or_the_substituted_phrase() -> None:
    am = read_units(AMENDING)
    text, how = new_wording(am.units[("1", "1", None)], ("4", "2", None), "2. Vườn ươm là …")
    assert how == "quoted" and text is not None and text.startswith("2. Vườn ươm là nơi gieo hạt và")
    text, how = new_wording("Thay thế cụm từ “cấp huyện” bằng cụm từ “cấp tỉnh” tại khoản 1.",
                            ("3", "1", None), "1. Nộp tại cấp huyện.")
    assert (text, how) == ("1. Nộp tại cấp tỉnh.", "phrase")
    text, how = new_wording("Sửa đổi điểm c khoản 1 như sau: “c) Khác.”", ("3", "1", None), "x")
    assert text is None and "label" in how
    assert parse_address("Điểm a Khoản 1 Điều 3") == ("3", "1", "a")
    assert parse_address("Chương IV") is None


def test_questions_come_from_the_files_with_fixed_seeds() -> None:
    gold = read_pairs(PAIRS)
    assert gold.pairs == 1 and gold.edges == 4 and not gold.skipped
    kinds = sorted(k for t in gold.timelines for k in t.kinds)
    assert kinds == ["amended", "inserted", "repealed", "replaced"]
    qs = generate_questions(gold, seed=3)
    assert qs == generate_questions(gold, seed=3)
    assert len(qs) == 12 and {q.phase for q in qs} == {"before", "on", "after"}
    inserted = next(i for i, t in enumerate(gold.timelines) if t.kinds == ["inserted"])
    repealed = next(i for i, t in enumerate(gold.timelines) if t.kinds == ["repealed"])
    by = {(q.timeline, q.phase): q for q in qs}
    assert by[(inserted, "before")].expected is None and by[(inserted, "on")].expected == 1
    assert by[(repealed, "before")].expected == 0 and by[(repealed, "after")].expected is None
    assert by[(inserted, "before")].as_of == date(2021, 6, 30)
    assert by[(inserted, "after")].as_of == date(2022, 7, 1)
    assert all("/20" in q.text for q in qs)  # every phrasing states the date
    three = generate_questions(gold, seed=3, phrasings_per_date=3)
    assert len(three) == 36 and {q.phrasing for q in three} == {"heading", "content", "reference"}
    sample = sample_questions(three, 5, seed=1)
    assert len(sample) == 5 and sample == sample_questions(three, 5, seed=1)


def test_every_phrasing_names_the_document_and_the_unit_or_its_content() -> None:
    from hopgraph.eval.temporal_gold import _content_words

    gold = read_pairs(PAIRS)
    qs = generate_questions(gold, seed=0, phrasings_per_date=3)
    for q in qs:
        tl = gold.timelines[q.timeline]
        assert tl.doc_number in q.text  # "Nghị định 77/2019/NĐ-THU" carries its number
        if q.phrasing != "content":
            assert f"Điều {tl.address[0]}" in q.text
    # the content cue is the longest run of words all wordings share, never scattered words
    old = "2. Hồ sơ nộp tại Ủy ban nhân dân cấp huyện trong thời hạn 10 ngày."
    new = "2. Hồ sơ nộp tại Ủy ban nhân dân cấp tỉnh trong thời hạn 10 ngày làm việc."
    assert _content_words([old, new]) == "hồ sơ nộp tại ủy ban nhân dân cấp"
    assert _content_words(["1. Phí là 5 đồng.", "1. Lệ phí bằng 7 đồng."]) == ""
    assert _content_words([None, "Điều 3a. Trạm kiểm tra được đặt tại cửa khẩu."]) == (
        "trạm kiểm tra được đặt tại cửa khẩu")


def test_judge_tells_the_old_wording_from_the_new() -> None:
    old = "2. Diện tích tối thiểu là 500 mét vuông."
    new = "2. Diện tích tối thiểu là 1.000 mét vuông, trong đó khu che bóng chiếm một phần ba."
    assert judge("Diện tích tối thiểu là 500 mét vuông", [old, new]) == 0
    assert judge("“2. Diện tích tối thiểu là 1.000 mét vuông, trong đó khu che bóng chiếm "
                 "một phần ba.”", [old, new]) == 1
    assert judge("Điều 9. Một điều khác hẳn về phí kiểm tra hằng năm", [old, new]) is None
    article = "Điều 2. Điều kiện\n1. Có nguồn nước tưới ổn định và thoát nước.\n" + new
    assert judge(article, [old, new]) == 1  # containment for a longer served text


def test_a_part_of_the_new_wording_is_not_judged_the_old_one() -> None:
    old = "Điều 28. Đăng ký hồ sơ\nKhi tiếp nhận hồ sơ, công chức kiểm tra việc khai và đăng ký hồ sơ."
    new = ("Điều 28. Đăng ký hồ sơ\nViệc đăng ký được thực hiện như sau:\n1. Hồ sơ giấy:\n"
           "a) Hồ sơ của chủ hàng chấp hành tốt được đăng ký ngay sau khi kiểm tra sơ bộ;\n"
           "b) Hồ sơ khác được đăng ký sau khi kiểm tra. Khi tiếp nhận hồ sơ, công chức kiểm tra "
           "việc khai và đăng ký hồ sơ.\n2. Hồ sơ điện tử được đăng ký qua hệ thống.")
    point_b = ("b) Hồ sơ khác được đăng ký sau khi kiểm tra. Khi tiếp nhận hồ sơ, công chức kiểm "
               "tra việc khai và đăng ký hồ sơ.")
    assert judge(point_b, [old, new]) is None  # was 0: the old article, counted stale
    assert judge(old, [old, new]) == 0 and judge(new, [old, new]) == 1


def test_a_new_wording_that_quotes_a_stamp_is_read_whole() -> None:
    from hopgraph.eval.temporal_gold import quoted

    text = ("45. Sửa đổi Điều 7 như sau:\n“Điều 7. Thủ tục\n1. Đóng dấu “VIET NAM CUSTOMS” "
            "lên tờ khai.\n2. Lưu hồ sơ.”")
    assert quoted(text) == ["Điều 7. Thủ tục\n1. Đóng dấu “VIET NAM CUSTOMS” lên tờ khai.\n"
                            "2. Lưu hồ sơ."]
    # phrases side by side are separate passages; a quote left open reads as before
    assert quoted("Thay cụm từ “A B” bằng cụm từ “C D”.") == ["A B", "C D"]
    assert quoted("Thay “A” bằng “B") == ["A"]


def test_a_short_wording_a_later_one_extends_is_judged_itself() -> None:
    old = "3. Danh sách thành viên."
    new = "3. Danh sách thành viên; danh sách chủ sở hữu hưởng lợi của doanh nghiệp (nếu có)."
    assert judge("3. Danh sách thành viên.", [old, new]) == 0  # was None
    assert judge(new, [old, new]) == 1


def test_a_quote_that_rewrites_two_clauses_gives_the_target_its_own() -> None:
    text, how = new_wording("Sửa đổi khoản 1 và khoản 2 Điều 18 như sau:\n“1. Nhập khẩu: 30 "
                            "ngày;\n2. Xuất khẩu: 8 giờ.”", ("18", "1", None), "1. Nhập khẩu.")
    assert (text, how) == ("1. Nhập khẩu: 30 ngày;", "quoted")


def test_scoring_counts_stale_premature_and_repealed() -> None:
    gold = read_pairs(PAIRS)
    qs = generate_questions(gold, seed=0)
    amended = next(i for i, t in enumerate(gold.timelines) if t.kinds == ["amended"])
    repealed = next(i for i, t in enumerate(gold.timelines) if t.kinds == ["repealed"])
    old, new = (w.text for w in gold.timelines[amended].wordings)
    assert old is not None and new is not None
    after = next(q for q in qs if q.timeline == amended and q.phase == "after")
    before = next(q for q in qs if q.timeline == amended and q.phase == "before")
    o = score(after, gold, [old, new], abstained=False)
    assert (o.right1, o.right5, o.stale, o.premature) == (False, True, True, False)
    o = score(before, gold, [new], abstained=False)
    assert (o.right1, o.right5, o.stale, o.premature) == (False, False, False, True)
    gone = next(q for q in qs if q.timeline == repealed and q.phase == "on")
    text = gold.timelines[repealed].wordings[0].text
    assert text is not None
    o = score(gone, gold, [text], abstained=False)
    assert o.repealed_applicable and o.stale
    outs = [score(after, gold, [new], abstained=False), score(before, gold, [old], abstained=False)]
    s = summarise([after, before], gold, outs)
    assert s["n"] == 2 and s["top1"] == 1.0 and s["stale_rate"] == 0.0
    assert s["premature_rate"] == 0.0 and s["denominators"]["stale_rate"] == 1


def test_bootstrap_interval_is_seeded_and_brackets_the_mean() -> None:
    vals = [True] * 30 + [False] * 10
    lo, hi = bootstrap_ci(vals, seed=0) or (0, 0)
    assert (lo, hi) == bootstrap_ci(vals, seed=0)
    assert lo < 0.75 < hi
    assert bootstrap_ci([]) is None


def test_a_folder_without_pairs_json_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(GoldError, match=r"no pairs\.json"):
        read_pairs(tmp_path)
    (tmp_path / "pairs.json").write_text("{\"pairs\": []}", encoding="utf-8")
    with pytest.raises(GoldError, match="no pairs"):
        read_pairs(tmp_path)


def test_paraphrase_keeps_a_rewording_only_when_it_states_the_date() -> None:
    from hopgraph.eval.temporal import paraphrase
    from tests.unit.chat_fakes import PromptChat

    gold = read_pairs(PAIRS)
    qs = generate_questions(gold, seed=0)[:3]

    def reply(prompt: str) -> str:
        question = prompt.rsplit("Câu hỏi: ", 1)[1]
        if "30/06/2021" in question:
            return "Hỏi lại mà quên mất ngày?"          # the date is lost: template kept
        return "Xin cho biết: " + question

    out, kept = paraphrase(qs, PromptChat(reply))
    assert [q.id for q in out] == [q.id for q in qs]
    for before, after in zip(qs, out, strict=True):
        if "30/06/2021" in before.text:
            assert after == before
        else:
            assert after.text == "Xin cho biết: " + before.text
            assert after.template == before.text and after.paraphrased_by == "prompt-chat"
    assert sum(kept.values()) == 3 and kept["paraphrased"] == sum(
        "30/06/2021" not in q.text for q in qs)


def test_a_served_text_equal_to_a_wording_is_that_wording_however_close_another_is() -> None:
    base = "1. Hồ sơ gồm: " + "; ".join(f"giấy tờ số {i}" for i in range(60)) + "."
    later = base.replace("giấy tờ số 7;", "giấy tờ số 7 bản chính;")
    assert judge(base, [base, later]) == 0 and judge(later, [base, later]) == 1
    # equal in compare form: quotes, case, spacing and the unit's label do not count
    assert judge("  " + later.upper().replace("1. ", "“", 1) + "”", [base, later]) == 1


def test_no_question_where_a_part_of_the_unit_changed_in_between() -> None:
    from hopgraph.eval.temporal_gold import Gold, Timeline, Wording

    article = Timeline("Luật Thử", "1/2020/QH14", ("5", None, None), "Quyền",
                       [Wording("Điều 5. Quyền 1. A. 2. B.", None, "original"),
                        Wording("Điều 5. Quyền mới 1. C.", date(2025, 1, 1), "Luật Sửa: Điều 1")],
                       ["replaced"], "core")
    gold = Gold([article], [], changed={"Luật Thử": [
        (("5", None, None), date(2025, 1, 1), True), (("5", "2", None), date(2022, 1, 1), True)]})
    qs = generate_questions(gold, seed=0)
    # the day before 2025-01-01 the article is its 2015 text with clause 2 of 2022: no gold text
    assert [q.phase for q in qs] == ["on", "after"]
    assert sum(gold.skipped_questions.values()) == 1
    # a change of the clause before the article's own wording started does not matter after it
    assert all(q.expected == 1 for q in qs)


def test_a_clause_of_the_new_article_that_is_the_old_articles_paragraph_is_not_judged() -> None:
    old = "Điều 50. Thẩm quyền gia hạn\nThủ trưởng cơ quan thuế quyết định việc gia hạn nộp thuế."
    new = ("Điều 50. Thẩm quyền gia hạn\n1. Chính phủ gia hạn nộp thuế khi không điều chỉnh dự "
           "toán thu ngân sách.\n2. Thủ trưởng cơ quan thuế quyết định việc gia hạn nộp thuế.")
    # clause 2 of the new wording is the old wording's whole paragraph: it is in force under
    # both, so it shows neither (it counted as the old wording: stale)
    assert judge("2. Thủ trưởng cơ quan thuế quyết định việc gia hạn nộp thuế.", [old, new]) is None
    assert judge(new, [old, new]) == 1 and judge(old, [old, new]) == 0


def test_a_new_name_of_an_article_is_no_wording_of_it(tmp_path: Path) -> None:
    import json
    import shutil

    folder = tmp_path / "pairs"
    shutil.copytree(PAIRS, folder)
    gold_file = next((folder / "gold").glob("*.jsonl"))
    lines = [json.loads(x) for x in gold_file.read_text(encoding="utf-8").splitlines() if x.strip()]
    first = dict(lines[0], target_qualifier="tên")
    gold_file.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in [first, *lines[1:]])
                         + "\n", encoding="utf-8")
    gold = read_pairs(folder)
    assert sum(v for k, v in gold.skipped.items() if "name" in k) == 1
    assert len(gold.timelines) == len(read_pairs(PAIRS).timelines) - 1


def test_another_laws_clause_with_the_same_words_is_not_the_unit() -> None:
    from hopgraph.eval.temporal import about_unit, unit_of
    from hopgraph.eval.temporal_gold import Gold, Timeline, Wording

    old = "1. Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2025."
    new = "1. Luật này có hiệu lực thi hành từ ngày 01 tháng 8 năm 2024."
    tl = Timeline("Luật Kinh doanh bất động sản 2023", "29/2023/QH15", ("82", "1", None),
                  "Hiệu lực thi hành",
                  [Wording(old, None, "original"),
                   Wording(new, date(2024, 8, 1), "Luật 43/2024: Khoản 4 Điều 3", "43/2024/QH15",
                           ("3", "4", None))], ["amended"], "minor")
    gold = Gold([tl], [])
    q = generate_questions(gold)[-1]  # after the change: the new wording applies
    assert unit_of("29/2023/QH15:D82.K1@43/2024/QH15") == ("29/2023/QH15", ("82", "1", None))
    assert unit_of("38/2018/TT-BTC:D4.K4a.b") == ("38/2018/TT-BTC", ("4", "4a", "b"))
    assert unit_of("29/2023/QH15:C9") == ("29/2023/QH15", None)
    assert about_unit("29/2023/QH15:D82", tl) and about_unit("29/2023/QH15:C9", tl)
    assert about_unit("43/2024/QH15:D3.K4", tl) and about_unit("43/2024/QH15:D3", tl)
    assert not about_unit("29/2023/QH15:D82.K2", tl)
    assert not about_unit("43/2024/QH15:D5", tl)  # the amending law's own start: same words
    # a number written with a leading zero or ND for NĐ is the same document; a document known
    # by a slug, not a number, cannot be told apart
    assert about_unit("029/2023/qh15:D82.K1", tl)
    assert about_unit("luat-kinh-doanh-bat-dong-san-2023:D82.K2", tl)
    # the same words closing another law were judged the old wording: stale
    served = [("05/2022/QH15:D49.K1", old), ("29/2023/QH15:D82.K1@43/2024/QH15", new)]
    o = score(q, gold, served, abstained=False)
    assert o.judged == [None, 1] and not o.stale and o.right5 and not o.right1
    # a text with no id is judged by its words alone, as before
    assert score(q, gold, [old, new], abstained=False).stale


def test_no_question_before_the_document_starts_or_after_a_text_ends_it(tmp_path: Path) -> None:
    import json

    base = ("Luật Thử 2023\nĐiều 1. Phạm vi\n1. Luật này quy định về thử.\nĐiều 9. Hiệu lực thi hành\n"
            "1. Luật này có hiệu lực thi hành từ ngày 01 tháng 01 năm 2025.\n")
    amending = ("Luật Sửa 2024\nĐiều 1. Sửa đổi Luật Thử số 5/2023/QH15\n"
                "1. Sửa đổi, bổ sung khoản 1 Điều 1 như sau:\n“1. Luật này quy định về thử nghiệm.”\n"
                "Điều 2. Hiệu lực thi hành\n"
                "Luật này có hiệu lực thi hành từ ngày 01 tháng 8 năm 2024.\n")
    ending = ("Luật Mới 2026\nĐiều 1. Phạm vi\n1. Luật này quy định về thử mới.\n"
              "Điều 2. Hiệu lực thi hành\n1. Luật này có hiệu lực thi hành từ ngày 01 tháng 3 năm "
              "2026.\n2. Luật Thử số 5/2023/QH15 đã được sửa đổi, bổ sung theo Luật số 7/2024/QH15 "
              "hết hiệu lực kể từ ngày Luật này có hiệu lực thi hành.\n")
    for name, text in (("a.txt", base), ("b.txt", amending), ("c.txt", ending)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "gold").mkdir()
    edge = {"target_unit": "khoản 1 Điều 1", "kind": "sửa đổi", "by_unit": "Khoản 1 Điều 1",
            "effective_from": "2024-08-01"}
    (tmp_path / "gold" / "g.jsonl").write_text(json.dumps(edge, ensure_ascii=False) + "\n",
                                               encoding="utf-8")
    # the ending law's own pair is of another tier: it still ends the amended law
    other = {"amended_file": "b.txt", "amending_file": "c.txt", "amended_doc": "Luật Sửa 2024",
             "amended_number": "7/2024/QH15", "gold_file": "gold/none.jsonl", "tier": "core"}
    (tmp_path / "gold" / "none.jsonl").write_text("", encoding="utf-8")
    pair = {"amended_file": "a.txt", "amending_file": "b.txt", "amended_doc": "Luật Thử 2023",
            "amended_number": "5/2023/QH15", "amending_number": "7/2024/QH15",
            "gold_file": "gold/g.jsonl", "tier": "minor"}
    (tmp_path / "pairs.json").write_text(json.dumps({"pairs": [pair, other]}), encoding="utf-8")
    gold = read_pairs(tmp_path, tier="minor")
    # its own start (2025) moved earlier by the amendment in force from 2024-08-01
    assert gold.starts["Luật Thử 2023"] == date(2024, 8, 1)
    assert gold.ends["Luật Thử 2023"] == date(2026, 3, 1)
    assert gold.pairs == 1 and gold.edges == 1
    qs = generate_questions(gold)
    # the day before the change the law had not started: not asked; the "after" date
    # (2025-08-01) is before the end; nothing after the end is asked
    assert [q.phase for q in qs] == ["on", "after"]
    assert sum(gold.skipped_questions.values()) == 1


def test_a_unit_read_twice_in_the_amended_text_gives_no_wording() -> None:
    text = ("Luật Thử\nĐiều 85. Tiền thu được\n1. Nộp ngân sách.\nĐiều 86. Sử dụng đất\n"
            "1. Hình thức.\n2. Khi thu hồi đất.\n"
            "XỬ LÝ TÀI SẢN Điều 87.\nHình thức xử lý\n1. Thu hồi.\n2. Điều chuyển.\n")
    tu = read_units(text)
    # Điều 87's clauses run into Điều 86: every clause read twice, and the article, are unknown
    assert {("86", "1", None), ("86", "2", None), ("86", None, None)} <= tu.doubtful
    assert ("85", "1", None) not in tu.doubtful and ("85", None, None) not in tu.doubtful
