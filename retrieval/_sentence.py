"""Typed retrieval over the sentence graph: thin functions over ``cypher/sentence/*.cypher``.

Each function runs one registered query and maps its rows to a frozen dataclass. The path
expansion hop (:func:`expand_frontier`) does its neighbour selection in Cypher; callers only
decide which returned nodes to keep.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hopgraph.core.errors import RetrievalError
from hopgraph.db import QueryRunner

DEFAULT_ANCHOR_K = 20


@dataclass(frozen=True)
class SentenceHit:
    """A sentence returned by vector search."""

    id: str
    passage_id: str
    position: int
    role: str
    text: str
    score: float
    title: str = ""  # the passage's title ("" when the row has none)


@dataclass(frozen=True)
class Neighbour:
    """A node reached in one hop from ``source``, with the edge that reached it."""

    source: str
    id: str
    kind: str  # 'topic', 'core' or 'supplementary'
    passage_id: str | None
    position: int | None
    text: str
    edge: str
    relation: str | None
    method: str | None
    similarity: float
    title: str = ""  # the passage's title ("" for a topic node or a row without one)


@dataclass(frozen=True)
class ExpandedPath:
    """A path that :func:`expand_paths` grew from a kept anchor: its nodes and edges in order,
    its score, and the node it ends at."""

    id: str
    source: str  # the node it was reached from
    nodes: tuple[str, ...]
    relations: tuple[str, ...]  # '<EDGE TYPE>:<relation>' per edge
    score: float
    kind: str  # 'topic', 'core' or 'supplementary'
    passage_id: str | None
    position: int | None
    text: str
    title: str = ""


EXPAND_PATHS_MAX_HOPS = 4  # the hops written out in cypher/sentence/expand_paths.cypher


@dataclass(frozen=True)
class LinkSeed:
    """A kept anchor as the start of title links (``cypher/sentence/_title_links``): its id and
    passage, the entity keys of the names its sentence holds (``keys``), its passage title's key
    (``own``, never followed) and that title as a fulltext phrase (``phrase``, "" for none)."""

    id: str
    passage_id: str
    keys: tuple[str, ...]
    own: str
    phrase: str

    def param(self) -> dict[str, object]:
        # never an empty list: a plan is cached per parameter types (CONTRIBUTING, plan cache)
        return {"id": self.id, "passage_id": self.passage_id, "keys": list(self.keys) or [""],
                "own": self.own, "phrase": self.phrase}


_NO_LINKS = LinkSeed("", "", ("",), "", "")


def _linked(rows: Sequence[dict[str, object]]) -> list[Neighbour]:
    out = []
    for r in rows:
        edge, _, relation = str(r["relation"]).partition(":")
        out.append(Neighbour(str(r["source"]), str(r["id"]), str(r["kind"]),
                             None if r["passage_id"] is None else str(r["passage_id"]),
                             None if r["position"] is None else int(str(r["position"])),
                             str(r["text"] or ""), edge, relation, None,
                             float(str(r["similarity"])), str(r.get("title") or "")))
    return out


def find_title_links(runner: QueryRunner, links: Sequence[LinkSeed], embedding: Sequence[float], *,
                     link_beam: int = 2) -> list[Neighbour]:
    """The title links of ``links`` in one round trip (``cypher/sentence/find_title_links``): per
    seed, at most ``link_beam`` sentences of the passages its sentence names by title (edge
    ``TITLE``, relation ``named``) and ``link_beam`` sentences of other passages that name its
    passage's title (relation ``names``), the most question-similar first.

    Raises:
        RetrievalError: ``link_beam`` < 1.
    """
    _check_k(link_beam)
    if not links:
        return []
    rows = runner.read("sentence/find_title_links", links=[x.param() for x in links],
                       embedding=list(embedding), link_beam=link_beam)
    return _linked(rows[0]["linked"]) if rows else []


@dataclass(frozen=True)
class PassageHit:
    """A passage returned by vector search, with its sentence ids in order."""

    id: str
    title: str
    text: str
    score: float
    sentence_ids: tuple[str, ...]


ANN_CANDIDATES = 100  # nearest neighbours the vector index searches for any k up to this


def ann_candidates(k: int) -> int:
    """How many neighbours to ask the approximate vector index for, to keep the best ``k``: the
    index's search is about as wide as the request, and asked for 10 sentences it missed true
    top-10 neighbours that a request for 20 found (HotpotQA, 100 questions: supporting-fact
    recall@10 0.646 against 0.663 for the best 10 of 20)."""
    return max(k, ANN_CANDIDATES)


def _check_k(k: int) -> None:
    if k < 1:
        raise RetrievalError(f"k must be at least 1, got {k}")


def find_anchor_sentences(runner: QueryRunner, embedding: Sequence[float], k: int = DEFAULT_ANCHOR_K) -> list[SentenceHit]:
    """Top-``k`` sentences by cosine similarity (candidate anchors; also the sentence RO baseline).

    Raises:
        RetrievalError: ``k`` < 1.
    """
    _check_k(k)
    rows = runner.read("sentence/find_anchor_sentences", embedding=list(embedding), k=k,
                       candidates=ann_candidates(k))
    return [SentenceHit(r["id"], r["passage_id"], int(r["position"]), r["role"] or "", r["text"],
                        float(r["score"]), r.get("title") or "") for r in rows]


def expand_frontier(
    runner: QueryRunner,
    frontier: Sequence[str],
    embedding: Sequence[float],
    *,
    visited: Sequence[str],
    beam: int,
) -> list[Neighbour]:
    """One breadth-first hop: up to ``beam`` unvisited neighbours per frontier node, best first."""
    if not frontier:
        return []
    _check_k(beam)
    rows = runner.read("sentence/expand_frontier", frontier=list(frontier), visited=list(visited),
                       embedding=list(embedding), beam=beam)
    return [Neighbour(r["source"], r["id"], r["kind"], r["passage_id"], r["position"],
                      r["text"] or "", r["edge"], r["relation"], r["method"], float(r["similarity"]),
                      r.get("title") or "")
            for r in rows]


def expand_paths(
    runner: QueryRunner,
    seeds: Sequence[tuple[str, float]],
    embedding: Sequence[float],
    *,
    beam: int,
    decay: float,
    expansion_limit: int,
    max_hops: int,
) -> tuple[list[ExpandedPath], int]:
    """Breadth-first path expansion from ``seeds`` ((id, score) of the kept anchors) in one round
    trip: each hop keeps the ``beam`` most question-similar unvisited neighbours of every path
    end, scores a path ``decay * similarity + (1 - decay) * parent score``, takes the candidates
    best first (a node reached twice keeps its better path) and stops after ``max_hops`` hops or
    ``expansion_limit`` new sentences. The same paths as :func:`expand_frontier` hop by hop with
    that scoring, without a round trip per hop.

    Returns:
        The new paths in the order they were taken, and how many hops ran.

    Raises:
        RetrievalError: ``beam`` < 1, or ``max_hops`` outside 1..EXPAND_PATHS_MAX_HOPS.
    """
    found, hops, _ = expand_paths_linked(runner, seeds, embedding, (), beam=beam, decay=decay,
                                         expansion_limit=expansion_limit, max_hops=max_hops)
    return found, hops


def expand_paths_linked(
    runner: QueryRunner,
    seeds: Sequence[tuple[str, float]],
    embedding: Sequence[float],
    links: Sequence[LinkSeed],
    *,
    beam: int,
    decay: float,
    expansion_limit: int,
    max_hops: int,
    link_beam: int = 2,
) -> tuple[list[ExpandedPath], int, list[Neighbour]]:
    """:func:`expand_paths` and, in the same round trip, :func:`find_title_links` of ``links``
    (none when empty).

    Returns:
        The new paths in the order they were taken, how many hops ran, and the title links.

    Raises:
        RetrievalError: ``beam`` or ``link_beam`` < 1, or ``max_hops`` outside
            1..EXPAND_PATHS_MAX_HOPS.
    """
    _check_k(beam)
    _check_k(link_beam)
    if not 1 <= max_hops <= EXPAND_PATHS_MAX_HOPS:
        raise RetrievalError(f"max_hops must be in 1..{EXPAND_PATHS_MAX_HOPS}, got {max_hops}")
    if not seeds:
        return [], 0, []
    rows = runner.read("sentence/expand_paths", seeds=[{"id": i, "score": float(s)} for i, s in seeds],
                       embedding=list(embedding), beam=beam, decay=float(decay),
                       expansion_limit=expansion_limit, max_hops=max_hops,
                       links=[x.param() for x in (links or [_NO_LINKS])], link_beam=link_beam)
    if not rows:
        return [], 0, []
    found = [ExpandedPath(p["id"], p["source"], tuple(p["nodes"]), tuple(p["relations"]),
                          float(p["score"]), p["kind"], p["passage_id"], p["position"],
                          p["text"] or "", p.get("title") or "")
             for p in rows[0]["found"]]
    return found, int(rows[0]["hops"]), _linked(rows[0].get("linked") or [])


def find_passages(runner: QueryRunner, embedding: Sequence[float], k: int) -> list[PassageHit]:
    """Top-``k`` passages by cosine similarity (the passage RO baseline).

    Raises:
        RetrievalError: ``k`` < 1.
    """
    _check_k(k)
    rows = runner.read("sentence/find_passages", embedding=list(embedding), k=k,
                       candidates=ann_candidates(k))
    return [PassageHit(r["id"], r["title"] or "", r["text"] or "", float(r["score"]),
                       tuple(r["sentence_ids"])) for r in rows]


def passage_titles(runner: QueryRunner, ids: Sequence[str]) -> dict[str, str]:
    """Passage id -> title."""
    if not ids:
        return {}
    return {r["id"]: r["title"] for r in runner.read("sentence/get_passage_titles", ids=list(ids))}
