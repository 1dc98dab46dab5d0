// purpose: Upsert rule-extracted SUPPLEMENTS edges, one per (source, target, method, origin); missing ends become Placeholders.
// mode: write
// param rows: list<map> -- one map per edge {source, source_kind: 'unit'|'document', source_doc, target, target_kind, target_doc, method, evidence, effective_date, origin: 'text'|'codification'|'annotation', written_by: id of the document whose load writes it, date_from_doc: the document whose own start date effective_date is (null: a date stated for the provision), edits: [old, new, ...] phrase edits or null}
// returns: count
UNWIND $rows AS row
MERGE (s:LegalNode {id: row.source})
  ON CREATE SET s:Placeholder, s.kind = row.source_kind, s.doc_id = row.source_doc
MERGE (t:LegalNode {id: row.target})
  ON CREATE SET t:Placeholder, t.kind = row.target_kind, t.doc_id = row.target_doc
MERGE (s)-[r:SUPPLEMENTS {method: row.method, origin: row.origin}]->(t)
SET r.evidence = row.evidence, r.effective_date = row.effective_date,
    r.date_from_doc = row.date_from_doc, r.edits = row.edits,
    // the documents that wrote this edge (a re-load of one takes its edges out first)
    r.written_by = apoc.coll.sort(apoc.coll.toSet(coalesce(r.written_by, []) + row.written_by))
RETURN count(r) AS count
