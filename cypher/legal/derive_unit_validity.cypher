// purpose: Derive valid_to, valid_to_unknown and status of original units touched by events (versions, repeals, document replacement or repeal, insertion); the loader writes status 'in_force' for the rest. A first version whose start is unknown counts from its not_before (valid_to_unknown = true: possibly superseded from then on); one with neither date ends nothing. Deterministic, so load order never matters.
// mode: write
// param doc_ids: list<string>|null -- the documents to derive (legal/list_derive_scope); null: the whole graph
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
  OPTIONAL MATCH (t)<-[r:REPEALS]-()
  RETURN min(r.effective_date) AS repealed
}
CALL (t) {
  OPTIONAL MATCH (d:LegalNode {id: t.doc_id})<-[r:REPLACES|REPEALS]-() WHERE d:Document
  RETURN min(r.effective_date) AS doc_ended
}
WITH t, first, first.d AS first_version, versions, repealed, doc_ended,
  reduce(m = null, x IN [first.d, repealed, doc_ended] |
    CASE WHEN x IS NULL THEN m WHEN m IS NULL OR x < m THEN x ELSE m END) AS ended
SET t.valid_to = ended,
    t.valid_to_unknown = first_version IS NOT NULL AND first_version = ended AND first.unknown,
    t.status = CASE
      WHEN repealed IS NOT NULL THEN 'repealed'
      WHEN doc_ended IS NOT NULL THEN 'replaced'
      WHEN versions > 0 THEN 'amended'
      WHEN t.supplemented_by IS NOT NULL THEN 'supplemented'
      ELSE 'in_force' END
RETURN count(t) AS count
