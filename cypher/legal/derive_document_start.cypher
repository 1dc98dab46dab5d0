// purpose: Follow a change of a document's start date: when another document gives a provision of it new wording that states "<Luật|Nghị định …> này có hiệu lực … từ ngày D" (UnitVersion.doc_start), the document starts on D (the latest-issued such change wins; without one, the date it states, effective_date_stated), and so do everything whose date is that document's own start (date_from_doc): its units, the versions and inserted units it writes into other documents, and its change edges. Only documents with such a change, or moved by an earlier derive, are touched.
// mode: write
// param doc_ids: list<string>|null -- the documents to derive (legal/list_derive_scope); null: the whole graph
// returns: count
CALL () {
  MATCH (v:UnitVersion) WHERE v.doc_start IS NOT NULL
    AND ($doc_ids IS NULL OR v.doc_id IN $doc_ids)
  MATCH (d:LegalNode {id: v.doc_id}) WHERE d:Document
  RETURN DISTINCT d
  UNION
  MATCH (d:Document) WHERE d.effective_date_stated IS NOT NULL
    AND d.effective_date <> d.effective_date_stated
    AND ($doc_ids IS NULL OR d.id IN $doc_ids)
  RETURN d
}
CALL (d) {
  OPTIONAL MATCH (v:UnitVersion {doc_id: d.id}) WHERE v.doc_start IS NOT NULL
  OPTIONAL MATCH (by:LegalNode {id: v.amended_by}) WHERE by:Document
  WITH v, by ORDER BY by.issue_date DESC, v.id DESC
  RETURN head(collect(v.doc_start)) AS moved, head(collect(v.amended_by)) AS moved_by
}
WITH d, moved, moved_by, coalesce(moved, d.effective_date_stated, d.effective_date) AS start
SET d.effective_date = start, d.start_moved_by = CASE WHEN moved IS NULL THEN null ELSE moved_by END
WITH d, start
CALL (d, start) {
  MATCH (u:LegalUnit) WHERE u.date_from_doc = d.id
  SET u.valid_from = start
  RETURN count(u) AS units
}
CALL (d, start) {
  MATCH (s:LegalUnit {doc_id: d.id})-[r:AMENDS|SUPPLEMENTS|REPEALS|REPLACES]->()
  WHERE r.date_from_doc = d.id
  SET r.effective_date = start
  RETURN count(r) AS edges
}
CALL (d, start) {
  MATCH (d)-[r:REPLACES|REPEALS]->()
  WHERE r.date_from_doc = d.id
  SET r.effective_date = start
  RETURN count(r) AS doc_edges
}
RETURN count(d) AS count
