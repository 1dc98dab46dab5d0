// purpose: Upsert rule-extracted legal relations (AMENDS, SUPPLEMENTS, REPLACES, REPEALS, REFERS_TO, GUIDES, BASED_ON); missing ends become Placeholders. One edge per (source, type, target, method, origin).
// mode: write
// param rows: list<map> -- one map per edge {source, source_kind, source_doc, target, target_kind: 'unit'|'document', target_doc, type, method, evidence, effective_date, origin: 'text'|'codification'|'annotation'}
// returns: count
UNWIND $rows AS row
MERGE (s:LegalNode {id: row.source})
  ON CREATE SET s:Placeholder, s.kind = row.source_kind, s.doc_id = row.source_doc
MERGE (t:LegalNode {id: row.target})
  ON CREATE SET t:Placeholder, t.kind = row.target_kind, t.doc_id = row.target_doc
FOREACH (_ IN CASE WHEN row.type = 'AMENDS' THEN [1] ELSE [] END |
  MERGE (s)-[r:AMENDS {method: row.method, origin: row.origin}]->(t)
  SET r.evidence = row.evidence, r.effective_date = row.effective_date)
FOREACH (_ IN CASE WHEN row.type = 'SUPPLEMENTS' THEN [1] ELSE [] END |
  MERGE (s)-[r:SUPPLEMENTS {method: row.method, origin: row.origin}]->(t)
  SET r.evidence = row.evidence, r.effective_date = row.effective_date)
FOREACH (_ IN CASE WHEN row.type = 'REPLACES' THEN [1] ELSE [] END |
  MERGE (s)-[r:REPLACES {method: row.method, origin: row.origin}]->(t)
  SET r.evidence = row.evidence, r.effective_date = row.effective_date)
FOREACH (_ IN CASE WHEN row.type = 'REPEALS' THEN [1] ELSE [] END |
  MERGE (s)-[r:REPEALS {method: row.method, origin: row.origin}]->(t)
  SET r.evidence = row.evidence, r.effective_date = row.effective_date)
FOREACH (_ IN CASE WHEN row.type = 'REFERS_TO' THEN [1] ELSE [] END |
  MERGE (s)-[r:REFERS_TO {method: row.method, origin: row.origin}]->(t)
  SET r.evidence = row.evidence, r.effective_date = row.effective_date)
FOREACH (_ IN CASE WHEN row.type = 'GUIDES' THEN [1] ELSE [] END |
  MERGE (s)-[r:GUIDES {method: row.method, origin: row.origin}]->(t)
  SET r.evidence = row.evidence, r.effective_date = row.effective_date)
FOREACH (_ IN CASE WHEN row.type = 'BASED_ON' THEN [1] ELSE [] END |
  MERGE (s)-[r:BASED_ON {method: row.method, origin: row.origin}]->(t)
  SET r.evidence = row.evidence, r.effective_date = row.effective_date)
FOREACH (_ IN CASE WHEN row.type = 'CODIFIES' THEN [1] ELSE [] END |
  MERGE (s)-[r:CODIFIES {method: row.method, origin: row.origin}]->(t)
  SET r.evidence = row.evidence, r.effective_date = row.effective_date)
RETURN count(*) AS count
