"""The shipped sample regulations are fictional: their ids end in ``-MAU`` (*mẫu*, sample), and
every citation of one shown to a user carries :data:`FICTIONAL_MARK`."""

from __future__ import annotations

import re

SAMPLE_DOCUMENT_SUFFIX = "-MAU"
FICTIONAL_MARK = "(mẫu hư cấu)"
# a document number ending in -MAU, not inside a unit id (':D3'), a version id ('@') or a longer
# token, and not marked already
_SAMPLE_NUMBER = re.compile(
    r"(?<![\w/.@-])(\w[\w/.]*" + re.escape(SAMPLE_DOCUMENT_SUFFIX) + r")(?![\w@/-]|:\w)"
    r"(?!\s*" + re.escape(FICTIONAL_MARK) + ")")


def is_sample_document(doc_id: str) -> bool:
    """True for the ids of the shipped fictional sample documents (``12/2016/NĐ-MAU``)."""
    return doc_id.endswith(SAMPLE_DOCUMENT_SUFFIX)


def mark_fictional(text: str) -> str:
    """``text`` with :data:`FICTIONAL_MARK` after every sample document number it cites
    (``Khoản 2 Điều 3 Nghị định 12/2016/NĐ-MAU`` → ``… 12/2016/NĐ-MAU (mẫu hư cấu)``); unit ids (``12/2016/NĐ-MAU:D3``) are left as they are."""
    return _SAMPLE_NUMBER.sub(lambda m: f"{m.group(1)} {FICTIONAL_MARK}", text)
