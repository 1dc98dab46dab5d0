"""Issue 27 item 2/3: the dataset builder's rejections are counted under a few clear reasons
(the model's own problem stays in the rejection's record), per tuple kind."""

from __future__ import annotations

from hopgraph.eval.dataset import Context, Tuple, generate, schema_problem
from tests.unit.chat_fakes import PromptChat

A = Context("1/2020/QH14:D1", "1/2020/QH14", "Người bệnh được khám tại trạm y tế xã.")
B = Context("2/2021/NĐ-CP:D2", "2/2021/NĐ-CP", "Trạm y tế xã mở cửa từ bảy giờ sáng.")


def test_schema_problems_fall_into_a_few_reasons() -> None:
    assert schema_problem("LLM reply is not JSON: 'abc'") == "reply not in the schema: not JSON"
    assert schema_problem("4 validation errors for GeneratedQA\nquestion\n  Field required") \
        == "reply not in the schema: JSON without the schema's fields"
    assert schema_problem("1 validation error for GeneratedQA\nhops\n  Input should be a valid "
                          "integer") == "reply not in the schema: a field of the wrong type"


def test_each_rejection_is_recorded_with_its_kind_reason_and_detail() -> None:
    chat = PromptChat(lambda prompt: "không phải JSON" if "context_2" in prompt else "{}")
    accepted, rejected, records = generate(
        [Tuple((A, B), "semantic", 0), Tuple((A, B), "refers_to", None)], chat)
    assert accepted == []
    assert rejected == {"reply not in the schema: not JSON": 2}
    assert [r["kind"] for r in records] == ["semantic", "refers_to"]
    assert all(r["hops"] == 2 and "not JSON" in r["detail"] for r in records)
