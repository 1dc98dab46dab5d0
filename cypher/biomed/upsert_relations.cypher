// purpose: Merge typed edges of one relation type (validated against BioRel in Python) in their stored direction; an existing edge is kept, so both PrimeKG directions give one edge.
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
