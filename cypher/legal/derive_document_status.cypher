// purpose: Derive expiry_date and status of every Document from replacement and repeal events and from amendments of its units; flag disagreement with an external status string.
// mode: write
// param doc_ids: list<string>|null -- the documents to derive (legal/list_derive_scope); null: the whole graph
// returns: count
MATCH (d:Document) WHERE $doc_ids IS NULL OR d.id IN $doc_ids
CALL (d) {
  OPTIONAL MATCH (d)<-[r:REPLACES|REPEALS]-()
  RETURN min(r.effective_date) AS ended
}
CALL (d) {
  OPTIONAL MATCH (u:LegalUnit {doc_id: d.id})<-[:AMENDS|SUPPLEMENTS|REPEALS]-()
  RETURN count(u) AS changed
}
WITH d, ended, changed
SET d.expiry_date = coalesce(ended, d.expiry_stated),
    d.status = CASE
      WHEN ended IS NOT NULL THEN 'replaced'
      WHEN d.expiry_stated IS NOT NULL THEN 'expiring'
      WHEN changed > 0 THEN 'amended'
      ELSE 'in_force' END,
    d.status_disagrees = CASE
      WHEN d.status_external IS NULL THEN null
      WHEN toLower(d.status_external) CONTAINS 'hết hiệu lực toàn bộ' THEN ended IS NULL AND d.expiry_stated IS NULL
      WHEN toLower(d.status_external) CONTAINS 'còn hiệu lực' THEN ended IS NOT NULL
      ELSE null END
RETURN count(d) AS count
