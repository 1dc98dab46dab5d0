"""The sentence reasoner (paper §3.2): anchors, refinement, adaptive path expansion, answer.

1. Anchor selection: vector top-K over sentences (``cypher/sentence/find_anchor_sentences``).
2. Refinement: the LLM keeps the anchors that bear on the question and says whether they are
   sufficient (prompt after Appendix A.4). Without an LLM, or when its reply is unusable, a
   deterministic rule keeps the anchors within ``refine_margin`` of the best score (at most
   ``keep_anchors``), then, for every entity the question names (:func:`question_facets`: both
   sides of a comparison, the entity of each sub-question) that no kept anchor mentions in its
   text or passage title, adds the best anchor that does; it never claims sufficiency.
3. Adaptive path expansion: breadth-first; each hop takes the ``beam`` most question-similar
   unvisited neighbours of every path end, scores the extended paths
   (``decay * similarity + (1 - decay) * parent score``) and stops at ``max_path_length`` edges
   or ``expansion_limit`` new sentences. By default every hop runs in one round trip
   (``cypher/sentence/expand_paths``, up to four hops, issue 29: a round trip per hop was most
   of the graph's latency); ``expand_in_one_query=False`` runs one query per hop
   (``cypher/sentence/expand_frontier``) and scores in Python: the same paths.
4. Evidence, at most ``max_evidence`` sentences, best score first. After the deterministic
   refinement (``fusion``, the default): the best ``anchor_slots`` anchors by similarity and every
   kept anchor hold their slots, and the sentences the paths reached fill the rest by path score,
   so expansion adds bridge sentences without pushing out what sentence retrieval ranks first
   (issue 19). After an LLM refinement, or with ``fusion=False``: the sentences on the retained
   paths by path score alone. Then a detour (``trim_detours``, the default: a sentence reached in
   two or more edges without leaving its anchor's passage) is left out, its slot left empty:
   such sentences carry no hop and were never a supporting fact on the shared questions, and
   they cost 8.5 % of the evidence's tokens. Answer generation through the LLM; without one, a
   retrieval-only answer.
5. The answer line (``answer_first``, the default): the sentence that answers the question (the
   one closing the bridge, or one per compared side) is picked by rules
   (:mod:`hopgraph.agents.sentences._answer_line`), moved to the front of the evidence and
   explained in ``SentenceRetrieval.answer_line``; the other sentences keep their order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel

from hopgraph.agents import ChatModel, Embedder, ask_schema
from hopgraph.agents.sentences._answer_line import AnswerLine, answer_line
from hopgraph.core.errors import LLMError, RetrievalError
from hopgraph.core.results import Evidence
from hopgraph.core.vocabulary import AnswerMode
from hopgraph.db import QueryRunner
from hopgraph.loaders.sentences import entity_key
from hopgraph.retrieval import (
    DEFAULT_ANCHOR_K,
    EXPAND_PATHS_MAX_HOPS,
    LinkSeed,
    Neighbour,
    SentenceHit,
    expand_frontier,
    expand_paths_linked,
    find_anchor_sentences,
    find_title_links,
    passage_titles,
)

_TOKEN = re.compile(r"\w+|[^\w\s]")
REFINE_SYSTEM = (
    "You judge evidence for answering a multi-hop question. From the numbered sentences, keep "
    "only those that help answer the question, and say whether the kept sentences are already "
    "sufficient to answer it. Reply with JSON only."
)
REFINE_USER = (
    "Question: {question}\nSentences:\n{numbered}\n\n"
    'Return {{"relevant": [sentence numbers], "sufficient": true or false}}'
)
ANSWER_SYSTEM = (
    "Answer the question using only the evidence sentences. Give the shortest answer "
    "(a name, a date, yes or no, a short phrase), without explanation."
)
ANSWER_USER = "Evidence:\n{evidence}\n\nQuestion: {question}\nAnswer:"


def count_tokens(text: str) -> int:
    """Approximate context tokens: words and punctuation marks (no model tokenizer needed)."""
    return len(_TOKEN.findall(text))


@dataclass(frozen=True)
class SentenceRetrievalConfig:
    """Knobs of the online stage; defaults follow the paper where it gives them (K = 20)."""

    anchor_k: int = DEFAULT_ANCHOR_K
    refine: bool = True
    # 2, not 5 (issue 29): set on the even half of the shared HotpotQA train questions
    # (sp_recall@10 0.773 -> 0.805; 1: 0.804, 3: 0.795, 4: 0.769), the odd half held out
    keep_anchors: int = 2
    refine_margin: float = 0.15
    cover_facets: bool = True  # keep an anchor for every entity the question names
    expand: bool = True
    max_path_length: int = 4
    beam: int = 2
    expansion_limit: int = 12
    max_evidence: int = 10
    decay: float = 0.5
    # evidence (issue 19): with fusion the kept anchors and the best `anchor_slots` anchors hold
    # their slots before expansions fill the rest by path score; without it, path score alone
    fusion: bool = True
    anchor_slots: int = 3
    anchor_pool: bool = False  # with fusion: dropped anchors also compete with expansions by score
    # the answering sentence(s) first (issue 29: without an LLM the answer was often last)
    answer_first: bool = True
    # all hops in one round trip (cypher/sentence/expand_paths) while max_path_length <= 4
    expand_in_one_query: bool = True
    # a detour (a sentence reached in two or more edges without leaving its anchor's passage)
    # is chosen as before but then left out of the evidence (issue 29: <= 0.5x passage tokens)
    trim_detours: bool = True
    # title links (issue 29): from each kept anchor, the passages its sentence names by title and
    # the other passages whose sentences name its passage's title, `link_beam` sentences each
    # way; the best one per anchor holds a slot. Set on the even half of the shared HotpotQA
    # train questions (sp_recall@10 0.805 -> 0.853), the odd half held out
    title_links: bool = True
    link_beam: int = 2

    def __post_init__(self) -> None:
        for name in ("anchor_k", "keep_anchors", "max_path_length", "beam", "max_evidence",
                     "link_beam"):
            if getattr(self, name) < 1:
                raise RetrievalError(f"{name} must be at least 1, got {getattr(self, name)}")
        if not 0.0 < self.decay <= 1.0:
            raise RetrievalError(f"decay must be in (0, 1], got {self.decay}")
        if self.anchor_slots < 0:
            raise RetrievalError(f"anchor_slots must be at least 0, got {self.anchor_slots}")


@dataclass(frozen=True)
class EvidenceSentence:
    """One evidence sentence and the path that reached it (node ids and edge relations)."""

    id: str
    passage_id: str
    position: int
    text: str
    score: float
    path: tuple[str, ...]
    relations: tuple[str, ...]


@dataclass
class SentenceRetrieval:
    """What retrieval found for one question, and what it cost."""

    question: str
    anchors: list[SentenceHit]
    kept: list[str]
    sufficient: bool
    refinement: str  # 'llm', 'heuristic' or 'off'
    evidence: list[EvidenceSentence]
    hops: int = 0
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    answer_line: AnswerLine | None = None  # the sentence(s) that answer, and why (answer_first)
    titles: dict[str, str] = field(default_factory=dict)  # passage id -> title, those read

    @property
    def context_tokens(self) -> int:
        return sum(count_tokens(e.text) for e in self.evidence)

    def to_evidence(self) -> list[Evidence]:
        """:attr:`evidence` in the shared evidence shape (:class:`hopgraph.core.results.Evidence`):
        role ``anchor`` for a kept anchor, ``expansion`` for a sentence reached along a path;
        the passage id and position as provenance."""
        return [_sentence_evidence(e) for e in self.evidence]


@dataclass
class SentenceAnswer:
    """An answer with its evidence; ``answer`` is None in retrieval-only mode."""

    question: str
    answer: str | None
    mode: AnswerMode  # llm or retrieval_only (hopgraph.core.vocabulary: one spelling everywhere)
    retrieval: SentenceRetrieval
    citations: list[tuple[str, str, int]] = field(default_factory=list)  # (title, passage id, position)

    def to_evidence(self) -> list[Evidence]:
        """The retrieval's evidence (:meth:`SentenceRetrieval.to_evidence`), each with its
        passage's title as the citation."""
        titles = {(pid, pos): title for title, pid, pos in self.citations}
        return [replace(ev, citation=titles.get((e.passage_id, e.position)))
                for e, ev in zip(self.retrieval.evidence, self.retrieval.to_evidence(), strict=True)]

    @property
    def method(self) -> str:
        """``mode`` in the spelling this field had before the shared enum ('llm' or
        'retrieval-only'); kept for existing readers of the CLI's JSON ``method``."""
        return "retrieval-only" if self.mode is AnswerMode.RETRIEVAL_ONLY else str(self.mode)


def _sentence_evidence(e: EvidenceSentence) -> Evidence:
    return Evidence(domain="sentences", id=e.id, text=e.text,
                    role="anchor" if len(e.path) <= 1 else "expansion", score=e.score,
                    provenance=f"passage {e.passage_id}, sentence {e.position}")


class _RefineReply(BaseModel):
    relevant: list[int]
    sufficient: bool = False


@dataclass
class _Path:
    nodes: tuple[str, ...]
    relations: tuple[str, ...]
    score: float
    kind: str
    passage_id: str | None
    position: int | None
    text: str


def _is_detour(path: _Path, paths: dict[str, _Path]) -> bool:
    """Two or more edges that end in the passage the path started from: the sentence is a
    neighbour of its anchor reached the long way (through the passage's topic node, or a chain
    of sentences inside it), carrying no hop to another passage. On the 100 shared HotpotQA
    train questions none of the 82 such evidence sentences was a supporting fact (8.5 % of the
    evidence's tokens)."""
    if len(path.relations) < 2:
        return False
    start = paths.get(path.nodes[0])
    return start is not None and start.passage_id == path.passage_id


class SentenceReasoner:
    """Retrieval and answering over the sentence graph; receives its runner, embedder and LLM."""

    def __init__(
        self,
        runner: QueryRunner,
        embedder: Embedder,
        llm: ChatModel | None = None,
        config: SentenceRetrievalConfig | None = None,
    ) -> None:
        self.runner = runner
        self.embedder = embedder
        self.llm = llm
        self.config = config or SentenceRetrievalConfig()

    def with_config(self, **changes: Any) -> SentenceReasoner:
        """A reasoner with some config values changed (for ablations)."""
        return SentenceReasoner(self.runner, self.embedder, self.llm, replace(self.config, **changes))

    def retrieve(self, question: str, embedding: Sequence[float] | None = None) -> SentenceRetrieval:
        """Anchors, refinement and path expansion for ``question``.

        Raises:
            RetrievalError: the question is empty.
        """
        if not question.strip():
            raise RetrievalError("the question is empty")
        cfg = self.config
        vector = list(embedding) if embedding is not None else self.embedder.embed_query(question)
        anchors = find_anchor_sentences(self.runner, vector, cfg.anchor_k)
        result = SentenceRetrieval(question, anchors, [], False, "off", [])
        result.titles.update({a.passage_id: a.title for a in anchors if a.title})
        if not anchors:
            return result
        if cfg.refine:
            kept, sufficient = self._refine(question, anchors, result)
        else:
            kept, sufficient = anchors, False
        result.kept = [a.id for a in kept]
        result.sufficient = sufficient
        paths = {a.id: _Path((a.id,), (), a.score, a.role, a.passage_id, a.position, a.text)
                 for a in kept}
        linked: list[Neighbour] = []
        if cfg.expand and not sufficient:
            links = [link_seed(a, result.titles) for a in kept] if cfg.title_links else []
            if cfg.expand_in_one_query and cfg.max_path_length <= EXPAND_PATHS_MAX_HOPS:
                result.hops, linked = self._expand_in_one_query(vector, paths, result.titles, links)
            else:
                result.hops = self._expand(vector, paths, result.titles)
                if links:
                    linked = find_title_links(self.runner, links, vector, link_beam=cfg.link_beam)
        held = self._add_links(linked, paths, result.titles)
        sentences = [p for p in paths.values() if p.kind != "topic" and p.passage_id is not None]
        sentences.sort(key=lambda p: (-p.score, p.nodes[-1]))
        # an LLM read the anchors and chose among them: its choice stands; the deterministic
        # refinement only guesses, so the best anchors keep their slots (fusion). Without
        # refinement every anchor is "kept": then only the anchor slots are held.
        if cfg.fusion and result.refinement != "llm":
            chosen = self._fuse(anchors, result.kept if result.refinement == "heuristic" else [],
                                sentences, held)
        else:
            chosen = sentences[: cfg.max_evidence]
        if cfg.trim_detours:  # after the choice: a detour's slot stays empty, its tokens saved
            chosen = [p for p in chosen if not _is_detour(p, paths)]
        result.evidence = [
            EvidenceSentence(p.nodes[-1], p.passage_id or "", int(p.position or 0), p.text, p.score,
                             p.nodes, p.relations)
            for p in chosen
        ]
        if cfg.answer_first and result.evidence:
            self._answer_first(result)
        return result

    def _answer_first(self, result: SentenceRetrieval) -> None:
        """Pick the answering sentence(s) (:func:`answer_line`) and move them to the front."""
        missing = sorted({e.passage_id for e in result.evidence} - set(result.titles))
        if missing:
            result.titles.update(passage_titles(self.runner, missing))
        line = answer_line(result.question, result.evidence, result.titles,
                           question_facets(result.question))
        if line is None:
            return
        result.answer_line = line
        first = [e for i in line.sentence_ids for e in result.evidence if e.id == i]
        result.evidence = first + [e for e in result.evidence if e.id not in line.sentence_ids]

    def _add_links(self, linked: list[Neighbour], paths: dict[str, _Path],
                   titles: dict[str, str]) -> list[str]:
        """Title links as one-edge paths from their anchor (scored like an expansion hop; a
        sentence already reached keeps the better path). Returns the best-linked sentence of
        each anchor (most question-similar, not an anchor itself): it holds an evidence slot."""
        decay = self.config.decay
        held: dict[str, str] = {}
        for n in sorted(linked, key=lambda n: (-n.similarity, n.id, n.source)):
            parent = paths.get(n.source)
            if parent is None or n.id == parent.nodes[0] or len(parent.nodes) > 1:
                continue
            if n.passage_id and n.title:
                titles[n.passage_id] = n.title
            score = decay * n.similarity + (1 - decay) * parent.score
            old = paths.get(n.id)
            if old is None or (len(old.nodes) > 1 and old.score < score):
                paths[n.id] = _Path((n.source, n.id), (f"{n.edge}:{n.relation or ''}",), score,
                                    n.kind, n.passage_id, n.position, n.text)
            if old is None or len(old.nodes) > 1:
                held.setdefault(n.source, n.id)
        return list(dict.fromkeys(held.values()))

    def _fuse(self, anchors: list[SentenceHit], kept: list[str], sentences: list[_Path],
              held: Sequence[str] = ()) -> list[_Path]:
        """The evidence of the deterministic path: first the best ``anchor_slots`` anchors by
        similarity (what sentence retrieval ranks first, kept or not), every kept anchor (an
        anchor per facet of the question included) and ``held`` (each kept anchor's best
        title-linked sentence), then the other sentences by path score;
        at most ``max_evidence``, best score first. Expansions thus fill the slots the anchors
        leave instead of displacing them: a weak path cannot push out a strong anchor."""
        cfg = self.config
        anchor_paths = {a.id: _Path((a.id,), (), a.score, a.role, a.passage_id, a.position, a.text)
                        for a in anchors}
        by_id = {**anchor_paths, **{p.nodes[-1]: p for p in sentences}}
        pool = list(sentences)
        if cfg.anchor_pool:
            pool += [p for i, p in anchor_paths.items() if i not in kept]
            pool.sort(key=lambda p: (-p.score, p.nodes[-1]))
        reserved = [a.id for a in anchors[: cfg.anchor_slots]]
        reserved += [i for i in [*kept, *held] if i not in reserved and i in by_id]
        chosen = {i: by_id[i] for i in reserved[: cfg.max_evidence]}
        for p in pool:
            if len(chosen) >= cfg.max_evidence:
                break
            chosen.setdefault(p.nodes[-1], p)
        return sorted(chosen.values(), key=lambda p: (-p.score, p.nodes[-1]))

    def _refine(
        self, question: str, anchors: list[SentenceHit], result: SentenceRetrieval
    ) -> tuple[list[SentenceHit], bool]:
        cfg = self.config
        if self.llm is not None:
            numbered = "\n".join(f"{i}. {a.text}" for i, a in enumerate(anchors))
            result.llm_calls += 1
            try:
                reply = ask_schema(
                    self.llm,
                    [{"role": "system", "content": REFINE_SYSTEM},
                     {"role": "user", "content": REFINE_USER.format(question=question, numbered=numbered)}],
                    _RefineReply, max_tokens=128, temperature=0.0,
                )
                result.prompt_tokens += reply.result.prompt_tokens
                result.completion_tokens += reply.result.completion_tokens
                parsed = reply.value
                picked = sorted({i for i in parsed.relevant if 0 <= i < len(anchors)}) if parsed else []
                if parsed is not None and picked:
                    result.refinement = "llm"
                    return [anchors[i] for i in picked], parsed.sufficient
            except LLMError:
                pass  # unusable reply: the deterministic rule below decides
        result.refinement = "heuristic"
        best = anchors[0].score
        kept = [a for a in anchors if a.score >= best - cfg.refine_margin][: cfg.keep_anchors]
        facets = question_facets(question) if cfg.cover_facets else []
        if facets:
            missing = sorted({a.passage_id for a in anchors} - set(result.titles))
            if missing:  # the anchor rows carry their titles; older rows may not
                result.titles.update(passage_titles(self.runner, missing))
            titles = result.titles
            words = {a.id: _words(f"{titles.get(a.passage_id, '')} {a.text}") for a in anchors}
            for facet in facets:
                if any(_covers(words[a.id], facet) for a in kept):
                    continue
                extra = next((a for a in anchors if a not in kept and _covers(words[a.id], facet)), None)
                if extra is not None:
                    kept.append(extra)
        return kept, False

    def _expand_in_one_query(self, vector: list[float], paths: dict[str, _Path],
                             titles: dict[str, str],
                             links: Sequence[LinkSeed] = ()) -> tuple[int, list[Neighbour]]:
        cfg = self.config
        found, hops, linked = expand_paths_linked(
            self.runner, [(i, p.score) for i, p in paths.items()], vector, links, beam=cfg.beam,
            decay=cfg.decay, expansion_limit=cfg.expansion_limit, max_hops=cfg.max_path_length,
            link_beam=cfg.link_beam)
        for f in found:
            if f.passage_id and f.title:
                titles[f.passage_id] = f.title
            paths.setdefault(f.id, _Path(f.nodes, f.relations, f.score, f.kind, f.passage_id,
                                         f.position, f.text))
        return hops, linked

    def _expand(self, vector: list[float], paths: dict[str, _Path],
                titles: dict[str, str]) -> int:
        cfg = self.config
        frontier = list(paths)
        added = 0
        hops = 0
        for _ in range(cfg.max_path_length):
            if not frontier or added >= cfg.expansion_limit:
                break
            neighbours = expand_frontier(self.runner, frontier, vector, visited=list(paths),
                                         beam=cfg.beam)
            titles.update({n.passage_id: n.title for n in neighbours if n.passage_id and n.title})
            hops += 1
            scored: list[tuple[float, Neighbour]] = []
            for n in neighbours:
                parent = paths[n.source]
                scored.append((cfg.decay * n.similarity + (1 - cfg.decay) * parent.score, n))
            scored.sort(key=lambda item: (-item[0], item[1].id))
            frontier = []
            for score, n in scored:
                if n.id in paths:
                    continue  # reached from two ends in this hop: the better path wins
                if n.kind != "topic":
                    if added >= cfg.expansion_limit:
                        continue
                    added += 1
                parent = paths[n.source]
                paths[n.id] = _Path((*parent.nodes, n.id),
                                    (*parent.relations, f"{n.edge}:{n.relation or ''}"),
                                    score, n.kind, n.passage_id, n.position, n.text)
                frontier.append(n.id)
        return hops

    def answer(self, question: str) -> SentenceAnswer:
        """Retrieve, then answer with the LLM; retrieval-only (answer None) without one.

        Raises:
            RetrievalError: the question is empty.
            LLMError: the LLM endpoint failed.
        """
        retrieval = self.retrieve(question)
        titles = dict(retrieval.titles)
        missing = sorted({e.passage_id for e in retrieval.evidence} - set(titles))
        if missing:
            titles.update(passage_titles(self.runner, missing))
        citations = [(titles.get(e.passage_id, e.passage_id), e.passage_id, e.position)
                     for e in retrieval.evidence]
        if self.llm is None:
            return SentenceAnswer(question, None, AnswerMode.RETRIEVAL_ONLY, retrieval, citations)
        text = generate_answer(self.llm, question, [
            f"[{titles.get(e.passage_id, e.passage_id)}] {e.text}" for e in retrieval.evidence
        ], retrieval)
        return SentenceAnswer(question, text, AnswerMode.LLM, retrieval, citations)


_CONNECTORS = frozenset(["of", "the", "for", "de", "la", "le", "von", "van", "in", "on", "at", "to", "a", "an"])
_QUESTION_WORDS = frozenset(["what", "which", "who", "whom", "whose", "where", "when", "why", "how",
                             "is", "are", "was", "were", "do", "does", "did", "the", "a", "an", "in",
                             "on", "of", "for", "and", "or", "both", "has", "have", "had", "can"])
_CAPWORD = r"(?:[A-Z0-9][\w'.&-]*)"
_SPAN = re.compile(rf"{_CAPWORD}(?:\s+(?:(?:{'|'.join(sorted(_CONNECTORS))})\s+)*{_CAPWORD})*")
_QUOTED = re.compile(r"[\"\u201c]([^\"\u201d]{2,80})[\"\u201d]")
# Not _TOKEN: that name is count_tokens' pattern (words and punctuation); rebinding it here made
# every context-token figure count lower-case words only (~18 % low, issue 28).
_WORD = re.compile(r"[a-z0-9]+")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


def _facet_words(facet: str) -> list[str]:
    return [w for w in _WORD.findall(facet.lower()) if w not in _CONNECTORS and len(w) > 1]


def _covers(words: set[str], facet: str) -> bool:
    """The facet's content words all appear (two thirds of them for a facet of four or more)."""
    need = _facet_words(facet)
    if not need:
        return False
    hit = sum(w in words for w in need)
    return hit == len(need) or (len(need) >= 4 and hit * 3 >= 2 * len(need))


def question_facets(question: str) -> list[str]:
    """The entities a question names: quoted titles and capitalised spans ("Arthur's Magazine",
    "First for Women", "Scott Derrickson"), question words dropped, in order, without repeats.

    Each side of a comparison is one facet; so is the entity of each sub-question of a bridge
    question. Refinement keeps an anchor for each of them.
    """
    found: dict[str, None] = {}
    for m in _QUOTED.finditer(question):
        found.setdefault(m.group(1).strip(), None)
    for m in _SPAN.finditer(question):
        words = m.group(0).split()
        while words and words[0].lower().strip("'") in _QUESTION_WORDS:
            words = words[1:]
        span = " ".join(words).rstrip(".,?!'")
        if span and _facet_words(span) and not any(span in q for q in found):
            found.setdefault(span, None)
    return list(found)


_NO_PAREN = re.compile(r"\s*\([^)]*\)")
_PHRASE_MIN = 4  # a shorter title ("Dbm", "Air") names too many unrelated sentences


def name_keys(text: str, *, max_words: int = 6) -> set[str]:
    """The entity keys (``hopgraph.loaders.sentences.entity_key``, the form topic keys are stored
    in) of every quoted span and every run of up to ``max_words`` words inside a capitalised span
    of ``text``: "Argentine player Sergio Agüero was given" names 'sergio aguero' and
    'argentine'. Keys shorter than three letters are left out."""
    spans = {m.group(1) for m in _QUOTED.finditer(text)}
    for m in _SPAN.finditer(text):
        words = m.group(0).split()
        for i in range(len(words)):
            spans.update(" ".join(words[i:j]) for j in range(i + 1, min(len(words), i + max_words) + 1))
    return {k for span in spans if len(k := entity_key(span)) >= 3}


def link_seed(anchor: SentenceHit, titles: dict[str, str]) -> LinkSeed:
    """A kept anchor as a title-link seed: the names its sentence holds, its own title's key and
    its title (without a parenthetical) as a fulltext phrase ("" when shorter than four letters)."""
    title = titles.get(anchor.passage_id, "") or anchor.title
    bare = _NO_PAREN.sub("", title).replace('"', " ").replace("\\", " ").strip()
    phrase = f'"{bare}"' if len(bare) >= _PHRASE_MIN else ""
    return LinkSeed(anchor.id, anchor.passage_id, tuple(sorted(name_keys(anchor.text))),
                    entity_key(title), phrase)


def generate_answer(llm: ChatModel, question: str, evidence: Sequence[str],
                    account: SentenceRetrieval | None = None) -> str:
    """Ask the LLM for a short answer from numbered evidence lines (also used by baselines)."""
    listing = "\n".join(f"{i + 1}. {line}" for i, line in enumerate(evidence)) or "(none)"
    reply = llm.complete(
        [{"role": "system", "content": ANSWER_SYSTEM},
         {"role": "user", "content": ANSWER_USER.format(evidence=listing, question=question)}],
        max_tokens=32, temperature=0.0,
    )
    if account is not None:
        account.llm_calls += 1
        account.prompt_tokens += reply.prompt_tokens
        account.completion_tokens += reply.completion_tokens
    return reply.text.strip().split("\n")[0].strip()
