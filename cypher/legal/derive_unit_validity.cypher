// purpose: Derive valid_to, valid_to_unknown and status of original units touched by events (versions, repeals of the unit or of a unit containing it, document replacement or repeal, insertion); the loader writes status 'in_force' for the rest. A first version whose start is unknown counts from its not_before (valid_to_unknown = true: possibly superseded from then on); one with neither date ends nothing. A unit whose own text a later document inserts (an inserted version: the amended text is a copy updated after the insertion) was never in force in that text: its span is empty (valid_to = valid_from, status 'supplemented'), the inserted version holds from the insertion's date. Deterministic, so load order never matters.
// mode: write
// param doc_ids: list<string>|null -- the documents to derive (legal/list_derive_scope); null: the whole graph
// returns: count
CALL () {
  MATCH ()-[:VERSION_OF|REPEALS]->(t:LegalUnit)
  RETURN DISTINCT t
  UNION
  MATCH ()-[:REPEALS]->(:LegalUnit)-[:CONTAINS*1..6]->(t:LegalUnit)
  RETURN DISTINCT t
  UNION
  MATCH (d:Document)<-[:REPLACES|REPEALS]-()
  MATCH (t:LegalUnit {doc_id: d.id})
  RETURN t
  UNION
  MATCH (t:LegalUnit) WHERE t.supplemented_by IS NOT NULL
  RETURN t
}
WITH t WHERE NOT t:UnitVersion AND ($doc_ids IS NULL OR t.doc_id IN $doc_ids)
CALL (t) {
  OPTIONAL MATCH (v:UnitVersion)-[:VERSION_OF]->(t)
  WITH v, coalesce(v.valid_from_unknown, false) AND v.valid_from IS NULL AS unknown
  WITH v, unknown, CASE WHEN unknown THEN v.not_before ELSE v.valid_from END AS start
  ORDER BY start, unknown
  RETURN [x IN collect(CASE WHEN start IS NOT NULL THEN {d: start, unknown: unknown} END)][0]
      AS first, count(v) AS versions
}
CALL (t) {
  // a repeal of the unit or of a unit containing it (an article repealed ends its clauses)
  OPTIONAL MATCH (t)<-[:CONTAINS*0..6]-(:LegalUnit)<-[r:REPEALS]-()
  RETURN min(r.effective_date) AS repealed
}
CALL (t) {
  OPTIONAL MATCH (iv:UnitVersion)-[:VERSION_OF]->(t) WHERE coalesce(iv.inserted, false)
  RETURN count(iv) > 0 AS copy_of_inserted
}
CALL (t) {
  OPTIONAL MATCH (d:LegalNode {id: t.doc_id})<-[r:REPLACES|REPEALS]-() WHERE d:Document
  RETURN min(r.effective_date) AS doc_ended
}
WITH t, first, first.d AS first_version, versions, repealed, doc_ended, copy_of_inserted,
  reduce(m = null, x IN [first.d, repealed, doc_ended] |
    CASE WHEN x IS NULL THEN m WHEN m IS NULL OR x < m THEN x ELSE m END) AS ended
SET t.valid_to = CASE WHEN copy_of_inserted AND t.valid_from IS NOT NULL THEN t.valid_from
      ELSE ended END,
    t.valid_to_unknown = NOT copy_of_inserted AND first_version IS NOT NULL
      AND first_version = ended AND first.unknown,
    t.status = CASE
      WHEN copy_of_inserted THEN 'supplemented'
      WHEN repealed IS NOT NULL THEN 'repealed'
      WHEN doc_ended IS NOT NULL THEN 'replaced'
      WHEN versions > 0 THEN 'amended'
      WHEN t.supplemented_by IS NOT NULL THEN 'supplemented'
      ELSE 'in_force' END
RETURN count(t) AS count
