// purpose: The consolidated wording of one document at a date (văn bản hợp nhất): every unit of the document (inserted units included, versions excluded) with its original wording, the version in force at the date (latest start first; a start that is unknown counts from not_before, the amending document's issue date, and is flagged; a version with neither date is never chosen), whether it is repealed at the date, and the change edges that explain it; the document's own dates and any replacement in force, and the amending documents a loaded text names that the graph has not loaded.
// mode: read
// param doc_id: string -- the document's id (its normalised number or slug)
// param as_of: date -- the date the wording is judged at
// returns: doc, units
// rows: plain
OPTIONAL MATCH (d:LegalNode {id: $doc_id}) WHERE d:Document
CALL (d) {
  OPTIONAL MATCH (nd:Document)-[r:REPLACES|REPEALS]->(d)
  WITH nd, r WHERE nd IS NOT NULL
  RETURN collect({doc_id: nd.id, number: nd.number, kind: type(r),
    effective_date: coalesce(r.effective_date, nd.effective_date),
    not_before: nd.issue_date}) AS replaced_by
}
// documents a loaded text says amended this one, which the graph has not loaded
CALL (d) {
  OPTIONAL MATCH (p:LegalNode)-[:AMENDS]->(d) WHERE p:Placeholder
  RETURN collect(DISTINCT p.id) AS not_loaded
}
CALL (d) {
  OPTIONAL MATCH (u:LegalUnit {doc_id: d.id}) WHERE NOT u:UnitVersion
  WITH u WHERE u IS NOT NULL
  OPTIONAL MATCH (parent:LegalUnit)-[:CONTAINS]->(u) WHERE NOT parent:UnitVersion
  // Every version of the unit; the one in force at the date is picked below.
  CALL (u) {
    OPTIONAL MATCH (v:UnitVersion)-[:VERSION_OF]->(u)
    WITH v, coalesce(v.valid_from_unknown, false) AND v.valid_from IS NULL AS unknown
    WITH v, unknown, CASE WHEN unknown THEN v.not_before ELSE v.valid_from END AS start
    ORDER BY start DESC, unknown, v.id DESC
    WITH collect(CASE WHEN v IS NOT NULL THEN {id: v.id, text: v.text, valid_from: v.valid_from,
      valid_to: v.valid_to, date_unknown: unknown, not_before: v.not_before, start: start,
      amended_by: v.amended_by, scope: v.scope} END) AS versions
    RETURN versions,
      [x IN versions WHERE x.start IS NOT NULL AND x.start <= $as_of
        AND (x.valid_to IS NULL OR x.valid_to > $as_of)][0] AS chosen,
      [x IN versions WHERE x.start IS NULL | x.id] AS undated_versions
  }
  // The change edges into the unit, with the amending document's dates.
  CALL (u) {
    OPTIONAL MATCH (u)<-[r:AMENDS|SUPPLEMENTS|REPEALS|REPLACES]-(src)
    OPTIONAL MATCH (sd:LegalNode {id: src.doc_id}) WHERE sd:Document
    WITH r, src, sd WHERE r IS NOT NULL
    WITH r, src, sd, coalesce(r.effective_date, sd.effective_date) AS eff
    ORDER BY coalesce(eff, sd.issue_date), src.id
    // an annex replaced by the amending document's own annex of the same number: its wording
    OPTIONAL MATCH (na:LegalUnit {id: coalesce(src.doc_id, src.id) + ':' + u.path})
    WHERE type(r) = 'REPLACES' AND u.path STARTS WITH 'PL'
    RETURN collect({kind: type(r), source_id: src.id, source_doc: coalesce(src.doc_id, src.id),
      new_text: na.text,
      source_citation: coalesce(src.citation, src.number, src.id), method: r.method,
      evidence: r.evidence, effective_date: eff, date_unknown: eff IS NULL,
      not_before: sd.issue_date, edits: r.edits, applied: r.applied}) AS changes
  }
  WITH u, parent, versions, chosen, undated_versions, changes,
    coalesce(u.valid_from_unknown, false) AND u.valid_from IS NULL AS u_unknown,
    [c IN changes WHERE c.kind = 'REPEALS'
      AND coalesce(c.effective_date, c.not_before) <= $as_of][0] AS repeal
  ORDER BY u.ordinal, u.id
  RETURN collect({
    id: u.id, parent_id: parent.id, level: u.level, number: u.number, path: u.path,
    label: u.label, heading: u.heading, text: u.text, ordinal: u.ordinal,
    inserted_after: u.inserted_after, supplemented_by: u.supplemented_by,
    valid_from: u.valid_from, valid_to: u.valid_to, date_unknown: u_unknown,
    not_before: u.not_before,
    started: CASE WHEN u_unknown THEN u.not_before IS NOT NULL AND u.not_before <= $as_of
      ELSE u.valid_from IS NULL OR u.valid_from <= $as_of END,
    chosen: chosen, versions: size(versions), undated_versions: undated_versions,
    whole: [x IN versions WHERE x.scope IS NULL AND x.start IS NOT NULL AND x.start <= $as_of][0],
    version_docs: [x IN versions | x.amended_by],
    written_docs: [x IN versions WHERE x.scope IS NULL | x.amended_by],
    later_versions: [x IN versions WHERE x.start > $as_of | {id: x.id, start: x.start,
      date_unknown: x.date_unknown}],
    repeal: repeal, changes: changes
  }) AS units
}
RETURN CASE WHEN d IS NULL THEN null ELSE {id: d.id, number: d.number, doc_type: d.doc_type,
  title: d.title, issuer: d.issuer, issue_date: d.issue_date, effective_date: d.effective_date,
  expiry_date: d.expiry_date, status: d.status, replaced_by: replaced_by,
  not_loaded: not_loaded, start_moved_by: d.start_moved_by,
  effective_date_stated: d.effective_date_stated} END AS doc, units
