// purpose: Create units that an amending document inserts into another document (Điều 12a, khoản 1a); never overwrites a unit its own document wrote. A unit made only from a later document's new wording (derive_version_only_units: no text of its own) takes the inserting document's wording when that document is loaded later, so the load order does not change the graph. When the amended document's own text already has the unit (a portal copy updated after the insertion), the inserted wording becomes a version of that unit (id <unit>@<amending document>, inserted = true) from the insertion's date.
// mode: write
// param rows: list<map> -- one map per new unit {id, level, supplemented_by: amending document id, props: {doc_id, level, number, path, label, text, text_segmented, valid_from, citation, supplemented_by, inserted_after, ...}}
// returns: count
UNWIND $rows AS row
MERGE (u:LegalNode {id: row.id})
WITH u, row
CALL (u, row) {
  WITH u, row
  WHERE u:LegalUnit AND NOT u:Placeholder AND NOT u:UnitVersion AND u.supplemented_by IS NULL
    AND u.amended_by IS NULL AND u.text IS NOT NULL AND u.doc_id = row.props.doc_id
  MERGE (v:LegalNode {id: u.id + '@' + row.supplemented_by})
  SET v += row.props, v:LegalUnit:UnitVersion, v.id = u.id + '@' + row.supplemented_by,
    v.amended_by = row.supplemented_by, v.supplemented_by = null, v.inserted = true
  MERGE (v)-[:VERSION_OF]->(u)
  RETURN count(v) AS versioned
}
WITH u, row
WHERE u:Placeholder OR NOT u:LegalUnit OR u.supplemented_by = row.supplemented_by
   OR (u.text IS NULL AND u.supplemented_by IS NOT NULL AND NOT u:UnitVersion)
SET u += row.props, u:$(['LegalUnit'] + CASE
  WHEN row.level IN ['Article', 'Clause', 'Point', 'Annex', 'Chapter', 'Section'] THEN [row.level]
  ELSE [] END)
REMOVE u:Placeholder, u.kind
RETURN count(u) AS count
