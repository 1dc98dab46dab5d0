// purpose: Record references too vague to resolve as UnresolvedReference nodes, never guessing a target.
// mode: write
// param rows: list<map> -- one map per reference {source, id, text, method}
// returns: count
UNWIND $rows AS row
MATCH (s:LegalNode {id: row.source})
MERGE (x:UnresolvedReference {id: row.id})
SET x.text = row.text, x.method = row.method
MERGE (s)-[r:HAS_UNRESOLVED]->(x)
RETURN count(r) AS count
