// purpose: The amendment edges (AMENDS, SUPPLEMENTS, REPEALS, REPLACES) from units of one document to units of another, as the graph holds them (the amendment benchmark reads them back).
// mode: read
// param source_doc: string -- id of the amending document
// param target_doc: string -- id of the amended document
// returns: type, source, target, path, method, effective_date
MATCH (s:LegalNode {doc_id: $source_doc})-[r:AMENDS|SUPPLEMENTS|REPEALS|REPLACES]->(t:LegalNode {doc_id: $target_doc})
RETURN type(r) AS type, s.id AS source, t.id AS target,
  substring(t.id, size($target_doc) + 1) AS path, r.method AS method,
  r.effective_date AS effective_date
ORDER BY target, type, method
