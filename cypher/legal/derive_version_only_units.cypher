// purpose: Turn a Placeholder that exists only as the target of new wording (a clause or point the amended unit did not have) into a real unit of its loaded document, valid from its first version (its start as that version's: valid_from, or valid_from_unknown with not_before), contained by its parent; deterministic post-load step.
// mode: write
// param doc_ids: list<string>|null -- the documents to derive (legal/list_derive_scope); null: the whole graph
// returns: count
MATCH (p:Placeholder)<-[:VERSION_OF]-(v:UnitVersion)
WHERE $doc_ids IS NULL OR p.doc_id IN $doc_ids
WITH p, v, coalesce(v.valid_from_unknown, false) AND v.valid_from IS NULL AS unknown
WITH p, v, unknown, CASE WHEN unknown THEN v.not_before ELSE v.valid_from END AS start
ORDER BY start, unknown, v.id
WITH p, collect(v)[0] AS v0
MATCH (d:LegalNode {id: p.doc_id})
WHERE d:Document
SET p:LegalUnit, p.level = v0.level, p.number = v0.number, p.path = v0.path,
    p.label = v0.label, p.citation = v0.citation, p.valid_from = v0.valid_from,
    p.valid_from_unknown = v0.valid_from_unknown, p.not_before = v0.not_before,
    p.supplemented_by = v0.amended_by, p.date_from_doc = v0.date_from_doc,
    // made from an instruction that names the unit itself (not a part of a larger new wording):
    // the load report says so (legal/list_missing_targets)
    p.made_from_instruction = NOT EXISTS { (:UnitVersion)-[:CONTAINS]->(v0) }
REMOVE p:Placeholder, p.kind
FOREACH (_ IN CASE WHEN v0.level = 'Article' THEN [1] ELSE [] END | SET p:Article)
FOREACH (_ IN CASE WHEN v0.level = 'Clause' THEN [1] ELSE [] END | SET p:Clause)
FOREACH (_ IN CASE WHEN v0.level = 'Point' THEN [1] ELSE [] END | SET p:Point)
FOREACH (_ IN CASE WHEN v0.level = 'Annex' THEN [1] ELSE [] END | SET p:Annex)
WITH p, v0
CALL (p, v0) {
  MATCH (pv:UnitVersion)-[:CONTAINS]->(v0)
  MATCH (pv)-[:VERSION_OF]->(pt)
  MERGE (pt)-[:CONTAINS]->(p)
}
RETURN count(p) AS count
