// purpose: Derive valid_to and status of original units touched by events (versions, repeals, document replacement or repeal, insertion); the loader writes status 'in_force' for the rest. Deterministic, so load order never matters.
// mode: write
// returns: count
CALL () {
  MATCH ()-[:VERSION_OF|REPEALS]->(t:LegalUnit)
  RETURN DISTINCT t
  UNION
  MATCH (d:Document)<-[:REPLACES|REPEALS]-()
  MATCH (t:LegalUnit {doc_id: d.id})
  RETURN t
  UNION
  MATCH (t:LegalUnit) WHERE t.supplemented_by IS NOT NULL
  RETURN t
}
WITH t WHERE NOT t:UnitVersion
CALL (t) {
  OPTIONAL MATCH (v:UnitVersion)-[:VERSION_OF]->(t)
  RETURN min(v.valid_from) AS first_version, count(v) AS versions
}
CALL (t) {
  OPTIONAL MATCH (t)<-[r:REPEALS]-()
  RETURN min(r.effective_date) AS repealed
}
CALL (t) {
  OPTIONAL MATCH (d:LegalNode {id: t.doc_id})<-[r:REPLACES|REPEALS]-() WHERE d:Document
  RETURN min(r.effective_date) AS doc_ended
}
WITH t, first_version, versions, repealed, doc_ended,
  reduce(m = null, x IN [first_version, repealed, doc_ended] |
    CASE WHEN x IS NULL THEN m WHEN m IS NULL OR x < m THEN x ELSE m END) AS ended
SET t.valid_to = ended,
    t.status = CASE
      WHEN repealed IS NOT NULL THEN 'repealed'
      WHEN doc_ended IS NOT NULL THEN 'replaced'
      WHEN versions > 0 THEN 'amended'
      WHEN t.supplemented_by IS NOT NULL THEN 'supplemented'
      ELSE 'in_force' END
RETURN count(t) AS count
