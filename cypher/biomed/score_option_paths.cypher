// purpose: Evidence for MCQ options: the paths of one to three edges that join an option's entity to an entity linked from the question (the first and last edges touch an option and a question entity, so each path lies within the question's neighbourhood). A path scores the product of its domain weights w_r, times $hop_decay for every edge after the first, divided by the log-degree of each middle entity (Adamic-Adar: a hub joins weakly). Three-edge paths are searched only when $max_edges >= 3. Only the best $max_paths paths per option entity and question entity are returned.
// mode: read
// param options: list<map> -- {letter: string, id: string} one per entity linked from an option
// param stem_ids: list<string> -- entities linked from the question (not from the options)
// param weights: map -- relation type -> weight w_r for the predicted domain
// param default_weight: float -- weight of a relation type missing from the map
// param hop_decay: float -- factor per edge after the first (a shorter path counts more)
// param max_edges: int -- 2 or 3: the longest path searched
// param max_paths: int -- best paths kept per (option entity, question entity)
// returns: letter, option_id, stem_id, score, path
UNWIND $options AS o
MATCH (x:BioEntity {id: o.id})
CALL (x) {
  MATCH (x)-[r]-(s:BioEntity)
  WHERE s.id IN $stem_ids AND s <> x
  RETURN s.id AS stem_id, coalesce($weights[type(r)], $default_weight) AS score, [r] AS rels
  UNION ALL
  MATCH (x)-[r1]-(m:BioEntity)-[r2]-(s:BioEntity)
  WHERE s.id IN $stem_ids AND s <> x AND m <> x AND NOT m.id IN $stem_ids
  WITH s, r1, r2, COUNT { (m)--() } AS degree
  RETURN s.id AS stem_id,
         $hop_decay * coalesce($weights[type(r1)], $default_weight)
           * coalesce($weights[type(r2)], $default_weight) / log(2.0 + degree) AS score,
         [r1, r2] AS rels
  UNION ALL
  // Three edges meet in the middle: the question entities' neighbours are collected once, and
  // the option's two-edge walks are kept only where they end on one of them (a walk from the
  // option through two hubs alone reached 15 s on the subset).
  OPTIONAL MATCH (s0:BioEntity)--(n:BioEntity)
  WHERE $max_edges >= 3 AND s0.id IN $stem_ids AND n <> x AND NOT n.id IN $stem_ids
  WITH x, collect(DISTINCT n) AS near
  MATCH (x)-[r1]-(m1:BioEntity)-[r2]-(m2:BioEntity)
  WHERE m2 IN near AND m1 <> x AND m1 <> m2 AND NOT m1.id IN $stem_ids
  MATCH (m2)-[r3]-(s:BioEntity)
  WHERE s.id IN $stem_ids AND s <> x
  WITH s, r1, r2, r3, COUNT { (m1)--() } AS d1, COUNT { (m2)--() } AS d2
  RETURN s.id AS stem_id,
         $hop_decay * $hop_decay * coalesce($weights[type(r1)], $default_weight)
           * coalesce($weights[type(r2)], $default_weight)
           * coalesce($weights[type(r3)], $default_weight) / (log(2.0 + d1) * log(2.0 + d2)) AS score,
         [r1, r2, r3] AS rels
}
WITH o, x, stem_id, score, rels
ORDER BY score DESC
WITH o, x, stem_id, collect({score: score, rels: rels})[..$max_paths] AS best
UNWIND best AS b
RETURN o.letter AS letter, x.id AS option_id, stem_id, b.score AS score,
       [r IN b.rels | {head_id: startNode(r).id, head: startNode(r).name,
                       head_type: startNode(r).node_type, relation: type(r),
                       tail_id: endNode(r).id, tail: endNode(r).name,
                       tail_type: endNode(r).node_type,
                       weight: coalesce($weights[type(r)], $default_weight)}] AS path
