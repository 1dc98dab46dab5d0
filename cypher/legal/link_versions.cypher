// purpose: Upsert (version)-[:VERSION_OF]->(target) for new wording enacted by an amendment; a target not loaded yet becomes a Placeholder.
// mode: write
// param rows: list<map> -- one map per version {version, target, target_doc}
// returns: count
UNWIND $rows AS row
MATCH (v:LegalNode {id: row.version})
MERGE (t:LegalNode {id: row.target})
  ON CREATE SET t:Placeholder, t.kind = 'unit', t.doc_id = row.target_doc
MERGE (v)-[r:VERSION_OF]->(t)
RETURN count(r) AS count
