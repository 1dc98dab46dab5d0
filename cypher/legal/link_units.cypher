// purpose: Upsert containment edges (Document or unit)-[:CONTAINS]->(unit); a missing parent becomes a Placeholder.
// mode: write
// param rows: list<map> -- one map per edge {parent, child, parent_kind: 'unit'|'document', parent_doc}
// returns: count
UNWIND $rows AS row
MATCH (c:LegalNode {id: row.child})
MERGE (p:LegalNode {id: row.parent})
  ON CREATE SET p:Placeholder, p.kind = row.parent_kind, p.doc_id = row.parent_doc
MERGE (p)-[r:CONTAINS]->(c)
RETURN count(r) AS count
