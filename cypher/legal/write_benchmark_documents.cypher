// purpose: Benchmark-side writer (pre-split corpora such as ALQAC): upsert Document nodes.
// mode: write
// param rows: list<map> -- {id, number, doc_type, title, issuer}
// returns: written
UNWIND $rows AS row
MERGE (d:LegalNode {id: row.id})
SET d:Document, d.number = row.number, d.doc_type = row.doc_type, d.title = row.title,
  d.issuer = row.issuer
RETURN count(*) AS written
