// purpose: One unit with its version timeline, for the unit view of the web app and the legal_unit tool: the unit's original wording and dates, every later wording (UnitVersion) with its start, end and the document that made it, the change edges into the unit (amend, supplement, repeal, replace) with the instruction's citation, method and date, and the unit's document.
// mode: read
// param unit_id: string -- the unit's id (`<doc-id>:<path>`, e.g. 12/2016/NĐ-MAU:D3.K2)
// returns: unit, doc, versions, changes
// rows: plain
MATCH (u:LegalUnit {id: $unit_id}) WHERE NOT u:UnitVersion
OPTIONAL MATCH (d:LegalNode {id: u.doc_id}) WHERE d:Document
CALL (u) {
  OPTIONAL MATCH (v:UnitVersion)-[:VERSION_OF]->(u)
  WITH v WHERE v IS NOT NULL
  WITH v, coalesce(v.valid_from_unknown, false) AND v.valid_from IS NULL AS unknown
  ORDER BY coalesce(v.valid_from, v.not_before), v.id
  RETURN collect({id: v.id, text: v.text, valid_from: v.valid_from, valid_to: v.valid_to,
    date_unknown: unknown, not_before: v.not_before, amended_by: v.amended_by,
    valid_to_unknown: coalesce(v.valid_to_unknown, false)}) AS versions
}
CALL (u) {
  OPTIONAL MATCH (u)<-[r:AMENDS|SUPPLEMENTS|REPEALS|REPLACES]-(src)
  OPTIONAL MATCH (sd:LegalNode {id: src.doc_id}) WHERE sd:Document
  WITH r, src, sd WHERE r IS NOT NULL
  WITH r, src, sd, coalesce(r.effective_date, sd.effective_date) AS eff
  ORDER BY coalesce(eff, sd.issue_date), src.id
  RETURN collect({kind: type(r), source_id: src.id, source_doc: coalesce(src.doc_id, src.id),
    source_citation: coalesce(src.citation, src.number, src.id), method: r.method,
    evidence: r.evidence, effective_date: eff, date_unknown: eff IS NULL,
    not_before: sd.issue_date}) AS changes
}
RETURN {id: u.id, doc_id: u.doc_id, level: u.level, label: u.label, heading: u.heading,
  citation: u.citation, text: u.text, valid_from: u.valid_from, valid_to: u.valid_to,
  valid_to_unknown: coalesce(u.valid_to_unknown, false), status: u.status,
  supplemented_by: u.supplemented_by, not_before: u.not_before,
  date_unknown: coalesce(u.valid_from_unknown, false) AND u.valid_from IS NULL} AS unit,
  CASE WHEN d IS NULL THEN null ELSE {id: d.id, number: d.number, doc_type: d.doc_type,
    title: d.title, issue_date: d.issue_date, effective_date: d.effective_date} END AS doc,
  versions, changes
