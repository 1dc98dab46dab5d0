// purpose: Merge typed edges of one relation type (a BioRel value, validated in Python; dynamic type of Cypher 5.26) in their stored direction; an existing edge is kept, so both PrimeKG directions give one edge.
// mode: write
// param rel_type: string -- a BioRel value
// param rows: list<map> -- {head, tail, relation, display_relation, origin}
// returns: count
UNWIND $rows AS row
MATCH (a:BioEntity {id: row.head})
MATCH (b:BioEntity {id: row.tail})
MERGE (a)-[r:$($rel_type)]->(b)
ON CREATE SET r.relation = row.relation, r.display_relation = row.display_relation,
              r.origin = row.origin
RETURN count(r) AS count
