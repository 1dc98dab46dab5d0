// purpose: Instructions that name a unit its loaded law does not have: a change edge (or a new wording that is not part of a larger new wording) whose target is still a Placeholder inside a loaded Document; the loader reports each (no unit is made up for it).
// mode: read
// param doc_ids: list<string> -- the documents of the load (as source or as target)
// returns: source, target, type, line
MATCH (s:LegalNode)-[r:AMENDS|REPEALS|REPLACES|VERSION_OF]->(t:Placeholder)
WHERE t.kind = 'unit' AND (coalesce(s.doc_id, s.id) IN $doc_ids OR t.doc_id IN $doc_ids)
  AND (type(r) <> 'VERSION_OF' OR NOT EXISTS { (:UnitVersion)-[:CONTAINS]->(s) })
MATCH (d:LegalNode {id: t.doc_id}) WHERE d:Document
RETURN DISTINCT CASE WHEN type(r) = 'VERSION_OF' THEN s.amended_by ELSE s.id END AS source,
  t.id AS target, type(r) AS type, s.source_line AS line
ORDER BY target, source
LIMIT 500
