// purpose: Path expansion in one round trip: up to four breadth-first hops from the kept anchors (the hop of sentence/expand_frontier, unrolled), with the reasoner's path scoring, revisit rule and expansion limit applied in the query.
// mode: read
// param seeds: list<map> -- the kept anchors, {id, score}
// param embedding: list<float> -- the question's vector
// param beam: int -- neighbours kept per frontier node and hop
// param decay: float -- a path's score: decay * similarity + (1 - decay) * its parent's score
// param expansion_limit: int -- at most this many sentences (topic nodes not counted) are added
// param max_hops: int -- hops to run, at most 4 (the hops written out below)
// param links: list<map> -- title-link seeds, one per kept anchor, {id, passage_id, keys, own, phrase} (see sentence/find_title_links)
// param link_beam: int -- title-linked sentences kept per seed and direction
// returns: found, hops, linked
// found: the new paths in the order they were taken, each {id, source, nodes, relations, score,
// kind, passage_id, position, text, title}; hops: how many hops ran; linked: the title links
// (cypher/sentence/_title_links), outside the hops' expansion limit.
WITH [s IN $seeds | {id: s.id, nodes: [s.id], relations: [], score: s.score}] AS frontier,
     [s IN $seeds | s.id] AS visited, 0 AS added, 0 AS hops, [] AS found
// include: _expand_hop
// include: _expand_hop
// include: _expand_hop
// include: _expand_hop
// include: _title_links
RETURN found, hops, linked
