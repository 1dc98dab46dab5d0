// purpose: Derive valid_to and status of every UnitVersion: it ends when the next version of the same target starts, or when the target is repealed or its document replaced.
// mode: write
// returns: count
MATCH (v:UnitVersion)-[:VERSION_OF]->(t)
CALL (v, t) {
  OPTIONAL MATCH (w:UnitVersion)-[:VERSION_OF]->(t)
  WHERE w <> v AND (w.valid_from > v.valid_from OR (w.valid_from = v.valid_from AND w.id > v.id))
  RETURN min(w.valid_from) AS next_from
}
CALL (t) {
  OPTIONAL MATCH (t)<-[r:REPEALS]-()
  RETURN min(r.effective_date) AS repealed
}
CALL (t) {
  OPTIONAL MATCH (d:LegalNode {id: t.doc_id})<-[r:REPLACES|REPEALS]-() WHERE d:Document
  RETURN min(r.effective_date) AS doc_ended
}
WITH v, next_from, repealed, doc_ended,
  reduce(m = null, x IN [next_from, repealed, doc_ended] |
    CASE WHEN x IS NULL THEN m WHEN m IS NULL OR x < m THEN x ELSE m END) AS ended
SET v.valid_to = ended,
    v.status = CASE
      WHEN next_from IS NOT NULL AND next_from = ended THEN 'amended'
      WHEN repealed IS NOT NULL AND repealed = ended THEN 'repealed'
      WHEN doc_ended IS NOT NULL THEN 'replaced'
      ELSE 'in_force' END
RETURN count(v) AS count
