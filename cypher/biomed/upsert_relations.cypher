// purpose: Merge typed edges of one relation type (a BioRel value, validated in Python) in their stored direction; an existing edge is kept, so both PrimeKG directions and repeated loads give one edge. apoc.merge.relationship plans its MERGE with the concrete type; a dynamic-type MERGE here got a cached plan that scans all relationships per row once the graph grows.
// mode: write
// param rel_type: string -- a BioRel value
// param rows: list<map> -- {head, tail, relation, display_relation, origin}
// returns: count
UNWIND $rows AS row
MATCH (a:BioEntity {id: row.head})
MATCH (b:BioEntity {id: row.tail})
CALL apoc.merge.relationship(a, $rel_type, {},
  {relation: row.relation, display_relation: row.display_relation, origin: row.origin}, b, {})
YIELD rel
RETURN count(rel) AS count
