// purpose: Benchmark-side writer (generated corpora): upsert UnitVersion nodes (new wording of a unit) with VERSION_OF to their target.
// mode: write
// param rows: list<map> -- {id, target, doc_id, text, text_segmented, embedding, valid_from}
// returns: written
UNWIND $rows AS row
MATCH (t:LegalNode {id: row.target})
MERGE (v:LegalNode {id: row.id})
SET v:LegalUnit:UnitVersion, v.doc_id = row.doc_id, v.level = t.level, v.number = t.number,
  v.path = t.path, v.text = row.text, v.text_segmented = row.text_segmented,
  v.embedding = row.embedding, v.valid_from = row.valid_from
MERGE (v)-[:VERSION_OF]->(t)
RETURN count(*) AS written
