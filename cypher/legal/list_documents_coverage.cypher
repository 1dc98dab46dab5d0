// purpose: What the regulations graph covers, document by document: number, type, title, issuer, dates and status, how many units it holds and the dates at which a wording of one of its units starts (the dates worth asking about), for the coverage tool, the HTTP status and the web app's document list.
// mode: read
// returns: id, number, doc_type, title, issuer, issue_date, effective_date, expiry_date, status, units, change_dates
MATCH (d:Document)
WHERE NOT d.id STARTS WITH 'PD-'
CALL (d) {
  OPTIONAL MATCH (v:UnitVersion)-[:VERSION_OF]->(:LegalUnit {doc_id: d.id})
  WITH DISTINCT coalesce(v.valid_from, v.not_before) AS day
  WHERE day IS NOT NULL
  WITH day ORDER BY day
  RETURN collect(day) AS change_dates
}
RETURN d.id AS id, d.number AS number, d.doc_type AS doc_type, d.title AS title,
  d.issuer AS issuer, d.issue_date AS issue_date, d.effective_date AS effective_date,
  d.expiry_date AS expiry_date, d.status AS status,
  COUNT { MATCH (u:LegalUnit {doc_id: d.id}) WHERE NOT u:UnitVersion } AS units,
  change_dates
ORDER BY id
