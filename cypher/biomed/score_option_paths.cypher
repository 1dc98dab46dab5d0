// purpose: Evidence for MCQ options: the paths of one or two edges that join an option's entity to an entity linked from the question (every edge touches a linked entity, so each path lies in the region's candidate neighbourhood). A path scores the product of its domain weights w_r; a two-edge path is divided by the log-degree of its middle entity (Adamic-Adar), so a hub joins weakly. Only the best $max_paths paths per option entity and question entity are returned.
// mode: read
// param options: list<map> -- {letter: string, id: string} one per entity linked from an option
// param stem_ids: list<string> -- entities linked from the question (not from the options)
// param weights: map -- relation type -> weight w_r for the predicted domain
// param default_weight: float -- weight of a relation type missing from the map
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
         coalesce($weights[type(r1)], $default_weight) * coalesce($weights[type(r2)], $default_weight)
           / log(2.0 + degree) AS score,
         [r1, r2] AS rels
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
