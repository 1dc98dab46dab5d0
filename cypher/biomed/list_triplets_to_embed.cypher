// purpose: One page of the triplet-embedding pass: the next head entities by id after a cursor, each with its outgoing edges that have no stored embedding for the given key (a head without such edges comes back once with a null edge_id, so the cursor still moves on).
// mode: read
// param after: string -- the last head_id of the previous page ('' for the first page)
// param node_limit: int -- head entities per page
// param embedding_key: string -- model|dimension|verbalisation key the stored vectors must carry
// returns: head_id, edge_id, head, relation, tail
MATCH (h:BioEntity)
WHERE h.id > $after
WITH h ORDER BY h.id LIMIT $node_limit
OPTIONAL MATCH (h)-[r]->(t:BioEntity)
WHERE coalesce(r.embedding_key, '') <> $embedding_key
RETURN h.id AS head_id, elementId(r) AS edge_id, h.name AS head, type(r) AS relation,
       t.name AS tail
ORDER BY head_id
