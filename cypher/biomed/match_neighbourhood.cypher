// purpose: Plain one-hop neighbourhood of entities (latency baseline for region construction).
// mode: read
// param entity_ids: list<string> -- entity ids
// returns: seed_id, relation, other_id, other
UNWIND $entity_ids AS eid
MATCH (e:BioEntity {id: eid})-[r]-(o:BioEntity)
RETURN e.id AS seed_id, type(r) AS relation, o.id AS other_id, o.name AS other
