// purpose: Derive valid_to, valid_to_unknown and status of every UnitVersion: it ends when the next version of the same target starts, or when the target is repealed or its document replaced. A version whose start is unknown (valid_from_unknown) counts from not_before (its amending document's issue date): the version it follows then ends at that date at the latest, with valid_to_unknown = true (possibly superseded from then on); an unknown start with no not_before ends nothing.
// mode: write
// returns: count
MATCH (v:UnitVersion)-[:VERSION_OF]->(t)
WITH v, t, coalesce(v.valid_from_unknown, false) AND v.valid_from IS NULL AS v_unknown
WITH v, t, CASE WHEN v_unknown THEN v.not_before ELSE v.valid_from END AS v_start
CALL (v, t, v_start) {
  OPTIONAL MATCH (w:UnitVersion)-[:VERSION_OF]->(t)
  WHERE w <> v
  WITH w, coalesce(w.valid_from_unknown, false) AND w.valid_from IS NULL AS w_unknown
  WITH w, w_unknown, CASE WHEN w_unknown THEN w.not_before ELSE w.valid_from END AS w_start
  WHERE w_start IS NOT NULL AND v_start IS NOT NULL
    AND (w_start > v_start OR (w_start = v_start AND w.id > v.id))
  WITH w_start, w_unknown ORDER BY w_start, w_unknown
  RETURN head(collect({d: w_start, unknown: w_unknown})) AS next
}
CALL (t) {
  OPTIONAL MATCH (t)<-[r:REPEALS]-()
  RETURN min(r.effective_date) AS repealed
}
CALL (t) {
  OPTIONAL MATCH (d:LegalNode {id: t.doc_id})<-[r:REPLACES|REPEALS]-() WHERE d:Document
  RETURN min(r.effective_date) AS doc_ended
}
WITH v, next, next.d AS next_from, repealed, doc_ended,
  reduce(m = null, x IN [next.d, repealed, doc_ended] |
    CASE WHEN x IS NULL THEN m WHEN m IS NULL OR x < m THEN x ELSE m END) AS ended
SET v.valid_to = ended,
    v.valid_to_unknown = next_from IS NOT NULL AND next_from = ended AND next.unknown,
    v.status = CASE
      WHEN next_from IS NOT NULL AND next_from = ended THEN 'amended'
      WHEN repealed IS NOT NULL AND repealed = ended THEN 'repealed'
      WHEN doc_ended IS NOT NULL THEN 'replaced'
      ELSE 'in_force' END
RETURN count(v) AS count
