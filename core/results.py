"""One shape for the evidence every domain's result rests on: :class:`Evidence`.

A legal context item, a biomedical region triplet and an evidence sentence are different things,
but a reader (a prompt, an MCP client, a neo4j-graphrag ``Retriever``, an evaluation) wants the
same few facts from each: what it is (``id``, ``citation``), what it says (``text``), why it is
there (``role``, ``score``), whether it holds (``validity``: legal wordings at the as-of date)
and where it comes from (``provenance``). Each domain's public result converts what it already
holds with ``to_evidence()``:

- :meth:`hopgraph.retrieval.LegalContext.to_evidence` and
  :meth:`hopgraph.agents.legal.Answer.to_evidence` (roles ``seed``, ``successor``,
  ``reference``, ``provenance``; validity and its note);
- :meth:`hopgraph.agents.biomed.BioAnswer.to_evidence` (roles ``triplet``, ``hypothesis``,
  ``joined``, ``option_path``; the hop whose region holds it);
- :meth:`hopgraph.agents.sentences.SentenceRetrieval.to_evidence` and
  ``SentenceAnswer.to_evidence`` (roles ``anchor``, ``expansion``; the passage).

Example::

    from hopgraph import Hopgraph

    with Hopgraph.from_env(use_llm=False) as hg:
        for ev in hg.legal.retrieve("Mức hưởng bảo hiểm y tế?", as_of="2024-06-01").to_evidence():
            print(ev.id, ev.role, ev.validity, ev.citation)

This module sits in the core package (the bottom layer) and imports no area.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, Protocol, runtime_checkable

__all__ = ["Domain", "Evidence", "EvidenceResult", "Validity"]

Domain = Literal["legal", "biomed", "sentences"]


class Validity(StrEnum):
    """Whether a legal wording holds at the as-of date (other domains: no validity, ``None``).

    ``IN_FORCE_DATE_UNKNOWN``: in force, but the start date it rests on is not stated by the
    amending text (served from that text's issue date; an answer using it must say so).
    ``NOT_IN_FORCE``: superseded, repealed or not yet in force; the note says which.
    """

    IN_FORCE = "in_force"
    IN_FORCE_DATE_UNKNOWN = "in_force_date_unknown"
    NOT_IN_FORCE = "not_in_force"


@dataclass(frozen=True)
class Evidence:
    """One piece of evidence, in the shape shared by the three domains.

    Attributes:
        domain: ``legal``, ``biomed`` or ``sentences``.
        id: the graph id (legal unit id, ``head-[RELATION]->tail`` for a triplet, sentence id).
        text: what the evidence says (the wording, the verbalised triplet, the sentence).
        role: why it is in the result (``seed``, ``successor``, ``reference``, ``provenance``;
            ``triplet``, ``hypothesis``, ``joined``, ``option_path``; ``anchor``, ``expansion``).
        score: the domain's ranking score where it has one (legal: re-rank or fused score; biomed:
            MMR score or path weight; sentences: path score); ``None`` when it has none.
        citation: a human citation (``khoản 1 Điều 12 Luật 25/2008/QH12``, a passage title),
            where the domain has one.
        validity: legal wordings only: :class:`Validity` at the as-of date.
        validity_note: the human reading of the validity judgement (legal), including the
            unknown-date warning.
        provenance: where it comes from: a legal document id and position, the hop whose region
            holds a triplet, a sentence's passage id and position.
        citation_id: legal only: the stable ELI-style citation id with its date
            (``vn/nd/2016/12/cp/dieu_3/khoan_2@2024-06-01``, :mod:`hopgraph.core.citations`)
            that every surface resolves back to this wording (``hg.legal.resolve``,
            ``/api/legal/resolve``, the MCP tool ``legal_resolve``, ``hopgraph resolve``).
    """

    domain: Domain
    id: str
    text: str
    role: str
    score: float | None = None
    citation: str | None = None
    validity: Validity | None = None
    validity_note: str | None = None
    provenance: str | None = None
    citation_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every field (``validity`` as its string value)."""
        return {"domain": self.domain, "id": self.id, "text": self.text, "role": self.role,
                "score": self.score, "citation": self.citation,
                "validity": None if self.validity is None else self.validity.value,
                "validity_note": self.validity_note, "provenance": self.provenance,
                "citation_id": self.citation_id}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Evidence:
        """The evidence :meth:`to_dict` wrote (unknown keys are ignored).

        Raises:
            KeyError: ``domain``, ``id``, ``text`` or ``role`` is missing.
            ValueError: ``validity`` is not a :class:`Validity` value.
        """
        validity = data.get("validity")
        return cls(domain=data["domain"], id=str(data["id"]), text=str(data["text"]),
                   role=str(data["role"]), score=data.get("score"), citation=data.get("citation"),
                   validity=None if validity is None else Validity(validity),
                   validity_note=data.get("validity_note"), provenance=data.get("provenance"),
                   citation_id=data.get("citation_id"))

    def metadata(self) -> dict[str, Any]:
        """Every field but ``text``, without the empty ones (for a retriever item's metadata)."""
        return {k: v for k, v in self.to_dict().items() if k != "text" and v is not None}

    def render(self) -> str:
        """A block for an LLM prompt: ``[id] citation (validity note)`` on one line, the text on
        the next, so a model can cite the id and see whether the wording holds."""
        head = f"[{self.id}]"
        if self.citation and self.citation != self.id:
            head += f" {self.citation}"
        if self.validity_note:
            head += f" ({self.validity_note})"
        return f"{head}\n{self.text}"


@runtime_checkable
class EvidenceResult(Protocol):
    """A domain result that says its evidence in the shared shape."""

    def to_evidence(self) -> list[Evidence]:
        """The evidence, best first, without duplicates."""
        ...
