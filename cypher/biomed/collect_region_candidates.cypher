// purpose: ReGraM candidate triplets around linked entities, weighted by the domain relation weights; per-entity cap bounds hub work (highest weight first) and the true degree reports truncation. Returns the edge's stored triplet embedding when it was made with the given key (null otherwise, or when the key is null).
// mode: read
// param entity_ids: list<string> -- linked (and expanded) entity ids
// param weights: map -- relation type -> weight w_r for the predicted domain
// param default_weight: float -- weight of a relation type missing from the map
// param per_entity_limit: int -- at most this many candidate edges per entity
// param embedding_key: string|null -- model|dimension|verbalisation key of usable stored vectors; null asks for none
// returns: seed_id, degree, head_id, head, head_type, relation, tail_id, tail, tail_type, weight, embedding
UNWIND $entity_ids AS eid
MATCH (e:BioEntity {id: eid})
WITH e, COUNT { (e)--() } AS degree
CALL (e) {
  MATCH (e)-[r]-(o:BioEntity)
  WITH r, o, coalesce($weights[type(r)], $default_weight) AS w
  ORDER BY w DESC, o.id
  LIMIT $per_entity_limit
  RETURN startNode(r) AS h, type(r) AS rel, endNode(r) AS t, w,
         CASE WHEN r.embedding_key = $embedding_key THEN r.embedding END AS embedding
}
RETURN e.id AS seed_id, degree, h.id AS head_id, h.name AS head, h.node_type AS head_type,
       rel AS relation, t.id AS tail_id, t.name AS tail, t.node_type AS tail_type, w AS weight,
       embedding
