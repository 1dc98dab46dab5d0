// purpose: Region-restricted lookup: does the KG hold an edge of the given type between two entities, both inside the region's node set V_q?
// mode: read
// param region_ids: list<string> -- ids of V_q (the hard boundary)
// param head_id: string -- hypothesised head entity id
// param relation: string -- hypothesised relation type
// param tail_id: string -- hypothesised tail entity id
// returns: in_region, found
WITH $head_id IN $region_ids AND $tail_id IN $region_ids AS in_region
OPTIONAL MATCH (h:BioEntity {id: $head_id})-[r]-(t:BioEntity {id: $tail_id})
WHERE in_region AND type(r) = $relation
RETURN in_region, count(r) > 0 AS found
