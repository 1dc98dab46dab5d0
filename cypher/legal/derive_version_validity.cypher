// purpose: Derive valid_to, valid_to_unknown and status of every UnitVersion, and parts_changed_from of every wording that holds parts (below): it ends when the next version of the same target starts, or when the target (or a unit containing it) is repealed or its document replaced. A version whose start is unknown (valid_from_unknown) counts from not_before (its amending document's issue date): the version it follows then ends at that date at the latest, with valid_to_unknown = true (possibly superseded from then on); an unknown start with no not_before ends nothing.
// mode: write
// param doc_ids: list<string>|null -- the documents to derive (legal/list_derive_scope); null: the whole graph
// returns: count
MATCH (v:UnitVersion)-[:VERSION_OF]->(t)
WHERE $doc_ids IS NULL OR v.doc_id IN $doc_ids
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
  // a repeal of the target or of a unit containing it (an article repealed ends its clauses'
  // wordings too)
  OPTIONAL MATCH (t)<-[:CONTAINS*0..6]-(:LegalUnit)<-[r:REPEALS]-()
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
WITH count(v) AS count
// A wording of a unit with parts (an article, a clause, a chapter: the unit or one of its
// versions) holds its parts' text as it was when the wording was written. From the day a part
// gets a wording, an insertion or a repeal that the wording does not hold, the wording is stale
// inside: parts_changed_from is that day (null: never while the wording is in force). Written
// when: a full version, its own start; a phrase version, the start of the wording its edits were
// applied to (base_from; the unit's own start when that was the unit's own text), while its
// parts' phrase versions count from its own start (the same edit changes both alike); a new
// wording the text already holds word for word (a portal copy updated after the change) does
// not count; a part the text holds as a copy of a later insertion makes the text that holds it
// stale from its own start. Retrieval never presents such a wording as applicable after that day unless it
// can consolidate it from its parts.
CALL () {
  MATCH (w:LegalUnit) WHERE w.parts_changed_from IS NOT NULL
    AND ($doc_ids IS NULL OR w.doc_id IN $doc_ids)
  REMOVE w.parts_changed_from
}
CALL () {
  CALL () {
    MATCH (c:UnitVersion)-[:VERSION_OF]->(x:LegalUnit)
    RETURN x, c.text AS text, coalesce(c.derived, '') = 'phrase' AS phrase, false AS gone,
      false AS copy, CASE WHEN coalesce(c.valid_from_unknown, false) AND c.valid_from IS NULL
        THEN c.not_before ELSE c.valid_from END AS start
    UNION ALL
    MATCH (x:LegalUnit)<-[r:REPEALS]-(s)
    OPTIONAL MATCH (sd:LegalNode {id: coalesce(s.doc_id, s.id)}) WHERE sd:Document
    RETURN x, x.text AS text, false AS phrase, true AS gone, false AS copy,
      coalesce(r.effective_date, sd.effective_date, sd.issue_date) AS start
    UNION ALL
    MATCH (x:LegalUnit) WHERE x.supplemented_by IS NOT NULL AND NOT x:UnitVersion
    RETURN x, x.text AS text, false AS phrase, false AS gone, false AS copy,
      CASE WHEN coalesce(x.valid_from_unknown, false) AND x.valid_from IS NULL
        THEN x.not_before ELSE x.valid_from END AS start
    UNION ALL
    // a part the amended text holds as a copy of a later insertion (it has an inserted
    // version): the wording that holds its text is not the one in force from its own start
    MATCH (x:LegalUnit)<-[:VERSION_OF]-(iv:UnitVersion) WHERE coalesce(iv.inserted, false)
      AND NOT x:UnitVersion
    RETURN DISTINCT x, x.text AS text, false AS phrase, false AS gone, true AS copy,
      x.valid_from AS start
  }
  WITH x, text, phrase, gone, copy, start WHERE start IS NOT NULL AND text IS NOT NULL
    // a part in another document: legal/list_derive_scope part (7)
    AND ($doc_ids IS NULL OR x.doc_id IN $doc_ids)
  MATCH (a:LegalUnit)-[:CONTAINS*1..6]->(x) WHERE NOT a:UnitVersion
    AND ($doc_ids IS NULL OR a.doc_id IN $doc_ids)
  WITH a, text, phrase, gone, copy, start,
    CASE WHEN coalesce(a.valid_from_unknown, false) AND a.valid_from IS NULL
      THEN a.not_before ELSE a.valid_from END AS a_start
  CALL (a) {
    RETURN a AS w
    UNION
    MATCH (w:UnitVersion)-[:VERSION_OF]->(a)
    RETURN w
  }
  WITH w, a_start, text, phrase, gone, copy, start,
    CASE WHEN NOT w:UnitVersion THEN a_start
      WHEN coalesce(w.valid_from_unknown, false) AND w.valid_from IS NULL THEN w.not_before
      ELSE w.valid_from END AS w_start
  WITH w, text, gone, copy, start,
    CASE WHEN coalesce(w.derived, '') = 'phrase' AND NOT phrase THEN coalesce(w.base_from, a_start)
      ELSE w_start END AS since
  WHERE (copy AND NOT w:UnitVersion AND coalesce(w.text, '') CONTAINS trim(text))
    OR (NOT copy AND (since IS NULL OR start > since) AND (w.valid_to IS NULL OR start < w.valid_to)
      AND (gone OR NOT coalesce(w.text, '') CONTAINS trim(text)))
  WITH w, min(start) AS changed
  SET w.parts_changed_from = changed
}
RETURN count
