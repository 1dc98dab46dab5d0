// purpose: Benchmark-side writer (pre-split corpora such as ALQAC): upsert documents' units as LegalUnit + Article/Clause with containment, following the legal graph contract.
// mode: write
// param rows: list<map> -- {id, doc_id, parent_id, level ('Article'|'Clause'), number, path, heading, text, text_segmented, embedding, ordinal, citation}
// returns: written
UNWIND $rows AS row
MERGE (u:LegalNode {id: row.id})
SET u:LegalUnit, u.doc_id = row.doc_id, u.level = row.level, u.number = row.number,
  u.path = row.path, u.heading = row.heading, u.text = row.text,
  u.text_segmented = row.text_segmented, u.embedding = row.embedding, u.ordinal = row.ordinal,
  u.citation = row.citation
FOREACH (_ IN CASE WHEN row.level = 'Article' THEN [1] ELSE [] END | SET u:Article)
FOREACH (_ IN CASE WHEN row.level = 'Clause' THEN [1] ELSE [] END | SET u:Clause)
WITH u, row
MATCH (p:LegalNode {id: row.parent_id})
MERGE (p)-[:CONTAINS]->(u)
RETURN count(*) AS written
