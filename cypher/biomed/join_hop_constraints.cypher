// purpose: Multi-hop join on the shared answer variable x: the entities (of the answer types) joined to the anchor of every hop constraint by an edge of one of that hop's relation types, each with its chain of triplets (the best-weighted edge per hop), ranked by the chain's summed domain weight. The first constraint should be the one with the rarest anchor (it drives the expansion).
// mode: read
// param constraints: list<map> -- one per hop constraint {hop: int, anchor_id: string, relations: list<string>} ([''] = any relation type)
// param answer_types: list<string> -- node_type values the answer may have ([''] = any type)
// param weights: map -- relation type -> weight w_r for the predicted domain
// param default_weight: float -- weight of a relation type missing from the map
// param limit: int -- at most this many joined entities
// returns: id, name, node_type, score, chain
WITH $constraints AS cs, [c IN $constraints | c.anchor_id] AS anchors
MATCH (:BioEntity {id: cs[0].anchor_id})-[r0]-(x:BioEntity)
WHERE (cs[0].relations = [''] OR type(r0) IN cs[0].relations)
  AND ($answer_types = [''] OR x.node_type IN $answer_types)
  AND NOT x.id IN anchors
WITH DISTINCT x, cs
WHERE all(c IN cs WHERE EXISTS {
  MATCH (x)-[r]-(:BioEntity {id: c.anchor_id})
  WHERE c.relations = [''] OR type(r) IN c.relations
})
CALL (x, cs) {
  UNWIND cs AS c
  MATCH (x)-[r]-(:BioEntity {id: c.anchor_id})
  WHERE c.relations = [''] OR type(r) IN c.relations
  WITH c, r, coalesce($weights[type(r)], $default_weight) AS w
  ORDER BY c.hop, w DESC, type(r)
  WITH c, collect({r: r, w: w})[0] AS best
  WITH c, best.r AS r, best.w AS w
  ORDER BY c.hop
  RETURN collect({hop: c.hop, head_id: startNode(r).id, head: startNode(r).name,
                  head_type: startNode(r).node_type, relation: type(r), tail_id: endNode(r).id,
                  tail: endNode(r).name, tail_type: endNode(r).node_type, weight: w}) AS chain,
         sum(w) AS score
}
RETURN x.id AS id, x.name AS name, x.node_type AS node_type, score, chain
ORDER BY score DESC, name
LIMIT $limit
