// purpose: Derive valid_to and status of every original unit from the events in the graph (versions, repeals, document replacement or repeal); deterministic, so load order never matters.
// mode: write
// returns: count
MATCH (t:LegalUnit)
WHERE NOT t:UnitVersion
CALL (t) {
  OPTIONAL MATCH (v:UnitVersion)-[:VERSION_OF]->(t)
  RETURN min(v.valid_from) AS first_version, count(v) AS versions
}
CALL (t) {
  OPTIONAL MATCH (t)<-[r:REPEALS]-()
  RETURN min(r.effective_date) AS repealed
}
CALL (t) {
  OPTIONAL MATCH (d:Document {id: t.doc_id})<-[r:REPLACES|REPEALS]-()
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
