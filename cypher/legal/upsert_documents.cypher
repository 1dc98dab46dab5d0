// purpose: Upsert legal documents; a Placeholder with the same id becomes the real Document in place.
// mode: write
// param rows: list<map> -- one map per document {id, props: {number, doc_type, issuer, title, issue_date, effective_date, expiry_date, status_external, source_file, source_format, ...}}
// returns: count
UNWIND $rows AS row
MERGE (d:LegalNode {id: row.id})
SET d:Document, d += row.props
REMOVE d:Placeholder, d.kind, d.doc_id
RETURN count(d) AS count
