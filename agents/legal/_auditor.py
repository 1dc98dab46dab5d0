"""The Auditor: grounding checks on a draft answer, deterministic and LLM-free.

Every sentence of a draft must map to evidence node ids from the retrieved context:

- ids the writer gave that are not in the evidence are dropped (never trusted);
- a sentence with no usable ids is matched to the evidence item it overlaps most;
- every unit or document the sentence cites is looked up in the evidence; a citation that is not
  there is an ``invented_citation`` (such sentences never reach the answer);
- a cited unit whose wording is not in force at the as-of date is a ``superseded_citation``
  unless the sentence itself says it was amended or replaced;
- numbers and percentages the sentence states must occur in its applicable evidence; a number
  found only in superseded wording makes the claim ``contradicted``;
- otherwise the share of the sentence's content words found in its evidence decides
  ``supported`` or ``unsupported``.

Evidence text is only compared with, never executed: instructions inside a document change
nothing here.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from hopgraph.agents.legal._parsing import (
    content_tokens,
    fold,
    numbers_in,
    parse_document_numbers,
    parse_unit_references,
)
from hopgraph.agents.legal._types import AgentStep, Claim
from hopgraph.retrieval import ContextItem

DEFAULT_SUPPORT_THRESHOLD = 0.5
DEFAULT_MIN_SUPPORTED_SHARE = 0.5
_CHANGE_WORDS = tuple(fold(w) for w in (
    "sửa đổi", "bổ sung", "thay thế", "bãi bỏ", "hết hiệu lực", "trước đây", "trước đó",
    "chưa có hiệu lực", "không còn",
))


# Status claims a sentence can make about a provision or document, as folded cues; each is
# checked against the validity the graph reports for the cited units (Auditor._check).
_STATUS_CUES = {
    "ended": tuple(fold(w) for w in ("bị bãi bỏ", "hết hiệu lực", "không còn hiệu lực")),
    "pending": tuple(fold(w) for w in ("chưa có hiệu lực", "chưa phát sinh hiệu lực")),
}
_STATUS_PHRASES = {"ended": "đã bị bãi bỏ / hết hiệu lực", "pending": "chưa có hiệu lực"}
# What a validity note says when the graph holds the unit (or a change to it) as ended/pending.
_STATUS_EVIDENCE = {
    "ended": tuple(fold(w) for w in ("bãi bỏ", "hết hiệu lực", "không còn áp dụng",
                                     "bị thay thế", "không áp dụng")),
    "pending": tuple(fold(w) for w in ("chưa có hiệu lực", "sắp có thay đổi")),
}


def _status_claim(text: str) -> str | None:
    """``ended`` or ``pending`` when the sentence states that status, else None."""
    folded = fold(text)
    for status, cues in _STATUS_CUES.items():
        if any(c in folded for c in cues):
            return status
    return None


def _has_status(item: ContextItem, status: str) -> bool:
    """Whether the graph's validity of ``item`` backs the status claim: an ended claim needs a
    wording not applicable at the date, or a note naming a repeal or an end; a pending claim
    needs a note naming a wording or change not yet in force."""
    note = fold(item.validity_note or "")
    if status == "ended" and not item.applicable:
        return True
    return any(c in note for c in _STATUS_EVIDENCE[status])


@dataclass(frozen=True)
class DraftSentence:
    """One sentence of a draft answer and the evidence ids the writer said it rests on."""

    text: str
    evidence_ids: tuple[str, ...] = ()


@dataclass
class AuditReport:
    """The Auditor's verdicts and its judgement of the whole draft."""

    claims: list[Claim]
    sufficient: bool
    reason: str

    @property
    def kept(self) -> list[Claim]:
        """Claims that may appear in the answer (supported, or flagged but not invented)."""
        return [c for c in self.claims if c.verdict in {"supported", "superseded_citation"}]


def _base(node_id: str) -> str:
    return node_id.split("@", 1)[0]


def _doc_of(node_id: str) -> str:
    return _base(node_id).split(":", 1)[0]


def _path_of(node_id: str) -> str:
    return _base(node_id).partition(":")[2]


def _path_matches(unit_path: str, cited: str) -> bool:
    """``D5.K2`` cited matches the unit ``C1.D5.K2`` and its points, not ``D15.K2``."""
    segs = [s for s in unit_path.split(".") if not (s[:1] in {"P", "C", "M"} and s[1:2].isdigit())]
    want = cited.split(".")
    return segs[: len(want)] == want or (len(segs) > 0 and want[: len(segs)] == segs)


class Auditor:
    """Checks a draft against the evidence.

    Args:
        support_threshold: share of a sentence's content words that must occur in its evidence.
        min_supported_share: share of sentences that must be supported for the draft to stand.
    """

    def __init__(
        self,
        *,
        support_threshold: float = DEFAULT_SUPPORT_THRESHOLD,
        min_supported_share: float = DEFAULT_MIN_SUPPORTED_SHARE,
    ) -> None:
        self.support_threshold = support_threshold
        self.min_supported_share = min_supported_share

    def audit(
        self, draft: list[DraftSentence], evidence: list[ContextItem]
    ) -> tuple[AuditReport, AgentStep]:
        """Give each sentence a verdict and decide whether the draft is grounded enough."""
        started = time.perf_counter()
        by_id = {item.node_id: item for item in evidence}
        claims = [self._check(sentence, by_id) for sentence in draft]
        supported = [c for c in claims if c.verdict == "supported"]
        invented = [c for c in claims if c.verdict == "invented_citation"]
        if not claims:
            sufficient, reason = False, "the draft is empty"
        elif not supported:
            sufficient, reason = False, "no sentence of the draft is supported by the evidence"
        elif len(supported) / len(claims) < self.min_supported_share:
            sufficient = False
            reason = f"only {len(supported)} of {len(claims)} sentences are supported"
        else:
            sufficient, reason = True, f"{len(supported)} of {len(claims)} sentences supported"
        if invented:
            reason += f"; {len(invented)} sentence(s) cite units not in the evidence (removed)"
        step = AgentStep(agent="auditor", latency_s=time.perf_counter() - started,
                         note=reason)
        return AuditReport(claims=claims, sufficient=sufficient, reason=reason), step

    def _check(self, sentence: DraftSentence, by_id: dict[str, ContextItem]) -> Claim:
        notes: list[str] = []
        ids = [i for i in dict.fromkeys(sentence.evidence_ids) if i in by_id]
        dropped = [i for i in sentence.evidence_ids if i not in by_id]
        if dropped:
            notes.append(f"ignored evidence ids not retrieved: {', '.join(dropped[:3])}")
        cited_items, invented = self._cited_items(sentence.text, by_id)
        if invented:
            return Claim(sentence.text, ids, "invented_citation", 0.0,
                         [*notes, f"cites {'; '.join(invented)} which is not in the evidence"])
        ids = list(dict.fromkeys([*ids, *(i.node_id for i in cited_items)]))
        words = content_tokens(sentence.text)
        if not ids:
            best = self._best_match(words, by_id)
            if best is not None:
                ids = [best]
        if not ids:
            return Claim(sentence.text, [], "unsupported", 0.0, [*notes, "no evidence matches"])
        items = [by_id[i] for i in ids]
        claimed = _status_claim(sentence.text)
        if claimed is not None and not any(_has_status(it, claimed) for it in items):
            # "đã bị bãi bỏ", "hết hiệu lực", "chưa có hiệu lực" are judged by the graph's
            # validity of the cited units, never by words the text happens to share
            return Claim(sentence.text, ids, "contradicted", 0.0, [
                *notes, f"câu nêu \"{_STATUS_PHRASES[claimed]}\" nhưng hiệu lực trong đồ thị "
                "không khớp: " + "; ".join(f"{it.citation}: {it.validity_note}"
                                           for it in items[:2])])
        # A unit's wording counts together with the versions and references retrieved with it.
        related = [
            it for it in by_id.values()
            if it.node_id in ids or _base(it.node_id) in {_base(i) for i in ids}
            or it.seed_id in ids
        ]
        support = self._overlap(words, related)
        applicable_text = " ".join(it.text for it in related if it.applicable)
        stale_text = " ".join(it.text for it in related if not it.applicable)
        stated = numbers_in(sentence.text) - numbers_in(" ".join(
            f"{it.citation} {it.node_id}" for it in related))
        says_changed = any(w in fold(sentence.text) for w in _CHANGE_WORDS)
        if stated:
            in_force = numbers_in(applicable_text)
            missing = stated - in_force
            if missing and missing <= numbers_in(stale_text) and not says_changed:
                return Claim(sentence.text, ids, "contradicted", support, [
                    *notes, f"{', '.join(sorted(missing))} is the superseded wording, "
                    "not the one in force"])
            if missing and not missing <= numbers_in(stale_text):
                return Claim(sentence.text, ids, "unsupported", support, [
                    *notes, f"{', '.join(sorted(missing))} not found in the evidence"])
        stale_cited = [it for it in cited_items if not it.applicable]
        if stale_cited and not says_changed:
            return Claim(sentence.text, ids, "superseded_citation", support, [
                *notes, *(f"{it.citation}: {it.validity_note}" for it in stale_cited)])
        if not any(it.applicable for it in items) and not says_changed:
            notes.append("rests only on wording not in force at the as-of date")
            return Claim(sentence.text, ids, "superseded_citation", support, notes)
        # A wording whose start date is unknown may be used, never silently (issue 16).
        notes.extend(f"{it.citation}: {it.uncertainty_note}" for it in cited_items
                     if it.uncertainty_note)
        if support >= self.support_threshold:
            return Claim(sentence.text, ids, "supported", support, notes)
        return Claim(sentence.text, ids, "unsupported", support, notes)

    @staticmethod
    def _cited_items(
        text: str, by_id: dict[str, ContextItem]
    ) -> tuple[list[ContextItem], list[str]]:
        """Evidence items the sentence cites, and the citations that match no item."""
        found: list[ContextItem] = []
        invented: list[str] = []
        docs_in_evidence = {_doc_of(i) for i in by_id} | {
            (it.provenance.number or "") for it in by_id.values()
        }
        unit_refs = parse_unit_references(text)
        for ref in unit_refs:
            candidates = [
                it for it in by_id.values()
                if _path_matches(_path_of(it.node_id), ref.path)
                and (ref.doc_number in {None, "này"} or _doc_of(it.node_id) == ref.doc_number
                     or it.provenance.number == ref.doc_number)
            ]
            if candidates:
                found.extend(candidates)
            else:
                invented.append(ref.text + (f" {ref.doc_number}" if ref.doc_number else ""))
        cited_in_units = {r.doc_number for r in unit_refs}
        for doc in parse_document_numbers(text):
            if doc.number in cited_in_units:
                continue
            if doc.number not in docs_in_evidence and not _mentioned_in_paths(doc.number, by_id):
                invented.append(doc.text)
        return found, invented

    @staticmethod
    def _best_match(words: list[str], by_id: dict[str, ContextItem]) -> str | None:
        if not words:
            return None
        wanted = set(words)
        scored = [
            (len(wanted & set(content_tokens(it.text))) / len(wanted), it.node_id)
            for it in by_id.values()
        ]
        best = max(scored, default=(0.0, ""))
        return best[1] if best[0] > 0 else None

    @staticmethod
    def _overlap(words: list[str], items: list[ContextItem]) -> float:
        if not words:
            return 0.0
        vocabulary: set[str] = set()
        for it in items:
            vocabulary.update(content_tokens(f"{it.text} {it.citation} {it.validity_note}"))
        return sum(1 for w in words if w in vocabulary) / len(words)


def _mentioned_in_paths(number: str, by_id: dict[str, ContextItem]) -> bool:
    """A document named in a validity chain (the amending law) counts as evidence too."""
    pattern = re.escape(number)
    for it in by_id.values():
        if "@" in it.node_id and it.node_id.endswith(number):
            return True
        for step in it.path:
            if re.search(pattern, f"{step.source_id} {step.target_id} {step.source_citation}"):
                return True
        if re.search(pattern, it.validity_note or ""):
            return True
    return False
